"""Settings shared by every environment; the environment modules override what differs."""

import os
from datetime import timedelta
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
    # The admin lockout (failed logins per address): django-axes, its own tables.
    "axes",
    "common",
    # The pages' and request bodies' shared layer (forms, typed names, results, the offline app).
    "web",
    "cards",
    "scoring",
    "adjudicator",
    "results",
    # PostgreSQL backups with pg_dump/pg_restore (`manage.py dbbackup` / `dbrestore`, Deploying).
    "dbbackup",
    "tables",
]

# Each game package is a Django app (its apps.py): Django's own loaders find its templates and
# static files. They are found here by that file, so adding a game adds no line here (its one
# line is in games/registry.py); tests/test_game_apps.py holds that they are exactly GAMES'
# packages. GAMES itself cannot be read here: it imports every game's pages and models.
GAME_APPS = sorted(f"games.{apps.parent.name}" for apps in (BASE_DIR / "games").glob("*/apps.py"))
INSTALLED_APPS += GAME_APPS

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # A table's unchanged poll: its 304 from one indexed query, before the rest of the stack.
    "tables.middleware.UnchangedPollMiddleware",
    "common.middleware.ContentSecurityPolicyMiddleware",
    # TRACE, TRACK and CONNECT: a 405 everywhere (common.middleware.MethodMiddleware).
    "common.middleware.MethodMiddleware",
    "common.middleware.RequestSizeLimitMiddleware",
    "common.middleware.FormTextMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    # ETags for every GET: catalog responses are cacheable and a client revalidates cheaply.
    "django.middleware.http.ConditionalGetMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # A page submission past the client's limit (common.page_throttle) gets a friendly 429.
    "common.page_throttle.PageThrottleMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Records which admin made each change in the card history.
    "simple_history.middleware.HistoryRequestMiddleware",
    # Last, as django-axes asks: turns a lockout into its response (AXES_LOCKOUT_CALLABLE).
    "axes.middleware.AxesMiddleware",
]

# django-axes checks an address before any password (its backend first), and records each failure.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "config.urls"

# Every game Tableside referees (games/registry.py). Every app finds it here, through
# common.games, when first asked (as apps find the user model): an import of the registry from
# games/ or below would close an import circle.
GAMES = "games.registry.GAMES"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        # Each app's templates/, a game package's included (each game is an app: GAME_APPS).
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
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

if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Served over ASGI (config/asgi.py), Django runs each request's code in a thread of its own,
    # so a persistent connection (CONN_MAX_AGE) is one per request, never reused, left open: under
    # load PostgreSQL refused new clients within seconds ("too many clients already"). A pool per
    # app process (psycopg_pool, through Django) hands each request a connection and takes it
    # back; Django requires CONN_MAX_AGE = 0 with it.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 0,
        "max_size": int(os.environ.get("DATABASE_POOL_SIZE", "4")),
        "timeout": 10,
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

# "computed": the answers page GETs work out (web.computed), in a table of the database, so
# every app server shares them; the catalog's version stamp is in each key, so an edit is never
# answered from before it. "default" stays Django's per-process memory cache (nothing uses it).
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "computed": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "tableside_computed",
        "TIMEOUT": int(os.environ.get("COMPUTED_CACHE_SECONDS", str(24 * 3600))),
        "OPTIONS": {"MAX_ENTRIES": int(os.environ.get("COMPUTED_CACHE_ENTRIES", "5000"))},
    },
}

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
# Django's two finders: static/ above, and each app's static/ (a game package's included: each
# game is an app, GAME_APPS).
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
]
STATIC_ROOT = BASE_DIR / "staticfiles"

# Saved results (results.services): identical requests share one result, and the store is kept
# within a bound an operator sets. Results nobody opened for RESULTS_MAX_AGE_DAYS are removed.
# STORE_MAX_MB bounds what the store holds in all: the saved results and the tables' histories
# (each event keeps the game's answer and the state before it). Past it the results never opened
# go first (oldest first), then those opened longest ago; a table's event that would take the
# store past it after that is refused (409 store_full), never a history dropped. `manage.py
# prune_results` applies it (from cron, say); a save also does, once in 1/RESULTS_PRUNE_CHANCE
# saves. 0 turns a bound off. (RESULTS_MAX_MB, its former name, is still read.)
RESULTS_MAX_AGE_DAYS = int(os.environ.get("RESULTS_MAX_AGE_DAYS", "365"))
STORE_MAX_MB = float(os.environ.get("STORE_MAX_MB", os.environ.get("RESULTS_MAX_MB", "2000")))
RESULTS_PRUNE_CHANCE = float(os.environ.get("RESULTS_PRUNE_CHANCE", "0.001"))

# Backups. `make backup` (common.backup) serialises the whole database with a manifest: meant for
# SQLite. On PostgreSQL, `manage.py dbbackup` runs pg_dump (custom format: one consistent snapshot,
# streamed to a file, never the database held in memory) and `manage.py dbrestore` runs pg_restore
# in a single transaction (--clean --if-exists), so a damaged or partial archive changes nothing.
BACKUP_DIR = Path(os.environ.get("BACKUP_DIR", BASE_DIR / "backups"))
BACKUP_STORAGE = {
    "BACKEND": "django.core.files.storage.FileSystemStorage",
    "OPTIONS": {
        "location": str(BACKUP_DIR),
        "file_permissions_mode": 0o600,
        "directory_permissions_mode": 0o700,
    },
}
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    "dbbackup": BACKUP_STORAGE,
}
DBBACKUP_CONNECTOR_MAPPING = {
    "django.db.backends.postgresql": "dbbackup.db.postgresql.PgDumpBinaryConnector",
}
# Minutes-long state of the running service, not data to restore (as in common.backup.EXCLUDED).
DBBACKUP_CONNECTORS = {"default": {"EXCLUDE": ["django_session", "common_throttlecounter"]}}
# The dump passes through a temporary file: in memory up to 1 MB, on disk beyond.
DBBACKUP_TMP_FILE_MAX_SIZE = 1024 * 1024
DBBACKUP_SEND_EMAIL = False

# The largest API request body accepted (a 413 above it): a position or a hand is a few kB.
API_MAX_BODY_BYTES = 64 * 1024
# The largest page form (a 413 page above it, before anything reads it): a page builds an API body
# from its fields, so it needs about what the API takes (twice that, for escapes). The admin keeps
# Django's limits (its import confirms a whole catalog file); a form of more fields than
# DATA_UPLOAD_MAX_NUMBER_FIELDS is a 400 page before anything splits it
# (common.middleware.RequestSizeLimitMiddleware).
PAGE_MAX_BODY_BYTES = 128 * 1024
DATA_UPLOAD_MAX_NUMBER_FIELDS = 1000

REST_FRAMEWORK = {
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # JSON that is not text (a lone UTF-16 surrogate) is a 400 invalid_text at parse time.
    "DEFAULT_PARSER_CLASSES": ["common.parsers.TextJSONParser"],
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "UNAUTHENTICATED_USER": None,
    "EXCEPTION_HANDLER": "common.api_errors.api_exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # The POST endpoints are throttled (common.throttling: counters in the database, shared by
    # every app server), and so are a table's reads (API, page, polled part: their own counter,
    # since several phones behind one address poll every 2 s); a 429 carries Retry-After.
    "DEFAULT_THROTTLE_RATES": {
        "evaluations": os.environ.get("API_POST_RATE", "120/minute"),
        "table_reads": os.environ.get("TABLE_READ_RATE", "600/minute"),
    },
    # The client is the socket's address; with TRUSTED_PROXY_COUNT=n proxies in front, the n-th
    # entry from the right of X-Forwarded-For (the address the first proxy saw, as it appended
    # it). Whatever a client writes in the header itself never changes who it is counted as.
    "NUM_PROXIES": int(os.environ.get("TRUSTED_PROXY_COUNT", "0")),
}

# The admin lockout (django-axes): after AXES_FAILURE_LIMIT failed logins from one address, on any
# accounts, that address gets a 429 page for AXES_COOLOFF_TIME after its last failure, whatever
# password it sends. Its counts live in axes' own tables, which nothing but a login (or an admin,
# or `manage.py axes_reset`) changes: the API's throttle counters (common.throttling) are pruned
# by API traffic and never touch them. The address is the one the API's throttle counts
# (common.throttling.client_address, TRUSTED_PROXY_COUNT), not ipware's guess.
AXES_FAILURE_LIMIT = int(os.environ.get("ADMIN_LOGIN_FAILURES", "20"))
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = ["ip_address"]
AXES_CLIENT_IP_CALLABLE = "common.throttling.client_address"
AXES_LOCKOUT_CALLABLE = "common.views.login_locked_out"
# A success does not wipe the address's failures (a guesser holding one account could otherwise
# reset its count), and guesses during a lockout extend it.
AXES_RESET_ON_SUCCESS = False
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = True
# No user agent or form data logged beside each attempt beyond what axes needs.
AXES_SENSITIVE_PARAMETERS = ["password", "csrfmiddlewaretoken"]

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
        # Each game's request bodies, from its pydantic models, and its own score and ruling
        # operations (games/api_schema.py).
        "games.api_schema.publish_game_bodies",
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
# A table's bound (issue 30): at most TABLE_MAX_EVENTS events and TABLE_MAX_MB megabytes of history
# (its events' bodies, answers and the states kept for the undo), and it takes events for
# TABLE_MAX_AGE_DAYS from its start; past any of them an event is a 409 (table_full,
# table_closed) telling the players to start a new table, which can carry the tally over. A
# closed table is still read until it has been idle TABLE_IDLE_DAYS; a table older than
# TABLE_MAX_AGE_DAYS + TABLE_IDLE_DAYS is removed whatever it does. One address starts at most
# TABLES_PER_ADDRESS_PER_DAY tables in 24 hours (429 too_many_tables past it).
TABLE_MAX_EVENTS = int(os.environ.get("TABLE_MAX_EVENTS", "1000"))
TABLE_MAX_MB = float(os.environ.get("TABLE_MAX_MB", "5"))
TABLE_MAX_AGE_DAYS = int(os.environ.get("TABLE_MAX_AGE_DAYS", "30"))
TABLES_PER_ADDRESS_PER_DAY = int(os.environ.get("TABLES_PER_ADDRESS_PER_DAY", "30"))
# A table's read (the API's, the page, its polled part) is built once per version and viewer and
# kept this many seconds in the "default" cache (tables.read_cache; 0: never kept). Every change
# moves the version on, so this bounds only what changes with time alone (a table past its age).
TABLE_READ_CACHE_SECONDS = int(os.environ.get("TABLE_READ_CACHE_SECONDS", "60"))
