"""Star Realms Academy rulings: the request declared (card names resolved), and the card specs
built from the catalog for the engine; the one flow (games.services) reads, asks and saves.

Request body (API.md): ``{"position": {"active": {...}, "opponent": {...}, "shop_row": [names]},
"move": {"action", "card", "target", "amount"}}``.

* ``position.active``: ``name`` (default "Active player"), ``health`` and ``coins`` (required),
  ``hand`` (required), ``in_play`` (ships played this turn), ``bases`` (``[{"card", "damage",
  "used": ["primary" | "ally"]}]``), ``combat`` (the pool), ``used`` (Ally abilities of ships in
  play used this turn: a card name, or ``{"card", "ability": "ally" | "primary"}``, once per copy).
  Optional, beyond API.md: ``deck`` and ``discard_pile`` (card counts, to rule on reshuffles) and
  ``drawn`` (cards in the hand drawn and not named).
* ``position.opponent``: ``name`` (default "Opponent"), ``health`` (required), ``coins``,
  ``bases`` (``[{"card", "damage"}]``), optional ``discard_pile`` (a count).
* ``position.shop_row``: up to five card names (default none).
* ``move``: ``action`` (play | use_base | use_ally | buy | attack | end_turn); ``card`` for the
  first four; ``target`` (a base of the opponent or ``"health"``) and optional ``amount`` for an
  attack; optional ``refill`` (the card that refilled the shop row) for a buy.

An optional field given as null is left out. The request is declared below (Position,
RulingRequest) and read by common.requests: a body without this shape is a 400 ``invalid_input``
whose entries name each problem by path: ``required``, ``invalid_type``, ``unknown_field``,
``unexpected_field`` (a move field its action does not use), ``invalid_action``,
``invalid_number``, ``invalid_ability``, ``too_many``, and the card-name codes of web.card_names
(``unknown_card`` with suggestions, ``invalid_card``, ``too_long``). A position that cannot exist
is a 400 ``impossible_position`` (entries in games.star_realms_academy.engine). Anything else is a
ruling, saved under a permalink.

A card's unknown values are never guessed: the engine answers ``needs_information`` and each
``missing`` entry carries the card's admin change page (``admin_url``), built here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from django.urls import reverse
from pydantic import Field, ValidationInfo, WithJsonSchema, model_validator
from pydantic.functional_validators import PlainValidator
from pydantic_core import PydanticCustomError

from cards.models import Card, Game
from cards.selectors import game_attribute_specs
from common.body_checks import shown_json
from common.requests import (
    CARD_NAME_JSON_SCHEMA,
    BoundedList,
    CardName,
    CardNames,
    RequestModel,
    card_name,
    number_schema,
)
from games.package import Asked
from games.star_realms_academy import engine
from games.star_realms_academy.card_rules import same_faction_as
from web.card_names import CardNameResolver

DEFAULT_NAMES = {"active": "Active player", "opponent": "Opponent"}
MAX_NAME = 40
MAX_NUMBER = 1000  # far beyond any real count; keeps the wording sane
MAX_LIST = 60  # bases or abilities in one place: the game has 60 cards in all (card names:
# CardNames refuses more than the catalog's cards)


def reading(game: Game) -> dict[str, Any]:
    """The context a request is read in: the game's card names, and the specs built from them."""
    specs = Specs(game)
    return {"cards": specs.resolver, "specs": specs}


def ask(game: Game, request: RulingRequest, context: dict[str, Any]) -> Asked:
    """A ruling request as the engine's position and move (games.services does the rest)."""
    specs: Specs = context["specs"]
    return Asked(position=specs.position(request.position), move=specs.move(request.move))


# --- The request, declared ----------------------------------------------------------------------


def _number(least: int) -> Callable[[object, ValidationInfo], int]:
    def check(value: object, info: ValidationInfo) -> int:
        if isinstance(value, float) and value.is_integer():  # 2.0 is the whole number 2
            value = int(value)
        if not isinstance(value, int) or isinstance(value, bool):
            raise PydanticCustomError("int_type", "not a whole number")
        if not least <= value <= MAX_NUMBER:
            bound = f"at least {least}" if value < least else f"at most {MAX_NUMBER}"
            raise PydanticCustomError(
                "invalid_number", f"{info.field_name} must be {bound}; got {value}."
            )
        return value

    return check


# A whole number (an integral float is one) from 0 (Count) or 1 (Amount) to MAX_NUMBER.
Count = Annotated[int, PlainValidator(_number(0)), number_schema(0, MAX_NUMBER)]
Amount = Annotated[int, PlainValidator(_number(1)), number_schema(1, MAX_NUMBER)]


def at_most(limit: int, what: str, *, optional: bool = True) -> Any:
    """A list longer than `limit` is refused as a whole; an optional one given as null is empty."""

    def check(value: object, info: ValidationInfo) -> object:
        if value is None and optional:
            return []
        if isinstance(value, list) and len(value) > limit:
            raise PydanticCustomError(
                "too_many", f"{info.field_name} lists {len(value)} {what}; at most {limit}."
            )
        return value

    return BoundedList(check, most=limit, null=optional)


def _ability(value: object) -> str:
    if value not in engine.ABILITIES:
        # The value goes in last: the message's placeholders are filled in the context's order.
        raise PydanticCustomError(
            "invalid_ability",
            'An ability is "primary" or "ally"; got {given}.',
            {"suggestions": list(engine.ABILITIES), "given": shown_json(value)},
        )
    return str(value)


Ability = Annotated[
    str,
    PlainValidator(_ability),
    WithJsonSchema({"type": "string", "enum": list(engine.ABILITIES)}),
]
Cards = Annotated[CardNames, at_most(MAX_LIST, "cards")]  # optional: null is none


class _Named(RequestModel):
    """A part given as an object {"card", …} or as just its card's name."""

    @model_validator(mode="before")
    @classmethod
    def _bare_name(cls, value: object) -> object:
        return value if isinstance(value, dict) else {"card": value}

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema: Any, handler: Any) -> dict[str, Any]:
        # The schema says so too: the object, or a card's name.
        return {"anyOf": [handler(core_schema), CARD_NAME_JSON_SCHEMA]}


class OpponentBase(_Named):
    card: CardName = Field(description="the base's card name")
    damage: Count | None = Field(None, description="a whole number of damage tokens")


class ActiveBase(OpponentBase):
    used: Annotated[list[Ability], at_most(MAX_LIST, "abilities")] = Field(
        [], description='a list of the abilities used this turn: "primary", "ally"'
    )


class UsedAbility(_Named):
    card: CardName = Field(description="the card whose ability was used")
    ability: Ability = engine.ALLY


class OpponentSide(RequestModel):
    name: str | None = Field(None, description="text")
    health: Count = Field(description="the player's Health (0 to 15)")
    coins: Count | None = Field(None, description="the player's Coins (0 to 8)")
    bases: Annotated[list[OpponentBase], at_most(MAX_LIST, "bases")] = Field(
        [], description='a list of bases, each {"card", "damage"} or a card name'
    )
    discard_pile: Count | None = Field(None, description="a whole number of cards")


class ActiveSide(OpponentSide):
    coins: Count = Field(description="the player's Coins (0 to 8)")
    hand: CardNames = Field(description="a list of card names")
    in_play: Cards = Field([], description="a list of card names")
    bases: Annotated[list[ActiveBase], at_most(MAX_LIST, "bases")] = Field(  # type: ignore[assignment]
        [], description='a list of bases, each {"card", "damage", "used"} or a card name'
    )
    combat: Count | None = Field(None, description="a whole number of Combat")
    used: Annotated[list[UsedAbility], at_most(MAX_LIST, "abilities")] = Field(
        [], description="a list: the cards in play whose Ally ability was used this turn"
    )
    deck: Count | None = Field(None, description="a whole number of cards")
    drawn: Count | None = Field(None, description="a whole number of cards")


class Position(RequestModel):
    active: ActiveSide = Field(description="an object")
    opponent: OpponentSide = Field(description="an object")
    shop_row: Cards = Field([], description="a list of card names")


def _unused(value: object, info: ValidationInfo) -> None:
    """A field the move's action does not use: refused unless empty (null or "")."""
    if value is None or value == "":
        return None
    action = info.data.get("action", "")
    own = engine.ACTION_FIELDS.get(action, ())
    raise PydanticCustomError(
        "unexpected_field",
        f"{action} does not use {info.field_name}"
        + (f"; it uses {', '.join(own)}." if own else "; it takes no fields."),
    )


def _target(value: object, info: ValidationInfo) -> Any:
    if isinstance(value, str) and value.strip().casefold() == engine.HEALTH_TARGET:
        return engine.HEALTH_TARGET
    return card_name(value, info)


Unused = Annotated[
    Any,
    PlainValidator(_unused),
    WithJsonSchema({"anyOf": [{"type": "null"}, {"type": "string", "enum": [""]}]}),
]


# One model per action, told apart by "action" (declared first: the fields an action does not use
# read it).
class _Move(RequestModel):
    action: str
    card: Unused = None
    target: Unused = None
    amount: Unused = None
    refill: Unused = None


class Play(_Move):
    action: Literal["play"]
    card: CardName = Field(description="the card played")


class UseBase(_Move):
    action: Literal["use_base"]
    card: CardName = Field(description="the base whose primary is used")


class UseAlly(_Move):
    action: Literal["use_ally"]
    card: CardName = Field(description="the card whose Ally ability is used")


class Buy(_Move):
    action: Literal["buy"]
    card: CardName = Field(description="the card bought from the shop row")
    refill: CardName | None = Field(None, description="the card that refilled the shop row")


class Attack(_Move):
    action: Literal["attack"]
    target: Annotated[
        Any,
        PlainValidator(_target),
        WithJsonSchema(
            {"anyOf": [{"type": "string", "enum": [engine.HEALTH_TARGET]}, CARD_NAME_JSON_SCHEMA]}
        ),
    ] = Field(description='a base of the opponent, or "health"')
    amount: Amount | None = Field(None, description="a whole number of Combat")


class EndTurn(_Move):
    action: Literal["end_turn"]


Move = Annotated[Play | UseBase | UseAlly | Buy | Attack | EndTurn, Field(discriminator="action")]


class RulingRequest(RequestModel):
    position: Position = Field(description="an object")
    move: Move = Field(description="an object")


# --- From the request to the engine's input -----------------------------------------------------


class Specs:
    """The engine's input from a request read against one game's cards. Card specs are built once
    per card (the cached catalog rows are never modified)."""

    def __init__(self, game: Game):
        self.game = game
        self.resolver = CardNameResolver(game)
        self._specs: dict[int, engine.CardSpec] = {}
        self._labels: dict[str, str] | None = None

    def __call__(self, card: Card) -> engine.CardSpec:
        spec = self._specs.get(card.pk)
        if spec is None:
            spec = self._specs[card.pk] = card_spec(card, self.labels())
        return spec

    def labels(self) -> dict[str, str]:
        if self._labels is None:
            self._labels = {}
            for spec in game_attribute_specs(game=self.game):
                if spec.key == "faction":
                    self._labels = dict(spec.choices)
        return self._labels

    def position(self, position: Position) -> engine.Position:
        active, opponent = position.active, position.opponent
        return engine.Position(
            active=engine.Side(
                name=_name(active.name, DEFAULT_NAMES["active"]),
                health=active.health,
                coins=active.coins,
                hand=self.cards(active.hand),
                in_play=self.cards(active.in_play),
                bases=self.bases(active.bases),
                combat=active.combat or 0,
                used=[(self(used.card), used.ability) for used in active.used],
                deck=active.deck,
                discard_pile=active.discard_pile,
                drawn=active.drawn or 0,
            ),
            opponent=engine.Side(
                name=_name(opponent.name, DEFAULT_NAMES["opponent"]),
                health=opponent.health,
                coins=opponent.coins or 0,
                bases=self.bases(opponent.bases),
                discard_pile=opponent.discard_pile,
            ),
            shop_row=self.cards(position.shop_row),
        )

    def cards(self, cards: list[Card]) -> list[engine.CardSpec]:
        return [self(card) for card in cards]

    def bases(self, bases: list[ActiveBase] | list[OpponentBase]) -> list[engine.BaseIn]:
        return [
            engine.BaseIn(
                card=self(base.card),
                damage=base.damage or 0,
                used=tuple(dict.fromkeys(getattr(base, "used", ()))),
            )
            for base in bases
        ]

    def move(self, move: _Move) -> engine.Move:
        result = engine.Move(action=move.action)
        if isinstance(move, Play | UseBase | UseAlly | Buy):
            result.card = self(move.card)
        if isinstance(move, Buy) and move.refill is not None:
            result.refill = self(move.refill)
        if isinstance(move, Attack):
            result.target_health = move.target == engine.HEALTH_TARGET
            result.target = None if result.target_health else self(move.target)
            result.amount = move.amount
        return result


def _name(value: str | None, default: str) -> str:
    return (value or "").strip()[:MAX_NAME] or default


def card_spec(card: Card, faction_labels: dict[str, str]) -> engine.CardSpec:
    """What the engine needs of a catalog card: its values, their provenance, and the links where
    its page and its admin form are."""
    attributes = card.attributes or {}
    faction = attributes.get("faction")

    def abilities(key: str) -> dict[str, Any] | None:
        value = attributes.get(key)
        return dict(value) if isinstance(value, dict) else None

    def integer(key: str) -> int | None:
        value = attributes.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    # The rulebook's facts beyond the values (star_realms_academy_rules): relied on only when
    # the rule is verified.
    provenance = dict(card.field_provenance or {})
    stated, source = (
        same_faction_as(card.rule) if provenance.get("rule") == "verified" else ((), "")
    )

    return engine.CardSpec(
        name=card.name,
        copies=card.copies,
        faction=faction if isinstance(faction, str) else None,
        kind=attributes.get("kind") if isinstance(attributes.get("kind"), str) else None,
        cost=integer("cost"),
        primary=abilities("primary"),
        ally=abilities("ally"),
        defense=integer("defense"),
        provenance=provenance,
        faction_label=faction_labels.get(faction, "") if isinstance(faction, str) else "",
        admin_url=reverse("admin:cards_card_change", args=[card.pk]),
        card_url=card.get_absolute_url(),
        same_faction_as=stated,
        same_faction_source=source,
    )
