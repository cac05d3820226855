"""Settings shared by every environment; the environment modules override what differs."""

import os
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent.parent

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "simple_history",
    "common",
    "cards",
    "scoring",
    "adjudicator",
    "results",
    "tables",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "common.middleware.ContentSecurityPolicyMiddleware",
    "common.middleware.RequestSizeLimitMiddleware",
    "common.middleware.FormTextMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    # ETags for every GET: catalog responses are cacheable and a client revalidates cheaply.
    "django.middleware.http.ConditionalGetMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Failed admin logins are limited per account and address (common.login_throttle).
    "common.login_throttle.LoginThrottleMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # A page submission past the client's limit (common.page_throttle) gets a friendly 429.
    "common.page_throttle.PageThrottleMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Records which admin made each change in the card history.
    "simple_history.middleware.HistoryRequestMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            # Django's own two loaders, then each game package's templates/ (GAMES), cached as
            # Django caches its default loaders.
            "loaders": [
                ("django.template.loaders.cached.Loader", [
                    "django.template.loaders.filesystem.Loader",
                    "django.template.loaders.app_directories.Loader",
                    "games.template_loader.Loader",
                ]),
            ],
        },
    },
]

# SQLite is the embedded default; DATABASE_URL selects PostgreSQL (or anything dj-database-url reads).
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=60,
    )
}

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Every score and ruling is saved: write-ahead logging keeps those commits cheap, and
    # IMMEDIATE transactions make concurrent writers wait instead of failing with "locked".
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
        }
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"

# The largest API request body accepted (a 413 above it): a position or a hand is a few kB.
API_MAX_BODY_BYTES = 64 * 1024

REST_FRAMEWORK = {
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # JSON that is not text (a lone UTF-16 surrogate) is a 400 invalid_text at parse time.
    "DEFAULT_PARSER_CLASSES": ["common.parsers.TextJSONParser"],
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "UNAUTHENTICATED_USER": None,
    "EXCEPTION_HANDLER": "common.api_errors.api_exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # Only the POST endpoints are throttled (common.throttling: counters in the database, shared by
    # every app server); a 429 carries Retry-After.
    "DEFAULT_THROTTLE_RATES": {"evaluations": os.environ.get("API_POST_RATE", "120/minute")},
    # The client is the socket's address; with TRUSTED_PROXY_COUNT=n proxies in front, the n-th
    # entry from the right of X-Forwarded-For (the address the first proxy saw, as it appended
    # it). Whatever a client writes in the header itself never changes who it is counted as.
    "NUM_PROXIES": int(os.environ.get("TRUSTED_PROXY_COUNT", "0")),
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Tableside API",
    "DESCRIPTION": (
        "A referee for tabletop card games: the card catalog of each game, step-by-step score "
        "breakdowns and rulings on disputed moves. Every 4xx carries the error body "
        "{status, code, detail, errors}."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The interactive docs are served from our own static files: nothing loads from the internet.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "common.schema.document_common_errors",
    ],
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}

# Tables (tables/): a table idle for longer than this many days is removed by
# `manage.py remove_idle_tables` (its saved results stay).
TABLE_IDLE_DAYS = int(os.environ.get("TABLE_IDLE_DAYS", "30"))
