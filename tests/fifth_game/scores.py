"""Ascent's score request, declared, and as its engine takes it (`ask`): the one flow
(games.services) reads the body against HandRequest, checks the hand and has the Board score it.

Request body: ``{"hand": [names]}``. Response (API.md's score body): ``total`` (the sum of the
values, HC-3), ``steps`` (one a card, with the running total) and ``warnings`` (provisional
values). A hand with more copies of a card than the game has is a 400 ``impossible_position``.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from cards.models import Game
from common.requests import RequestModel
from games.package import Asked

from .model import Position
from .rulings import Cards, hand


class HandRequest(RequestModel):
    hand: Cards = Field(description="a list of card names: the hand to score")

    def to_position(self) -> Position:
        return Position(hand=hand(self.hand))


def ask(game: Game, request: HandRequest, context: dict[str, Any]) -> Asked:
    """The request as the engine takes it: the hand is the position (the body's paths are its
    own), scored as it stands."""
    return Asked(position=request.to_position())
