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


@contextmanager
def phone_page(browser, site, **options):
    """A watched page (stays on the live server, no JavaScript error) on the phone."""
    with watched_page(browser, site, timeout=20_000, **PHONE, locale="en-GB", **options) as page:
        yield page
