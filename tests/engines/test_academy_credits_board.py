"""The Academy Credits board (engine.check) keeps the protocol every game's board keeps: boards
from positions of the engine tests and from random rounds (the property test's table), with
plays the rules reject ruled illegal; at a round's end its score is the one the API answers."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from games.academy_credits import engine as ac
from games.protocol import NotScored, Scored
from tests.engines.board_conformance import assert_board_conforms
from tests.engines.test_academy_credits_catalog import (
    CALEB,
    DAREM,
    JETT,
    KRAAG,
    LURA,
    NAHLA,
    TARIMA,
    cadet,
    cards,
    move,
    option,
    position,
)
from tests.engines.test_academy_credits_rounds import DECK, RoundSimulator

TARGETS = option("credits_target")


def deal(rng: random.Random) -> RoundSimulator:
    count = rng.randint(2, 4)
    return RoundSimulator(count, rng.sample(range(len(DECK)), len(DECK)), rng.randrange(count))


def play_random_turn(table: RoundSimulator, rng: random.Random) -> bool:
    """The cadet to move draws and makes one of the board's legal plays; whether the round
    ended."""
    board = ac.check(table.start_turn())
    play = rng.choice(board.legal_moves())
    outcome = board.rule(play).outcome
    table.apply(play, outcome, keep=rng.randrange)
    return outcome["round_ends"]


def random_positions(count: int = 36, seed: int = 11) -> list[ac.Position]:
    """Positions met in random rounds, at the start of a turn after 0 to 12 turns (a round over
    by then gives none)."""
    rng = random.Random(seed)
    found: list[ac.Position] = []
    while len(found) < count:
        table = deal(rng)
        for _turn in range(rng.randint(0, 12)):
            if play_random_turn(table, rng):
                break
        else:
            found.append(table.start_turn())
    return found


def rejected(position: ac.Position) -> tuple[ac.Move, ...]:
    """A card the cadet to move does not hold, and a card of the hand aimed at nobody seated."""
    held = {card.name for card in position.hand}
    other = next(card for card in cards() if card.name not in held)
    moves = [ac.Move(other, position.players[-1].name)]
    for card in position.hand:
        if card.effect not in ac.NO_TARGET:
            moves.append(ac.Move(card, "Zed", JETT if card.effect == ac.GUESS else None))
    return tuple(moves)


@pytest.mark.parametrize("pos", random_positions(), ids=lambda _p: "random")
def test_random_positions_conform(pos):
    board = ac.check(pos)
    assert_board_conforms(board, illegal_moves=rejected(pos))
    assert board.legal_moves(), "a cadet always has a legal play"


@pytest.mark.parametrize(
    "pos",
    [
        position(["Ana", "Ben"], [LURA, KRAAG]),
        position([cadet("Ana", marked=True), cadet("Ben", "Caleb Mir"), "Cy"], [DAREM, LURA]),
        position(["Ana", cadet("Ben", "Jay-Den Kraag", shielded=True)], [CALEB, KRAAG]),
        position(["Ana", "Ben", "Cy"], [NAHLA, DAREM]),
        replace(position(["Ana", "Ben"], [TARIMA, LURA]), deck_count=None),
        position(["Ana", "Ben"], [KRAAG, LURA], deck_count=15),
    ],
    ids=["plain", "marked_player", "shielded_other", "nahla_ake", "no_deck_count", "short"],
)
def test_engine_test_positions_conform(pos):
    assert_board_conforms(ac.check(pos), illegal_moves=rejected(pos))


def test_rulings_share_the_checked_position_and_keep_its_warnings():
    board = ac.check(position(["Ana", "Ben"], [KRAAG, LURA], deck_count=15))
    checked = list(board.warnings)
    ruling = board.rule(move("Jay-Den Kraag", "Ben"))
    assert ruling.verdict == "legal" and ruling.warnings[: len(checked)] == checked
    assert len(ruling.warnings) == len(checked) + 1  # the ignored target, the ruling's own
    assert checked and board.warnings == checked
    with pytest.raises(NotScored):
        board.score()


def finished_round(rng: random.Random) -> tuple[ac.Position, dict]:
    """A random round played to its end, with credits before it below the target: the round's
    end as the engine takes it and as the score API takes it."""
    table = deal(rng)
    while not play_random_turn(table, rng):
        pass
    target = TARGETS[str(len(table.names))]
    credits = {name: rng.randrange(target) for name in table.names}
    players = [
        ac.Cadet(
            name=name,
            in_round=table.in_round[name],
            discards=list(table.discards[name]),
            credits=credits[name],
            hand=table.hands[name][0] if table.in_round[name] else None,
        )
        for name in table.names
    ]
    body = {
        "players": [
            {
                "name": c.name,
                "in_round": c.in_round,
                "discards": [card.name for card in c.discards],
                "hand": c.hand.name if c.hand else None,
                "credits": c.credits,
            }
            for c in players
        ],
        "deck_count": len(table.deck),
    }
    end = ac.Position(
        players,
        None,
        [],
        len(table.deck),
        list(cards()),
        options={"credits_target": TARGETS, "charles_vance_bonus": "literal"},
    )
    return end, body


def test_a_round_end_has_no_moves_but_a_score():
    end, _body = finished_round(random.Random(3))
    board = ac.check(end)
    assert_board_conforms(board)
    assert board.legal_moves() == [] and board.warnings == []
    with pytest.raises(ValueError):
        board.rule(move("Lura Thok", "Ana"))
    assert isinstance(board.score(), Scored)


@pytest.mark.django_db
def test_score_is_the_one_the_api_answers(api, catalog):
    rng = random.Random(5)
    for _round in range(4):
        end, body = finished_round(rng)
        score = ac.check(end).score()
        response = api.post(
            "/api/games/academy-credits/score/",
            data=json.dumps(body),
            content_type="application/json",
        )
        answer = response.json()
        assert response.status_code == 200, answer
        assert answer["total"] == score.total
        assert answer["steps"] == [step.as_dict() for step in score.steps]
        assert (answer["round_winners"], answer["standings"]) == (
            score.round_winners,
            score.standings,
        )
