"""The Star Realms Academy board (engine.check) keeps the protocol every game's board keeps:
boards from positions of the engine tests and from random turns (the property test's cards), with
moves the rules always reject ruled illegal; its score is the turn breakdown the API answers."""

from __future__ import annotations

import json
import random

import pytest

from games.protocol import Scored
from games.star_realms_academy.engine import Move, TurnBoard, check
from tests.engines.board_conformance import assert_board_conforms
from tests.engines.test_star_realms_academy_engine import (
    KNOWN,
    ROW,
    SOURCE,
    attack,
    base,
    buy,
    end_turn,
    play,
    position,
    use_ally,
    use_base,
)

# Illegal in every position: Viper is never a base, Scout is never sold, no pool holds 99
# Combat, and Mothership is none of the cards the positions below put in play.
ALWAYS_ILLEGAL = (use_base("Viper"), buy("Scout"), attack("health", 99), use_ally("Mothership"))


def random_boards(count: int = 36, seed: int = 13) -> list[TurnBoard]:
    """Positions like the property test's, after 0 to 8 legal moves chosen at random (so some
    turns have ended or been won)."""
    rng = random.Random(seed)
    boards = []
    for _ in range(count):
        board = check(
            position(
                hand=rng.sample(KNOWN, rng.randint(0, 5)),
                coins=rng.randint(0, 8),
                health=rng.randint(1, 15),
                combat=rng.randint(0, 6),
                in_play=[SOURCE],
                opponent_health=rng.randint(1, 15),
                opponent_bases=rng.choice([[], ["The Hive"], [base("Blob World", defense=5)]]),
                shop_row=rng.sample(ROW, rng.randint(0, 5)),
                deck=rng.choice([None, 0, 4]),
                discard_pile=rng.choice([None, 2]),
            )
        )
        for _move in range(rng.randint(0, 8)):
            moves = board.legal_moves()
            if not moves:
                break
            board.push(rng.choice(moves))
        boards.append(board)
    return boards


@pytest.mark.parametrize("board", random_boards(), ids=lambda _b: "random")
def test_random_boards_conform(board):
    rulings = assert_board_conforms(board, illegal_moves=ALWAYS_ILLEGAL)
    legal = [move.as_dict() for move in board.legal_moves()]
    assert all(ruling.alternatives == legal for ruling in rulings[len(legal) :])


@pytest.mark.parametrize(
    "pos",
    [
        position(hand=["Imperial Frigate"], opponent_bases=["The Hive"]),
        position(in_play=["Imperial Frigate", "Corvette"], coins=2),
        position(
            bases=[base("Fleet HQ", primary={"coin": 1})], in_play=["Imperial Frigate"], combat=2
        ),
        position(hand=["Corvette", "Barter World"], drawn=2, deck=1, discard_pile=3),
        position(
            in_play=["Imperial Frigate", "Imperial Frigate", "Viper"], combat=5, opponent_health=3
        ),
    ],
    ids=["frigate", "ally_unknown", "base", "drawn", "winning"],
)
def test_engine_test_positions_conform(pos):
    assert_board_conforms(check(pos), illegal_moves=ALWAYS_ILLEGAL)


def test_rule_leaves_the_board_and_push_moves_it_on():
    board = check(position(hand=["Viper"], in_play=["Imperial Frigate"], combat=1))
    before = board.clone()
    assert board.rule(play("Viper")).outcome["combat"] == 2
    assert board == before
    assert board.push(play("Viper")).outcome["combat"] == 2
    assert board.active.combat == 2 and board.push(play("Viper")).code == "not_in_hand"
    assert board.score([end_turn()]).total == 0 and not board.turn_over


def test_moves_needing_an_unknown_value_are_left_out_of_the_legal_moves():
    board = check(position(hand=["Corvette", "Viper"]))
    assert board.rule(play("Corvette")).verdict == "needs_information"
    assert [move.as_dict() for move in board.legal_moves()] == [
        {"action": "play", "card": "Viper"},
        {"action": "end_turn"},
    ]
    assert board.warnings == []


@pytest.mark.django_db
def test_score_is_the_breakdown_the_api_answers(api, catalog):
    shop_row = ["Freighter", "Corvette", "Ram", "Survey Ship"]
    turns: list[list[Move]] = [
        [
            play("Imperial Frigate"),
            play("Scout"),
            attack("The Hive", 1),
            attack("health"),
            buy("Ram", refill="Trade Pod"),
            end_turn(),
        ],
        [play("Scout"), buy("Freighter"), end_turn()],  # stops: Freighter costs more
    ]
    for moves in turns:
        pos = position(
            hand=["Imperial Frigate", "Scout"],
            health=12,
            opponent_coins=1,
            opponent_bases=["The Hive"],
            shop_row=shop_row,
        )
        score = check(pos).score(moves)
        assert isinstance(score, Scored)
        body = {
            "active": {
                "name": "Ana",
                "health": 12,
                "coins": 0,
                "hand": ["Imperial Frigate", "Scout"],
            },
            "opponent": {
                "name": "Ben",
                "health": 15,
                "coins": 1,
                "bases": [{"card": "The Hive", "damage": 0}],
            },
            "shop_row": shop_row,
            "actions": [move.as_dict() for move in moves],
        }
        response = api.post(
            "/api/games/star-realms-academy/score/",
            content_type="application/json",
            data=json.dumps(body),
        )
        answer = response.json()
        assert response.status_code == 200, answer
        assert answer["total"] == score.total
        assert answer["steps"] == [step.as_dict() for step in score.steps]
        assert (answer["stopped_at"], answer["final"]) == (score.stopped_at, score.final)
