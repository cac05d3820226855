"""Running a test's coroutine to its end from any test process.

`asyncio.run` refuses to start where the thread already runs an event loop, and a pytest-xdist
worker that has run a browser test does: Playwright's sync API keeps its loop running in the main
thread for the session's browser. A worker stealing a plain asyncio test after its browser tests
failed it so ("asyncio.run() cannot be called from a running event loop"). A thread of its own
has no loop."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """asyncio.run(coroutine) in a thread of its own; its exceptions are raised here."""
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, coroutine).result()
