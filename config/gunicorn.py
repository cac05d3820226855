"""gunicorn settings for `make serve` and production: workers from the CPU count."""

import multiprocessing
import os

bind = os.environ.get("BIND", f"127.0.0.1:{os.environ.get('PORT', '8000')}")
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1))
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
timeout = 30
graceful_timeout = 20
# Import the app once, in the master: a worker then starts by forking, in milliseconds. Without it
# each worker imported Django and the app itself, about a second of CPU, and evenly loaded workers
# reach max_requests together: under load all of them rebooted at once (p99 over a second).
# Nothing opens a database connection at import, so no connection is shared across the fork.
preload_app = True
# Recycle workers now and then so a slow leak can never grow without bound.
max_requests = 5000
max_requests_jitter = 1000
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-")
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")


def when_ready(server):
    """In the master, once the app is preloaded: import the URLconf (every view behind it) and fill
    the resolver's reverse table, so each forked worker answers its first request warm."""
    from django.urls import get_resolver, reverse

    get_resolver().url_patterns  # noqa: B018 - the import is the point
    reverse("api-games")
