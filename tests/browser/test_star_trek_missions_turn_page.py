"""The check-a-turn page of Star Trek: Missions in a real browser, on a phone: fill
in a turn, get the ruling without a reload, follow its share link; and the same without
JavaScript."""

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PAGE = "/games/star-trek-missions/check-move/"
HAND = [
    "Captain Jean-Luc Picard",
    "Commander William Riker",
    "Lieutenant Worf",
    "Photon Torpedoes",
    "Bridge",
    "Away Team",
    "Borg Cube",
]


def fill_position(page):
    for index, name in enumerate(HAND, start=1):
        page.get_by_label(f"Card {index}", exact=True).fill(name)
    page.get_by_label("Discard area card 1", exact=True).fill("Tricorder")
    page.get_by_label("Discard area card 2", exact=True).fill("Time Distortion")
    page.get_by_label("Galaxy deck").fill("30")
    page.get_by_label("Mission deck").fill("14")


def test_check_a_turn_and_follow_the_share_link(page, site, assert_fits):
    page.goto(site + PAGE)
    expect(page.get_by_role("heading", level=1)).to_have_text("Check a move")
    assert_fits(page)
    # Every name field suggests the catalog's cards.
    expect(page.locator("#stm-cards option")).to_have_count(74)
    assert page.get_by_label("Card 1", exact=True).get_attribute("list") == "stm-cards"
    page.evaluate("() => { window.notReloaded = true; }")

    fill_position(page)
    page.get_by_label("What the player did").select_option("take_discard")
    page.get_by_label("Card taken from the discard area").fill("tricorder")
    page.get_by_label("Card discarded", exact=True).fill("bridge")
    page.get_by_role("button", name="Check the turn").click()

    heading = page.locator("#turn-result h2").first
    expect(heading).to_have_text("Ruling: Legal")
    expect(heading).to_be_focused()
    assert page.evaluate("() => window.notReloaded") is True  # htmx swapped, no page load
    result = page.locator("#turn-result")
    expect(result.locator(".verdict")).to_contain_text("Legal")
    expect(result.get_by_role("link", name="STM-R9 A legal turn")).to_be_visible()
    expect(result.get_by_text("Hand after the turn")).to_be_visible()
    assert_fits(page)

    share = result.locator("a.share__url")
    url = share.inner_text()
    assert re.fullmatch(re.escape(site) + r"/r/[a-z2-7]{10}", url)
    share.click()
    expect(page).to_have_url(url)
    expect(page.get_by_role("heading", level=1)).to_have_text("Ruling: Star Trek: Missions")
    expect(page.locator(".verdict").first).to_contain_text("Legal")
    expect(page.locator("a.share__url")).to_have_text(url)
    assert_fits(page)
    # The JSON of the same ruling.
    json_url = page.locator("section.share").get_attribute("data-json-url")
    body = page.request.get(site + json_url).json()
    assert body["url"] == url.removeprefix(site) and body["verdict"] == "legal"


def test_an_illegal_turn_and_a_typo(page, site, assert_fits):
    page.goto(site + PAGE)
    fill_position(page)
    page.get_by_label("What the player did").select_option("draw_missions")
    # Only the fields the move uses are shown.
    expect(page.get_by_label("Card taken from the discard area")).to_be_hidden()
    expect(page.get_by_label("Second Mission card drawn")).to_be_visible()
    page.get_by_label("Card drawn", exact=True).fill("Computer Virus")
    # A close misspelling ("Distres Call") is read as the card; this names no card for sure.
    page.get_by_label("Second Mission card drawn").fill("Distrxx Cxll")
    page.get_by_label("Card discarded", exact=True).fill("Bridge")
    page.get_by_label("Second card discarded").fill("Lieutenant Worf")
    page.get_by_role("button", name="Check the turn").click()
    alert = page.locator("#turn-result .alert")
    expect(alert).to_contain_text("No card named 'Distrxx Cxll' in Star Trek: Missions.")
    expect(alert).to_contain_text("Did you mean Distress Call")
    expect(page.locator("#turn-result h2")).to_be_focused()
    # The problem links to its field.
    alert.get_by_role("link").first.click()
    expect(page.get_by_label("Second Mission card drawn")).to_be_focused()
    page.get_by_label("Second Mission card drawn").fill("Distress Call")
    page.get_by_role("button", name="Check the turn").click()
    expect(page.locator("#turn-result h2").first).to_have_text("Ruling: Illegal")
    result = page.locator("#turn-result")
    expect(result).to_contain_text("4 Mission cards")
    expect(result.locator(".check--failed")).to_contain_text("Failed")
    expect(result.locator("h4.alternatives__group").first).to_contain_text(
        "Draw from the Mission deck"
    )
    expect(result.locator(".alternatives li").first).to_contain_text(
        "Draw Computer Virus and Distress Call, then discard one of: Away Team and Borg Cube; "
    )
    assert_fits(page)


def test_without_javascript_a_plain_post_shows_the_ruling(browser, site, viewport):
    from tests.browser.conftest import VIEWPORTS

    context = browser.new_context(**VIEWPORTS[viewport], java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(site + PAGE)
        fill_position(page)
        page.get_by_label("What the player did").select_option("draw_galaxy")
        page.get_by_label("Card drawn", exact=True).fill("Spock")
        page.get_by_label("Card discarded", exact=True).fill("Away Team")
        page.get_by_role("button", name="Check the turn").click()
        expect(page).to_have_url(site + PAGE + "#turn-result")
        expect(page.locator("#turn-result h2").first).to_have_text("Ruling: Legal")
        # The form keeps what was entered.
        expect(page.get_by_label("Card drawn", exact=True)).to_have_value("Spock")
        page.locator("a.share__url").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("Ruling: Star Trek: Missions")
    finally:
        context.close()


def test_keyboard_only(page, site):
    page.goto(site + PAGE)
    fill_position(page)
    page.get_by_label("Card taken from the discard area").fill("Tricorder")
    page.get_by_label("Card discarded", exact=True).fill("Tricorder")
    # From the last field, Tab reaches the submit button; Enter submits.
    page.get_by_label("Card discarded", exact=True).focus()
    for _ in range(5):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.type === 'submit'"):
            break
    expect(page.get_by_role("button", name="Check the turn")).to_be_focused()
    page.keyboard.press("Enter")
    heading = page.locator("#turn-result h2").first
    expect(heading).to_have_text("Ruling: Illegal")
    expect(heading).to_be_focused()
    # The next Tab stops move on through the ruling's links.
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.tagName") == "A"


def test_problems_show_by_their_fields_after_an_htmx_check(page, site):
    page.goto(site + PAGE)
    fill_position(page)
    page.get_by_label("Card 3", exact=True).fill("Wrof")
    page.get_by_label("Card taken from the discard area").fill("Tricorder")
    page.get_by_label("Card discarded", exact=True).fill("Bridge")
    page.evaluate("() => { window.notReloaded = true; }")
    page.get_by_role("button", name="Check the turn").click()
    expect(page.locator("#turn-result h2")).to_have_text("The turn could not be checked")
    field = page.get_by_label("Card 3", exact=True)
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#hand-3-error")).to_contain_text("Did you mean Lieutenant Worf")
    expect(field).to_have_value("Wrof")  # what was typed stays
    assert page.evaluate("() => window.notReloaded") is True
    # Corrected, the same form checks again.
    field.fill("Lieutenant Worf")
    page.get_by_role("button", name="Check the turn").click()
    expect(page.locator("#turn-result h2").first).to_have_text("Ruling: Legal")
