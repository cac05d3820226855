"""The Academy Credits pages in a real browser, on a phone: set up a table, check a
play and score a round without a reload, follow the share links, use the keyboard; and both
pages without JavaScript."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import CHROMIUM_ARGS, VIEWPORTS  # noqa: F401  (same settings)

pytestmark = pytest.mark.browser

CHECK = "/games/academy-credits/check-move/"
SCORE = "/games/academy-credits/score/"


def seat(page, number):
    return page.locator(f'fieldset[data-seat="{number}"]')


def fill_table(page):
    first, second = seat(page, 1), seat(page, 2)
    first.get_by_label("Name").fill("Ana")
    first.get_by_label("Cards in front (played or discarded)").fill("Lura Thok")
    first.get_by_label("Their turn").check()
    second.get_by_label("Name").fill("Ben")
    second.get_by_label("Cards in front (played or discarded)").fill("Jay-Den Kraag, 1")
    page.get_by_label("Cards left in the deck").fill("14")


def test_check_a_play_and_follow_the_share_link(page, site, assert_fits):
    page.goto(site + CHECK)
    expect(page.get_by_role("heading", level=1)).to_have_text("Check a move")
    assert_fits(page)
    expect(page.locator("#ac-cards option")).to_have_count(11)
    page.evaluate("() => { window.notReloaded = true; }")

    fill_table(page)
    # The target picker names the seats as the names are typed.
    expect(page.get_by_label("Target").locator("option")).to_have_text(
        ["Nobody", "Ana", "Ben", "Seat 3", "Seat 4"]
    )
    page.get_by_label("Card 1 in hand").fill("Nahla Ake")
    page.get_by_label("Card 2 in hand").fill("7")
    page.get_by_label("Card played").fill("jett reno")
    page.get_by_label("Target").select_option(label="Ben")
    page.get_by_role("button", name="Check the play").click()

    heading = page.locator("#play-result h2").first
    expect(heading).to_have_text("Ruling: Illegal")
    expect(heading).to_be_focused()
    assert page.evaluate("() => window.notReloaded") is True  # htmx swapped, no page load
    result = page.locator("#play-result")
    expect(result.locator(".verdict")).to_contain_text("Illegal")
    expect(
        result.get_by_text(
            "The hand holds Nahla Ake (9) with Jett Reno (7), so Nahla Ake must be played."
        ).first
    ).to_be_visible()
    expect(result.get_by_role("link", name="AC-4.1 Nahla Ake must be played")).to_be_visible()
    expect(result.get_by_role("heading", name="Legal plays instead")).to_be_visible()
    expect(result.locator(".alternatives li")).to_have_text(["Play Nahla Ake"])
    assert_fits(page)

    share = result.locator("a.share__url")
    url = share.inner_text()
    assert re.fullmatch(re.escape(site) + r"/r/[a-z2-7]{10}", url)
    share.click()
    expect(page).to_have_url(url)
    expect(page.get_by_role("heading", level=1)).to_have_text("Ruling: Academy Credits")
    expect(page.locator(".verdict").first).to_contain_text("Illegal")
    assert_fits(page)


def test_a_conditional_outcome_by_keyboard(page, site, assert_fits):
    page.goto(site + CHECK)
    fill_table(page)
    page.get_by_label("Card 1 in hand").fill("Lura Thok")
    page.get_by_label("Card 2 in hand").fill("Jay-Den Kraag")
    page.get_by_label("Card played").fill("Lura Thok")
    target = page.get_by_label("Target")
    target.focus()
    target.select_option("2")
    guess = page.get_by_label("Guess (Lura Thok)")
    guess.fill("Tarima Sadel")
    guess.press("Enter")  # submits the form, as a keyboard user would
    heading = page.locator("#play-result h2").first
    expect(heading).to_have_text("Ruling: Legal")
    expect(heading).to_be_focused()
    cases = page.locator("#play-result .ac-case")
    expect(cases).to_have_count(2)
    expect(cases.nth(1)).to_contain_text(
        "If Ben holds Tarima Sadel (10): Ben holds Tarima Sadel (10) and is out of the round."
    )
    assert_fits(page)


def test_a_typo_is_shown_by_its_field_and_linked(page, site, assert_fits):
    page.goto(site + CHECK)
    fill_table(page)
    page.get_by_label("Card 1 in hand").fill("Nahla Ake")
    # A close misspelling ("Jet Reno") is read as the card it names; text that names no card
    # is shown at its field with the nearest names.
    page.get_by_label("Card 2 in hand").fill("Jett Zorro")
    page.get_by_label("Card played").fill("Nahla Ake")
    page.get_by_role("button", name="Check the play").click()
    alert = page.locator("#play-result .alert")
    expect(alert.get_by_role("heading")).to_have_text("The play could not be checked")
    expect(alert.get_by_role("heading")).to_be_focused()
    link = alert.get_by_role("link", name=re.compile("Did you mean Jett Reno"))
    expect(link).to_be_visible()
    field = page.get_by_label("Card 2 in hand")
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(field).to_have_value("Jett Zorro")
    link.click()
    expect(page).to_have_url(re.compile("#hand-2$"))
    assert_fits(page)


def test_the_deck_count_is_asked_for_in_a_players_words_only_when_needed(page, site, assert_fits):
    # Issue 15: no deck count. An illegal play is ruled; a legal one asks for the count in a
    # player's words, with a link to the field; with the count it is ruled.
    page.goto(site + CHECK)
    fill_table(page)
    page.get_by_label("Cards left in the deck").fill("")
    page.get_by_label("Card 1 in hand").fill("Nahla Ake")
    page.get_by_label("Card 2 in hand").fill("Jett Reno")
    page.get_by_label("Card played").fill("Jett Reno")
    page.get_by_label("Target").select_option(label="Ben")
    page.get_by_role("button", name="Check the play").click()
    result = page.locator("#play-result")
    expect(result.locator("h2").first).to_have_text("Ruling: Illegal")
    expect(result.locator(".alternatives li")).to_have_text(["Play Nahla Ake"])

    page.get_by_label("Card played").fill("Nahla Ake")
    page.get_by_label("Target").select_option(label="Nobody")
    page.get_by_role("button", name="Check the play").click()
    expect(result.locator("h2").first).to_have_text("Ruling: Needs information")
    ask = result.get_by_role("link", name=re.compile(r"^How many cards are left in the deck"))
    expect(ask).to_be_visible()
    expect(result).not_to_contain_text("position.deck_count")
    expect(result).not_to_contain_text("is required")
    assert_fits(page)
    ask.click()
    expect(page).to_have_url(re.compile("#deck-count$"))

    page.get_by_label("Cards left in the deck").fill("14")
    page.get_by_role("button", name="Check the play").click()
    expect(result.locator("h2").first).to_have_text("Ruling: Legal")


def test_score_a_round_and_share_it(page, site, assert_fits):
    page.goto(site + SCORE)
    expect(page.get_by_role("heading", level=1)).to_have_text("Score a round")
    assert_fits(page)
    page.evaluate("() => { window.notReloaded = true; }")
    first, second = seat(page, 1), seat(page, 2)
    first.get_by_label("Name").fill("Ana")
    first.get_by_label("Cards in front (played or discarded)").fill("Lura Thok, Jay-Den Kraag")
    first.get_by_label("Card in hand").fill("Jett Reno")
    first.get_by_label("Credits before this round").fill("3")
    second.get_by_label("Name").fill("Ben")
    second.get_by_label("Cards in front (played or discarded)").fill("Charles Vance")
    second.get_by_label("Card in hand").fill("The Doctor")
    second.get_by_label("Credits before this round").fill("1")
    page.get_by_label("Cards left in the deck").fill("0")
    expect(page.get_by_label("Who started this round").locator("option")).to_have_text(
        ["Not given", "Ana", "Ben", "Seat 3", "Seat 4"]
    )
    page.get_by_role("button", name="Score the round").click()

    heading = page.locator("#round-result h2").first
    expect(heading).to_have_text("Round won by Ana")
    expect(heading).to_be_focused()
    assert page.evaluate("() => window.notReloaded") is True
    result = page.locator("#round-result")
    expect(result.locator(".ac-match-winner")).to_contain_text("Ana wins the match")
    expect(result.locator(".ac-standings tbody tr").first).to_contain_text("Ana")
    expect(result.get_by_text("Ben +1: Charles Vance bonus")).to_be_visible()
    expect(result.get_by_role("link", name="AC-R7")).to_be_visible()
    assert_fits(page)

    share = result.locator("a.share__url")
    url = share.inner_text()
    share.click()
    expect(page).to_have_url(url)
    expect(page.get_by_role("heading", level=1)).to_have_text("Score: Academy Credits")
    assert_fits(page)


@pytest.mark.parametrize("path", [CHECK, SCORE])
def test_both_pages_work_without_javascript(browser, site, path, viewport):
    context = browser.new_context(**VIEWPORTS[viewport], java_script_enabled=False, locale="en-GB")
    page = context.new_page()
    try:
        page.goto(site + path)
        seat(page, 1).get_by_label("Name").fill("Ana")
        seat(page, 2).get_by_label("Name").fill("Ben")
        if path == CHECK:
            seat(page, 1).get_by_label("Their turn").check()
            page.get_by_label("Card 1 in hand").fill("Jay-Den Kraag")
            page.get_by_label("Card 2 in hand").fill("Lura Thok")
            page.get_by_label("Cards left in the deck").fill("18")
            page.get_by_label("Card played").fill("4")
            page.get_by_role("button", name="Check the play").click()
            expect(page.locator("#play-result h2").first).to_have_text("Ruling: Legal")
            # The page came back whole, with the values kept.
            expect(page.get_by_label("Card played")).to_have_value("4")
            # Without JavaScript the pickers show the names after a submit.
            expect(page.get_by_label("Target").locator("option").nth(1)).to_have_text("Ana")
        else:
            seat(page, 1).get_by_label("Card in hand").fill("Nahla Ake")
            seat(page, 2).get_by_label("Out of the round").check()
            seat(page, 2).get_by_label("Cards in front (played or discarded)").fill("0, 10")
            page.get_by_label("Cards left in the deck").fill("6")
            page.get_by_label("Charles Vance bonus (AC-R7)").select_option("still_in_round")
            page.get_by_role("button", name="Score the round").click()
            expect(page.locator("#round-result h2").first).to_have_text("Round won by Ana")
            expect(page.locator(".ac-awards li")).to_have_count(1)
        expect(page.locator("a.share__url")).to_be_visible()
    finally:
        context.close()
