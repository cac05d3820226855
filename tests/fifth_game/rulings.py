"""Ascent's ruling request, declared, and as its engine takes it (`ask`): the one flow
(games.services) reads the body against PlayRequest, checks the position, has the Board rule on
the move and saves the answer; the engine's error paths land under "position" (game.py's
`position_at`).

Request body: ``{"position": {"hand": [names], "table": name or null}, "move": {"play": name} or
{"pass": true}}``. A body without this shape is a 400 ``invalid_input`` naming each problem by
path (``unknown_card`` with suggestions, ``unknown_field``, ``required``, ``invalid_move``,
``too_many``); a position that cannot exist a 400 ``impossible_position``; anything else a ruling.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, ValidationInfo, model_validator
from pydantic.functional_validators import BeforeValidator
from pydantic_core import PydanticCustomError

from cards.models import Card as CatalogCard
from cards.models import Game
from common.requests import CardName, RequestModel
from games.package import Asked

from .model import Card, Move, Pass, Play, Position

MAX_HAND = 40  # far more than the game's copies: refused before any name is looked up


def _at_most(value: object, info: ValidationInfo) -> object:
    if isinstance(value, list) and len(value) > MAX_HAND:
        raise PydanticCustomError(
            "too_many", f"{info.field_name} names {len(value)} cards; at most {MAX_HAND}."
        )
    return value


Cards = Annotated[list[CardName], BeforeValidator(_at_most)]


class PositionIn(RequestModel):
    hand: Cards = Field(description="a list of card names: the player's hand")
    table: CardName | None = Field(None, description="a card name or null: the card to beat")


class MoveIn(RequestModel):
    play: CardName | None = Field(None, description="a card name: the card played")
    pass_: bool = Field(False, alias="pass", description="true: the player plays nothing")

    @model_validator(mode="after")
    def one_move(self) -> MoveIn:
        if (self.play is None) == (not self.pass_):
            given = "both" if self.pass_ else "neither"
            raise PydanticCustomError(
                "invalid_move",
                f'A move is {{"play": a card name}} or {{"pass": true}}; this one gives {given}.',
            )
        return self


class PlayRequest(RequestModel):
    position: PositionIn = Field(description="an object")
    move: MoveIn = Field(description="an object")

    def to_position(self) -> Position:
        """The engine's position: the catalog's cards as the rules see them."""
        table = self.position.table
        return Position(hand=hand(self.position.hand), table=card(table) if table else None)

    def to_move(self) -> Move:
        played = self.move.play  # one of the two, MoveIn holds
        return Play(card(played)) if played is not None else Pass()


def card(row: CatalogCard) -> Card:
    """What the rules need of a catalog card; a value not checked against the printed card is
    provisional (its provenance), and the Board warns of it."""
    provenance = row.field_provenance or {}
    return Card(
        name=row.name,
        value=int((row.attributes or {})["value"]),
        copies=row.copies,
        provisional=provenance.get("value") != "verified",
    )


def hand(cards: list[Any]) -> tuple[Card, ...]:
    return tuple(card(row) for row in cards)


def ask(game: Game, request: PlayRequest, context: dict[str, Any]) -> Asked:
    """The request as the engine takes it: the position to check and the move to rule on."""
    return Asked(position=request.to_position(), move=request.to_move())
