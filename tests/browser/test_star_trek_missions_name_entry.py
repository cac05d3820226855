"""A typo never spoils the next entry (issue 23), on a 390×844 touch phone. Before, on the table
page, typing `ryker` Enter then `deanna` Enter asked about `rykerdeanna`, and tapping a "Did you
mean" button left the focus nowhere, so the next name typed went nowhere. Now, after a name that
matched nothing its text is selected (typing replaces it), and after a suggestion the focus is back
in the field, on every page that takes names. Suggestions never offer a card another player at the
table already holds."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.phone import PHONE  # the 390×844 touch phone of issue 23

pytestmark = pytest.mark.browser

SCORE = "/games/star-trek-missions/score/"
TABLE = "/games/star-trek-missions/table/"
TURN = "/games/star-trek-missions/check-move/"


@pytest.fixture
def phone(browser, site):
    contexts = []

    def open_page(path, *, javascript=True):
        context = browser.new_context(**PHONE, locale="en-GB", java_script_enabled=javascript)
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        page.goto(site + path)
        return page

    yield open_page
    for context in contexts:
        context.close()


def expect_selected(page, text: str) -> None:
    """Wait until the focused field's selected text is `text`. The page selects it when htmx
    settles the answer, 20 ms after the error is swapped in: a test that reads the selection the
    moment the error shows can run ahead of that (a player cannot type that fast)."""
    page.wait_for_function(
        """(text) => { const field = document.activeElement;
            return field !== null && field.value !== undefined &&
                field.value.slice(field.selectionStart, field.selectionEnd) === text; }""",
        arg=text,
    )


def seat(page, name):
    field = page.locator("#new-player")
    field.fill(name)
    field.press("Enter")
    expect(page.locator("#table-current h3")).to_have_text(f"{name}'s hand")
    expect(page.locator("#add-card")).to_be_focused()


def hand_names(page):
    return page.locator("#table-current .hand-card__name, #hand .hand-card__name")


@pytest.mark.parametrize("path", [TABLE, SCORE])
def test_ryker_then_deanna_asks_about_deanna(phone, path):
    page = phone(path)
    if path == TABLE:
        seat(page, "Ana")
    else:
        page.locator("#add-card").focus()
    page.keyboard.type("ryker")
    page.keyboard.press("Enter")
    error = page.locator("#add-card-error")
    expect(error).to_contain_text("No card named 'ryker'")
    expect(error).to_contain_text("Did you mean")
    field = page.locator("#add-card")
    expect(field).to_be_focused()
    expect(field).to_have_value("ryker")
    expect_selected(page, "ryker")  # the next name replaces it
    page.keyboard.type("deanna")
    page.keyboard.press("Enter")
    expect(hand_names(page)).to_have_text(["Counselor Deanna Troi"])
    expect(page.locator("#add-card-error")).to_have_count(0)
    assert "rykerdeanna" not in page.content()
    assert not page.errors


@pytest.mark.parametrize("path", [TABLE, SCORE])
def test_a_did_you_mean_button_gives_the_focus_back_to_the_field(phone, path):
    page = phone(path)
    if path == TABLE:
        seat(page, "Ana")
    field = page.locator("#add-card")
    field.fill("ryker")
    field.press("Enter")
    page.locator("#add-card-error").get_by_role("button", name="Commander William Riker").tap()
    expect(hand_names(page)).to_have_text(["Commander William Riker"])
    expect(field).to_be_focused()
    expect(field).to_have_value("")
    # The next name typed goes into the field.
    page.keyboard.type("worf")
    page.keyboard.press("Enter")
    expect(hand_names(page)).to_have_text(["Commander William Riker", "Lieutenant Worf"])
    assert not page.errors


def test_without_javascript_the_field_keeps_the_focus(phone):
    page = phone(TABLE, javascript=False)
    page.locator("#new-player").fill("Ana")
    page.get_by_role("button", name="Add player").click()
    field = page.locator("#add-card")
    field.fill("ryker")
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.locator("#add-card-error")).to_contain_text("Did you mean")
    expect(field).to_be_focused()
    page.locator("#add-card-error").get_by_role("button", name="Commander William Riker").click()
    expect(hand_names(page)).to_have_text(["Commander William Riker"])
    expect(field).to_be_focused()


def test_suggestions_never_offer_a_card_another_player_holds(phone):
    page = phone(TABLE)
    seat(page, "Ana")
    field = page.locator("#add-card")
    field.fill("Commander William Riker")
    field.press("Enter")
    expect(hand_names(page)).to_have_text(["Commander William Riker"])
    seat(page, "Ben")
    field.fill("ryke")
    field.press("Enter")
    error = page.locator("#add-card-error")
    expect(error).to_contain_text("No card named 'ryke'")
    # Riker is in Ana's hand: the buttons offer the others only.
    expect(error.get_by_role("button")).to_have_text(["Lore", "The Lure of Profit"])
    assert "Riker" not in error.inner_text()
    # Ana is still offered him when her hand is open again (he is hers).
    page.get_by_role("button", name="Edit Ana's hand").click()
    expect(page.locator("#table-current h3")).to_have_text("Ana's hand")
    field.fill("ryke")
    field.press("Enter")
    expect(page.locator("#add-card-error").get_by_role("button").first).to_have_text(
        "Commander William Riker"
    )
    assert not page.errors


def test_a_suggestion_link_leads_to_its_field(phone):
    """Pages whose "Did you mean" is a link that fills the field in (check a turn, and the other
    games' pages): the page opens with the focus in the field filled in."""
    page = phone(TURN)
    hand = [
        "Captain Jean-Luc Picard",
        "Commander William Riker",
        "Wrof",
        "Photon Torpedoes",
        "Bridge",
        "Away Team",
        "Borg Cube",
    ]
    for index, name in enumerate(hand, start=1):
        page.get_by_label(f"Card {index}", exact=True).fill(name)
    page.get_by_label("Discard area card 1", exact=True).fill("Tricorder")
    page.get_by_label("Card taken from the discard area").fill("Tricorder")
    page.get_by_label("Card discarded", exact=True).fill("Bridge")
    page.get_by_role("button", name="Check the turn").click()
    page.locator("#hand-3-error").get_by_role("link", name="Lieutenant Worf").tap()
    field = page.get_by_label("Card 3", exact=True)
    expect(field).to_have_value("Lieutenant Worf")
    expect(field).to_be_focused()
    assert not page.errors


def test_the_catalog_search_reads_names_as_the_score_pages_do(phone):
    """`kehleyr` is Ambassador K'Ehleyr on the score pages; the catalog's live search finds him
    too (before, it found nothing)."""
    page = phone("/games/star-trek-missions/cards/")
    page.get_by_label("Search names and card text").fill("kehleyr")
    page.wait_for_url("**q=kehleyr**")
    expect(page.locator(".tile__name")).to_have_text(["Ambassador K'Ehleyr"])
    assert not page.errors
