"""What the browser tests' basic steps cost the machine: a page load, a new browser context (as
each browser test opens), and an axe-core check with every rule and with the rules the suite runs
(tests/browser/accessibility.py leaves out those that can report only minor or moderate findings).

Run with `make bench` (or `.venv/bin/python bench/browser_cost.py`). It starts the app as
bench/pages.py does (gunicorn, one worker, a SQLite file of its own with the shipped catalog),
drives Debian's headless Chromium as a phone, and reads the machine's busy CPU-seconds
(/proc/stat: the browser's processes, the app server and this script together) around each step,
repeated, so a figure is a mean over the repetitions, and splits it by process (/proc/<pid>/stat):
Chromium's renderers, its browser, GPU and network processes, Playwright's driver, the app server
(gunicorn), and what no process still running at the step's end accounts for (a renderer that
exited with its context, the kernel). For choosing what to make cheaper in the suite
(docs/MEASUREMENTS.md): the suite's own figures come from `make test` and bench/suite_cpu.py.

BENCH_BROWSER_REPEAT sets the repetitions (default 20); BENCH_BROWSER_ARGS adds Chromium flags
(split as a shell would), to price a flag against the suite's: the machine's speed moves from one
run to the next, so compare runs made one after the other, more than once.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as `python bench/browser_cost.py`, this folder is first on sys.path, where bench/http.py
# would hide the standard library's http package; the project's root goes there instead.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

import importlib  # noqa: E402
import os  # noqa: E402
import shlex  # noqa: E402
from collections.abc import Callable  # noqa: E402
from typing import Any  # noqa: E402

from axe_playwright_python.sync_playwright import Axe  # noqa: E402
from playwright.sync_api import Page, sync_playwright  # noqa: E402

from bench.pages import CHROMIUM, CHROMIUM_ARGS, PHONE, serve  # noqa: E402
from bench.suite_cpu import busy_seconds  # noqa: E402

REPEAT = int(os.environ.get("BENCH_BROWSER_REPEAT", "20"))
EXTRA_ARGS = shlex.split(os.environ.get("BENCH_BROWSER_ARGS", ""))
SCORE_PAGE = "/games/star-trek-missions/score/"
# The site's largest form: a Factions position, a card list for each of 52 places (63 lists,
# 1,526 options).
MOVE_FORM = "/games/factions/check-move/"
AXE_PAGES = ["/", SCORE_PAGE, MOVE_FORM]
# Which process a command line is, by Chromium's --type= switch and the programs' names.
KINDS = [
    ("--type=renderer", "renderers"),
    ("--type=gpu-process", "GPU process"),
    ("--type=utility", "network and other utility processes"),
    ("--type=zygote", "zygote"),
    ("chromium", "browser process"),
    ("node", "Playwright's driver"),
    ("gunicorn", "app server"),
    ("browser_cost", "this script"),
]
TICK = os.sysconf("SC_CLK_TCK")
# The suite's options for axe-core (read at run time: tests/ is outside mypy's strict check).
SUITE_AXE_OPTIONS: dict[str, Any] = importlib.import_module("tests.browser.accessibility").OPTIONS
EVERY_RULE: dict[str, Any] = {"resultTypes": ["violations"]}


Split = dict[str, float]


def process_seconds() -> dict[int, tuple[str, float]]:
    """Each running process' kind (KINDS, or "other") and its CPU-seconds so far."""
    found = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry.name}/cmdline", "rb") as cmdline:
                command = cmdline.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:  # it ended while being read
            continue
        kind = next((name for key, name in KINDS if key in command), "other")
        found[int(entry.name)] = (kind, (int(fields[11]) + int(fields[12])) / TICK)
    return found


def cost(step: Callable[[], object], times: int) -> tuple[float, Split]:
    """The machine's busy CPU-seconds per run of `step`, over `times` runs after one unmeasured,
    and their split by process."""
    step()
    processes = process_seconds()
    before = busy_seconds()
    for _ in range(times):
        step()
    total = busy_seconds() - before
    split: dict[str, float] = {}
    for pid, (kind, seconds) in process_seconds().items():
        split[kind] = split.get(kind, 0.0) + seconds - processes.get(pid, (kind, 0.0))[1]
    split["unaccounted (exited processes, the kernel)"] = total - sum(split.values())
    ordered = sorted(split.items(), key=lambda item: -item[1])
    return total / times, {kind: seconds / times for kind, seconds in ordered}


def axe_run(page: Page, options: dict[str, Any]) -> None:
    page.evaluate("(options) => axe.run(document, options)", options)


def main() -> None:
    process, site = serve()
    rows: list[tuple[str, tuple[float, Split]]] = []
    axe_script = Axe().axe_script
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, *EXTRA_ARGS]
            )
            phone = browser.new_context(**PHONE)
            page = phone.new_page()

            def loader(path: str) -> Callable[[], object]:
                return lambda: page.goto(site + path)

            def context_and_load(path: str) -> Callable[[], object]:
                def step() -> None:
                    context = browser.new_context(**PHONE)
                    context.new_page().goto(site + path)
                    context.close()

                return step

            def load_and_inject() -> None:
                page.goto(site + "/")
                page.evaluate(axe_script)

            for path in ["/", SCORE_PAGE, MOVE_FORM]:
                rows.append((f"{path} loaded again in one context", cost(loader(path), REPEAT)))
            rows.append(("a new context, its page, / loaded", cost(context_and_load("/"), REPEAT)))
            rows.append(
                (
                    f"a new context, its page, {SCORE_PAGE} loaded",
                    cost(context_and_load(SCORE_PAGE), REPEAT),
                )
            )
            rows.append(("/ loaded again and axe-core injected", cost(load_and_inject, REPEAT)))
            for path in AXE_PAGES:
                page.goto(site + path)
                page.evaluate(axe_script)
                times = max(1, REPEAT // 4)
                rows.append(
                    (f"axe, every rule, on {path}", cost(lambda: axe_run(page, EVERY_RULE), times))
                )
                rows.append(
                    (
                        f"axe, the suite's rules, on {path}",
                        cost(lambda: axe_run(page, SUITE_AXE_OPTIONS), times),
                    )
                )
            browser.close()
    finally:
        process.terminate()
        process.wait(timeout=20)
    flags = f" with {' '.join(EXTRA_ARGS)}" if EXTRA_ARGS else ""
    print(
        f"The machine's busy CPU-seconds per step (a phone, {CHROMIUM}{flags}; means over "
        "repetitions), then its split by process"
    )
    for label, (seconds, split) in rows:
        print(f"{seconds:8.3f}  {label}")
        parts = [f"{kind} {share:.3f}" for kind, share in split.items() if abs(share) >= 0.0005]
        print(f"          {'; '.join(parts)}")


if __name__ == "__main__":
    main()
