"""Where the test suite spends its CPU: `make test`'s pytest run (the same workers and browser)
with each test's CPU recorded (bench/suite_cpu_plugin.py), then the files and tests that cost
most, and the machine's busy time over the run beside the sum of the tests'.

    .venv/bin/python bench/suite_cpu.py [pytest arguments…]

It also prints the machine's idle cores by half-minute, with the tests running at the end of
each (where the suite leaves a core waiting). BENCH_SUITE_TOP (default 25) sets how many files and
tests are printed; BENCH_SUITE_RECORD=<file> keeps each test's figures and start, and the busy
samples, as JSON. The figures are for choosing what to make cheaper; `make test` itself is the
suite's timing (docs/MEASUREMENTS.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TOP = int(os.environ.get("BENCH_SUITE_TOP", "25"))


def busy_seconds() -> float:
    """The machine's CPU seconds spent busy since boot, all cores (/proc/stat)."""
    with open("/proc/stat") as stat:
        fields = [int(value) for value in stat.readline().split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq = fields[:7]
    return (user + nice + system + irq + softirq) / os.sysconf("SC_CLK_TCK")


def print_idle(samples: list[tuple[float, float]], rows: list[list[Any]]) -> None:
    """The machine's idle cores over the run, by half-minute, with the tests running then: where
    the suite leaves a core waiting (its start, a long test's tail)."""
    cores = os.cpu_count() or 1
    if len(samples) < 2:
        return
    first = samples[0][0]
    print("\nIdle cores by half-minute (from the run's start; the tests running at its end)")
    window: list[tuple[float, float]] = []
    for sample in samples:
        window.append(sample)
        if sample[0] - window[0][0] >= 30 or sample is samples[-1]:
            seconds = window[-1][0] - window[0][0]
            if seconds > 0:
                idle = cores - (window[-1][1] - window[0][1]) / seconds
                end = window[-1][0]
                running = [r[0] for r in rows if len(r) > 3 and r[3] <= end <= r[3] + r[2]]
                print(
                    f"{window[0][0] - first:6.0f} s  idle {idle:4.2f}  " + "; ".join(running)[:300]
                )
            window = [sample]


def main() -> None:
    workers = str((os.cpu_count() or 1) + 1)
    arguments = sys.argv[1:] or ["-n", workers, "--dist", "worksteal", "-q"]
    with tempfile.TemporaryDirectory() as folder:
        record = Path(folder) / "tests.jsonl"
        env = {
            **os.environ,
            "SUITE_CPU_FILE": str(record),
            # The project's folder, not bench/ (whose http.py would hide the standard library's).
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
            "TABLESIDE_CHROMIUM": os.environ.get(
                "TABLESIDE_CHROMIUM", "/usr/bin/chromium-headless-shell"
            ),
        }
        busy, started = busy_seconds(), time.monotonic()
        samples: list[tuple[float, float]] = []
        sampling = threading.Event()

        def sample() -> None:
            while not sampling.wait(1.0):
                samples.append((time.time(), busy_seconds()))

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "bench.suite_cpu_plugin", *arguments],
            cwd=ROOT,
            env=env,
            check=False,
        )
        busy, wall = busy_seconds() - busy, time.monotonic() - started
        sampling.set()
        rows = [json.loads(line) for line in record.read_text().splitlines()]
        if os.environ.get("BENCH_SUITE_RECORD"):
            Path(os.environ["BENCH_SUITE_RECORD"]).write_text(
                json.dumps({"tests": rows, "busy": samples})
            )
    files: Counter[str] = Counter()
    counts: Counter[str] = Counter()
    for node, cpu, *_ in rows:
        files[node.split("::")[0]] += cpu
        counts[node.split("::")[0]] += 1
    total = sum(cpu for _, cpu, *_ in rows)
    browser = sum(cpu for node, cpu, *_ in rows if node.startswith("tests/browser/"))
    print(
        f"\n{len(rows)} tests, pytest exit {done.returncode}: {wall:.0f} s wall; the machine busy "
        f"{busy:.0f} CPU-s ({busy / wall:.2f} cores); the tests' process trees {total:.0f} CPU-s, "
        f"the browser tests {browser:.0f} (Chromium's renderers are in the machine's figure)"
    )
    print_idle(samples, rows)
    print(f"\nThe {TOP} costliest files (CPU-s, tests)")
    for name, cpu in files.most_common(TOP):
        print(f"{cpu:8.1f} {counts[name]:5d}  {name}")
    print(f"\nThe {TOP} costliest tests (CPU-s, wall s)")
    for node, cpu, seconds, *_ in sorted(rows, key=lambda row: -row[1])[:TOP]:
        print(f"{cpu:8.1f} {seconds:7.1f}  {node}")
    sys.exit(done.returncode)


if __name__ == "__main__":
    main()
