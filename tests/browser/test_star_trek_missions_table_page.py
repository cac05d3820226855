"""The "Score the table" page of Star Trek: Missions in a real browser, on a phone (390 px): three
players pass the phone round, each adds their hand by typing and by tapping tiles, a card already
in another hand is marked and cannot be pressed, the standings at the top name the winner, a
player's breakdown opens from their line, and the permalink shows the same standings; then the
same table without JavaScript. Everything is read as a player reads it: the visible text."""

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests.browser.star_trek_missions_tiles import show_tile

pytestmark = pytest.mark.browser

PAGE = "/games/star-trek-missions/table/"
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}
# The rulebook's example (66) and two published examples (13 and 12): the totals are the
# rulebook's own, so the winner is too.
ANA = ["Lieutenant Worf", "Commander Kurn", "Ambassador K'Ehleyr", "Commander Sela"]
ANA_TAPPED = {
    "diplomatic-conference": "Diplomatic Conference",
    "photon-torpedoes": "Photon Torpedoes",
    "bridge": "Bridge",
}
BEN = ["Holodeck 1", "Leah Brahms"]
CY = ["Space Confrontation", "Daimon Bok", "Daimon Tog", "Vice Admiral Nakamura"]


def open_phone(browser, site, *, javascript=True):
    context = browser.new_context(**PHONE, locale="en-GB", java_script_enabled=javascript)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.requests, page.errors = [], []
    page.on("request", lambda request: page.requests.append(request.url))
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(site + PAGE)
    return context, page


def check_and_close(context, page, site):
    host = urlsplit(site).netloc
    outside = [url for url in page.requests if urlsplit(url).netloc != host]
    context.close()
    assert not outside, f"requests left the live server: {outside}"
    assert not page.errors, f"JavaScript errors: {page.errors}"


def fits(page):
    width, client = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert width <= client, f"horizontal scroll: {width} > {client}"


def add_player(page, name):
    field = page.locator("#new-player")
    field.fill(name)
    field.press("Enter")
    expect(page.locator("#table-current h3")).to_have_text(f"{name}'s hand")


def add_card(page, player, name):
    count = page.locator("#table-current .hand-card").count()
    field = page.get_by_label(f"Add a card to {player}'s hand")
    field.fill(name)
    field.press("Enter")
    expect(page.locator("#table-current .hand-card")).to_have_count(count + 1)


def standings_text(page) -> str:
    return re.sub(r"\s+", " ", page.locator("#standings").inner_text())


def test_three_players_on_one_phone_and_the_winner(browser, site):
    context, page = open_phone(browser, site)
    expect(page.get_by_role("heading", level=1)).to_have_text("Score the table")
    page.evaluate("() => { window.notReloaded = true; }")

    add_player(page, "Ana")
    for name in ANA:
        add_card(page, "Ana", name)
    for slug in ANA_TAPPED:
        show_tile(page, slug)
        tile = page.locator(f"#tile-{slug}")
        tile.scroll_into_view_if_needed()
        tile.click()
        expect(page.locator(f"#tile-{slug}")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#table-current .score-total__value")).to_have_text("66")
    expect(page.locator(".table-bar")).to_contain_text("Ana: 66")

    add_player(page, "Ben")
    # Ana is one line now, with her total; Ben's hand is the one in view.
    expect(page.locator("#player-1 summary")).to_contain_text("Ana")
    expect(page.locator("#player-1 summary")).to_contain_text("66 points")
    expect(page.locator("#table-current")).to_be_in_viewport()
    # Ana's cards are marked with her name and cannot be pressed.
    show_tile(page, "bridge")
    bridge = page.locator("#tile-bridge")
    expect(bridge).to_be_disabled()
    expect(bridge).to_contain_text("In Ana's hand")
    for name in BEN:
        add_card(page, "Ben", name)
    add_card_refused = page.get_by_label("Add a card to Ben's hand")
    add_card_refused.fill("Bridge")
    add_card_refused.press("Enter")
    expect(page.locator(".table-error")).to_contain_text("Bridge is in Ana's hand")
    expect(page.locator("#table-current .hand-card")).to_have_count(2)

    add_player(page, "Cy")
    for name in CY:
        add_card(page, "Cy", name)

    # The standings at the top name the winner.
    page.locator("#standings").scroll_into_view_if_needed()
    text = standings_text(page)
    assert "Ana wins with 66 points." in text
    assert re.search(r"1st\s+Ana\s+66 points\s+wins", text)
    assert re.search(r"2nd\s+Ben\s+13 points\s+53 behind", text)
    assert re.search(r"3rd\s+Cy\s+12 points\s+54 behind", text)
    assert "Ben, Cy have fewer than seven cards" in text
    fits(page)

    # Ben's breakdown opens from his line.
    ben = page.locator("#player-2")
    ben.locator("summary").click()
    expect(ben.locator("table.steps")).to_be_visible()
    expect(ben.locator(".score-steps__running").last).to_have_text("13")
    # Ana's hand can be opened again from her line.
    page.get_by_role("button", name="Edit Ana's hand").click()
    expect(page.locator("#table-current h3")).to_have_text("Ana's hand")
    expect(page.locator("#table-current .hand-card")).to_have_count(7)
    assert page.evaluate("() => window.notReloaded") is True  # htmx swapped, no page load
    fits(page)

    # The permalink: the standings are its headline.
    share = page.locator("a.share__url")
    url = share.inner_text()
    share.click()
    expect(page).to_have_url(url)
    expect(page.locator(".table-headline")).to_have_text("Ana wins with 66 points.")
    expect(page).to_have_title(re.compile(r"^Standings: Ana wins with 66 points"))
    fits(page)
    check_and_close(context, page, site)


def test_the_table_without_javascript(browser, site):
    context, page = open_phone(browser, site, javascript=False)
    for player, hand in (("Ana", BEN), ("Ben", CY), ("Cy", ["Sickbay"])):
        page.locator("#new-player").fill(player)
        page.get_by_role("button", name="Add player").click()
        for name in hand:
            page.get_by_label(f"Add a card to {player}'s hand").fill(name)
            page.get_by_role("button", name="Add", exact=True).click()
        expect(page.locator("#table-current .hand-card")).to_have_count(len(hand))
    text = standings_text(page)
    assert "Ana wins with 13 points." in text
    assert re.search(r"2nd\s+Ben\s+12 points\s+1 behind", text)
    # A tile of another player's card is not a button that can add it.
    expect(page.locator("#tile-holodeck-1")).to_be_disabled()
    fits(page)
    check_and_close(context, page, site)
