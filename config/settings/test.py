"""The test suite: fast hashing, whitenoise reading files straight from the source folders."""

from .base import *  # noqa: F401,F403

DEBUG = False
SECRET_KEY = "test-only-key"  # noqa: S105
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Live-server browser tests serve static files without a collectstatic step.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    "dbbackup": BACKUP_STORAGE,  # noqa: F405
}

# The suite posts far more than a person would; the throttle's own test lowers the rate.
REST_FRAMEWORK = {
    **REST_FRAMEWORK,  # noqa: F405
    "DEFAULT_THROTTLE_RATES": {"evaluations": "100000/minute", "table_reads": "100000/minute"},
}

# Pruning runs when a test asks for it, never by chance in the middle of another test.
RESULTS_PRUNE_CHANCE = 0.0

# The suite starts far more tables from one address (127.0.0.1) than a person would in a day: the
# bound's own tests lower it (tests/test_tables_bounds.py).
TABLES_PER_ADDRESS_PER_DAY = 1_000_000

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A file, not Django's in-memory test database. The browser tests' live server answers every
    # phone of a table at once, each request in a thread of its own, and an in-memory database
    # gives all those threads one shared connection: one request's statements ran inside
    # another's transaction, and an entry the phone saw accepted could vanish with the other's
    # rollback (a game night test failed so in CI). With a file each thread has its own
    # connection and SQLite's locking orders them, as it does for `make run`. One file per
    # process (pytest-xdist workers each append their own suffix), so two suites never share one.
    import os as _os
    import tempfile as _tempfile

    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": _os.path.join(_tempfile.gettempdir(), f"tableside-test-{_os.getpid()}.sqlite3")
    }
