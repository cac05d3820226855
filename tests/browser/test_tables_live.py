"""The polled part of /t/<code> is redrawn only when the table changes (issue 25). Left to the
browser's cache, an unchanged poll's 304 reached htmx as a 200 with the cached copy, and the part
was redrawn every 2 seconds: a player tabbing through the players, the history or the host's
controls lost the focus mid-way. The page now sends its version as If-None-Match itself, sees the
304 and leaves the part as it is; a change (another phone claims a seat) still arrives."""

import pytest
from playwright.sync_api import expect

from tests.browser.phone import PHONE, POLLED
from tests.browser.watched import watched_page

pytestmark = [pytest.mark.browser, pytest.mark.table]


def is_poll(response) -> bool:
    return response.url.endswith("/live") and response.request.method == "GET"


def test_an_unchanged_poll_keeps_the_focus_and_a_change_still_arrives(browser, site):
    with (
        watched_page(browser, site, timeout=15_000, locale="en-GB") as host,
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as ben,
    ):
        host.goto(site + "/t/?game=academy-credits")
        host.get_by_label("Players, one name a line, in seat order").fill("Ana\nBen")
        host.get_by_role("button", name="Start the table").click()
        expect(host.get_by_role("heading", level=1)).to_have_text("Academy Credits table")
        reload = host.locator("#table-live").get_by_role("link", name="reload the page")
        reload.focus()
        live = host.locator("#table-live")
        live.evaluate("part => { part.dataset.drawn = 'first'; }")
        version = live.get_attribute("data-etag")
        with host.expect_response(is_poll) as answer:  # a poll answered while nothing changed
            pass
        assert answer.value.status == 304
        expect(reload).to_be_focused()  # the part was not redrawn under the keyboard
        assert live.evaluate("part => part.dataset.drawn") == "first"

        ben.goto(host.url)  # the table's own address (on loopback the page shows no link)
        ben.get_by_role("button", name="I am Ben (seat 2)").click()
        expect(ben.locator(".lede")).to_have_text("You are Ben (seat 2).")
        # The claim is a new version of the table: the host's page hears of it by its next poll,
        # without reloading.
        expect(live).not_to_have_attribute("data-etag", version, timeout=POLLED)
        expect(live).not_to_have_attribute("data-drawn", "first")
