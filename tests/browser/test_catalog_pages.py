"""The pages in a real browser, on a phone (browsing the catalog at desktop size too, for its
tiles' columns): browse, filter, search, open a card,
follow a ruling to its rule, and do it all by keyboard."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import BOTH_VIEWPORTS

pytestmark = pytest.mark.browser

CATALOG = "/games/academy-credits/cards/"


def tile_names(page):
    return page.locator(".tile__name").all_inner_texts()


@BOTH_VIEWPORTS  # the tiles' columns differ by size
def test_browse_the_catalog(page, site, assert_fits, viewport):
    page.goto(site + "/")
    assert_fits(page)
    page.get_by_role("link", name="Browse the catalog").first.click()
    expect(page).to_have_url(site + CATALOG)
    expect(page.locator("#result-count")).to_have_text("11 cards")
    expect(page.locator(".tile")).to_have_count(11)
    assert_fits(page)
    # Tiles sit in one or two columns on a phone, more on a desktop.
    lefts = page.locator(".tile").evaluate_all(
        "tiles => new Set(tiles.map(t => Math.round(t.getBoundingClientRect().left))).size"
    )
    if viewport == "phone":
        assert 1 <= lefts <= 2
    else:
        assert lefts >= 4


def test_filter_the_catalog(page, site, assert_fits):
    page.goto(site + "/games/star-realms-academy/cards/")
    expect(page.locator(".tile")).to_have_count(17)
    page.get_by_label("Faction").select_option("blob")
    expect(page.locator("#result-count")).to_have_text("5 cards")
    expect(page.locator(".tile")).to_have_count(5)
    assert sorted(tile_names(page)) == ["Blob World", "Mothership", "Ram", "The Hive", "Trade Pod"]
    expect(page).to_have_url(re.compile(r"faction=blob"))
    page.get_by_label("Kind").select_option("base")
    expect(page.locator(".tile")).to_have_count(2)
    assert_fits(page)
    # The address holds the filters: reloading shows the same narrowed grid.
    page.reload()
    expect(page.locator(".tile")).to_have_count(2)
    expect(page.get_by_label("Faction")).to_have_value("blob")


def test_filter_without_javascript_uses_the_submit_button(browser, site, viewport):
    from tests.browser.conftest import VIEWPORTS

    context = browser.new_context(**VIEWPORTS[viewport], java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(site + CATALOG)
        page.get_by_label("Value").select_option("7")
        page.get_by_role("button", name="Show cards").click()
        expect(page.locator(".tile")).to_have_count(1)
        assert tile_names(page) == ["Jett Reno"]
    finally:
        context.close()


def test_search_updates_the_grid_without_a_reload(page, site, assert_fits):
    page.goto(site + CATALOG)
    page.evaluate("() => { window.notReloaded = true; }")
    page.get_by_label("Search names and card text").fill("reno")
    expect(page.locator(".tile")).to_have_count(1)
    expect(page.locator("#result-count")).to_have_text("1 card matching “reno”")
    expect(page).to_have_url(site + CATALOG + "?q=reno")
    assert page.evaluate("() => window.notReloaded") is True  # htmx swapped, no page load
    assert tile_names(page) == ["Jett Reno"]
    assert_fits(page)
    # Nothing matches: said in words, with a way back.
    page.get_by_label("Search names and card text").fill("zzzz")
    expect(page.locator("#result-count")).to_have_text("0 cards matching “zzzz”")
    expect(page.get_by_text("No card matches.")).to_be_visible()
    # Back restores the previous search.
    page.go_back()
    expect(page).to_have_url(site + CATALOG + "?q=reno")
    expect(page.locator(".tile")).to_have_count(1)


def test_open_a_card_and_follow_a_ruling_to_its_rule(page, site, assert_fits):
    page.goto(site + CATALOG)
    page.locator(".tile", has_text="Lura Thok").click()
    expect(page).to_have_url(site + "/games/academy-credits/cards/lura-thok/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Lura Thok")
    expect(
        page.get_by_text("Choose another cadet and name a card other than this one.")
    ).to_be_visible()
    assert_fits(page)
    page.get_by_role("link", name="AC-R4 Card effects not spelled out").click()
    expect(page).to_have_url(site + "/games/academy-credits/#rule-AC-R4")
    section = page.locator("#rule-AC-R4")
    expect(section).to_be_in_viewport()
    assert page.evaluate("() => document.querySelector(':target').id") == "rule-AC-R4"
    assert_fits(page)


def test_keyboard_only(page, site, assert_fits):
    page.goto(site + CATALOG)
    # The first Tab reaches the skip link, which jumps to the main content.
    page.keyboard.press("Tab")
    expect(page.locator(":focus")).to_have_text("Skip to main content")
    page.keyboard.press("Enter")
    # Tab on to the search box, type, and Tab on to the first tile.
    search = page.get_by_label("Search names and card text")
    for _ in range(10):
        page.keyboard.press("Tab")
        if search.evaluate("el => el === document.activeElement"):
            break
    expect(search).to_be_focused()
    page.keyboard.type("vance")
    expect(page.locator(".tile")).to_have_count(1)
    expect(search).to_be_focused()
    for _ in range(15):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.classList.contains('tile')"):
            break
    focused = page.locator(".tile:focus")
    expect(focused).to_contain_text("Charles Vance")
    # The focus is visible: an outline is drawn.
    outline = focused.evaluate("el => getComputedStyle(el).outlineStyle")
    assert outline != "none"
    page.keyboard.press("Enter")
    expect(page).to_have_url(site + "/games/academy-credits/cards/charles-vance/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Charles Vance")
    assert_fits(page)


def test_every_page_fits_and_has_one_main(page, site, assert_fits):
    for path in (
        "/",
        "/games/star-trek-missions/",
        "/games/star-trek-missions/cards/",
        "/games/star-trek-missions/cards/ambassador-kehleyr/",
        "/games/star-trek-missions/cards/captain-jean-luc-picard/",
        "/games/star-realms-academy/cards/",
        "/games/star-realms-academy/cards/barter-world/",
        "/games/factions/",
        "/games/factions/cards/",
        "/games/academy-credits/",
        "/games/academy-credits/#rule-AC-R4",
        "/games/academy-credits/cards/?value=seven",
        "/games/academy-credits/cards/jet-reno/",
        "/games/nope/",
    ):
        page.goto(site + path)
        expect(page.locator("main")).to_have_count(1)
        assert_fits(page)
