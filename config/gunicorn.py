"""gunicorn settings for `make serve` and production: workers from the CPU count."""

import ipaddress
import multiprocessing
import os
import shutil
import tempfile
from collections.abc import Mapping
from typing import Any


def _loopback(address: str) -> bool:
    """Whether one gunicorn bind address (host:port, [v6]:port or unix:path) is reachable only
    from this machine."""
    if address.startswith("unix:"):
        return True
    host = address.rsplit(":", 1)[0] if ":" in address else address
    host = host.strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def bind_addresses(environ: Mapping[str, str]) -> list[str]:
    """Where gunicorn listens: BIND (comma-separated), or loopback on PORT.

    With TRUSTED_PROXY_COUNT set the app believes X-Forwarded-For (who the client is, for every
    limit and the admin lockout) and X-Forwarded-Proto: a client that reaches it without passing
    the proxy writes both itself. So it then listens on loopback only, and a BIND anyone else can
    reach is refused, unless PROXY_ONLY_NETWORK=1 says the operator has made that address
    reachable from the proxy alone (a private network, a firewall)."""
    default = f"127.0.0.1:{environ.get('PORT', '8000')}"
    binds = [part.strip() for part in environ.get("BIND", default).split(",") if part.strip()]
    proxies = int(environ.get("TRUSTED_PROXY_COUNT", "0") or "0")
    exposed = [address for address in binds if not _loopback(address)]
    if proxies and exposed and environ.get("PROXY_ONLY_NETWORK") != "1":
        raise SystemExit(
            f"TRUSTED_PROXY_COUNT={proxies} trusts X-Forwarded-For and X-Forwarded-Proto, but "
            f"BIND={','.join(exposed)} lets clients reach the app without the proxy and write "
            f"those headers themselves. Bind to loopback (the default) with the proxy on this "
            f"machine, or set PROXY_ONLY_NETWORK=1 once only the proxy can reach that address."
        )
    return binds


bind = bind_addresses(os.environ)
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1))
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
timeout = 30
graceful_timeout = 20
# Import the app once, in the master: a worker then starts by forking, in milliseconds. Without it
# each worker imported Django and the app itself, about a second of CPU, and evenly loaded workers
# reach max_requests together: under load all of them rebooted at once (p99 over a second).
# Nothing opens a database connection at import, so no connection is shared across the fork.
preload_app = True
# The app and its workers: gunicorn's processes, each running uvicorn's event loop
# (config/uvicorn_worker.py) around config.asgi. The loop reads each request, however slowly it
# comes, and hands Django only whole ones: a slow client costs a connection, never a worker (five
# clients sending a header line every 2 s held all five sync workers). `gunicorn -c
# config/gunicorn.py` is the whole command. GUNICORN_THREADS above is not used by this worker.
wsgi_app = "config.asgi:application"
worker_class = "config.uvicorn_worker.Worker"
# Recycle workers now and then so a slow leak can never grow without bound.
max_requests = 5000
max_requests_jitter = 1000
# gunicorn 27's control socket is one path per user (~/.gunicorn/gunicorn.ctl): a second server on
# the machine (a test's, another app's) would take it over. Nothing here uses it.
control_socket_disable = True
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-")
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")


def when_ready(server: Any) -> None:  # gunicorn's Arbiter (gunicorn ships no types)
    """In the master, once the app is preloaded: import the URLconf (every view behind it) and fill
    the resolver's reverse table, so each forked worker answers its first request warm."""
    from django.urls import get_resolver, reverse

    get_resolver().url_patterns  # noqa: B018 - the import is the point
    reverse("api-games")
    # `make game-night` (config/game_night.py): the address phones open, once it listens.
    if os.environ.get("GAME_NIGHT_URL"):
        from config.game_night import announcement

        print(announcement(os.environ["GAME_NIGHT_URL"]), flush=True)


def on_starting(server: Any) -> None:
    """The folder of the server's table-read slots (config/read_slots.py), made in the master
    before the workers fork, so that every worker finds the same lock files. A fresh folder for
    each server: two servers on one machine never share their slots. Their number is checked
    here, so that a TABLE_READS_AT_ONCE that is no count stops the server at once."""
    from config.read_slots import configured_count

    try:
        configured_count()
    except ValueError as error:
        raise SystemExit(str(error)) from None
    os.environ["TABLE_READ_SLOTS_DIR"] = tempfile.mkdtemp(prefix="tableside-read-slots-")


def on_exit(server: Any) -> None:
    """The slots' folder goes with the server."""
    directory = os.environ.get("TABLE_READ_SLOTS_DIR")
    if directory:
        shutil.rmtree(directory, ignore_errors=True)
