"""Issue 23, "Forms that refuse a correct position", on a 390×844 touch phone: each page takes
an ordinary table as players enter it (and still refuses its impossible neighbour)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.phone import phone_page

pytestmark = pytest.mark.browser


@pytest.fixture
def phone(browser, site):
    with phone_page(browser, site) as page:
        yield page


def test_factions_the_controller_follows_a_players_own_faction(phone, site):
    phone.goto(site + "/games/factions/score/")
    phone.get_by_label("Player 1's name").fill("Ana")
    phone.get_by_label("Player 2's name").fill("Ben")
    # Seat order gave Ana and Ben the first two factions; they choose two others.
    phone.locator("#p1-own").select_option("frost-reach")
    phone.locator("#p2-own").select_option("verdant-march")
    expect(phone.locator("#f-frost-reach-controller")).to_have_value("1")
    expect(phone.locator("#f-verdant-march-controller")).to_have_value("2")
    expect(phone.locator("#f-amber-coast-controller")).to_have_value("")
    expect(phone.locator("#f-ashen-peaks-controller")).to_have_value("")
    phone.get_by_role("button", name="Show the standings").click()
    result = phone.locator("#standings-result")
    expect(result).to_contain_text("No winner yet")
    expect(result).to_contain_text("Ana controls Frost Reach (own faction)")
    expect(result).not_to_contain_text("cannot exist")

    # A controller chosen by hand stays: Ben conquered Ana's Frost Reach, whose units are all
    # defeated; Ana changing her mind later does not undo it.
    phone.locator("#f-frost-reach-controller").select_option("2")
    phone.locator("#p1-own").select_option("amber-coast")
    expect(phone.locator("#f-frost-reach-controller")).to_have_value("2")
    expect(phone.locator("#f-amber-coast-controller")).to_have_value("1")


def test_star_trek_missions_a_reloaded_table_shows_save_and_its_links(phone, site):
    """The table opened from its address (the link back to it, or a reload of that link) is
    scored, not saved: a Save button and the link back are there before any edit."""
    phone.goto(site + "/games/star-trek-missions/table/")
    field = phone.locator("#new-player")
    field.fill("Ana")
    field.press("Enter")
    for name in ("Lieutenant Worf", "Commander Kurn", "Bridge"):
        count = phone.locator("#table-current .hand-card").count()
        card = phone.get_by_label("Add a card to Ana's hand")
        card.fill(name)
        card.press("Enter")
        expect(phone.locator("#table-current .hand-card")).to_have_count(count + 1)
    back = phone.locator("#standings a.share__form-url")
    phone.goto(site + back.get_attribute("href"))
    phone.reload()
    standings = phone.locator("#standings")
    expect(standings.get_by_role("heading", name="Not saved")).to_be_visible()
    expect(standings.locator("a.share__form-url")).to_be_visible()
    expect(standings.locator("a.share__url")).to_have_count(0)
    save = standings.get_by_role("button", name="Save and get a link")
    expect(save).to_be_visible()
    save.click()
    expect(standings.locator("a.share__url")).to_be_visible()
    expect(standings.get_by_role("heading", name="Share this table")).to_be_visible()


@pytest.mark.parametrize("typed", ["Ben", "their Health"])
def test_star_realms_academy_an_attack_on_the_opponent_by_name(phone, site, typed):
    phone.goto(site + "/games/star-realms-academy/check-move/")
    phone.locator("#opponent-name").fill("Ben")
    phone.locator("#active-combat").fill("2")
    # The pool's source (SRA-R8): the Frigate that gave it is in play.
    phone.get_by_label("Ship in play 1", exact=True).fill("Imperial Frigate")
    phone.locator("#action-0").select_option("attack")
    phone.locator("#target-0").fill(typed)
    phone.locator("#amount-0").fill("2")
    phone.get_by_role("button", name="Check the move").click()
    result = phone.locator("#sra-result")
    expect(result.locator("h2").first).to_have_text("Ruling: Legal")
    expect(result).to_contain_text("Ben")
    expect(result).to_contain_text("13")  # Ben's Health after 2 Combat
