"""A pytest plugin for bench/suite_cpu.py: each test's CPU, written as one JSON line per test.

A test's CPU is that of the worker's whole process tree (/proc), read before and after it: the
test's own code, the live server's threads, and the browser and app servers it drives. Chromium's
renderers are forked by its zygote and may leave the tree; the machine's busy time (what
bench/suite_cpu.py prints beside the sum) holds them. Reading /proc twice a test costs a few
milliseconds of its own: figures for comparing tests, not a timing of the suite."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Generator
from typing import Any

import pytest

TICKS = os.sysconf("SC_CLK_TCK")


def tree_cpu(root: int) -> float:
    """CPU seconds of `root` and every process below it (their reaped children's included)."""
    parents: dict[int, int] = {}
    ticks: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                text = stat.read()
        except OSError:
            continue  # gone meanwhile
        fields = text[text.rindex(")") + 2 :].split()
        parents[int(entry)] = int(fields[1])
        ticks[int(entry)] = sum(int(value) for value in fields[11:15])
    children: dict[int, list[int]] = {}
    for pid, parent in parents.items():
        children.setdefault(parent, []).append(pid)
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        total += ticks.get(pid, 0)
        stack.extend(children.get(pid, []))
    return total / TICKS


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: Any) -> Generator[None]:
    before, started, clock = tree_cpu(os.getpid()), time.monotonic(), time.time()
    yield
    cpu, wall = tree_cpu(os.getpid()) - before, time.monotonic() - started
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    with open(os.environ["SUITE_CPU_FILE"], "a") as out:
        line = [item.nodeid, round(cpu, 3), round(wall, 3), round(clock, 3), worker]
        out.write(json.dumps(line) + "\n")
