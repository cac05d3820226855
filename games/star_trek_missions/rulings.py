"""Star Trek: Missions rulings: the request declared, and as the engine takes it (games.services
reads it, asks the engine and saves the ruling).

Request body (API.md): ``{"position": {"hand": [names], "discard_area": [names],
"galaxy_deck": n, "mission_deck": n}, "move": {...}}``; the deck counts are optional (a draw
without its deck's count needs information). ``position.extra_turn`` (optional,
default false) says the turn is the extra turn Time Distortion granted (STM-R7), which may follow
the end trigger.

The request is declared below (TurnRequest) and read by common.requests: a body that does not
have this shape is a 400 ``invalid_input`` whose entries name each problem by path:
``required``, ``invalid_type``, ``unknown_field``, ``invalid_action``, ``invalid_count``, and the
card-name codes of web.card_names (``unknown_card`` with suggestions, ``invalid_card``,
``too_long``, ``too_many``). A position that cannot exist is a 400
``impossible_position`` (entries in games.star_trek_missions.engine). Anything else is a
ruling, legal, illegal or needing information (a draw without its deck's count), saved under a
permalink.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from cards.models import Card, Game
from common.requests import CardName, CardNames, RequestModel
from games.package import Asked
from games.star_trek_missions import engine
from web.card_names import CardNameResolver


def card_spec(card: Card) -> engine.CardSpec:
    """What the engine needs of a catalog card: name, deck and the kinds of its rule's effects."""
    rule = card.rule if isinstance(card.rule, dict) else {}
    listed = rule.get("effects")
    effects = listed if isinstance(listed, list) else []
    kinds = frozenset(
        effect["kind"]
        for effect in effects
        if isinstance(effect, dict) and isinstance(effect.get("kind"), str)
    )
    deck = (card.attributes or {}).get("deck") or ""
    return engine.CardSpec(name=card.name, deck=deck, effects=kinds)


class Position(RequestModel):
    hand: CardNames = Field(description="a list of card names")
    discard_area: CardNames = Field(description="a list of card names")
    # Optional: a ruling needs a deck's count only for a draw from that deck (needs_information).
    galaxy_deck: int | None = Field(
        default=None, ge=0, description="the number of cards in the Galaxy deck"
    )
    mission_deck: int | None = Field(
        default=None, ge=0, description="the number of cards in the Mission deck"
    )
    extra_turn: bool = Field(default=False, description="true or false")


# One model per option, told apart by "action". A field of the other options is accepted (not
# read): a move giving two options is ruled illegal (one_option_only), not refused as malformed.
class TakeDiscard(RequestModel):
    action: Literal["take_discard"]
    take: CardName = Field(description="the card taken from the discard area")
    draw: object = None
    discard: CardNames = Field(description="a list of the cards discarded")


class DrawGalaxy(RequestModel):
    action: Literal["draw_galaxy"]
    draw: CardName = Field(description="the Galaxy card drawn")
    take: object = None
    discard: CardNames = Field(description="a list of the cards discarded")


class DrawMissions(RequestModel):
    action: Literal["draw_missions"]
    draw: CardNames = Field(description="a list of the two Mission cards drawn")
    take: object = None
    discard: CardNames = Field(description="a list of the cards discarded")


class TurnRequest(RequestModel):
    position: Position = Field(description="an object")
    move: TakeDiscard | DrawGalaxy | DrawMissions = Field(
        discriminator="action", description="an object"
    )


def ask(game: Game, request: TurnRequest, context: dict[str, Any]) -> Asked:
    """A turn request as the engine's position and move (games.services does the rest)."""
    resolver: CardNameResolver = context["cards"]
    position, move = request.position, request.move
    decks = [(card.attributes or {}).get("deck") for card in resolver.cards]
    copies = [card.copies for card in resolver.cards]
    galaxy_cards = sum(n for n, deck in zip(copies, decks, strict=True) if deck == "galaxy")
    mission_cards = sum(n for n, deck in zip(copies, decks, strict=True) if deck == "mission")
    drawn = (
        move.draw
        if isinstance(move, DrawMissions)
        else ([move.draw] if isinstance(move, DrawGalaxy) else [])
    )
    own = engine.ACTION_FIELDS[move.action]
    return Asked(
        position=engine.Position(
            hand=[card_spec(card) for card in position.hand],
            discard_area=[card_spec(card) for card in position.discard_area],
            galaxy_deck=position.galaxy_deck,
            mission_deck=position.mission_deck,
            extra_turn=position.extra_turn,
            galaxy_cards=galaxy_cards or engine.GALAXY_CARDS,
            mission_cards=mission_cards or engine.MISSION_CARDS,
        ),
        move=engine.Move(
            action=move.action,
            take=card_spec(move.take) if isinstance(move, TakeDiscard) else None,
            draw=[card_spec(card) for card in drawn],
            discard=[card_spec(card) for card in move.discard],
            other_fields=[
                key for key in ("take", "draw") if key in move.model_fields_set and key not in own
            ],
        ),
    )
