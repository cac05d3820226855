"""A game's page opened from a table fits a phone (issue 29), on a 390×844 touch phone that claimed
its seat: what only the player knows comes first, the button that answers stays on the screen,
and what the table knows is filled in and folded away, opening where one of its fields has a
problem. bench/pages.py prints the taps and scrolling these pages take; these tests hold the
structure those figures rely on (no timing is asserted).

Each table is started through the API (so the phone is a seat's, not the host's), and each page
is reached by the table's own link, as a player reaches it."""

from __future__ import annotations

import json
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.browser.accessibility import assert_accessible
from tests.browser.phone import phone_page
from tests.browser.star_trek_missions_tiles import show_tile
from tests.test_tables_factions import SETUP

pytestmark = pytest.mark.browser

SCREEN = 844


def api(site: str, path: str, body: dict, token: str = "") -> dict:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(site + path, data=json.dumps(body).encode(), headers=headers)
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def seat_at_table(page, site: str, game: str, *, setup: dict | None = None) -> str:
    """A table of Ana and Ben started by the API (its setup event sent by the host), and this
    phone claiming Ana's seat; the table's code."""
    created = api(site, "/api/tables/", {"game": game, "players": ["Ana", "Ben"]})
    code = created["code"]
    if setup is not None:
        api(
            site,
            f"/api/tables/{code}/events/",
            {"kind": "setup", "seat": 1, "version": 1, "body": setup},
            created["host_token"],
        )
    page.goto(f"{site}/t/{code}")
    page.get_by_role("button", name="I am Ana (seat 1)").click()
    expect(page.locator(".lede")).to_have_text("You are Ana (seat 1).")
    return code


def open_from_table(page, label: str) -> None:
    page.locator(".table-jobs").get_by_role("link", name=label, exact=True).click()
    expect(page.locator(".asked-at")).to_contain_text("as Ana (seat 1)")


def within_screens(page, locator, screens: int = 1) -> None:
    """Within that many screens of the top of the page (on the first: as the page opens, without
    scrolling)."""
    top = page.evaluate("() => window.scrollY")
    box = locator.bounding_box()
    assert box is not None, locator
    assert box["y"] + top + box["height"] <= screens * SCREEN, (locator, box["y"] + top)


def on_first_screen(page, locator) -> None:
    within_screens(page, locator, 1)


@pytest.fixture
def phone(browser, site):
    with phone_page(browser, site) as page:
        yield page


def test_a_star_realms_academy_turn_at_a_table_starts_with_the_hand(phone, site):
    seat_at_table(phone, site, "star-realms-academy")
    open_from_table(phone, "Break down a turn")
    button = phone.get_by_role("button", name="Break down the turn")
    on_first_screen(phone, phone.get_by_label("Hand card 1", exact=True))
    expect(button).to_be_in_viewport(ratio=1)
    # What the table knows is filled in, folded away, and said in its summary.
    known = phone.locator("details.board-known")
    expect(known).not_to_have_attribute("open", "")
    expect(known.locator("> summary")).to_have_text(
        "The board as the table has it: Ana, 15 Health, 0 Coins; Ben, 15 Health, 1 Coin"
    )
    expect(phone.locator("#active-name")).to_be_hidden()
    expect(phone.locator("#active-name")).to_have_value("Ana")
    expect(phone.locator("#opponent-health")).to_have_value("15")
    expect(phone.locator("#opponent-coins")).to_have_value("1")
    assert_accessible(phone, "a turn asked at a table")

    # Ana's turn (tests/test_tables_star_realms_academy.py's ANA_HITS): the button is on the
    # screen at the last action too.
    for index, card in enumerate(["Viper", "Imperial Frigate", "Scout"], start=1):
        phone.get_by_label(f"Hand card {index}", exact=True).fill(card)
    for index, card in enumerate(
        ["Freighter", "Corvette", "The Hive", "Barter World", "Survey Ship"], start=1
    ):
        phone.get_by_label(f"Shop card {index}").fill(card)
    phone.locator("#action-1").select_option("play")
    phone.locator("#card-1").fill("Viper")
    phone.locator("#action-2").select_option("play")
    phone.locator("#card-2").fill("Imperial Frigate")
    phone.locator("#action-3").select_option("attack")
    phone.locator("#target-3").fill("health")
    phone.locator("#amount-3").fill("3")
    phone.locator("#action-4").select_option("end_turn")
    phone.locator("#action-4").scroll_into_view_if_needed()
    expect(button).to_be_in_viewport(ratio=1)

    # Its neighbour first: Ana's Health said otherwise than the table has it is refused, by
    # its field, in the folded part, which opens.
    known.locator("> summary").click()
    phone.locator("#active-health").fill("14")
    button.click()
    expect(known).to_have_attribute("open", "")
    expect(phone.locator("#active-health")).to_have_attribute("aria-invalid", "true")
    expect(phone.locator("#active-health-error")).to_contain_text("15")
    # As the table has it, the turn is recorded: Ben's Health goes to 12.
    phone.locator("#active-health").fill("15")
    phone.get_by_role("button", name="Break down the turn").click()
    expect(phone.locator("#sra-result")).to_contain_text("12")
    phone.get_by_role("link", name="Back to the table").first.click()
    expect(phone.locator(".table-history li").last).to_contain_text("Ana")


def test_a_factions_move_at_a_table_starts_with_the_seats_hand(phone, site):
    seat_at_table(phone, site, "factions", setup=SETUP)
    open_from_table(phone, "Check a move")
    button = phone.get_by_role("button", name="Check the move")
    own = phone.locator("fieldset.own-hand")
    expect(own.locator("legend")).to_have_text("Ana's hand")
    on_first_screen(phone, own.locator("select").first)
    expect(button).to_be_in_viewport(ratio=1)
    # Ana's hand is in the first part only (one field each); Ben's, the players, the factions
    # and whose turn are the table's, folded away.
    expect(phone.locator("#p1-hand-1")).to_have_count(1)
    assert own.locator("#p1-hand-1").count() == 1
    known = phone.locator("details.table-known")
    expect(known).not_to_have_attribute("open", "")
    expect(known.locator("> summary")).to_contain_text("Ana's turn")
    expect(phone.locator("#p2-hand-1")).to_be_hidden()
    expect(phone.locator("#p1-name")).to_have_value("Ana")
    expect(phone.locator("#f-ashen-peaks-controller")).to_have_value("2")
    expect(phone.locator("#f-ashen-peaks-ember-smith-defeated")).to_be_checked()
    assert_accessible(phone, "a move asked at a table")

    phone.locator("#p1-hand-1").select_option("attack@amber-coast")
    phone.locator("#action").select_option("play")
    phone.locator("#card").select_option("attack@amber-coast")
    phone.locator("#target_unit").select_option("ashen-peaks@peak-sentinel")
    expect(button).to_be_in_viewport(ratio=1)

    # Its neighbour first: a defeated unit the table has alive is refused by its field, and the
    # folded part opens to show it.
    known.locator("> summary").click()
    phone.locator("#f-ashen-peaks-peak-sentinel-defeated").check()
    button.click()
    expect(known).to_have_attribute("open", "")
    expect(phone.locator("#move-result")).to_contain_text("Peak Sentinel")
    phone.locator("#f-ashen-peaks-peak-sentinel-defeated").uncheck()
    phone.get_by_role("button", name="Check the move").click()
    expect(phone.locator("#move-result h2").first).to_contain_text("Ruling")
    expect(phone.locator("#move-result")).to_contain_text("Legal")


def tap(page, slug: str) -> None:
    show_tile(page, slug)
    page.locator(f"#tile-{slug}").click()
    expect(page.locator(f"#tile-{slug}")).to_have_attribute("aria-pressed", "true")


def test_score_a_hand_at_a_table_has_its_button_on_screen_and_the_tiles_before_the_steps(
    phone, site
):
    code = seat_at_table(phone, site, "star-trek-missions")
    open_from_table(phone, "Score a hand")
    enter = phone.get_by_role("button", name="Enter this hand at the table")
    expect(enter).to_be_in_viewport(ratio=1)
    on_first_screen(phone, phone.locator("label[for='group-captain']"))
    for slug in [
        "commander-kurn",
        "commander-sela",
        "lieutenant-worf",
        "ambassador-kehleyr",
        "photon-torpedoes",
        "bridge",
        "diplomatic-conference",
    ]:
        tap(phone, slug)
    expect(phone.locator(".score-total__value")).to_have_text("66")
    expect(enter).to_be_in_viewport(ratio=1)
    # At a table the tiles come before the breakdown (on the plain page, after it:
    # tests/browser/test_stm_score_phone.py).
    assert (
        phone.locator("#cards").bounding_box()["y"]
        < phone.locator("#score-result").bounding_box()["y"]
    )
    assert_accessible(phone, "a hand of 66 at a table")
    enter.click()
    expect(phone.locator("#at-table")).to_contain_text("Entered at the table as Ana (seat 1)")

    # The correction: the hand comes back (seven short rows), the tiles' groups within two
    # screens and before the breakdown, the button on screen.
    phone.goto(f"{site}/t/{code}")
    open_from_table(phone, "Score a hand")
    expect(phone.locator("#hand .hand-card")).to_have_count(7)
    within_screens(phone, phone.locator("label[for='group-location']"), 2)
    assert (
        phone.locator("#cards").bounding_box()["y"]
        < phone.locator("#score-result").bounding_box()["y"]
    )
    expect(phone.get_by_role("button", name="Enter this hand at the table")).to_be_in_viewport(
        ratio=1
    )
