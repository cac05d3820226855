"""The Factions board (engine.check) keeps the protocol every game's board keeps: boards from
tables of the engine tests and from random games (the property test's deal and players), with
the moves the rules reject ruled illegal; its score is the standings the API answers."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from games.factions import engine
from games.factions.engine import ATTACK, DEFENCE, DOCTOR, PLAY, SPY, Move, Position
from games.protocol import Scored
from tests.engines.board_conformance import assert_board_conforms
from tests.engines.test_factions_engine import (
    CATALOG,
    A,
    B,
    C,
    card,
    pending_attack,
    position,
    unit,
)
from tests.engines.test_factions_properties import (
    choose,
    deal,
    keys,
    player,
    rules_legal_moves,
    taken_index,
)


def random_positions(count: int = 36, seed: int = 13) -> list[Position]:
    """Tables met in random games, after 0 to 40 moves (the next player draws while the deck
    lasts); a game won before then gives none."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        table, deck, _everything = deal(rng.randint(2, 4), rng)
        for _move in range(rng.randint(0, 40)):
            move = choose(table, rules_legal_moves(table), rng)
            applied = engine.apply_move(CATALOG, table, move, taken=taken_index(table, move, rng))
            if applied.outcome["winner"] or applied.position is None:
                break
            table = applied.position
            next_turn = applied.outcome["next_turn"]
            if next_turn and next_turn["draws"] and deck:
                player(table, table.turn).hand.append(deck.pop())
        else:
            found.append(table)
    return found


def rejected_moves(table: Position) -> tuple[Move, ...]:
    """Moves the engine considers that the rules (the property test's own list) reject, and a
    play of a card nobody holds."""
    legal = keys(rules_legal_moves(table))
    board = engine.check(replace(table, catalog=CATALOG))
    rejected = [
        m for m in engine._candidates(board) if json.dumps(m.as_dict(), sort_keys=True) not in legal
    ]
    return (*rejected[:6], Move(PLAY, card=card(SPY, "no-such-faction"), target_player="Ana"))


@pytest.mark.parametrize("table", random_positions(), ids=lambda _t: "random")
def test_random_tables_conform(table):
    board = engine.check(replace(table, catalog=CATALOG))
    assert_board_conforms(board, illegal_moves=rejected_moves(table))
    assert keys(board.legal_moves()) == keys(rules_legal_moves(table))


@pytest.mark.parametrize(
    "table",
    [
        pending_attack(defender_hand=[card(DEFENCE, B), card(SPY, B)]),
        position({"Ben": [card(ATTACK, B)] * 3}, turn="Ben", turn_lost=True),
        position({"Ana": [card(ATTACK, A), card(DOCTOR, A)]}, listed={B: [0, 1]}, dead={A: [2]}),
        position(
            {"Ana": [card(SPY, A)]},
            players=3,
            control={A: "Ana", B: "Ben", C: "Ana"},
            dead={C: "all"},
        ),
    ],
    ids=["pending", "lost_turn", "unlisted_units", "conquered"],
)
def test_engine_test_tables_conform(table):
    board = engine.check(replace(table, catalog=CATALOG))
    illegal = (
        Move(PLAY, card=card(ATTACK, A), target_unit=unit(A, 0)),
        Move(PLAY, card=card(SPY, A), target_player="Ana"),
    )
    assert_board_conforms(board, illegal_moves=illegal)


def test_rulings_share_the_checked_position_and_keep_its_warnings():
    """A move needing facts the table lacks is left out of the legal moves; each ruling adds its
    warnings to the check's without changing the board's."""
    board = engine.check(
        replace(position({"Ana": [card(ATTACK, A)]}, listed={B: [0, 1]}), catalog=CATALOG)
    )
    checked = list(board.warnings)
    unknown = Move(PLAY, card=card(ATTACK, A), target_unit=unit(B, 3))
    assert board.rule(unknown).verdict == "needs_information"
    assert unknown.as_dict() not in [m.as_dict() for m in board.legal_moves()]
    ruling = board.rule(Move(PLAY, card=card(ATTACK, A), target_unit=unit(B, 0)))
    assert ruling.verdict == "legal" and ruling.warnings[: len(checked)] == checked
    assert checked and board.warnings == checked


def test_a_board_without_a_player_to_move_has_no_moves_but_a_score():
    board = engine.check(
        replace(position(players=2, dead={B: "all"}), catalog=CATALOG, to_move=False)
    )
    assert board.legal_moves() == []
    with pytest.raises(ValueError):
        board.rule(Move(engine.PASS))
    assert board.score().total is None and board.score().steps[-1].rule == "FAC-18"


@pytest.mark.django_db
def test_score_is_the_standings_the_api_answers(api, catalog):
    tables = [
        position(
            players=3,
            control={A: "Ana", B: "Ana", C: "Cleo"},
            dead={A: [4], B: "all"},
            own={"Ana": A, "Ben": B, "Cleo": C},
        ),
        *random_positions(count=3, seed=5),
    ]
    for table in tables:
        score = engine.check(replace(table, catalog=CATALOG, to_move=False)).score()
        assert isinstance(score, Scored)
        response = api.post(
            "/api/games/factions/score/",
            content_type="application/json",
            data=json.dumps(engine.position_body(table)),
        )
        body = response.json()
        assert response.status_code == 200, body
        assert body["total"] is None and score.total is None
        assert body["steps"] == [step.as_dict() for step in score.steps]
        assert (body["standings"], body["winner"]) == (score.standings, score.winner)
