"""Star Realms Academy turn breakdowns for the API and the pages: read the body (the position of
API.md plus "actions"), resolve the card names, rule on every action in order, save the result.

Request body: ``{"active": {...}, "opponent": {...}, "shop_row": [names], "actions": [moves]}``,
each part declared as the rulings request has it (games.star_realms_academy.rulings: Board, Move).
Errors: 400 ``invalid_input`` (entries by path, such as ``actions[2].card``) and 400
``impossible_position``.

Response (API.md's score body): ``total`` (the Health the opponent lost this turn), ``steps``
(one per action ruled, with the running ``coins``, ``combat``, ``draws``, ``health``,
``opponent_health`` and ``bases``; ``points`` is the Health that action took), ``warnings``,
``start`` (the numbers before the first action), ``final`` (the position after the turn),
``winner`` (or null), ``turn_over``, ``stopped_at`` (the index of the action the breakdown stopped
at, or null) and ``ruling`` (the full ruling body of that action, or null).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from cards.models import Game
from common.requests import read_body
from games.protocol import ImpossiblePosition
from games.responses import impossible_position, ruling_response
from games.star_realms_academy import engine
from games.star_realms_academy.rulings import Board, Move, Specs, at_most
from results.services import result_save

MAX_ACTIONS = 100


class TurnRequest(Board):
    actions: Annotated[list[Move], at_most(MAX_ACTIONS, "moves", optional=False)] = Field(
        description='the turn\'s moves in order: a list of objects {"action", …}')


def score_star_realms_academy(*, game: Game, body) -> dict:
    position, moves = parse_request(game=game, body=body)
    try:
        breakdown = engine.check(position, path="").score(moves)
    except ImpossiblePosition as impossible:
        raise impossible_position(impossible.errors) from None
    ruling = None
    if breakdown.ruling is not None:
        ruling = ruling_response(game=game, ruling=breakdown.ruling)
    response = {
        "game": game.slug,
        "total": breakdown.total,
        "steps": [step.as_dict() for step in breakdown.steps],
        "warnings": breakdown.warnings,
        "start": breakdown.start,
        "final": breakdown.final,
        "winner": breakdown.winner,
        "turn_over": breakdown.turn_over,
        "stopped_at": breakdown.stopped_at,
        "ruling": ruling,
    }
    return result_save(game=game, kind="score", request_body=body, response_body=response)


def parse_request(*, game: Game, body: object) -> tuple[engine.Position, list[engine.Move]]:
    specs = Specs(game)
    request = read_body(TurnRequest, body, context={"cards": specs.resolver})
    return specs.position(request), [specs.move(move) for move in request.actions]
