"""A Star Trek: Missions table's hand form with the hand's choices, in a real browser (issue 25):
the host starts a table on a desktop; Ana, on a 390 px phone, claims her seat by the link, types
a hand holding Mysterious Plague on the table's own form, and its choice appears under the cards
(with JavaScript as soon as she leaves the cards, htmx; without, by "Show this hand's choices").
She names Human instead of the best lifeform and enters the hand: the table's page shows the
hand's score with her choice, the same total the stateless score endpoint gives for that hand and
choice, and the total the cards' text gives. Then the correction: her hand comes back filled in
(the cards and her choice), she changes one card and enters it again. The host enters Ben's hand
for him, and both pages show the standings with Ana's corrected total (the host's by polling).

Each state is read as a player reads it, after waiting for what the page does; axe-core and the
visible-text check run on the new states (the choices shown, the hand entered)."""

import pytest
from playwright.sync_api import expect

from tests.browser.accessibility import assert_accessible
from tests.browser.phone import PHONE, POLLED
from tests.browser.test_tables_rounds import tab_walk
from tests.browser.test_visible_text import report
from tests.browser.watched import watched_page

pytestmark = [pytest.mark.browser, pytest.mark.table]

DESKTOP = {"viewport": {"width": 1280, "height": 800}}

# Mysterious Plague names a lifeform: 8 for each card of it, 5 if Human. By the cards' text:
# Ambassador Sarek 0 (no non-Federation Captain), Spock 6 (with Ambassador Sarek), Commander
# William Riker 0 (no Transporter, Troi or Away Team), Vice Admiral Nakamura 7 (Riker is another
# Federation Command). Vulcan: Sarek and Spock, 2 × 8 = 16 (the best: 29); Human: Riker and
# Nakamura, 2 × 5 = 10, so 6 + 7 + 10 = 23.
PLAGUE = [
    "Mysterious Plague",
    "Ambassador Sarek",
    "Spock",
    "Commander William Riker",
    "Vice Admiral Nakamura",
]
HUMAN = {"Mysterious Plague": {"lifeform": "human"}}
WITH_HUMAN = 23
# The correction: Commander Bruce Maddox for Riker. Maddox 0 (no Android or Hologram) and no
# Command, so Nakamura 0; Spock 6; Human: Maddox and Nakamura, 2 × 5 = 10: 16.
CORRECTED = [
    "Mysterious Plague",
    "Ambassador Sarek",
    "Spock",
    "Commander Bruce Maddox",
    "Vice Admiral Nakamura",
]
CORRECTED_WITH_HUMAN = 16
HOLODECK = ["Holodeck 1", "Leah Brahms"]  # 13, as tests/browser/test_tables_page.py reads it


def stateless_total(page, site, hand, choices) -> int:
    """The stateless score endpoint's total for the hand and choices (API.md)."""
    response = page.request.post(
        site + "/api/games/star-trek-missions/score/",
        data={"hand": hand, "choices": choices},
        timeout=60_000,
    )
    assert response.status == 200, response.text()[:300]
    return response.json()["total"]


def checked(page, javascript: bool, state: str) -> None:
    """axe-core on the state (it runs in the page: with JavaScript only; the page without it is
    the same HTML, the one htmx swap aside)."""
    if javascript:
        assert_accessible(page, state)


def show_the_choices(page, javascript: bool) -> None:
    """Ana's way to see the choices of the cards she typed: with htmx, leaving the cards; without
    JavaScript, the button (the page comes back with them)."""
    if javascript:
        page.get_by_label("Cards, one name a line").press("Tab")
    else:
        page.get_by_role("button", name="Show this hand's choices").click()
    expect(page.locator("#hand-choices legend")).to_have_text("Mysterious Plague")


@pytest.mark.parametrize("javascript", [True, False], ids=["htmx", "no-javascript"])
def test_a_phone_enters_a_hand_with_its_choice_at_the_table_and_corrects_it(
    browser, site, javascript
):
    with (
        watched_page(browser, site, timeout=15_000, **DESKTOP, locale="en-GB") as host,
        watched_page(
            browser, site, timeout=15_000, **PHONE, locale="en-GB", java_script_enabled=javascript
        ) as ana,
    ):
        # The expected totals come from the cards' text (above); the endpoint must agree.
        assert stateless_total(host, site, PLAGUE, HUMAN) == WITH_HUMAN
        assert stateless_total(host, site, CORRECTED, HUMAN) == CORRECTED_WITH_HUMAN

        host.goto(site + "/t/")
        host.get_by_label("Players, one name a line, in seat order").fill("Ana\nBen")
        host.get_by_role("button", name="Start the table").click()
        expect(host.get_by_role("heading", level=1)).to_have_text("Star Trek: Missions table")
        link = host.url  # the table's address: on loopback the page shows no link (issue 29)

        ana.goto(link)
        ana.get_by_role("button", name="I am Ana (seat 1)").click()
        expect(ana.locator(".lede")).to_have_text("You are Ana (seat 1).")
        expect(ana.locator("#hand-choices")).to_contain_text(
            "shows its choices here once the cards are typed"
        )

        # The hand, then its choice: Human rather than the best lifeform (Vulcan).
        ana.get_by_label("Cards, one name a line").fill("\n".join(PLAGUE))
        show_the_choices(ana, javascript)
        lifeform = ana.locator("#hand-choices").get_by_label("Lifeform")
        expect(lifeform).to_have_value("")  # "Best (let Tableside choose)"
        checked(ana, javascript, "the table's hand form with a choice")
        if javascript:
            # Every control, the choice's among them, by keyboard and on screen, from the top
            # (the walk starts where focus last was: Tab left the cards, so start at the body).
            ana.evaluate(
                "() => { const body = document.body; body.tabIndex = -1; body.focus();"
                " body.removeAttribute('tabindex'); }"
            )
            tab_walk(ana)
        found = report(ana, "/t/<code>, a hand's choices shown")
        # Nothing is entered until the hand is: the history is still empty.
        expect(ana.locator(".table-history")).to_have_count(0)
        lifeform.select_option(label="Human")
        ana.get_by_role("button", name="Enter the hand").click()

        live = ana.locator("#table-live")
        expect(live).to_contain_text(f"Ana entered a hand: {WITH_HUMAN} points")
        expect(ana.locator("#hand-entered")).to_have_text(
            f"Your hand as entered: {WITH_HUMAN} points. To correct it, change it below and "
            "enter it again."
        )
        choice = ana.locator("#hand-choices fieldset")
        expect(choice.locator("legend")).to_have_text("Mysterious Plague: Human")
        expect(choice).to_contain_text("Your choice")
        expect(live.locator(".table-players tbody tr").first).to_contain_text("Entered")
        # The host's page, never reloaded, sees it by polling.
        expect(host.locator("#table-live")).to_contain_text(
            f"Ana entered a hand: {WITH_HUMAN} points", timeout=POLLED
        )
        checked(ana, javascript, "a hand entered with its choice")
        found += report(ana, "/t/<code>, a hand entered with its choice")

        # The correction: the hand comes back filled in, cards and choice; one card changes.
        cards = ana.get_by_label("Cards, one name a line")
        expect(cards).to_have_value("\n".join(PLAGUE))
        expect(lifeform).to_have_value("human")
        cards.fill("\n".join(CORRECTED))
        ana.get_by_role("button", name="Enter the hand").click()
        expect(live).to_contain_text(f"Ana entered a hand: {CORRECTED_WITH_HUMAN} points")
        expect(ana.locator("#hand-entered")).to_contain_text(
            f"Your hand as entered: {CORRECTED_WITH_HUMAN} points."
        )
        expect(cards).to_have_value("\n".join(CORRECTED))
        expect(lifeform).to_have_value("human")

        # The host enters Ben's hand for him; the standings use Ana's choice.
        host.get_by_label("Act for the seat").select_option(label="2: Ben")
        host.get_by_label("Cards, one name a line").fill("\n".join(HOLODECK))
        host.get_by_role("button", name="Enter the hand").click()
        expect(host.locator("#hand-entered")).to_contain_text("Seat 2's hand as entered: 13 points")
        expect(host.get_by_label("Act for the seat")).to_have_value("2")
        for page in (host, ana):
            if page is ana and not javascript:
                ana.reload()  # without JavaScript the page shows what the others did on reload
            standings = page.locator("#table-live .table-standings li")
            expect(page.locator("#table-live")).to_contain_text("Ana wins.", timeout=POLLED)
            expect(standings.first).to_have_text(f"Ana {CORRECTED_WITH_HUMAN} points")
            expect(standings.nth(1)).to_contain_text("Ben 13 points")
            # Every hand is in: the table offers "Score the table", filled in with them all.
            expect(page.get_by_role("link", name="Score the table", exact=True)).to_be_visible()
        checked(ana, javascript, "the standings after a corrected hand")
        found += report(ana, "/t/<code>, the standings after a corrected hand")
        assert not found, "\n".join(found)
        widths = ana.evaluate(
            "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
        )
        assert widths[0] <= widths[1], f"horizontal scroll: {widths}"


def test_score_a_hand_opened_from_the_table_comes_with_the_choice_entered_on_the_form(
    browser, site
):
    """The two ways to enter a hand agree: the game's "Score a hand" opened from the table
    comes filled in with the hand and the choice entered on the table's form, and scores it the
    same."""
    with watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as ana:
        ana.goto(site + "/t/")
        ana.get_by_label("Players, one name a line, in seat order").fill("Ana\nBen")
        ana.get_by_role("button", name="Start the table").click()
        expect(ana.get_by_role("heading", level=1)).to_have_text("Star Trek: Missions table")
        link = ana.url  # the table's address: on loopback the page shows no link (issue 29)
        ana.goto(link)
        ana.get_by_role("button", name="I am Ana (seat 1)").click()
        expect(ana.locator(".lede")).to_have_text("You are Ana (seat 1).")
        ana.get_by_label("Cards, one name a line").fill("\n".join(PLAGUE))
        ana.get_by_role("button", name="Show this hand's choices").click()
        ana.locator("#hand-choices").get_by_label("Lifeform").select_option(label="Human")
        ana.get_by_role("button", name="Enter the hand").click()
        expect(ana.locator("#table-live")).to_contain_text(
            f"Ana entered a hand: {WITH_HUMAN} points"
        )

        ana.locator(".table-jobs").get_by_role("link", name="Score a hand").click()
        expect(ana.get_by_role("heading", level=1)).to_have_text("Score a hand")
        expect(ana.locator("#hand .hand-card")).to_have_count(len(PLAGUE))
        expect(ana.locator("#choices").get_by_label("Lifeform")).to_have_value("human")
        expect(ana.locator(".score-total__value")).to_have_text(str(WITH_HUMAN))
