"""The Factions standings engine (no database): factions controlled, own and conquered, surviving
and defeated units, eliminations and the winner, each line explained by a step."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.factions import engine
from games.factions.scorer import Standings
from games.protocol import ImpossiblePosition
from tests.engines.test_factions_engine import (
    ATTACK,
    CATALOG,
    LABEL,
    UNITS,
    A,
    B,
    C,
    card,
    position,
)


def standings(pos: engine.Position) -> Standings:
    return engine.check(replace(pos, catalog=CATALOG, to_move=False)).score()


def test_a_game_in_progress():
    pos = position(
        players=3,
        control={A: "Ana", B: "Ana", C: "Cleo"},
        dead={A: [4], B: "all"},
        own={"Ana": A, "Ben": B, "Cleo": C},
        lost={"Cleo": 2},
    )
    result = standings(pos)
    assert result.winner is None and result.eliminated == ["Ben"]
    ana, ben, cleo = result.standings
    assert ana == {
        "player": "Ana",
        "factions": [
            {
                "faction": A,
                "name": LABEL[A],
                "own": True,
                "surviving": UNITS[A][:4],
                "defeated": [UNITS[A][4]],
                "unlisted": [],
            },
            {
                "faction": B,
                "name": LABEL[B],
                "own": False,
                "surviving": [],
                "defeated": UNITS[B],
                "unlisted": [],
            },
        ],
        "surviving_units": 4,
        "defeated_units": 6,
        "eliminated": False,
        "lost_turns": 0,
    }
    assert ben == {
        "player": "Ben",
        "factions": [],
        "surviving_units": 0,
        "defeated_units": 0,
        "eliminated": True,
        "lost_turns": 0,
    }
    assert cleo["surviving_units"] == 5 and cleo["lost_turns"] == 2
    details = [step.detail for step in result.steps]
    assert details[0].startswith(f"Ana controls {LABEL[A]} (own faction): 4 of 5 units survive")
    assert details[1].startswith(
        f"Ana controls {LABEL[B]} (conquered from Ben): 0 of 5 units survive; defeated: "
    )
    assert "Ana may restore them with DOCTOR (FAC-R6)." in details[1]
    assert details[2] == "Ana controls 4 surviving units in 2 factions: still in the game (FAC-R9)."
    assert details[3] == (
        f"Ben controls no faction (their own, {LABEL[B]}, was conquered by "
        f"Ana): eliminated (FAC-17, FAC-R9)."
    )
    assert details[-1] == (
        "2 players still control a surviving unit (Ana and Cleo): no winner yet (FAC-18)."
    )
    assert [step.rule for step in result.steps] == [
        "FAC-3",
        "FAC-14",
        "FAC-R9",
        "FAC-R9",
        "FAC-3",
        "FAC-R9",
        "FAC-18",
    ]
    # Steps are numbered in order; a player's running total counts their surviving units.
    assert [step.n for step in result.steps] == list(range(1, 8))
    assert [(s.points, s.running_total) for s in result.steps[:3]] == [(4, 4), (0, 4), (0, 4)]


def test_the_winner():
    pos = position(players=2, dead={B: "all"})
    result = standings(pos)
    assert result.winner == "Ana" and result.eliminated == ["Ben"]
    assert result.steps[-1].detail == "Only Ana still controls a surviving unit: Ana wins (FAC-18)."
    assert result.steps[-1].rule == "FAC-18"


def test_without_own_factions_a_faction_is_only_controlled():
    result = standings(position())
    assert result.standings[0]["factions"][0]["own"] is None
    assert result.steps[0].rule == "FAC-R1"
    assert result.steps[0].detail.startswith(f"Ana controls {LABEL[A]}: 5 of 5 units survive")


def test_unlisted_units_leave_elimination_unknown():
    pos = position(listed={B: [0, 1]}, dead={B: [0, 1]})
    result = standings(pos)
    assert result.winner is None and result.eliminated == []
    assert result.standings[1]["eliminated"] is None
    assert result.standings[1]["factions"][0]["unlisted"] == UNITS[B][2:]
    assert "whether Ben is eliminated is unknown" in result.steps[3].detail
    assert result.steps[-1].detail == (
        "No winner can be named: whether Ben is still in the game is unknown."
    )
    assert any("does not list" in warning for warning in result.warnings)


def test_an_impossible_table_is_refused():
    with pytest.raises(ImpossiblePosition) as raised:
        standings(position({"Ana": [card(ATTACK, A)] * 6}))
    assert [e["code"] for e in raised.value.errors] == ["too_many_copies"]


def test_hands_and_turn_are_not_needed():
    pos = position(turn=None)
    assert standings(pos).winner is None
