"""The app as deployed for the tables' tests: gunicorn with three worker processes on a database
of its own (a fresh SQLite file, or the PostgreSQL of DATABASE_URL under scripts/with-postgres),
migrated and with the shipped catalog, so requests really run at once in several processes.

One server per run of the suite, shared by every pytest-xdist worker whose tests use it: each test
starts a table of its own, and starting a server (migrate, load the catalog, boot three workers:
about 17 s of CPU) once per worker cost a 2-core machine a tenth of a minute of its five. The
first worker that needs it starts it; the last one done with it stops it (a count in the run's
shared folder, changed under a file lock). A worker that needs it again after that starts
another. On SQLite its database is a copy of the run's built test database when a worker has
built one (tests/shared_database.py), which spares the migrate and the catalog load; the game
night's test runs those commands as `make game-night` does."""

import contextlib
import fcntl
import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.shared_database import copy_built

ROOT = Path(__file__).resolve().parent.parent
WORKERS = 3


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def run_folder(tmp_path_factory) -> Path:
    """A folder of this run of the suite, the same for all its pytest-xdist workers: each
    worker's temporary folder is a `popen-gw<N>` inside the run's."""
    folder = tmp_path_factory.getbasetemp()
    return folder.parent if os.environ.get("PYTEST_XDIST_WORKER") else folder


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    with open(path, "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        yield


def answers(base: str) -> bool:
    try:
        with urllib.request.urlopen(base + "/api/games/", timeout=2):
            return True
    except OSError:
        return False


def start_server(folder: Path) -> tuple[subprocess.Popen, str]:
    url = os.environ.get("DATABASE_URL", "")
    built = False
    if not url.startswith("postgres"):
        database = folder / "tables.sqlite3"
        database.unlink(missing_ok=True)
        # A worker's built test database, if there is one yet: migrated, with the catalog.
        built = copy_built(folder, database)
        url = f"sqlite:///{database}"
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "WEB_CONCURRENCY": str(WORKERS),
        "GUNICORN_ACCESS_LOG": "/dev/null",
    }
    python = sys.executable
    # On PostgreSQL every server uses DATABASE_URL's one database, and two runs of the suite
    # (test-postgres beside a developer's) could migrate it at once: a table created twice. One
    # at a time; the second finds nothing left to do.
    lock = Path(tempfile.gettempdir()) / (
        "tableside-tables-site-" + hashlib.sha256(url.encode()).hexdigest()[:16] + ".lock"
    )
    with locked(lock):
        for command in (["migrate", "--noinput", "-v0"], ["load_catalog", "-v0"]):
            if not built:
                subprocess.run([python, "manage.py", *command], cwd=ROOT, env=env, check=True)
    env["PORT"] = str(free_port())
    process = subprocess.Popen(
        [str(Path(python).parent / "gunicorn"), "-c", "config/gunicorn.py"],  # its app: config.asgi
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        # Its own process group: the worker that stops it may not be the one that started it.
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{env['PORT']}"
    deadline = time.monotonic() + 60
    while not answers(base):
        if time.monotonic() > deadline or process.poll() is not None:
            process.terminate()
            pytest.fail("the app server did not start")
        time.sleep(0.3)
    return process, base


def stop_server(pid: int, started: subprocess.Popen | None) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGTERM)  # gunicorn's master stops its workers
    if started is not None:  # this worker's child: reap it
        try:
            started.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(pid, signal.SIGKILL)
            started.wait(timeout=10)


@pytest.fixture(scope="session", name="tables_site")
def tables_site_fixture(tmp_path_factory):
    folder = run_folder(tmp_path_factory)
    state_file = folder / "tables-site.json"
    started = None
    with locked(folder / "tables-site.lock"):
        state = json.loads(state_file.read_text()) if state_file.exists() else None
        if state is None or not answers(state["base"]):
            started, base = start_server(folder)
            state = {"pid": started.pid, "base": base, "users": 0}
        state["users"] += 1
        state_file.write_text(json.dumps(state))
    yield state["base"]
    with locked(folder / "tables-site.lock"):
        state = json.loads(state_file.read_text())
        state["users"] -= 1
        if state["users"] > 0:
            state_file.write_text(json.dumps(state))
            return
        state_file.unlink()
        stop_server(state["pid"], started if started and started.pid == state["pid"] else None)
