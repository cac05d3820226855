"""Ascent's score of a hand: the request declared, the hand scored by the Board, saved.

Request body: ``{"hand": [names]}``. Response (API.md's score body): ``total`` (the sum of the
values, HC-3), ``steps`` (one a card, with the running total) and ``warnings`` (provisional
values). A hand with more copies of a card than the game has is a 400 ``impossible_position``.
"""

from __future__ import annotations

from pydantic import Field

from cards.models import Game
from common.card_names import CardNameResolver
from common.requests import RequestModel, read_body
from games.protocol import ImpossiblePosition
from games.responses import impossible_position
from results.services import result_save

from . import engine
from .model import Position
from .rulings import Cards, hand


class HandRequest(RequestModel):
    hand: Cards = Field(description="a list of card names: the hand to score")

    def to_position(self) -> Position:
        return Position(hand=hand(self.hand))


def score_hand(*, game: Game, body: object) -> dict:
    """The score response of API.md, saved (with "id" and "url"). Raises ApiError for a 400."""
    request = read_body(HandRequest, body, context={"cards": CardNameResolver(game)})
    try:
        board = engine.check(request.to_position())  # the request's paths are the position's own
    except ImpossiblePosition as impossible:
        raise impossible_position(impossible.errors) from None
    scored = board.score()
    response = {"game": game.slug, "total": scored.total,
                "steps": [step.as_dict() for step in scored.steps], "warnings": board.warnings}
    return result_save(game=game, kind="score", request_body=body, response_body=response)
