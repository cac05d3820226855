"""One migrated test database with the shipped catalog per run of the suite, copied by every
pytest-xdist worker on SQLite.

Each worker has a test database of its own (tests/conftest.py). Migrating one and loading the
catalog into it took about 8 s of CPU, once per worker: on a 2-core machine, three workers spent
a tenth of a minute of `make test` building the same file three times. The first worker that
needs a database builds it as before and leaves a copy in the run's shared folder; each other
worker waits for that copy (a file lock held from before the build until the copy is written),
copies it as its own file and keeps it (pytest-django's keepdb: Django finds its tables there and
migrate has nothing to do). PostgreSQL, and a run in one process, build as before."""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import sqlite3
import time
from pathlib import Path
from typing import IO

from django.db import connection

FILE_SUFFIXES = ("", "-wal", "-shm", "-journal")
# The copies of the catalog's rows kept beside its tables (tests/conftest.py's CatalogSnapshot):
# Django knows no model for them, so a live-server test's flush leaves them alone.
SNAPSHOT_PREFIX = "zz_test_snapshot__"
BUILT = "catalog.sqlite3"
# Building takes seconds (migrate, then the catalog): far longer means the builder failed.
WAIT_FOR_BUILDER = 300


def shares(settings_dict: dict) -> bool:
    """Whether this worker's database is built from a shared copy: SQLite, under pytest-xdist."""
    return bool(os.environ.get("PYTEST_XDIST_WORKER")) and settings_dict["ENGINE"].endswith(
        "sqlite3"
    )


class SharedDatabase:
    """The run's copy of a built test database, and the lock that orders who builds it."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / BUILT
        self._lock: IO[str] | None = open(folder / "catalog.sqlite3.lock", "a")  # noqa: SIM115
        self.copied = False
        # A builder whose database setup failed holds the lock until its process ends: after
        # WAIT_FOR_BUILDER seconds this worker builds its own, and leaves no copy.
        deadline = time.monotonic() + WAIT_FOR_BUILDER
        while True:
            try:
                fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() > deadline:
                    self._lock.close()
                    self._lock = None  # gave up: copies nothing, keeps nothing
                    return
                time.sleep(0.2)

    def copy_to(self, name: str) -> bool:
        """Copy the built database to `name`, if a worker has built it; else this worker builds
        it, and keeps the lock until `keep` (or `release`)."""
        if self._lock is not None and self.path.exists():
            remove(name)
            shutil.copyfile(self.path, name)
            self.copied = True
            self.release()
        return self.copied

    def keep(self) -> None:
        """Write this worker's built database (migrated, catalog loaded) as the run's copy."""
        if self._lock is None:
            return  # it gave up waiting for the builder
        partial = self.path.with_suffix(".partial")
        with contextlib.closing(sqlite3.connect(partial)) as target:
            connection.ensure_connection()
            connection.connection.backup(target)  # consistent, whatever the write-ahead log holds
        os.replace(partial, self.path)
        self.release()

    def release(self) -> None:
        if self._lock is not None:
            fcntl.flock(self._lock, fcntl.LOCK_UN)
            self._lock.close()
            self._lock = None


def remove(name: str) -> None:
    """A SQLite database file and the files SQLite keeps beside it."""
    for suffix in FILE_SUFFIXES:
        Path(name + suffix).unlink(missing_ok=True)


def copy_built(folder: Path, target: Path) -> bool:
    """Copy the run's built database, if a worker has built it, to `target` without the
    snapshot tables: the database of the tables' own server (tests/tables_server.py), which then
    needs no migrate and no catalog load."""
    built = folder / BUILT
    if not built.exists():
        return False
    remove(str(target))
    shutil.copyfile(built, target)
    with contextlib.closing(sqlite3.connect(target)) as copy:
        names = [
            row[0]
            for row in copy.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            if row[0].startswith(SNAPSHOT_PREFIX)
        ]
        for name in names:
            copy.execute(f'DROP TABLE "{name}"')
        copy.commit()
    return True
