"""No serious or critical axe-core violation on the pages issue 23 changed, on a 390×844 touch
phone, in the states a player brings them to: the tile picker (a group chosen, tiles pressed,
cards found), an answer, a name that matched nothing, a card held by another player, the catalog
searched, and offline with a hand waiting."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.accessibility import violations
from tests.browser.phone import PHONE  # the 390×844 touch phone of issue 23
from tests.browser.star_trek_missions_tiles import show_tile

pytestmark = pytest.mark.browser


@pytest.fixture
def phone(browser, site):
    context = browser.new_context(**PHONE, locale="en-GB")
    context.set_default_timeout(15_000)
    page = context.new_page()
    yield context, page
    context.close()


def clean(page, state: str) -> None:
    assert violations(page) == [], state


def test_the_score_page(phone, site):
    context, page = phone
    # As it opens: tests/browser/test_accessibility.py's forms test checks it.
    page.goto(site + "/games/star-trek-missions/score/")
    for slug in ("commander-kurn", "lieutenant-worf", "bridge"):
        show_tile(page, slug)
        page.locator(f"#tile-{slug}").tap()
        expect(page.locator(f"#tile-{slug}")).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".score-total__value")).to_be_visible()
    clean(page, "tiles pressed, an answer")
    page.get_by_label("Find a card").fill("command")
    clean(page, "finding")
    page.get_by_label("Find a card").fill("")
    field = page.get_by_label("Add a card by name")
    field.fill("ryker")
    field.press("Enter")
    expect(page.locator("#add-card-error")).to_be_visible()
    clean(page, "a name that matched nothing")
    context.set_offline(True)
    show_tile(page, "photon-torpedoes")
    page.locator("#tile-photon-torpedoes").tap()
    expect(page.locator("#offline-status")).to_be_visible()
    clean(page, "offline, a card waiting")
    context.set_offline(False)


def test_the_table_page(phone, site):
    context, page = phone
    # As it opens: tests/browser/test_accessibility.py's tour checks it.
    page.goto(site + "/games/star-trek-missions/table/")
    for player, card in (("Ana", "Bridge"), ("Ben", "Bridge")):
        page.locator("#new-player").fill(player)
        page.locator("#new-player").press("Enter")
        expect(page.locator("#table-current h3")).to_have_text(f"{player}'s hand")
        page.locator("#add-card").fill(card)
        page.locator("#add-card").press("Enter")
        expect(page.locator("#add-card")).to_have_value("" if player == "Ana" else card)
    expect(page.locator(".table-error")).to_contain_text("Bridge is in Ana's hand")
    show_tile(page, "bridge")
    clean(page, "a card held by another player, a problem shown")


def test_the_catalog_searched(phone, site):
    context, page = phone
    page.goto(site + "/games/star-trek-missions/cards/?q=kehleyr")
    expect(page.locator(".tile__name")).to_have_text(["Ambassador K'Ehleyr"])
    clean(page, "searched")
