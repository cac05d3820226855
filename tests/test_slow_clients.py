"""The production server (config/gunicorn.py, as `make serve` runs it) keeps answering while slow
clients dribble their requests in: each costs a connection, never a worker.

Under gunicorn's sync workers, five sockets sending a header line every 2 s held all five workers
until the 30 s timeout, and the site answered nobody. Here the server runs with two workers and
ten slow clients (five sending headers, five a body, a few bytes at a time) stay connected while
an ordinary GET /api/games/ is asked for: it must be answered (within a generous 10 s; under the
sync workers it waited for the slow clients' timeout). Then each slow client's connection is
closed once its request has been incomplete for REQUEST_READ_TIMEOUT seconds.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def production_server(tmp_path):
    """gunicorn -c config/gunicorn.py with the production settings on a fresh SQLite database
    (migrated, no catalog: GET /api/games/ answers an empty list), on a loopback port."""
    port = free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "LOCAL_HTTP": "1",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "PORT": str(port),
        "WEB_CONCURRENCY": "2",
        "GUNICORN_ACCESS_LOG": "/dev/null",
        "REQUEST_READ_TIMEOUT": "4",
    }
    subprocess.run(
        [BIN / "python", "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
    )
    log = open(tmp_path / "serve.log", "w+")  # noqa: SIM115 - closed below
    server = subprocess.Popen(
        [BIN / "gunicorn", "-c", "config/gunicorn.py"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(base + "/api/games/", timeout=2) as response:
                    assert response.status == 200
                    break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    pytest.fail("the production server did not start:\n" + log.read()[-3000:])
                time.sleep(0.2)
        yield base, port
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
        log.close()


def dribble(port: int, head: bytes, drip: bytes, stop: threading.Event) -> None:
    """Send `head`, then `drip` every 0.3 s until `stop` or until the server closes the
    connection: a request that never completes."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(head)
        while not stop.wait(0.3):
            try:
                sock.sendall(drip)
            except OSError:
                return


def test_ten_slow_clients_leave_the_site_answering(production_server):
    base, port = production_server
    stop = threading.Event()
    slow_headers = (b"GET /api/games/ HTTP/1.1\r\nHost: 127.0.0.1\r\n", b"X-Slow: 1\r\n")
    slow_body = (
        b"POST /api/games/academy-credits/rulings/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/json\r\nContent-Length: 60000\r\n\r\n{",
        b" ",
    )
    clients = [
        threading.Thread(target=dribble, args=(port, *kind, stop), daemon=True)
        for kind in [slow_headers] * 5 + [slow_body] * 5
    ]
    for client in clients:
        client.start()
    try:
        time.sleep(1.5)  # every slow client connected and several drips in
        assert all(client.is_alive() for client in clients)
        with urllib.request.urlopen(base + "/api/games/", timeout=10) as response:
            assert response.status == 200
            assert response.read() == b"[]"
        # And none is kept for ever: the server closes a request not whole after
        # REQUEST_READ_TIMEOUT (4 s here), so each slow client finds its connection closed.
        for client in clients:
            client.join(timeout=20)
        assert not any(client.is_alive() for client in clients)
    finally:
        stop.set()
        for client in clients:
            client.join(timeout=5)
