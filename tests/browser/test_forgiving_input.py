"""Forgiving input in a real browser, on a phone (issue 15): a typo in the catalog
search offers the card meant, and check-a-turn reads a name as the score page does."""

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

TURN = "/games/star-trek-missions/check-move/"
HAND = [
    "Captain Jean-Luc Picard",
    "Commander William Riker",
    "worf",
    "Photon Torpedoes",
    "Bridge",
    "Away Team",
    "Borg Cube",
]


def test_a_typo_search_finds_jett_reno(page, site, assert_fits):
    page.goto(site + "/games/academy-credits/cards/")
    page.get_by_role("searchbox").fill("jet renno")
    page.get_by_role("searchbox").press("Enter")
    expect(page.get_by_text("No card matches")).to_be_visible()
    suggestion = page.get_by_role("link", name="Jett Reno", exact=True)
    expect(suggestion).to_be_visible()
    assert_fits(page)
    suggestion.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Jett Reno")


def fill_position(page, hand):
    """The check-a-turn form's hand, a Tricorder in the discard area and the decks' sizes."""
    for index, name in enumerate(hand, start=1):
        page.get_by_label(f"Card {index}", exact=True).fill(name)
    page.get_by_label("Discard area card 1", exact=True).fill("Tricorder")
    page.get_by_label("Galaxy deck").fill("30")
    page.get_by_label("Mission deck").fill("14")


def test_check_turn_accepts_worf(page, site, assert_fits):
    page.goto(site + TURN)
    fill_position(page, HAND)
    page.get_by_label("What the player did").select_option("take_discard")
    page.get_by_label("Card taken from the discard area").fill("tricorder")
    page.get_by_label("Card discarded", exact=True).fill("worf")
    page.get_by_role("button", name="Check the turn").click()
    result = page.locator("#turn-result")
    expect(result.locator("h2").first).to_have_text("Ruling: Legal")
    expect(result.get_by_text("Lieutenant Worf").first).to_be_visible()
    assert_fits(page)


def test_a_suggestion_link_fills_the_field_in(page, site):
    page.goto(site + TURN)
    fill_position(page, [*HAND[:2], "Wrof", *HAND[3:]])
    page.get_by_label("Card taken from the discard area").fill("Tricorder")
    page.get_by_label("Card discarded", exact=True).fill("Bridge")
    page.get_by_role("button", name="Check the turn").click()
    error = page.locator("#hand-3-error")
    expect(error).to_contain_text("Did you mean")
    error.get_by_role("link", name="Lieutenant Worf").click()
    expect(page.get_by_label("Card 3", exact=True)).to_have_value("Lieutenant Worf")
    expect(page.locator("#turn-result h2").first).to_have_text("Ruling: Legal")
