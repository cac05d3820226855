"""Whom each game's table waits for (its NextEntry) and the one button each phone shows for it
(tables.glance), issue 29: players by name, never a seat number; a seat waited for sees its own
words, the host's phone the seat it acts for, a phone without a seat "Take a seat". Each case
next to its neighbour: the seat waited for and the one not; a defender's seat held by a phone and
the same seat without one."""

from __future__ import annotations

import copy

from games.academy_credits import table_state as academy_credits
from games.factions import table_state as factions
from games.star_realms_academy import table_state as star_realms_academy
from games.star_trek_missions import table_state as star_trek_missions
from games.table_state import NextEntry, listed
from tables.glance import GlanceButton, phone_glance

LINKS = {"score": "/t/abc/ask/score/4", "ruling": "/t/abc/ask/ruling/4"}


def players(*claimed: bool) -> list[dict]:
    names = ["Ana", "Ben", "Cy"]
    return [
        {"seat": n, "name": names[n - 1], "claimed": taken}
        for n, taken in enumerate(claimed, start=1)
    ]


def button(
    entry: NextEntry,
    *,
    seat: int | None = None,
    host: bool = False,
    claimed: tuple[bool, ...] = (True, True),
) -> GlanceButton | None:
    return phone_glance(
        entry, players=players(*claimed), my_seat=seat, host=host, links=LINKS
    ).button


def test_names_are_listed_as_a_sentence_lists_them():
    assert [listed([]), listed(["Ana"]), listed(["Ana", "Ben"]), listed(["Ana", "Ben", "Cy"])] == [
        "",
        "Ana",
        "Ana and Ben",
        "Ana, Ben and Cy",
    ]


def test_star_trek_missions_waits_for_the_hands_not_entered():
    state = star_trek_missions.initial(["Ana", "Ben"])
    entry = star_trek_missions.TABLE.next_entry(state, ["Ana", "Ben"])
    assert entry.line == "Game 1: still to enter a hand: Ana and Ben."
    assert button(entry, seat=2) == GlanceButton("Enter your hand", href="#hand-form")
    # The host's phone acts for the first seat waited for, its own first.
    assert button(entry, host=True) == GlanceButton("Enter Ana's hand", href="?seat=1#hand-form")
    assert button(entry, seat=2, host=True) == GlanceButton("Enter your hand", href="#hand-form")
    state["hands"][0] = 13
    entry = star_trek_missions.TABLE.next_entry(state, ["Ana", "Ben"])
    assert entry.line == "Game 1: still to enter a hand: Ben."
    assert button(entry, seat=1) is None  # entered: nothing more to enter
    assert button(entry, host=True) == GlanceButton("Enter Ben's hand", href="?seat=2#hand-form")
    state["winners"] = ["Ben"]
    entry = star_trek_missions.TABLE.next_entry(state, ["Ana", "Ben"])
    assert entry.line == "Ben wins game 1."
    assert button(entry, host=True) == GlanceButton("Start the next game", action="new_game")
    assert button(entry, seat=2) is None


def test_academy_credits_waits_for_the_rounds_end_from_any_seat():
    state = academy_credits.initial(["Ana", "Ben"])
    entry = academy_credits.TABLE.next_entry(state, ["Ana", "Ben"])
    assert entry.line == "Round 1 of match 1. At its end, score it."
    for phone in ({"seat": 1}, {"seat": 2}, {"host": True}):
        assert button(entry, **phone) == GlanceButton("Score round 1", href="#round-form")
    state.update(round=2, starter="Ben")
    entry = academy_credits.TABLE.next_entry(state, ["Ana", "Ben"])
    assert entry.line == "Round 3: Ben starts. At its end, score it."
    state["match_winners"] = ["Ana", "Ben"]
    entry = academy_credits.TABLE.next_entry(state, ["Ana", "Ben"])
    assert entry.line == "Ana and Ben share match 1."
    assert button(entry, host=True) == GlanceButton("Start a new match", action="new_match")
    assert button(entry, seat=1) is None


def test_star_realms_academy_waits_for_the_active_players_turn():
    state = star_realms_academy.initial(["Ana", "Ben"])
    entry = star_realms_academy.TABLE.next_entry(state, ["Ana", "Ben"])
    assert entry.line == "Turn 1: Ana's turn."
    assert button(entry, seat=1) == GlanceButton("Enter your turn", href=LINKS["score"])
    assert button(entry, seat=2) is None
    assert button(entry, host=True) == GlanceButton("Enter Ana's turn", href=LINKS["score"])
    state["board"]["active"], state["board"]["opponent"] = (
        state["board"]["opponent"],
        state["board"]["active"],
    )
    state["turn"] = 2
    entry = star_realms_academy.TABLE.next_entry(state, ["Ana", "Ben"])
    assert entry.line == "Turn 2: Ben's turn."
    assert button(entry, seat=2) == GlanceButton("Enter your turn", href=LINKS["score"])
    assert button(entry, seat=1) is None


def set_up_factions() -> dict:
    state = factions.initial(["Ana", "Ben"])
    state["position"] = {
        "factions": [
            {"name": "amber-coast", "controller": "Ana", "units": []},
            {"name": "ashen-peaks", "controller": "Ben", "units": []},
        ],
        "players": [{"name": "Ana", "lost_turns": 0}, {"name": "Ben", "lost_turns": 0}],
        "turn": "Ana",
        "turn_lost": False,
        "pending": None,
    }
    return state


def test_factions_waits_for_its_setup_from_any_seat_then_for_the_mover():
    state = factions.initial(["Ana", "Ben"])
    entry = factions.TABLE.next_entry(state, ["Ana", "Ben"])
    assert entry.line.startswith("Game 1: the table is not set up yet")
    assert button(entry, seat=2) == GlanceButton("Set up the table", href=LINKS["score"])
    assert button(entry, host=True) == GlanceButton("Set up the table", href=LINKS["score"])
    state = set_up_factions()
    entry = factions.TABLE.next_entry(state, ["Ana", "Ben"])
    assert entry.line == "Move 1: Ana's turn."
    assert button(entry, seat=1) == GlanceButton("Enter your move", href=LINKS["ruling"])
    assert button(entry, seat=2) is None
    state["position"]["turn_lost"] = True
    assert (
        factions.TABLE.next_entry(state, ["Ana", "Ben"]).line == "Move 1: Ana's turn (a lost turn)."
    )


def test_only_the_defenders_phone_answers_an_attack_while_a_phone_holds_the_seat():
    state = set_up_factions()
    state["moves"] = 1
    state["position"]["pending"] = {
        "by": "Ana",
        "target_unit": {"faction": "ashen-peaks", "unit": "Peak Sentinel"},
    }
    entry = factions.TABLE.next_entry(state, ["Ana", "Ben"])
    assert entry.line == "Ben answers Ana's attack on Peak Sentinel."
    assert button(entry, seat=2) == GlanceButton("Answer Ana's attack", href="#answer-heading")
    assert button(entry, seat=1) is None
    # Ben's hand is his phone's to know: the host's phone has no button for it...
    assert button(entry, host=True, claimed=(True, True)) is None
    # ...unless no phone holds his seat (a lost phone): then the host answers for him.
    assert button(entry, host=True, claimed=(True, False)) == GlanceButton(
        "Answer Ana's attack for Ben", href="?seat=2#answer-heading"
    )


def test_a_phone_without_a_seat_is_offered_one_while_a_seat_is_free():
    entry = star_realms_academy.TABLE.next_entry(
        star_realms_academy.initial(["Ana", "Ben"]), ["Ana", "Ben"]
    )
    assert button(entry, claimed=(True, False)) == GlanceButton(
        "Take a seat", href="#claim-heading"
    )
    full = phone_glance(entry, players=players(True, True), my_seat=None, host=False, links=LINKS)
    assert full.button is None
    assert full.waiting == "Every seat is taken: this phone follows the table."


def test_the_line_never_names_a_seat_by_its_number():
    states = [
        (star_trek_missions, star_trek_missions.initial(["Ana", "Ben"])),
        (academy_credits, academy_credits.initial(["Ana", "Ben"])),
        (star_realms_academy, star_realms_academy.initial(["Ana", "Ben"])),
        (factions, factions.initial(["Ana", "Ben"])),
        (factions, set_up_factions()),
    ]
    for module, state in states:
        entry = module.TABLE.next_entry(copy.deepcopy(state), ["Ana", "Ben"])
        assert "seat" not in entry.line.casefold(), entry.line
