"""What the browser tests' basic steps cost the machine: a page load, a new browser context (as
each browser test opens), and an axe-core check with every rule and with the rules the suite runs
(tests/browser/accessibility.py leaves out those that can report only minor or moderate findings).

Run with `make bench` (or `.venv/bin/python bench/browser_cost.py`). It starts the app as
bench/pages.py does (gunicorn, one worker, a SQLite file of its own with the shipped catalog),
drives Debian's headless Chromium as a phone, and reads the machine's busy CPU-seconds
(/proc/stat: the browser's processes, the app server and this script together) around each step,
repeated, so a figure is a mean over the repetitions. For choosing what to make cheaper in the
suite (docs/MEASUREMENTS.md): the suite's own figures come from `make test` and
bench/suite_cpu.py.
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
from collections.abc import Callable  # noqa: E402
from typing import Any  # noqa: E402

from axe_playwright_python.sync_playwright import Axe  # noqa: E402
from playwright.sync_api import Page, sync_playwright  # noqa: E402

from bench.pages import CHROMIUM, CHROMIUM_ARGS, PHONE, serve  # noqa: E402
from bench.suite_cpu import busy_seconds  # noqa: E402

REPEAT = int(os.environ.get("BENCH_BROWSER_REPEAT", "20"))
SCORE_PAGE = "/games/star-trek-missions/score/"
AXE_PAGES = ["/", SCORE_PAGE, "/games/factions/check-move/"]
# The suite's options for axe-core (read at run time: tests/ is outside mypy's strict check).
SUITE_AXE_OPTIONS: dict[str, Any] = importlib.import_module("tests.browser.accessibility").OPTIONS
EVERY_RULE: dict[str, Any] = {"resultTypes": ["violations"]}


def cost(step: Callable[[], object], times: int) -> float:
    """The machine's busy CPU-seconds per run of `step`, over `times` runs after one unmeasured."""
    step()
    before = busy_seconds()
    for _ in range(times):
        step()
    return (busy_seconds() - before) / times


def axe_run(page: Page, options: dict[str, Any]) -> None:
    page.evaluate("(options) => axe.run(document, options)", options)


def main() -> None:
    process, site = serve()
    rows: list[tuple[str, float]] = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            phone = browser.new_context(**PHONE)
            page = phone.new_page()

            def load() -> None:
                page.goto(site + SCORE_PAGE)

            def context_and_load() -> None:
                context = browser.new_context(**PHONE)
                context.new_page().goto(site + SCORE_PAGE)
                context.close()

            rows.append(("the score page loaded again in one context", cost(load, REPEAT)))
            rows.append(
                ("a new context, its page, the score page loaded", cost(context_and_load, REPEAT))
            )
            for path in AXE_PAGES:
                page.goto(site + path)
                page.evaluate(Axe().axe_script)
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
    print(f"The machine's busy CPU-seconds per step (a phone, {CHROMIUM}; means over repetitions)")
    for label, seconds in rows:
        print(f"{seconds:8.2f}  {label}")


if __name__ == "__main__":
    main()
