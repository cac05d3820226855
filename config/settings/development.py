"""Local development: `make run`. Debug on, a fixed development key, loopback hosts only."""

from .base import *  # noqa: F401,F403

DEBUG = True
SECRET_KEY = "development-only-key-not-for-production"  # noqa: S105
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]"]
