"""The Factions pages in a real browser, on a phone: check a move (legal, illegal,
an impossible table), the standings, the share links, without JavaScript and by keyboard."""

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

CHECK = "/games/factions/check-move/"
STANDINGS = "/games/factions/score/"


@pytest.fixture(autouse=True)
def no_csp_violations(request):
    """Chromium reports no Content-Security-Policy violation on these pages, htmx swaps
    included (the site sends a strict policy on every response)."""
    if "page" not in request.fixturenames:
        yield
        return
    page = request.getfixturevalue("page")
    violations = []
    page.on(
        "console",
        lambda message: (
            violations.append(message.text)
            if "Content Security Policy" in message.text or "Refused to" in message.text
            else None
        ),
    )
    yield
    assert violations == []


def set_up_table(page):
    """Ana (Amber Coast) and Ben (Ashen Peaks): the page starts with seats 1 and 2 controlling
    the first two factions."""
    page.get_by_label("Player 1's name").fill("Ana")
    page.get_by_label("Player 2's name").fill("Ben")
    page.get_by_label("Player 1, card 1", exact=True).select_option("attack@amber-coast")
    page.get_by_label("Player 1, card 2", exact=True).select_option("spy@ashen-peaks")
    page.get_by_label("Player 2, card 1", exact=True).select_option("defence@ashen-peaks")


def test_check_a_move_and_follow_the_share_link(page, site, assert_fits):
    page.goto(site + CHECK)
    expect(page.get_by_role("heading", level=1)).to_have_text("Check a move")
    assert_fits(page)
    # Faction and unit names come from the catalog; samples are marked provisional.
    block = page.locator("#faction-ashen-peaks")
    expect(block.locator("legend").first).to_contain_text("Ashen Peaks")
    expect(block.locator(".badge--provisional")).to_be_visible()
    expect(block.get_by_label("Peak Sentinel")).not_to_be_checked()
    page.evaluate("() => { window.notReloaded = true; }")

    set_up_table(page)
    # Typed names replace "Player N" in the lists of players.
    expect(page.locator("#turn option[value='1']")).to_have_text("Ana")
    expect(page.locator("#f-ashen-peaks-controller option[value='2']")).to_have_text("Ben")
    page.get_by_label("What the player does").select_option("play")
    page.get_by_label("The card", exact=True).select_option("attack@amber-coast")
    page.get_by_label("Target unit (ATTACK, AMBUSH, DOCTOR)").select_option(
        "ashen-peaks@peak-sentinel"
    )
    page.get_by_role("button", name="Check the move").click()

    heading = page.locator("#move-result h2").first
    expect(heading).to_have_text("Ruling: Legal")
    expect(heading).to_be_focused()
    assert page.evaluate("() => window.notReloaded") is True  # htmx swapped, no page load
    result = page.locator("#move-result")
    expect(result.get_by_role("link", name="FAC-6 Attack")).to_be_visible()
    expect(result.get_by_text("If the attack is not blocked")).to_be_visible()
    expect(result).to_contain_text("Ben holds 1 DEFENCE card and may block it")
    assert_fits(page)

    share = result.locator("a.share__url")
    url = share.inner_text()
    assert re.fullmatch(re.escape(site) + r"/r/[a-z2-7]{10}", url)
    share.click()
    expect(page).to_have_url(url)
    expect(page.get_by_role("heading", level=1)).to_have_text("Ruling: Factions")
    expect(page.locator(".verdict").first).to_contain_text("Legal")


def test_an_illegal_move_and_an_impossible_table(page, site, assert_fits):
    page.goto(site + CHECK)
    set_up_table(page)
    page.get_by_label("What the player does").select_option("play")
    # The fields a play does not use are hidden for a pass.
    page.get_by_label("What the player does").select_option("pass")
    expect(page.get_by_label("The card", exact=True)).to_be_hidden()
    page.get_by_label("What the player does").select_option("play")
    page.get_by_label("The card", exact=True).select_option("attack@amber-coast")
    page.get_by_label("Target unit (ATTACK, AMBUSH, DOCTOR)").select_option(
        "amber-coast@tide-archer"
    )
    page.get_by_role("button", name="Check the move").click()
    result = page.locator("#move-result")
    expect(result.locator("h2").first).to_have_text("Ruling: Illegal")
    expect(result.locator(".check--failed")).to_contain_text("FAC-R5")
    expect(result.get_by_role("heading", name="Legal moves instead")).to_be_visible()
    expect(
        result.locator(".alternatives li").filter(
            has_text="Play Attack (Amber Coast) on Peak Sentinel (Ashen Peaks)"
        )
    ).to_be_visible()
    assert_fits(page)

    # Three Spies of one faction: more than it contributes (FAC-F1).
    for slot in (3, 4):
        page.get_by_label(f"Player 1, card {slot}", exact=True).select_option("spy@ashen-peaks")
    page.get_by_role("button", name="Check the move").click()
    alert = result.locator(".alert")
    expect(alert.locator("h2")).to_have_text("The move could not be checked")
    expect(alert.locator("h2")).to_be_focused()
    expect(alert).to_contain_text("but each faction contributes 2")
    # The problem links to its field, which the form marks.
    alert.get_by_role("link").first.click()
    expect(page.get_by_label("Player 1, card 4", exact=True)).to_be_focused()
    expect(page.get_by_label("Player 1, card 4", exact=True)).to_have_attribute(
        "aria-invalid", "true"
    )
    assert_fits(page)


def test_without_javascript_a_plain_post_shows_the_ruling(browser, site, viewport):
    from tests.browser.conftest import VIEWPORTS

    context = browser.new_context(**VIEWPORTS[viewport], java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(site + CHECK)
        set_up_table(page)
        page.get_by_label("What the player does").select_option("discard")
        page.get_by_label("The card", exact=True).select_option("spy@ashen-peaks")
        page.get_by_role("button", name="Check the move").click()
        expect(page).to_have_url(site + CHECK + "#move-result")
        expect(page.locator("#move-result h2").first).to_have_text("Ruling: Legal")
        expect(page.locator("#move-result")).to_contain_text(
            "Ana's whole hand (1 card) is shown to Ben"
        )
        # The form keeps what was entered.
        expect(page.get_by_label("Player 1's name")).to_have_value("Ana")
        expect(page.get_by_label("The card", exact=True)).to_have_value("spy@ashen-peaks")
        page.locator("a.share__url").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("Ruling: Factions")
    finally:
        context.close()


def test_keyboard_only(page, site):
    page.goto(site + CHECK)
    page.get_by_label("Player 1's name").focus()
    page.keyboard.type("Ana")
    page.get_by_label("What the player does").focus()
    page.keyboard.press("End")  # the last action: end the turn
    expect(page.get_by_label("What the player does")).to_have_value("end_turn")
    page.get_by_role("button", name="Check the move").focus()
    page.keyboard.press("Enter")
    heading = page.locator("#move-result h2").first
    expect(heading).to_have_text("Ruling: Legal")
    expect(heading).to_be_focused()
    expect(page.locator("#move-result")).to_contain_text("Next: Player 2 draws one card")


def test_standings(page, site, assert_fits):
    page.goto(site + STANDINGS)
    expect(page.get_by_role("heading", level=1)).to_have_text("Standings")
    assert_fits(page)
    page.get_by_label("Player 1's name").fill("Ana")
    page.get_by_label("Player 2's name").fill("Ben")
    page.locator("#p1-own").select_option("amber-coast")
    page.locator("#p2-own").select_option("ashen-peaks")
    page.get_by_role("button", name="Show the standings").click()
    result = page.locator("#standings-result")
    expect(result.locator("h2").first).to_have_text("No winner yet")
    expect(result.locator("h2").first).to_be_focused()

    block = page.locator("#faction-ashen-peaks")
    for checkbox in block.get_by_role("checkbox").all():
        checkbox.check()
    page.get_by_role("button", name="Show the standings").click()
    expect(result.locator("h2").first).to_have_text("Ana wins")
    ben = result.locator(".standing").nth(1)
    expect(ben).to_contain_text("Eliminated")
    expect(ben).to_contain_text("Ashen Peaks own: 0 surviving")
    expect(result.get_by_role("link", name="FAC-18")).to_be_visible()
    assert_fits(page)

    share = result.locator("a.share__url")
    url = share.inner_text()
    share.click()
    expect(page).to_have_url(url)
    expect(page.locator("body")).to_contain_text("Only Ana still controls a surviving unit")


def test_standings_without_javascript_show_problems_by_their_field(browser, site, viewport):
    from tests.browser.conftest import VIEWPORTS

    context = browser.new_context(**VIEWPORTS[viewport], java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(site + STANDINGS)
        page.locator("#p1-own").select_option("amber-coast")
        page.locator("#p2-own").select_option("amber-coast")
        page.get_by_role("button", name="Show the standings").click()
        alert = page.locator("#standings-result .alert")
        expect(alert).to_contain_text("Player 1 and Player 2 both chose Amber Coast")
        expect(page.locator("#p2-own")).to_have_attribute("aria-invalid", "true")
        expect(page.locator("#p2-own")).to_have_value("amber-coast")
    finally:
        context.close()
