"""Issue 23, "Words a player reads", on a 390×844 touch phone: the home page puts each game's
main job in the first screen, a long rule is quoted by its deciding sentence, a Star Trek:
Missions turn's legal moves are grouped, and a provisional value is said once, in words."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.phone import PHONE, phone_page

pytestmark = pytest.mark.browser


@pytest.fixture
def phone(browser, site):
    with phone_page(browser, site) as page:
        yield page


def test_the_home_page_puts_each_games_main_job_in_the_first_screen(phone, site):
    phone.goto(site + "/")
    quick = phone.get_by_role("navigation", name="At the table")
    expected = {
        "Academy Credits": "Score a round",
        "Factions": "Standings",
        "Star Realms Academy": "Break down a turn",
        "Star Trek: Missions": "Score a hand",
    }
    for game, job in expected.items():
        link = quick.get_by_role("link", name=f"{job} {game}")
        expect(link).to_be_visible()
        box = link.bounding_box()
        assert box["y"] + box["height"] <= PHONE["viewport"]["height"], (game, box)
        assert box["height"] >= 44  # a thumb's target
    assert phone.evaluate("() => window.scrollY") == 0
    # Tapping one opens the page of that name.
    quick.get_by_role("link", name="Score a hand Star Trek: Missions").tap()
    expect(phone.get_by_role("heading", level=1)).to_have_text("Score a hand")


HAND = [
    "Captain Jean-Luc Picard",
    "Commander William Riker",
    "Lieutenant Worf",
    "Photon Torpedoes",
    "Bridge",
    "Away Team",
    "Borg Cube",
]


def fill_turn(page, hand, discard_area):
    for index, name in enumerate(hand, start=1):
        page.get_by_label(f"Card {index}", exact=True).fill(name)
    for index, name in enumerate(discard_area, start=1):
        page.get_by_label(f"Discard area card {index}", exact=True).fill(name)


def test_star_trek_missions_a_turns_legal_moves_are_grouped_and_the_decks_asked_only_for_a_draw(
    phone, site
):
    phone.goto(site + "/games/star-trek-missions/check-move/")
    fill_turn(phone, HAND, ["Tricorder", "Shields", "Time Distortion"])
    # No deck counts: a take from the discard area is ruled without them.
    phone.get_by_label("What the player did").select_option("take_discard")
    phone.get_by_label("Card taken from the discard area").fill("Tricorder")
    phone.get_by_label("Card discarded", exact=True).fill("Tricorder")
    phone.get_by_role("button", name="Check the turn").click()
    result = phone.locator("#turn-result")
    expect(result.locator("h2").first).to_have_text("Ruling: Illegal")
    groups = result.locator("h4.alternatives__group")
    expect(groups).to_have_count(1)
    expect(groups.first).to_contain_text("Take from the discard area")
    count = int(groups.first.locator(".alternatives__count").inner_text().strip("( moves)"))
    lines = result.locator("ul.alternatives li")
    expect(lines).to_have_count(3)  # one line per card taken, not one per move
    assert count > 3
    expect(lines.nth(0)).to_contain_text("Take Tricorder, then discard one of: ")
    result.locator("h4.alternatives__group").first.scroll_into_view_if_needed()

    # A draw without the Galaxy deck's count: needs information, naming it.
    phone.get_by_label("What the player did").select_option("draw_galaxy")
    phone.get_by_label("Card drawn", exact=True).fill("Spock")
    phone.get_by_label("Card discarded", exact=True).fill("Bridge")
    phone.get_by_role("button", name="Check the turn").click()
    expect(result.locator("h2").first).to_have_text("Ruling: Needs information")
    expect(result).to_contain_text("The number of cards left in the Galaxy deck.")
    phone.get_by_label("Galaxy deck").fill("20")
    phone.get_by_role("button", name="Check the turn").click()
    expect(result.locator("h2").first).to_have_text("Ruling: Legal")


def test_sra_a_ruling_quotes_the_deciding_sentence_with_a_link(phone, site):
    phone.goto(site + "/games/star-realms-academy/check-move/")
    phone.locator("#opponent-name").fill("Ben")
    phone.locator("#opponent-base-1").fill("The Hive")
    phone.locator("#active-combat").fill("2")
    phone.get_by_label("Ship in play 1", exact=True).fill("Imperial Frigate")  # SRA-R8
    phone.locator("#action-0").select_option("attack")
    phone.locator("#target-0").fill("Ben")
    phone.locator("#amount-0").fill("1")
    phone.get_by_role("button", name="Check the move").click()
    result = phone.locator("#sra-result")
    expect(result.locator("h2").first).to_have_text("Ruling: Illegal")
    quote = result.locator("blockquote.rule-quote__text")
    expect(quote).to_contain_text("Health")
    assert quote.bounding_box()["height"] < 150  # a sentence, not 1.5 phone screens
    link = result.locator("figure.rule-quote figcaption a")
    expect(result.locator("figure.rule-quote figcaption")).to_contain_text("(the whole section)")
    quote.scroll_into_view_if_needed()
    link.click()
    expect(phone.locator(":target")).to_be_visible()


def test_a_provisional_value_is_said_once_in_words(phone, site):
    """Star Realms Academy's turn (four provisional values along it) and Star Trek: Missions'
    hand with Lieutenant Commander Data: one warning each, no file path, no code."""
    phone.goto(site + "/games/star-realms-academy/score/")
    phone.locator("#opponent-name").fill("Ben")
    for index, name in enumerate(["Scout", "Scout", "Viper"], start=1):
        phone.locator(f"#hand-{index}").fill(name)
    phone.locator("#action-1").select_option("play")
    phone.locator("#card-1").fill("Scout")
    phone.locator("#action-2").select_option("play")
    phone.locator("#card-2").fill("Viper")
    phone.get_by_role("button", name="Break down the turn").click()
    result = phone.locator("#sra-result")
    expect(result.locator("h2").first).to_be_visible()
    expect(result).to_contain_text("Provisional")
    text = result.inner_text()
    assert text.count("Provisional") == 1, text
    assert "SRA-F" not in text and ".json" not in text

    phone.goto(site + "/games/star-trek-missions/score/")
    field = phone.locator("#add-card")
    for name in ["Lieutenant Commander Data", "Bridge", "Away Team"]:
        field.fill(name)
        field.press("Enter")
    expect(phone.locator("#score-live")).to_contain_text("Provisional")
    text = phone.locator("main").inner_text()
    assert text.count("Provisional:") == 1, text
    assert "shared/" not in text and ".json" not in text


def test_no_doubled_brackets_and_one_name_per_job(phone, site):
    phone.goto(site + "/games/star-trek-missions/score/")
    live = phone.locator("#score-live")
    for count, name in enumerate(
        ["Bridge", "Captain Jean-Luc Picard", "Commander William Riker"], start=1
    ):
        field = phone.locator("#add-card")
        field.fill(name)
        field.press("Enter")
        expect(live).to_contain_text(f"{count} card{'s' if count > 1 else ''}:")
    steps = phone.locator("main").text_content()  # the breakdown, opened or not
    assert "— Federation (Personnel or System)" in steps, steps
    assert "))" not in steps

    # The home page's name of each ruling job is the heading of the page it opens.
    for game in ("academy-credits", "star-trek-missions", "star-realms-academy", "factions"):
        phone.goto(site + f"/games/{game}/")
        link = phone.locator("a.job--ready", has_text="Check a move")
        expect(link).to_have_count(1)
        link.tap()
        expect(phone.get_by_role("heading", level=1)).to_have_text("Check a move")
