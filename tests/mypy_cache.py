"""mypy's cache of the project, for the tests that run mypy over the project's modules.

`make test` runs the project's typecheck beside the suite, under a lock on `.venv/.typecheck.lock`
(the Makefile's test target) held while mypy writes `.mypy_cache`. A test that copies that cache
waits for the lock first: with the finished cache mypy reads again only what the test changed
(about 2 CPU-s for the fifth game's copy), where with the cache half-written, or none, it reads
the whole project and django-stubs from nothing (16 CPU-s on a fast machine, for each such test).
Run on its own, with no typecheck under way, a test waits for nothing."""

from __future__ import annotations

import fcntl
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCK = Path(sys.executable).parent.parent / ".typecheck.lock"
# A typecheck takes under a minute of one core; far longer means it is stuck, and the test goes on
# without the cache rather than waiting for it (mypy is as right from nothing, only slower).
WAIT = 300


def wait_for_the_projects_typecheck() -> None:
    """Return once no `make test` typecheck is writing the project's mypy cache."""
    if not LOCK.exists():
        return
    deadline = time.monotonic() + WAIT
    with open(LOCK) as lock:
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_SH | fcntl.LOCK_NB)
                return  # released when the file closes
            except BlockingIOError:
                if time.monotonic() > deadline:
                    return
                time.sleep(0.2)


def copy_the_projects_cache(target: Path) -> None:
    """The project's finished mypy cache, copied to `target` (nothing where it has none)."""
    wait_for_the_projects_typecheck()
    if (ROOT / ".mypy_cache").is_dir():
        shutil.copytree(ROOT / ".mypy_cache", target)
