"""Star Realms Academy turn breakdowns: the body declared (the position of API.md plus
"actions"), as the engine takes it (`ask`) and the breakdown's own fields (`answer_fields`); the one
flow (games.services) reads it, has the board rule on every action in order, and saves it.

Request body: ``{"active": {...}, "opponent": {...}, "shop_row": [names], "actions": [moves]}``,
each part declared as the rulings request has it (games.star_realms_academy.rulings: Position,
Move).
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

from typing import Annotated, Any

from pydantic import Field

from cards.models import Game
from games.package import Asked
from games.responses import ruling_response
from games.star_realms_academy.rulings import Move, Position, Specs, at_most
from games.star_realms_academy.scorer import Breakdown

MAX_ACTIONS = 100


class TurnRequest(Position):
    actions: Annotated[list[Move], at_most(MAX_ACTIONS, "moves", optional=False)] = Field(
        description='the turn\'s moves in order: a list of objects {"action", …}'
    )


def ask(game: Game, request: TurnRequest, context: dict[str, Any]) -> Asked:
    """A turn request as the engine's position and the actions the score plays in order."""
    specs: Specs = context["specs"]
    return Asked(
        position=specs.position(request), moves=[specs.move(move) for move in request.actions]
    )


def answer_fields(
    game: Game, request: TurnRequest, asked: Asked, breakdown: Breakdown
) -> dict[str, Any]:
    """The breakdown's own fields beside API.md's score body."""
    ruling = None
    if breakdown.ruling is not None:
        ruling = ruling_response(game=game, ruling=breakdown.ruling)
    return {
        "start": breakdown.start,
        "final": breakdown.final,
        "winner": breakdown.winner,
        "turn_over": breakdown.turn_over,
        "stopped_at": breakdown.stopped_at,
        "ruling": ruling,
    }
