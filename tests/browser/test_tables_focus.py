"""The focus stays where it was when another phone's change redraws the table's page (issue 29).
A keyboard user on the host's phone rests on a control of the polled part (a button without an
id, a field, the top's button): another phone claims a seat, or enters its round, the part is
redrawn at its next poll, and the focus is on the same control, not fallen to the page's body (and
a choice made in a field, not yet sent, is still made)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.phone import PHONE, POLLED
from tests.browser.watched import watched_page

pytestmark = [pytest.mark.browser, pytest.mark.table]


def redrawn_after(page, change) -> None:
    """Run `change` (another phone's), then wait until the polled part shows it."""
    live = page.locator("#table-live")
    version = live.get_attribute("data-etag")
    change()
    expect(page.locator("#table-live")).not_to_have_attribute("data-etag", version, timeout=POLLED)


def focused_words(page) -> str:
    return page.evaluate("() => (document.activeElement.textContent || '').trim()")


def claims(page, link, name, seat):
    def claim():
        page.goto(link)
        page.get_by_role("button", name=f"I am {name} (seat {seat})").click()
        expect(page.locator(".lede")).to_have_text(f"You are {name} (seat {seat}).")

    return claim


def scores_a_round(page):
    """The phone scores the round's end on the table's form: Ana last standing."""

    def score():
        page.reload()
        before = page.locator("#glance-line").inner_text()
        for name, discards in (("Ben", "Lura Thok"), ("Cy", "2")):
            page.locator("fieldset", has_text=name).get_by_label("Still in the round").uncheck()
            page.get_by_label(f"{name}'s discards").fill(discards)
        page.get_by_label("Ana's discards").fill("Charles Vance, 4")
        page.get_by_label("Cards left in the deck").fill("7")
        page.get_by_role("button", name="Score the round").click()
        expect(page.locator("#glance-line")).not_to_have_text(before)

    return score


def test_a_redraw_keeps_the_keyboards_focus_on_the_same_control(browser, site):
    with (
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as host,
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as ana,
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as ben,
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as cy,
    ):
        host.goto(site + "/t/?game=academy-credits")
        host.get_by_label("Players, one name a line, in seat order").fill("Ana\nBen\nCy")
        host.get_by_role("button", name="Start the table").click()
        link = host.url
        claims(ben, link, "Ben", 2)()
        release = host.get_by_role("button", name="Release Ben's seat")
        expect(release).to_be_visible(timeout=10_000)

        # A button of the host's controls, which has no id of its own.
        release.focus()
        redrawn_after(host, claims(cy, link, "Cy", 3))
        expect(host.get_by_role("button", name="Release Cy's seat")).to_be_visible()
        expect(release).to_be_focused()
        assert focused_words(host) == "Release Ben's seat"

        # A field, with a choice made in it: the seat the host role goes to.
        to = host.get_by_label("The seat whose phone becomes the host")
        to.focus()
        to.select_option("3")
        redrawn_after(host, claims(ana, link, "Ana", 1))
        expect(host.get_by_role("button", name="Release Ana's seat")).to_be_visible()
        expect(to).to_be_focused()
        expect(to).to_have_value("3")  # the choice made is kept too

        # The top's one button, redrawn with the table's next round.
        host.locator("#glance-button").focus()
        redrawn_after(host, scores_a_round(ben))
        expect(host.locator("#glance-button")).to_have_text("Score round 2")
        expect(host.locator("#glance-button")).to_be_focused()

        # A link without an id, at the foot of the polled part.
        reload = host.locator("#table-live").get_by_role("link", name="reload the page")
        reload.focus()
        redrawn_after(host, scores_a_round(ben))
        expect(host.locator("#glance-line")).to_contain_text("Round 3")
        expect(reload).to_be_focused()
