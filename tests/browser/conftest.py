"""Playwright (sync API) driving Debian's Chromium against pytest-django's live server.

Playwright never downloads a browser here: it launches Debian's Chromium (`make chromium` installs
it), /usr/bin/chromium unless TABLESIDE_CHROMIUM names another Debian build. `make test` names
/usr/bin/chromium-headless-shell (package chromium-headless-shell: the same engine and version
without the windowed browser around it, less than half the CPU per page, and the build Playwright
itself runs headless tests on); `make test-postgres` drives the full browser, so CI runs both.
Every test runs at a phone size (the tool is used on phones) and the ones whose check is the layout
itself (BOTH_VIEWPORTS: the catalog's tile columns, the score page's tiles) at a desktop size too;
each records every request the page makes, and fails if one leaves the live server.

Under pytest-xdist each worker launches one browser for all its tests (session scope) and opens a
fresh context (cookies, storage, viewport) per test.
"""

import os
import threading
import time
from urllib.parse import urlsplit

import pytest

# Playwright's sync API runs an event loop in this thread; the tests still touch the database
# (fixtures) from it, which Django otherwise refuses.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

from django.core.signals import request_finished, request_started  # noqa: E402
from playwright.sync_api import expect, sync_playwright  # noqa: E402

from tests.browser.watched import watched_page  # noqa: E402

# An expectation waits for its state up to 15 s, as the pages' actions do (their contexts' default
# timeouts are 10 to 20 s), not Playwright's 5 s: on a loaded machine a tile's answer once took
# longer than 5 s to come back (tests/browser/test_tables_entries.py's pick), and the test failed with
# nothing wrong. A state reached sooner ends the wait at once, so a passing test waits no longer.
expect.set_options(timeout=15_000)

CHROMIUM = os.environ.get("TABLESIDE_CHROMIUM", "/usr/bin/chromium")
# The live server under a name that is not loopback (room_site), as a room's phones reach a game
# night: the browser maps it to this machine.
ROOM_NAME = "tableside.test"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    f"--host-resolver-rules=MAP {ROOM_NAME} 127.0.0.1",
]

VIEWPORTS = {
    "phone": {
        "viewport": {"width": 375, "height": 740},
        "is_mobile": True,
        "has_touch": True,
        "device_scale_factor": 2,
    },
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        # `make test` installs it first; a missing browser is a broken setup, not a skip.
        pytest.fail(f"{CHROMIUM} is missing: run `make chromium` (Debian's package).")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def viewport():
    """The phone: what a page is used on. A layout test names both sizes with BOTH_VIEWPORTS
    (the parametrization overrides this fixture). A test at both sizes checks at the desktop
    size only what differs there (assert_fits checks the phone alone), so the other tests run
    once."""
    return "phone"


BOTH_VIEWPORTS = pytest.mark.parametrize("viewport", list(VIEWPORTS))


class InFlight:
    """How many requests the live server is answering now (Django's request signals)."""

    def __init__(self) -> None:
        self.count = 0
        self.lock = threading.Lock()

    def started(self, **kwargs) -> None:
        with self.lock:
            self.count += 1

    def finished(self, **kwargs) -> None:
        with self.lock:
            self.count -= 1


@pytest.fixture
def site(live_server, catalog):
    """The live server's address, with the shipped catalog in its (flushed) database.

    After the test, the requests a page still had on the way (a tap's answer, a card sent when
    the page came back online) are let finish before the database is emptied: a flush beside a
    request in progress would wait on its lock or empty the tables under it. (The SQLite test
    database is a file, config/settings/test.py: each of the live server's threads has its own
    connection, as each phone's request has in `make run`.)"""
    in_flight = InFlight()
    request_started.connect(in_flight.started, weak=False)
    request_finished.connect(in_flight.finished, weak=False)
    try:
        yield live_server.url
        deadline = time.monotonic() + 5
        while in_flight.count > 0 and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        request_started.disconnect(in_flight.started)
        request_finished.disconnect(in_flight.finished)


@pytest.fixture
def room_site(site, settings):
    """The live server's address under ROOM_NAME, a name that is not loopback: a table's page
    opened there shows its link and QR code (on loopback it says how to let the phones in)."""
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, ROOM_NAME]
    return site.replace(urlsplit(site).hostname or "", ROOM_NAME, 1)


@pytest.fixture
def page(browser, site, viewport):
    with watched_page(browser, site, timeout=10_000, **VIEWPORTS[viewport], locale="en-GB") as page:
        yield page


@pytest.fixture
def assert_fits(viewport):
    """On a phone, the page must not scroll sideways."""

    def check(page):
        if viewport != "phone":
            return
        widths = page.evaluate(
            "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
        )
        assert widths[0] <= widths[1], f"horizontal scroll on {page.url}: {widths}"

    return check
