"""The table's page at a glance (issue 29): on every game's table page, the first screen of a
390×844 phone shows whom the table waits for (players by name), the one button of what this phone
enters next (its seat's own on a guest's phone, "Take a seat" on a phone without one, the seat
waited for on the host's) and, on the host's phone, the table's QR code and the undo. After an
entry the line moves on, on every phone, without reloading. Read as a player reads it: the text
drawn within the first 844 px, and the words a player reads (no code, no field name)."""

from __future__ import annotations

from contextlib import ExitStack

import pytest
from playwright.sync_api import expect

from tests.browser.phone import POLLED
from tests.browser.table_phones import Table, assert_fits_narrow_phones, assert_glance
from tests.browser.test_tables_entries import fill_round
from tests.browser.test_visible_text import report
from tests.test_tables_factions import ATTACK, SETUP, c
from tests.test_tables_star_realms_academy import ANA_HITS

pytestmark = [pytest.mark.browser, pytest.mark.table]


def test_star_trek_missions_waits_for_each_hand(browser, room_site, site):
    with ExitStack() as stack:
        table = Table(browser, room_site, site, "star-trek-missions", ["Ana", "Ben"], stack)
        ben = table.seated("Ben", 2)
        nobody = table.seatless()
        table.host.reload()
        waiting = "Game 1: still to enter a hand: Ana and Ben."
        assert_glance(table.host, line=waiting, button="Enter Ana's hand", host=True)
        assert_glance(ben, line=waiting, button="Enter your hand")
        assert_glance(
            nobody, line="Game 1: still to enter a hand: Ana and Ben.", button="Take a seat"
        )

        # Ben's button leads to his hand's form; he enters it there.
        ben.locator("#glance-button").click()
        ben.get_by_label("Cards, one name a line").fill("Holodeck 1\nLeah Brahms")
        ben.get_by_role("button", name="Enter the hand").click()
        assert_glance(ben, line="Game 1: still to enter a hand: Ana.", button=None)
        expect(ben.locator(".table-glance__waiting")).to_have_text(
            "Nothing for this phone to enter now."
        )
        # The host's phone never reloaded: the line moved on, and the undo names the entry.
        expect(table.host.locator("#glance-line")).to_have_text(
            "Game 1: still to enter a hand: Ana.", timeout=POLLED
        )
        assert_glance(
            table.host,
            line="Game 1: still to enter a hand: Ana.",
            button="Enter Ana's hand",
            host=True,
            undo="Undo entry 1",
        )
        expect(nobody.locator("#glance-line")).to_have_text(
            "Game 1: still to enter a hand: Ana.", timeout=POLLED
        )

        # The host enters Ana's hand for her phoneless seat: the game has its winner.
        table.host.locator("#glance-button").click()
        expect(table.host.get_by_label("Act for the seat")).to_have_value("1")
        table.host.get_by_label("Cards, one name a line").fill(
            "Commander Tomalak\nCaptain Jean-Luc Picard"
        )
        table.host.get_by_role("button", name="Enter the hand").click()
        expect(table.host.locator("#glance-line")).to_contain_text("game 1.")
        line = table.host.locator("#glance-line").inner_text()
        assert_glance(
            table.host, line=line, button="Start the next game", host=True, undo="Undo entry 2"
        )
        assert_glance(ben, line=line, button=None)
        for page in (table.host, ben, nobody):
            assert_fits_narrow_phones(page)
        nobody.set_viewport_size({"width": 320, "height": 844})
        found = [
            *report(table.host, "/t/<code> (host)"),
            *report(ben, "/t/<code> (Ben)"),
            *report(nobody, "/t/<code> (no seat)"),
        ]
        assert not found, "\n".join(found)


def test_academy_credits_waits_for_the_rounds_end(browser, room_site, site):
    with ExitStack() as stack:
        table = Table(browser, room_site, site, "academy-credits", ["Ana", "Ben"], stack)
        ben = table.seated("Ben", 2)
        nobody = table.seatless()
        table.host.reload()
        first = "Round 1 of match 1. At its end, score it."
        # Any seat scores the round's end: the host's phone and Ben's show the same button.
        assert_glance(table.host, line=first, button="Score round 1", host=True)
        assert_glance(ben, line=first, button="Score round 1")
        assert_glance(nobody, line=first, button="Take a seat")

        ben.locator("#glance-button").click()
        fill_round(ben, ana_discards="Charles Vance, 4")
        ben.get_by_role("button", name="Score the round").click()
        starter = table.read()["state"]["starter"]
        second = f"Round 2: {starter} starts. At its end, score it."
        assert_glance(ben, line=second, button="Score round 2")
        expect(table.host.locator("#glance-line")).to_have_text(second, timeout=POLLED)
        assert_glance(
            table.host, line=second, button="Score round 2", host=True, undo="Undo entry 1"
        )
        expect(nobody.locator("#glance-line")).to_have_text(second, timeout=POLLED)
        for page in (table.host, ben, nobody):
            assert_fits_narrow_phones(page)
        found = [*report(table.host, "/t/<code> (host)"), *report(ben, "/t/<code> (Ben)")]
        assert not found, "\n".join(found)


def test_star_realms_academy_names_whose_turn_it_is(browser, room_site, site):
    with ExitStack() as stack:
        table = Table(browser, room_site, site, "star-realms-academy", ["Ana", "Ben"], stack)
        ana = table.seated("Ana", 1)
        nobody = table.seatless()
        table.host.reload()
        assert_glance(table.host, line="Turn 1: Ana's turn.", button="Enter Ana's turn", host=True)
        assert_glance(ana, line="Turn 1: Ana's turn.", button="Enter your turn")
        assert_glance(nobody, line="Turn 1: Ana's turn.", button="Take a seat")
        # Ana's button opens her turn's page at the table.
        ana.locator("#glance-button").click()
        expect(ana.get_by_role("heading", level=1)).to_have_text("Break down a turn")
        assert f"/t/{table.code}/ask/score/" in ana.url
        ana.go_back()

        # Ana's phone enters her turn (as its page would: the table's API with its token).
        table.send(table.seat_token(ana), {"kind": "turn", "seat": 1, "body": ANA_HITS})
        for page in (ana, table.host, nobody):
            expect(page.locator("#glance-line")).to_have_text("Turn 2: Ben's turn.", timeout=POLLED)
        assert_glance(ana, line="Turn 2: Ben's turn.", button=None)
        assert_glance(
            table.host,
            line="Turn 2: Ben's turn.",
            button="Enter Ben's turn",
            host=True,
            undo="Undo entry 1",
        )
        assert_glance(nobody, line="Turn 2: Ben's turn.", button="Take a seat")
        for page in (table.host, ana, nobody):
            assert_fits_narrow_phones(page)
        found = [*report(table.host, "/t/<code> (host)"), *report(ana, "/t/<code> (Ana)")]
        assert not found, "\n".join(found)


def test_factions_waits_for_the_mover_then_the_defender(browser, room_site, site):
    with ExitStack() as stack:
        table = Table(browser, room_site, site, "factions", ["Ana", "Ben"], stack)
        # The host's phone holds Ana's seat; Ben's phone his.
        ana = table.host
        ana.get_by_role("button", name="I am Ana (seat 1)").click()
        expect(ana.locator(".lede")).to_have_text("You are Ana (seat 1).")
        ben = table.seated("Ben", 2)
        full = table.seatless()  # every seat is taken: this phone follows the table
        unset = "Game 1: the table is not set up yet (the factions, who controls each, who starts)."
        assert_glance(ana, line=unset, button="Set up the table", host=True)
        assert_glance(ben, line=unset, button="Set up the table")
        assert_glance(full, line=unset, button=None)
        expect(full.locator(".table-glance__waiting")).to_have_text(
            "Every seat is taken: this phone follows the table."
        )

        table.send(table.seat_token(ana), {"kind": "setup", "seat": 1, "body": SETUP})
        expect(ben.locator("#glance-line")).to_have_text("Move 1: Ana's turn.", timeout=POLLED)
        assert_glance(ben, line="Move 1: Ana's turn.", button=None)
        expect(ana.locator("#glance-line")).to_have_text("Move 1: Ana's turn.", timeout=POLLED)
        assert_glance(
            ana,
            line="Move 1: Ana's turn.",
            button="Enter your move",
            host=True,
            undo="Undo entry 1",
        )

        # Ana attacks Ben's Peak Sentinel: the table waits for Ben's answer, which only his
        # phone can give (his hand): the host's phone has no button for it.
        table.send(
            table.seat_token(ana),
            {
                "kind": "move",
                "seat": 1,
                "body": {
                    "position": {
                        "players": [
                            {"name": "Ana", "hand": [c("Attack", "amber-coast")]},
                            {"name": "Ben", "hand": []},
                        ]
                    },
                    "move": ATTACK,
                },
            },
        )
        answers = "Ben answers Ana's attack on Peak Sentinel."
        expect(ben.locator("#glance-line")).to_have_text(answers, timeout=POLLED)
        assert_glance(ben, line=answers, button="Answer Ana's attack")
        expect(ana.locator("#glance-line")).to_have_text(answers, timeout=POLLED)
        assert_glance(ana, line=answers, button=None, host=True, undo="Undo entry 2")
        ben.locator("#glance-button").click()
        ben.get_by_role("button", name="Block it with Defence (Ashen Peaks)").click()
        moves = table.read()["state"]["moves"]
        after = f"Move {moves + 1}: Ana's turn."
        assert_glance(ben, line=after, button=None)
        expect(ana.locator("#glance-line")).to_have_text(after, timeout=POLLED)
        assert_glance(ana, line=after, button="Enter your move", host=True, undo="Undo entry 3")
        for page in (ana, ben, full):
            assert_fits_narrow_phones(page)
        found = [*report(ana, "/t/<code> (Ana, the host)"), *report(ben, "/t/<code> (Ben)")]
        assert not found, "\n".join(found)
