"""The phone of issue 23: a 390×844 touch screen (the size the issue's table was tried on),
for the tests of what a player at the table does and reads."""

from __future__ import annotations

from contextlib import contextmanager

from tests.browser.watched import watched_page

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}

# Another phone's change reaches a page at its next poll (every 2 s), but a loaded machine answers
# late: three hands entered at once are three transactions one after the other, each scoring its
# hand, while Chromium's renderers take their share of the cores. A page that has not reloaded is
# waited on for the state itself, with room to spare; how soon it comes is no test's business
# (bench/ measures speed).
POLLED = 30_000


@contextmanager
def phone_page(browser, site, **options):
    """A watched page (stays on the live server, no JavaScript error) on the phone."""
    with watched_page(browser, site, timeout=20_000, **PHONE, locale="en-GB", **options) as page:
        yield page
