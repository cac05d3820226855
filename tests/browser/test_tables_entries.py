"""No entry is lost and no one has to retry (issue 29). Four phones entering their hands from
"Score a hand" in the same second is the game night's test (tests/browser/test_game_night.py,
through the printed address, on the same deployed app). Here, the one real overlap: the same
seat's hand entered from two pages opened at the same version: the second page says next to its
button what changed, keeps its hand (scored) and enters it with one more tap; and a round form
kept through a conflict.

The site is the app as deployed (tests/tables_server.py: gunicorn, three workers) on SQLite, or on
PostgreSQL under scripts/with-postgres."""

import pytest
from playwright.sync_api import expect

from tests.browser.phone import PHONE
from tests.browser.star_trek_missions_tiles import show_tile

pytestmark = [pytest.mark.browser, pytest.mark.table]

# Seven cards each (six Galaxy cards and a Mission), no card in two hands.
HANDS = {
    "Ana": [
        "ambassador-kehleyr",
        "ambassador-sarek",
        "batleth",
        "bridge",
        "captain-jean-luc-picard",
        "chancellor-gowron",
        "away-team",
    ],
    "Ben": [
        "commander-bruce-maddox",
        "commander-kurn",
        "commander-sela",
        "commander-tomalak",
        "commander-william-riker",
        "computer",
        "computer-virus",
    ],
    "Cy": [
        "counselor-deanna-troi",
        "crystal-entity",
        "daimon-bok",
        "daimon-tog",
        "doctor-beverly-crusher",
        "engine-room",
        "conflicting-orders",
    ],
    "Dee": [
        "hand-phaser",
        "holodeck-1",
        "holodeck-2",
        "james-moriarty",
        "leah-brahms",
        "lieutenant-commander-data",
        "diplomatic-conference",
    ],
}


def phone(browser):
    context = browser.new_context(**PHONE, locale="en-GB")
    context.set_default_timeout(20_000)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    return context, page


def start_table(browser, site, players):
    context, host = phone(browser)
    host.goto(site + "/t/")
    host.get_by_label("Players, one name a line, in seat order").fill("\n".join(players))
    host.get_by_role("button", name="Start the table").click()
    expect(host.get_by_role("heading", level=1)).to_have_text("Star Trek: Missions table")
    link = host.url  # the table's own address (on loopback the page shows no link)
    return context, host, link


def claim(page, link, name):
    page.goto(link)
    page.get_by_role("button", name=f"I am {name}").click()
    expect(page.locator(".lede")).to_contain_text(f"You are {name}")


def open_score_a_hand(page):
    page.locator(".table-jobs").get_by_role("link", name="Score a hand").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Score a hand")


def pick(page, slugs):
    for count, slug in enumerate(slugs, start=1):
        show_tile(page, slug)
        page.locator(f"#tile-{slug}").click()
        expect(page.locator(f"#tile-{slug}")).to_have_attribute("aria-pressed", "true")
        expect(page.locator("#hand .hand-card")).to_have_count(count)


def card_names(page, slugs):
    return [page.locator(f"#tile-{slug} .pick-tile__name").inner_text() for slug in slugs]


def test_the_same_seats_hand_from_two_pages_says_what_changed_and_keeps_the_hand(
    browser, tables_site
):
    site = tables_site
    host_context, host, link = start_table(browser, site, ["Ana", "Ben"])
    code = link.rstrip("/").rsplit("/", 1)[1]
    context, first = phone(browser)
    claim(first, link, "Ana")
    second = context.new_page()  # the same phone, a second tab: the same seat
    second.errors = []
    second.on("pageerror", lambda error: second.errors.append(str(error)))
    second.goto(link)
    open_score_a_hand(first)
    open_score_a_hand(second)
    pick(first, HANDS["Ana"])
    first.locator("#at-table-button").click()
    expect(first.locator("#at-table")).to_contain_text("Entered at the table as Ana")

    pick(second, HANDS["Dee"])
    second.locator("#at-table-button").click()
    conflict = second.locator("#at-table #form-conflict")
    expect(conflict).to_contain_text("This hand is not entered yet.")
    expect(conflict).to_contain_text(
        "Since you opened this form, Ana (seat 1) sent entry 1 (hand)."
    )
    # The hand is kept, and scored as the page scores it: nothing says "Not scored".
    expect(second.locator("#hand .hand-card")).to_have_count(7)
    expect(second.locator(".score-total__value")).to_be_visible()
    expect(second.get_by_text("Not scored")).to_have_count(0)
    table = host.request.get(f"{site}/api/tables/{code}/").json()
    assert len(table["events"]) == 1
    assert table["state"]["cards"][0] == card_names(second, HANDS["Ana"])

    # One more tap enters it, on the table as it is now.
    second.locator("#at-table-button").click()
    expect(second.locator("#at-table")).to_contain_text("Entered at the table as Ana")
    expect(second.locator("#form-conflict")).to_have_count(0)
    table = host.request.get(f"{site}/api/tables/{code}/").json()
    assert [event["seat"] for event in table["events"]] == [1, 1]
    assert table["state"]["cards"][0] == card_names(second, HANDS["Dee"])
    for page in (first, second, host):
        assert not page.errors, page.errors
    context.close()
    host_context.close()


def fill_round(page, *, ana_discards: str) -> None:
    """The round on the table's own form: Ana last standing, Ben out."""
    page.locator("fieldset", has_text="Ben").get_by_label("Still in the round").uncheck()
    page.get_by_label("Ana's discards").fill(ana_discards)
    page.get_by_label("Ben's discards").fill("Lura Thok")
    page.get_by_label("Cards left in the deck").fill("7")


def round_kept(page, *, ana_discards: str) -> None:
    expect(
        page.locator("fieldset", has_text="Ben").get_by_label("Still in the round")
    ).not_to_be_checked()
    expect(
        page.locator("fieldset", has_text="Ana").get_by_label("Still in the round")
    ).to_be_checked()
    expect(page.get_by_label("Ana's discards")).to_have_value(ana_discards)
    expect(page.get_by_label("Ben's discards")).to_have_value("Lura Thok")
    expect(page.get_by_label("Cards left in the deck")).to_have_value("7")


def test_the_academy_credits_round_form_is_kept_through_a_conflict(browser, tables_site):
    site = tables_site
    host_context, host = phone(browser)
    host.goto(site + "/t/?game=academy-credits")
    host.get_by_label("Players, one name a line, in seat order").fill("Ana\nBen")
    host.get_by_role("button", name="Start the table").click()
    expect(host.get_by_role("heading", level=1)).to_have_text("Academy Credits table")
    link = host.url  # the table's own address (on loopback the page shows no link)
    ben_context, ben = phone(browser)
    claim(ben, link, "Ben")

    # Ben types the round; meanwhile Ana's phone claims her seat. That is no change of the
    # round's: Ben's round is scored as typed.
    fill_round(ben, ana_discards="Charles Vance, 4")
    ana_context, ana = phone(browser)
    claim(ana, link, "Ana")
    ben.get_by_role("button", name="Score the round").click()
    expect(ben.locator("#table-live")).to_contain_text("Score sheet after round 1")
    expect(ben.locator("#form-conflict")).to_have_count(0)

    # Ben types the next round; the host scores one first (from the page as it is now).
    fill_round(ben, ana_discards="1, 4")
    host.reload()
    expect(host.locator("#table-live")).to_contain_text("Score sheet after round 1")
    fill_round(host, ana_discards="1, 4")
    host.get_by_role("button", name="Score the round").click()
    expect(host.locator("#table-live")).to_contain_text("Score sheet after round 2")
    ben.get_by_role("button", name="Score the round").click()
    # Next to the button: what changed; everything Ben typed is still there.
    conflict = ben.locator("#round-form #form-conflict")
    expect(conflict).to_contain_text("This round is not entered yet.")
    expect(conflict).to_contain_text(
        "Since you opened this form, Ana (seat 1) sent entry 2 (round)."
    )
    round_kept(ben, ana_discards="1, 4")
    expect(ben.locator("#table-live")).to_contain_text("Score sheet after round 2")
    # One tap sends it, on the table as it is now.
    ben.get_by_role("button", name="Score the round").click()
    expect(ben.locator("#table-live")).to_contain_text("Score sheet after round 3")
    expect(ben.locator("#form-conflict")).to_have_count(0)
    for context, page in ((host_context, host), (ben_context, ben), (ana_context, ana)):
        assert not page.errors, page.errors
        context.close()
