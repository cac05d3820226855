"""The app as deployed for the tables' tests: gunicorn with three worker processes on a database
of its own (a fresh SQLite file, or the PostgreSQL of DATABASE_URL under scripts/with-postgres),
migrated and with the shipped catalog, so requests really run at once in several processes.

One server per test process (session scope), shared by the modules that use it: each test starts a
table of its own, and starting the server (migrate, load the catalog, boot three workers) costs
seconds of a 2-core machine's five-minute suite."""

import fcntl
import hashlib
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WORKERS = 3


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session", name="tables_site")
def tables_site_fixture(tmp_path_factory):
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        url = f"sqlite:///{tmp_path_factory.mktemp('tables') / 'tables.sqlite3'}"
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "WEB_CONCURRENCY": str(WORKERS),
        "GUNICORN_ACCESS_LOG": "/dev/null",
    }
    python = sys.executable
    # On PostgreSQL every test process's server uses DATABASE_URL's one database: two processes
    # migrating it at once failed (a table created twice). One at a time; the second finds
    # nothing left to do.
    lock = Path(tempfile.gettempdir()) / (
        "tableside-tables-site-" + hashlib.sha256(url.encode()).hexdigest()[:16] + ".lock"
    )
    with open(lock, "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        for command in (["migrate", "--noinput", "-v0"], ["load_catalog", "-v0"]):
            subprocess.run([python, "manage.py", *command], cwd=ROOT, env=env, check=True)
    port = free_port()
    env["PORT"] = str(port)
    process = subprocess.Popen(
        [str(Path(python).parent / "gunicorn"), "-c", "config/gunicorn.py"],  # its app: config.asgi
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(base + "/api/games/", timeout=2):
                break
        except OSError:
            time.sleep(0.3)
    else:
        process.terminate()
        pytest.fail("the app server did not start")
    yield base
    process.terminate()
    process.wait(timeout=20)
