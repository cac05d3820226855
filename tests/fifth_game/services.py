"""Ascent's requests, declared, and as its engine takes them: the one flow (games.services)
reads them, asks the engine and saves the answer."""

from __future__ import annotations

from pydantic import Field

from cards.models import Card as CatalogCard
from cards.models import Game
from common.requests import CardName, CardNames, RequestModel
from games.package import Asked

from . import engine


class Position(RequestModel):
    hand: CardNames = Field(description="a list of card names")
    table: CardName | None = Field(default=None, description="the card to beat, or null")


class Move(RequestModel):
    play: CardName = Field(description="the card played")


class PlayRequest(RequestModel):
    position: Position = Field(description="an object")
    move: Move = Field(description="an object")


class HandRequest(RequestModel):
    hand: CardNames = Field(description="a list of card names")


def _card(card: CatalogCard) -> engine.Card:
    return engine.Card(card.name, int((card.attributes or {}).get("value") or 0), card.copies)


def ask_play(game: Game, request: PlayRequest, context: dict) -> Asked:
    position = request.position
    return Asked(position=engine.Position(
        tuple(_card(card) for card in position.hand),
        _card(position.table) if position.table is not None else None),
        move=_card(request.move.play))


def ask_hand(game: Game, request: HandRequest, context: dict) -> Asked:
    return Asked(position=engine.Position(tuple(_card(card) for card in request.hand), None))
