"""A game's form opened from a table while the table moves on (issue 29).

Academy Credits' "Score a round" opened from the table on Ben's phone: Ana scores a round first.
Ben's tap is refused next to the button, saying what changed; the form then shows the credits the
table has now (not the ones it was opened with, which the table would refuse), keeps everything
Ben typed, and one more tap enters it.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.phone import PHONE, POLLED
from tests.browser.watched import watched_page

pytestmark = [pytest.mark.browser, pytest.mark.table]


def start_table(host, site: str, game: str, players: list[str]) -> str:
    """The host starts the table; its address."""
    host.goto(f"{site}/t/?game={game}")
    host.get_by_label("Players, one name a line, in seat order").fill("\n".join(players))
    host.get_by_role("button", name="Start the table").click()
    expect(host.get_by_role("heading", level=1)).to_contain_text("table")
    return host.url


def claim(page, link: str, name: str) -> None:
    page.goto(link)
    page.get_by_role("button", name=f"I am {name}").click()
    expect(page.locator(".lede")).to_contain_text(f"You are {name}")


def table_state(page, site: str, link: str) -> dict:
    code = link.rstrip("/").rsplit("/", 1)[1]
    return page.request.get(f"{site}/api/tables/{code}/").json()


def test_the_academy_credits_round_page_after_a_conflict_shows_the_tables_credits(browser, site):
    with (
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as host,
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as ana,
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as ben,
    ):
        link = start_table(host, site, "academy-credits", ["Ana", "Ben"])
        claim(ana, link, "Ana")
        claim(ben, link, "Ben")

        # Ben opens Score a round from the table: filled in with the credits of the table (0).
        ben.locator(".table-jobs").get_by_role("link", name="Score a round").click()
        expect(ben.get_by_role("heading", level=1)).to_have_text("Score a round")
        expect(ben.locator("#player-1-credits")).to_have_value("0")
        expect(ben.locator("#player-2-credits")).to_have_value("0")
        ben.locator("[name=player-2-out]").check()
        ben.locator("#player-1-discards").fill("Charles Vance, 4")
        ben.locator("#player-2-discards").fill("Lura Thok")
        ben.get_by_label("Cards left in the deck").fill("7")

        # Meanwhile Ana scores the round on the table's own form.
        ana.locator("fieldset", has_text="Ben").get_by_label("Still in the round").uncheck()
        ana.get_by_label("Ana's discards").fill("1, 4")
        ana.get_by_label("Ben's discards").fill("Lura Thok")
        ana.get_by_label("Cards left in the deck").fill("7")
        ana.get_by_role("button", name="Score the round").click()
        expect(ana.locator("#table-live")).to_contain_text("Score sheet after round 1")
        credits = table_state(ana, site, link)["state"]["credits"]
        assert credits["Ana"] > 0  # the round moved the credits: the old form's are stale

        ben.get_by_role("button", name="Score the round").click()
        conflict = ben.locator("#round-form #form-conflict")
        expect(conflict).to_contain_text("This answer is not entered yet.")
        expect(conflict).to_contain_text(
            "Since you opened this form, Ana (seat 1) sent entry 1 (round)."
        )
        # The table's credits now, and what Ben typed, as typed.
        expect(ben.locator("#player-1-credits")).to_have_value(str(credits["Ana"]))
        expect(ben.locator("#player-2-credits")).to_have_value(str(credits["Ben"]))
        expect(ben.locator("#player-1-discards")).to_have_value("Charles Vance, 4")
        expect(ben.locator("#player-2-discards")).to_have_value("Lura Thok")
        expect(ben.locator("[name=player-2-out]")).to_be_checked()
        expect(ben.get_by_label("Cards left in the deck")).to_have_value("7")
        assert len(table_state(ben, site, link)["events"]) == 1

        # One tap enters it, on the table as it is now.
        ben.get_by_role("button", name="Score the round").click()
        expect(ben.locator("#round-result")).to_contain_text("Round won by Ana")
        expect(ben.locator("#form-conflict")).to_have_count(0)
        table = table_state(ben, site, link)
        assert [(event["kind"], event["seat"]) for event in table["events"]] == [
            ("round", 1),
            ("round", 2),
        ]
        assert table["state"]["round"] == 2
        ben.get_by_role("link", name="Back to the table").click()
        expect(ben.locator("#table-live")).to_contain_text("Score sheet after round 2")


# Seven cards a hand (six Galaxy cards and a Mission), no card in two hands: one pair of hands a
# game.
GAME_1 = {
    "Ana": [
        "Commander Tomalak",
        "Captain Jean-Luc Picard",
        "Commander William Riker",
        "Lieutenant Commander Data",
        "Holodeck 1",
        "Leah Brahms",
        "Away Team",
    ],
    "Ben": [
        "Counselor Deanna Troi",
        "Crystal Entity",
        "Daimon Bok",
        "Daimon Tog",
        "Doctor Beverly Crusher",
        "Engine Room",
        "Conflicting Orders",
    ],
}
GAME_2_ANA = [
    "Hand Phaser",
    "Holodeck 2",
    "James Moriarty",
    "Lieutenant Worf",
    "Lore",
    "Lursa and B'Etor",
    "Diplomatic Conference",
]
GAME_2_ANA_SLUGS = [
    "hand-phaser",
    "holodeck-2",
    "james-moriarty",
    "lieutenant-worf",
    "lore",
    "lursa-and-betor",
    "diplomatic-conference",
]


def enter_on_the_table(page, hand: list[str]) -> None:
    """The table page's own hand form: the cards typed, one tap."""
    page.get_by_label("Cards, one name a line").fill("\n".join(hand))
    page.get_by_role("button", name="Enter the hand").click()


def next_game(host, site: str, link: str) -> None:
    """Both hands in: the host starts game 2 (the phones' pages are not reloaded)."""
    host.goto(link)
    host.get_by_role("button", name="Start the next game (winners go on the tally)").click()
    expect(host.locator("#state-heading")).to_have_text("Game 2: standings")


def test_the_tables_hand_form_takes_the_next_games_hand_in_one_tap(browser, site):
    with (
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as host,
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as ana,
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as ben,
    ):
        link = start_table(host, site, "star-trek-missions", ["Ana", "Ben"])
        claim(ana, link, "Ana")
        claim(ben, link, "Ben")
        enter_on_the_table(ana, GAME_1["Ana"])
        expect(ana.locator("#hand-entered")).to_contain_text("Your hand as entered")
        enter_on_the_table(ben, GAME_1["Ben"])
        expect(ben.locator("#hand-entered")).to_contain_text("Your hand as entered")
        next_game(host, site, link)

        # Ana's page hears of game 2 by its poll; her form is game 2's: no hand of game 1 in it.
        expect(ana.locator("#state-heading")).to_have_text("Game 2: standings", timeout=POLLED)
        expect(ana.get_by_label("Cards, one name a line")).to_have_value("")
        expect(ana.locator("#hand-entered")).to_have_count(0)
        # One tap enters game 2's hand, as in game 1.
        enter_on_the_table(ana, GAME_2_ANA)
        expect(ana.locator("#hand-entered")).to_contain_text("Your hand as entered")
        expect(ana.locator("#form-conflict")).to_have_count(0)
        table = table_state(ana, site, link)
        assert table["state"]["game_number"] == 2
        assert table["state"]["cards"][0] == GAME_2_ANA
        assert [event["kind"] for event in table["events"]][-2:] == ["new_game", "hand"]


def test_a_correction_typed_before_the_next_game_is_still_refused(browser, site):
    """The legal neighbour of the test above: a hand typed while game 1 was on, sent once game
    2 began, is a late correction of game 1's, not game 2's hand: refused, saying why."""
    with (
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as host,
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as ana,
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as ben,
    ):
        link = start_table(host, site, "star-trek-missions", ["Ana", "Ben"])
        claim(ana, link, "Ana")
        claim(ben, link, "Ben")
        enter_on_the_table(ana, GAME_1["Ana"])
        expect(ana.locator("#hand-entered")).to_contain_text("Your hand as entered")
        enter_on_the_table(ben, GAME_1["Ben"])
        expect(ben.locator("#hand-entered")).to_contain_text("Your hand as entered")
        # Ana starts correcting her game 1 hand; the host starts game 2 meanwhile.
        expect(ana.locator("#table-live")).to_contain_text("Ben entered a hand", timeout=POLLED)
        ana.get_by_label("Cards, one name a line").fill("\n".join(GAME_2_ANA))
        next_game(host, site, link)
        expect(ana.locator("#state-heading")).to_have_text("Game 2: standings", timeout=POLLED)
        expect(ana.get_by_label("Cards, one name a line")).to_have_value("\n".join(GAME_2_ANA))
        ana.get_by_role("button", name="Enter the hand").click()
        expect(ana.locator("#form-conflict")).to_contain_text("the host sent entry 3 (new game)")
        assert table_state(ana, site, link)["state"]["cards"][0] == []


def test_score_a_hand_opened_from_the_table_takes_the_next_games_hand_in_one_tap(browser, site):
    from tests.browser.test_tables_entries import pick

    with (
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as host,
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as ana,
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as ben,
    ):
        link = start_table(host, site, "star-trek-missions", ["Ana", "Ben"])
        claim(ana, link, "Ana")
        claim(ben, link, "Ben")
        enter_on_the_table(ana, GAME_1["Ana"])
        expect(ana.locator("#hand-entered")).to_contain_text("Your hand as entered")
        enter_on_the_table(ben, GAME_1["Ben"])
        expect(ben.locator("#hand-entered")).to_contain_text("Your hand as entered")
        next_game(host, site, link)
        # Ana's table page (loaded in game 1) hears of game 2; she opens Score a hand from it.
        expect(ana.locator("#state-heading")).to_have_text("Game 2: standings", timeout=POLLED)
        ana.locator(".table-jobs").get_by_role("link", name="Score a hand").click()
        expect(ana.get_by_role("heading", level=1)).to_have_text("Score a hand")
        expect(ana.locator("#hand .hand-card")).to_have_count(0)
        pick(ana, GAME_2_ANA_SLUGS)
        ana.locator("#at-table-button").click()
        expect(ana.locator("#at-table")).to_contain_text("Entered at the table as Ana")
        expect(ana.locator("#form-conflict")).to_have_count(0)
        table = table_state(ana, site, link)
        assert table["state"]["game_number"] == 2
        assert table["state"]["cards"][0] == GAME_2_ANA


def test_score_a_hand_at_the_table_takes_a_correction_in_one_tap(browser, site):
    """Entered from Score a hand, the hand is corrected on the same page (a tile taken back,
    another picked): one tap enters the correction; its own entry is no change to refuse it for."""
    from tests.browser.test_tables_entries import pick

    with (
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as host,
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as ana,
    ):
        link = start_table(host, site, "star-trek-missions", ["Ana", "Ben"])
        claim(ana, link, "Ana")
        ana.locator(".table-jobs").get_by_role("link", name="Score a hand").click()
        expect(ana.get_by_role("heading", level=1)).to_have_text("Score a hand")
        pick(ana, GAME_2_ANA_SLUGS[:6])
        ana.locator("#at-table-button").click()
        expect(ana.locator("#at-table")).to_contain_text("Entered at the table as Ana")
        pick_one_more = GAME_2_ANA_SLUGS[6]
        from tests.browser.star_trek_missions_tiles import show_tile

        show_tile(ana, pick_one_more)
        ana.locator(f"#tile-{pick_one_more}").click()
        expect(ana.locator("#hand .hand-card")).to_have_count(7)
        ana.locator("#at-table-button").click()
        expect(ana.locator("#at-table")).to_contain_text("Entered at the table as Ana")
        expect(ana.locator("#form-conflict")).to_have_count(0)
        table = table_state(ana, site, link)
        assert [event["seat"] for event in table["events"]] == [1, 1]
        assert table["state"]["cards"][0] == GAME_2_ANA
