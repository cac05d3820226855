"""The Star Realms Academy pages in a real browser, on a phone: check a move and
break down a turn without a reload, see missing card values with their admin links, follow the
share link; and the same without JavaScript."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import VIEWPORTS

pytestmark = pytest.mark.browser

CHECK = "/games/star-realms-academy/check-move/"
TURN = "/games/star-realms-academy/score/"


def fill_board(page, hand=("Imperial Frigate", "Scout"), coins="0"):
    page.get_by_label("Name", exact=True).fill("Ana")
    page.get_by_label("Coins", exact=True).fill(coins)
    for index, name in enumerate(hand, start=1):
        page.get_by_label(f"Hand card {index}", exact=True).fill(name)
    page.get_by_label("Opponent's name").fill("Ben")
    page.get_by_label("Opponent's base 1", exact=True).fill("The Hive")
    for index, name in enumerate(["Ram", "Corvette", "Freighter"], start=1):
        page.get_by_label(f"Shop card {index}", exact=True).fill(name)


def log_in_as_staff(page, site):
    """The admin's "fill in" links are for staff: log a staff account in through the admin."""
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_user("referee", password="a-long-test-password", is_staff=True)
    page.goto(site + "/admin/login/?next=/")
    page.get_by_label("Username").fill("referee")
    page.get_by_label("Password").fill("a-long-test-password")
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(site + "/")


def test_check_a_move_and_follow_the_share_link(page, site, assert_fits):
    page.goto(site + CHECK)
    expect(page.get_by_role("heading", level=1)).to_have_text("Check a move")
    assert_fits(page)
    expect(page.locator("#sra-cards option")).to_have_count(17)
    assert page.get_by_label("Hand card 1", exact=True).get_attribute("list") == "sra-cards"
    page.evaluate("() => { window.notReloaded = true; }")

    fill_board(page)
    page.get_by_label("What the player does").select_option("play")
    # Only the fields a play uses are shown.
    expect(page.locator("#target-0")).to_be_hidden()
    page.locator("#card-0").fill("imperial frigate")
    page.get_by_role("button", name="Check the move").click()

    heading = page.locator("#sra-result h2").first
    expect(heading).to_have_text("Ruling: Legal")
    expect(heading).to_be_focused()
    assert page.evaluate("() => window.notReloaded") is True
    result = page.locator("#sra-result")
    expect(result.locator(".ruling-result__reason")).to_have_text(
        "Legal: Ana plays Imperial Frigate and gets 2 Combat."
    )
    expect(result.get_by_role("link", name="SRA-6 Ships")).to_be_visible()
    expect(result.locator(".tally")).to_contain_text("Combat pool")
    expect(result.locator(".notice")).to_contain_text(
        "Provisional (inferred, not yet transcribed from the printed card): Imperial Frigate's "
        "kind (Ship)."
    )
    assert_fits(page)

    share = result.locator("a.share__url")
    url = share.inner_text()
    assert re.fullmatch(re.escape(site) + r"/r/[a-z2-7]{10}", url)
    share.click()
    expect(page).to_have_url(url)
    expect(page.get_by_role("heading", level=1)).to_have_text("Ruling: Star Realms Academy")
    expect(page.locator(".verdict").first).to_contain_text("Legal")
    assert_fits(page)


def test_a_missing_value_links_to_the_admin(page, site, assert_fits):
    def check_buying_corvette():
        page.goto(site + CHECK)
        fill_board(page, coins="5")
        page.get_by_label("What the player does").select_option("buy")
        expect(page.locator("#refill-0")).to_be_visible()
        page.locator("#card-0").fill("Corvette")
        page.get_by_role("button", name="Check the move").click()
        expect(page.locator("#sra-result h2").first).to_have_text("Ruling: Needs information")

    # A player sees which value is missing, but the admin's link is for staff only.
    check_buying_corvette()
    expect(page.locator(".missing")).to_contain_text("Corvette: cost unknown")
    expect(page.get_by_role("link", name="Fill in Corvette's cost (admin)")).to_have_count(0)

    log_in_as_staff(page, site)
    check_buying_corvette()
    link = page.get_by_role("link", name="Fill in Corvette's cost (admin)")
    expect(link).to_be_visible()
    assert re.fullmatch(r"/admin/cards/card/\d+/change/", link.get_attribute("href"))
    expect(page.locator(".missing")).to_contain_text("Corvette: cost unknown")
    assert_fits(page)


def test_an_illegal_attack_lists_the_legal_moves(page, site, assert_fits):
    page.goto(site + CHECK)
    fill_board(page)
    page.get_by_label("Combat pool").fill("2")
    # The pool's source (SRA-R8): the Frigate that gave it is in play.
    page.get_by_label("Ship in play 1", exact=True).fill("Imperial Frigate")
    page.get_by_label("What the player does").select_option("attack")
    expect(page.locator("#card-0")).to_be_hidden()
    page.locator("#target-0").fill("health")
    page.get_by_role("button", name="Check the move").click()
    expect(page.locator("#sra-result h2").first).to_have_text("Ruling: Illegal")
    result = page.locator("#sra-result")
    expect(result.locator(".check--failed")).to_contain_text("Ben has The Hive in play")
    expect(result.locator(".alternatives")).to_contain_text("Attack The Hive with 1 Combat")
    assert_fits(page)


def test_break_down_a_turn(page, site, assert_fits):
    page.goto(site + TURN)
    expect(page.get_by_role("heading", level=1)).to_have_text("Break down a turn")
    assert_fits(page)
    fill_board(page)
    page.evaluate("() => { window.notReloaded = true; }")
    page.get_by_label("Action 1", exact=True).select_option("play")
    page.locator("#card-1").fill("Imperial Frigate")
    page.get_by_label("Action 2", exact=True).select_option("attack")
    page.locator("#target-2").fill("The Hive")
    page.locator("#amount-2").fill("1")
    page.get_by_label("Action 3", exact=True).select_option("attack")
    page.locator("#target-3").fill("health")
    page.get_by_label("Action 4", exact=True).select_option("end_turn")
    expect(page.locator("#card-4")).to_be_hidden()
    page.get_by_role("button", name="Break down the turn").click()

    heading = page.locator("#sra-result h2").first
    expect(heading).to_have_text("Every action is legal")
    expect(heading).to_be_focused()
    assert page.evaluate("() => window.notReloaded") is True
    rows = page.locator(".sra-steps tbody tr")
    expect(rows).to_have_count(5)  # the start and four actions
    expect(rows.nth(2)).to_contain_text("Attack The Hive with 1 Combat")
    expect(page.locator(".breakdown__summary")).to_contain_text("Ben lost 1 Health this turn")
    assert_fits(page)  # the table scrolls inside its own region, never the page

    url = page.locator("#sra-result a.share__url").inner_text()
    page.goto(url)
    expect(page.get_by_role("heading", level=1)).to_have_text("Score: Star Realms Academy")
    assert_fits(page)


def test_a_turn_stops_where_a_value_is_missing_and_problems_show_by_their_fields(page, site):
    log_in_as_staff(page, site)
    page.goto(site + TURN)
    fill_board(page, coins="4")
    page.get_by_label("Action 1", exact=True).select_option("play")
    # "Scuot" would be read as Scout (one close spelling); "Scoxx" is close to two cards.
    page.locator("#card-1").fill("Scoxx")
    page.get_by_label("Action 2", exact=True).select_option("buy")
    page.locator("#card-2").fill("Corvette")
    page.get_by_role("button", name="Break down the turn").click()
    expect(page.locator("#sra-result h2")).to_have_text("The turn could not be broken down")
    field = page.locator("#card-1")
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#card-1-error")).to_contain_text("Did you mean Scout")
    expect(field).to_have_value("Scoxx")

    field.fill("Scout")
    page.get_by_role("button", name="Break down the turn").click()
    expect(page.locator("#sra-result h2").first).to_have_text(
        "Stopped at action 2: needs information"
    )
    expect(page.get_by_role("link", name="Fill in Corvette's cost (admin)")).to_be_visible()
    expect(page.locator(".sra-steps__row--needs_information")).to_contain_text("Buy Corvette")


@pytest.mark.parametrize(
    "path, button, heading",
    [
        (CHECK, "Check the move", "Ruling: Legal"),
        (TURN, "Break down the turn", "Every action is legal"),
    ],
)
def test_without_javascript_a_plain_post_shows_the_answer(
    browser, site, viewport, path, button, heading
):
    context = browser.new_context(**VIEWPORTS[viewport], java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(site + path)
        fill_board(page)
        select = page.locator("#action-0" if path == CHECK else "#action-1")
        select.select_option("play")
        page.locator("#card-0" if path == CHECK else "#card-1").fill("Scout")
        page.get_by_role("button", name=button).click()
        expect(page).to_have_url(site + path + "#sra-result")
        expect(page.locator("#sra-result h2").first).to_have_text(heading)
        expect(page.get_by_label("Hand card 1", exact=True)).to_have_value("Imperial Frigate")
        page.locator("a.share__url").click()
        expect(page.get_by_role("heading", level=1)).to_contain_text("Star Realms Academy")
    finally:
        context.close()


def test_keyboard_only(page, site):
    page.goto(site + CHECK)
    fill_board(page)
    page.locator("#action-0").select_option("end_turn")
    page.locator("#action-0").focus()
    for _ in range(8):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.type === 'submit'"):
            break
    expect(page.get_by_role("button", name="Check the move")).to_be_focused()
    page.keyboard.press("Enter")
    heading = page.locator("#sra-result h2").first
    expect(heading).to_have_text("Ruling: Legal")
    expect(heading).to_be_focused()


# --- Issue 32: the turn page says only what the position fixes (SRA-R9 to SRA-R11) ---------------

KEPT_ALL = ("Scout", "Scout", "Scout", "Scout", "Scout", "Viper")


def test_the_turn_page_shows_a_draw_the_counts_decide_and_the_one_they_fix(page, site, assert_fits):
    page.goto(site + TURN)
    fill_board(page, hand=KEPT_ALL)
    page.get_by_label("Action 1", exact=True).select_option("end_turn")
    page.get_by_role("button", name="Break down the turn").click()
    expect(page.locator("#sra-result h2").first).to_have_text("Every action is legal")
    ended = page.locator(".sra-steps tbody tr").nth(1)
    expect(ended).to_contain_text(
        "Ana draws up to 3 cards (give the deck and discard pile counts to know how many)"
    )
    expect(ended.locator("td").nth(5)).to_have_text("up to 3")
    expect(page.locator("#sra-result")).to_contain_text("SRA-R9")
    assert_fits(page)

    # The neighbour: Ana counts her deck and discard pile (both empty): she draws none.
    page.get_by_text("Deck, discard pile and drawn cards (optional)").click()
    page.get_by_label("Cards in the deck").fill("0")
    page.get_by_label("Cards in the discard pile").fill("0")
    page.get_by_role("button", name="Break down the turn").click()
    ended = page.locator(".sra-steps tbody tr").nth(1)
    expect(ended).to_contain_text("Ana draws 0 cards")
    expect(ended.locator("td").nth(5)).to_have_text("0")


def test_the_turn_page_asks_for_a_refill_not_named_then_rules_with_it(page, site):
    page.goto(site + TURN)
    fill_board(page, hand=("Scout",), coins="2")
    page.get_by_label("Shop card 4", exact=True).fill("Trade Pod")
    page.get_by_label("Shop card 5", exact=True).fill("Mothership")
    for index in (1, 2):
        page.get_by_label(f"Action {index}", exact=True).select_option("buy")
        page.locator(f"#card-{index}").fill("Ram")
    page.get_by_role("button", name="Break down the turn").click()
    expect(page.locator("#sra-result h2").first).to_have_text(
        "Stopped at action 2: needs information"
    )
    missing = page.locator(".missing")
    expect(missing).to_contain_text("Missing information")
    expect(missing).to_contain_text(
        "Which card refilled the shop row after Ram was bought (action 1)?"
    )
    expect(page.locator(".sra-steps__row--needs_information")).to_contain_text("Buy Ram")

    # The neighbour: the refill named, the second Ram is in the row.
    page.locator("#refill-1").fill("Ram")
    page.get_by_role("button", name="Break down the turn").click()
    expect(page.locator("#sra-result h2").first).to_have_text("Every action is legal")
    expect(page.locator(".missing")).to_have_count(0)


def test_the_check_page_cites_sra_r11_for_combat_beyond_a_bases_defense(page, site):
    def attack_the_hive(amount):
        page.goto(site + CHECK)
        fill_board(page, hand=("Scout",))
        page.get_by_label("Combat pool").fill("2")
        page.get_by_label("Ship in play 1", exact=True).fill("Imperial Frigate")
        page.get_by_label("What the player does").select_option("attack")
        page.locator("#target-0").fill("The Hive")
        page.locator("#amount-0").fill(amount)
        page.get_by_role("button", name="Check the move").click()
        expect(page.locator("#sra-result h2").first).to_have_text("Ruling: Legal")
        return page.locator("#sra-result")

    result = attack_the_hive("2")
    expect(result.locator(".notice")).to_contain_text(
        "The Hive needed only 1 Combat to fall; the other 1 stays in the pool (SRA-R11)."
    )
    expect(result).to_contain_text("the other 1 stays in the pool for other bases")
    result = attack_the_hive("1")
    expect(result).not_to_contain_text("SRA-R11")
