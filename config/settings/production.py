"""Production: gunicorn behind a TLS-terminating reverse proxy.

Reads SECRET_KEY, ALLOWED_HOSTS (comma-separated) and DATABASE_URL (PostgreSQL; SQLite when
unset, for `make serve` on one machine) from the environment. The app keeps no state outside the
database, so any number of app servers can share one PostgreSQL behind the proxy.
"""

import os

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F401,F403


def _required(name: str) -> str:
    value = os.environ.get(name, "").strip()
    if not value:
        raise ImproperlyConfigured(f"Set the {name} environment variable for production.")
    return value


DEBUG = False
SECRET_KEY = _required("SECRET_KEY")
ALLOWED_HOSTS = [host.strip() for host in _required("ALLOWED_HOSTS").split(",") if host.strip()]
CSRF_TRUSTED_ORIGINS = [
    origin.strip()
    for origin in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",")
    if origin.strip()
]

# The proxy terminates TLS and says so in X-Forwarded-Proto.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# LOCAL_HTTP=1 (set by `make serve` only) serves plain HTTP on loopback, where no proxy adds TLS.
_LOCAL_HTTP = os.environ.get("LOCAL_HTTP") == "1"
SECURE_SSL_REDIRECT = not _LOCAL_HTTP
SESSION_COOKIE_SECURE = not _LOCAL_HTTP
CSRF_COOKIE_SECURE = not _LOCAL_HTTP
SECURE_HSTS_SECONDS = 0 if _LOCAL_HTTP else 60 * 60 * 24 * 365
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Compressed files with content hashes in their names, cached for a year by clients.
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    "dbbackup": BACKUP_STORAGE,  # noqa: F405
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "INFO"},
    "loggers": {
        "django.request": {"handlers": ["console"], "level": "WARNING", "propagate": False}
    },
}
