"""Factions rulings: the request declared (names resolved), and as the engine takes it; the one
flow (games.services) reads it, asks the engine and saves the ruling.

Request body (API.md): ``{"position": {"factions": [{"name", "controller", "units": [{"name",
"alive"}]}], "players": [{"name", "hand": [{"card", "faction"}], "lost_turns"}], "turn",
"pending": {"card": {"card", "faction"}, "by", "target_unit": {"faction", "unit"}}}, "move":
{"action", "card", "target_player", "target_unit"}}``. Besides API.md's fields the position may
say ``turn_lost`` (true: the current turn is a lost one, FAC-R3) and ``players[].faction`` (the
faction the player chose at setup, for the standings' own/conquered), and ``options`` (the game's
options; Factions has none today, so any key is refused).

Faction names and their units come from the catalog: a faction is named by its value or its label
(the "faction" attribute's choices, which an admin may rename), a unit or card by its name (any
case) or slug. Player names are the request's own; a reference to a player matches the name, any
case.

The request is declared below (RulingRequest; the standings read TablePosition) and read by
common.requests: a body that does not have this shape is a 400 ``invalid_input`` whose entries
name each problem by path: ``required``, ``invalid_type``, ``unknown_field``, ``invalid_action``,
``invalid_count``, ``too_many``, ``unknown_card`` (with suggestions), ``invalid_card``,
``unknown_faction`` (with suggestions), ``not_a_unit``, ``not_an_action_card``,
``wrong_faction`` (a target unit named with a faction it does not belong to),
``unknown_player`` (with suggestions), ``duplicate_player``, ``unknown_option``. A position that
cannot exist is a 400 ``impossible_position`` (entries in games.factions.engine).
Anything else is a ruling, legal, illegal or needs_information, saved under a permalink.

The players' names are read first (the field's before-validator keeps them in the reading's
context) so that every reference to a player, anywhere in the body, is checked in the same pass.
"""

from __future__ import annotations

import difflib
from typing import Annotated, Any, Literal

from pydantic import Field, ValidationError, ValidationInfo, field_validator
from pydantic.functional_validators import AfterValidator, BeforeValidator, PlainValidator
from pydantic_core import InitErrorDetails, PydanticCustomError

from cards.models import Card, Game
from cards.naming import normalise
from cards.selectors import game_attribute_specs, game_options
from common.requests import (
    BoundedList,
    CardNameSchema,
    NameSchema,
    RequestModel,
    attribute_choice_schema,
    card_name,
    number_schema,
)
from games.factions import engine
from games.package import Asked
from web.card_names import CardNameResolver, shown

MAX_PLAYERS = 20
MAX_FACTIONS = 40
MAX_UNITS = 40
MAX_HAND = 200
MAX_NAME = 60
MAX_LOST_TURNS = 1000


def reading(game: Game) -> dict[str, Any]:
    """The context a request is read in: the game's card names, its catalog (factions, units,
    actions), and the players the body names (read first, so every reference is checked)."""
    resolver = CardNameResolver(game)
    return {
        "cards": resolver,
        "catalog": catalog_for(game, resolver.cards),
        "players": [],
        "seen": set(),
    }


def ask(game: Game, request: RulingRequest, context: dict[str, Any]) -> Asked:
    """A ruling request as the engine's position (with the catalog, a player to move) and move;
    an option, or a card a move does not use, is a warning said before the engine's."""
    move = request.move
    warnings = option_warnings(request.position)
    if isinstance(move, OtherMove) and move.card is not None:
        warnings.append(
            f"move.card is not used by {move.action.replace('_', ' ')}; it was ignored."
        )
    return Asked(
        position=request.position.for_engine(context["catalog"]),
        move=move_for_engine(move),
        warnings=warnings,
    )


def option_warnings(position: TablePosition) -> list[str]:
    return [
        f"The option {label} is not applied by this tool's rulings."
        for label in (position.options or {}).values()
    ]


def catalog_for(game: Game, cards: list[Card]) -> engine.Catalog:
    """The engine's catalog: the "faction" attribute's choices (value, label) and the cards'
    kind, faction, action and copies, as the database holds them."""
    faction = next((s for s in game_attribute_specs(game=game) if s.key == "faction"), None)
    choices = [(value, label) for value, label in (faction.choices if faction else ()) if value]
    return engine.build_catalog(
        faction_choices=choices,
        cards=[(card.name, card.copies, card.attributes) for card in cards],
        min_players=game.min_players,
    )


# --- Names: cards, factions and players ---------------------------------------------------------


def _catalog(info: ValidationInfo) -> engine.Catalog:
    catalog: engine.Catalog = (info.context or {})["catalog"]
    return catalog


def unit_card(card: Card, info: ValidationInfo) -> str:
    if (card.attributes or {}).get("kind") != "unit":
        raise PydanticCustomError(
            "not_a_unit", f"{card.name} is not a unit card; a faction's units are unit cards."
        )
    return card.name


def action_card(card: Card, info: ValidationInfo) -> str:
    if (card.attributes or {}).get("kind") != "action":
        actions = sorted(_catalog(info).actions)
        raise PydanticCustomError(
            "not_an_action_card",
            f"{card.name} is not an action card; the action cards are {', '.join(actions)}.",
            {"suggestions": actions},
        )
    return card.name


def faction_name(value: object, info: ValidationInfo) -> str:
    """A faction named by its value (slug) or label, any case: its slug."""
    if not isinstance(value, str) or not value.strip():
        raise PydanticCustomError("invalid_type", "A faction is named by its name (text).")
    factions = _catalog(info).factions.values()
    wanted = normalise(value)
    for spec in factions:
        if value.strip() == spec.slug or wanted in (normalise(spec.label), normalise(spec.slug)):
            return spec.slug
    labels = [spec.label for spec in factions]
    keyed = {normalise(label): label for label in labels}
    close = difflib.get_close_matches(wanted, list(keyed), n=3, cutoff=0.6)
    game = (info.context or {})["cards"].game.name
    raise PydanticCustomError(
        "unknown_faction",
        f"No faction named '{shown(value)}' in {game}; its factions are "
        f"{', '.join(labels) or 'none'}.",
        {"suggestions": [keyed[key] for key in close] or labels},
    )


def _clean_name(value: str) -> str:
    return value.replace("\x00", "").strip()


def seat_players(value: object, info: ValidationInfo) -> object:
    """Before the players are read: refuse too many, and keep their well-formed, distinct names
    in the context, where every reference to a player is looked up."""
    if isinstance(value, list):
        if len(value) > MAX_PLAYERS:
            raise PydanticCustomError(
                "too_many", f"This list names {len(value)} players; at most {MAX_PLAYERS}."
            )
        names: list[str] = (info.context or {})["players"]
        for item in value:
            raw = item.get("name") if isinstance(item, dict) else None
            name = _clean_name(raw) if isinstance(raw, str) else ""
            if (
                name
                and len(name) <= MAX_NAME
                and name.casefold() not in {n.casefold() for n in names}
            ):
                names.append(name)
    return value


def player_name(value: str, info: ValidationInfo) -> str:
    """A player's own name (in players): not empty, not too long, not another player's."""
    name = _clean_name(value)
    if not name:
        raise PydanticCustomError("invalid_type", "A player's name cannot be empty.")
    if len(name) > MAX_NAME:
        raise PydanticCustomError(
            "invalid_type",
            f"This name is {len(name)} characters long; a name has at most {MAX_NAME}.",
        )
    seen: set[str] = (info.context or {})["seen"]
    if name.casefold() in seen:
        raise PydanticCustomError(
            "duplicate_player",
            f"Two players are named '{shown(name)}'; each player needs a name of their own.",
        )
    seen.add(name.casefold())
    return name


def player_ref(value: object, info: ValidationInfo) -> str:
    """A reference to one of position.players, by name (any case): the name as the players give
    it."""
    if not isinstance(value, str) or not value.strip():
        raise PydanticCustomError("invalid_type", "A player is named by their name (text).")
    players: list[str] = (info.context or {})["players"]
    wanted = value.strip()
    if wanted in players:
        return wanted
    folded = [name for name in players if name.casefold() == wanted.casefold()]
    if len(folded) == 1:
        return folded[0]
    close = difflib.get_close_matches(wanted, players, n=3, cutoff=0.5)
    raise PydanticCustomError(
        "unknown_player",
        f"No player named '{shown(value)}' among the players; the players "
        f"are {', '.join(players) or 'none'}.",
        {"suggestions": close or players},
    )


def at_most(limit: int) -> BeforeValidator:
    def check(value: object) -> object:
        if isinstance(value, list) and len(value) > limit:
            raise PydanticCustomError(
                "too_many", f"This list has {len(value)} entries; at most {limit}."
            )
        return value

    return BoundedList(check, most=limit)


def not_above(limit: int) -> AfterValidator:
    def check(value: int) -> int:
        if value > limit:
            raise PydanticCustomError(
                "invalid_count", f"This must be between 0 and {limit}; got {value}."
            )
        return value

    return AfterValidator(check)


def game_options_given(value: object, info: ValidationInfo) -> dict[str, str] | None:
    """The options given, each checked against the game's (option key → its label)."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise PydanticCustomError("invalid_type", "The options are an object: option key to value.")
    game = (info.context or {})["cards"].game
    known = {option.key: option for option in game_options(game=game)}
    labels, problems = {}, []
    for key, given in value.items():
        option = known.get(key)
        if option is None:
            problems.append(
                InitErrorDetails(
                    type=PydanticCustomError(
                        "unknown_option",
                        f"'{shown(key)}' is not an option of {game.name} (its options: "
                        f"{', '.join(sorted(known)) or 'none'}).",
                        {
                            "suggestions": difflib.get_close_matches(
                                str(key), list(known), n=3, cutoff=0.5
                            )
                        },
                    ),
                    loc=(key,),
                    input=given,
                )
            )
        elif option.choices is not None and given not in option.choices:
            problems.append(
                InitErrorDetails(
                    type=PydanticCustomError(
                        "invalid_option", f"{key} must be one of {option.choices}."
                    ),
                    loc=(key,),
                    input=given,
                )
            )
        else:
            labels[key] = option.label
    if problems:  # one entry per option, at options.<key>
        raise ValidationError.from_exception_data("options", problems)
    return labels


UnitName = Annotated[str, PlainValidator(card_name), AfterValidator(unit_card), CardNameSchema]
ActionCardName = Annotated[
    str, PlainValidator(card_name), AfterValidator(action_card), CardNameSchema
]
FactionName = Annotated[str, PlainValidator(faction_name), attribute_choice_schema("faction")]
PlayerName = Annotated[str, AfterValidator(player_name), NameSchema]
PlayerRef = Annotated[str, PlainValidator(player_ref), NameSchema]


# --- The request ---------------------------------------------------------------------------------


class CardIn(RequestModel):
    card: ActionCardName = Field(description="the action card's name")
    faction: FactionName = Field(description="the faction that contributed the card")

    def for_engine(self) -> engine.CardRef:
        return engine.CardRef(card=self.card, faction=self.faction)


class UnitRefIn(RequestModel):
    unit: UnitName = Field(description="the unit's name")
    faction: FactionName | None = Field(
        default=None, validate_default=True, description="the faction of the unit"
    )

    @field_validator("faction")
    @classmethod
    def _home(cls, faction: str | None, info: ValidationInfo) -> str | None:
        """The unit's faction, from the catalog when not given; refused when it is not the one
        the catalog gives."""
        unit = info.data.get("unit")
        if unit is None:
            return faction
        catalog = _catalog(info)
        home = catalog.unit_faction(unit)
        if faction is None and home is None:
            raise PydanticCustomError(
                "required", f"The faction of {unit} is required (the catalog does not give it)."
            )
        if home is not None and faction is not None and home != faction:
            raise PydanticCustomError(
                "wrong_faction",
                f"{unit} is a unit of {catalog.label(home)}, not of {catalog.label(faction)}.",
                {"suggestions": [catalog.label(home)]},
            )
        return faction or home

    def for_engine(self) -> engine.UnitRef:
        return engine.UnitRef(faction=self.faction or "", unit=self.unit)  # never "": see _home


class UnitIn(RequestModel):
    name: UnitName = Field(description="the unit's name")
    alive: bool = Field(description="true if the unit survives, false if defeated")


class FactionIn(RequestModel):
    name: FactionName = Field(description="the faction's name")
    controller: PlayerRef = Field(description="the player who controls the faction")
    units: Annotated[list[UnitIn], at_most(MAX_UNITS)] = Field(
        description='the faction\'s units, each {"name", "alive"}'
    )


class TablePlayer(RequestModel):
    name: PlayerName = Field(description="the player's name")
    hand: Annotated[list[CardIn], at_most(MAX_HAND)] | None = Field(
        default=None, description='the player\'s cards, a list of {"card", "faction"}'
    )
    lost_turns: (
        Annotated[int, not_above(MAX_LOST_TURNS), number_schema(0, MAX_LOST_TURNS)] | None
    ) = Field(default=None, ge=0, description="a whole number of turns")
    faction: FactionName | None = Field(default=None, description="the faction's name")
    hand_complete: bool = Field(
        default=True,
        description="false: the hand may hold cards not listed (another phone's "
        "hand, at a table); what depends on them waits for its player",
    )


class Player(TablePlayer):
    hand: Annotated[list[CardIn], at_most(MAX_HAND)] = Field(
        description='the player\'s cards, a list of {"card", "faction"} (empty for none)'
    )


class Pending(RequestModel):
    card: CardIn = Field(description='the ATTACK or AMBUSH played, {"card", "faction"}')
    by: PlayerRef = Field(description="the player who played it")
    target_unit: UnitRefIn = Field(description='the unit attacked, {"faction", "unit"}')


class TablePosition(RequestModel):
    """The position; the standings' whole body. Players first: the rest refers to them."""

    players: Annotated[list[TablePlayer], BeforeValidator(seat_players)] = Field(
        description="the players in seat order"
    )
    factions: Annotated[list[FactionIn], at_most(MAX_FACTIONS)] = Field(
        description="the factions in play"
    )
    turn: PlayerRef | None = Field(
        default=None, description="the name of the player whose turn it is"
    )
    pending: Pending | None = Field(default=None, description="an object, or null")
    turn_lost: bool = Field(default=False, description="true or false")
    options: Annotated[Any, PlainValidator(game_options_given)] = Field(
        default=None, description="an object: option key to value"
    )

    def for_engine(self, catalog: engine.Catalog, *, to_move: bool = True) -> engine.Position:
        """The engine's position, carrying the catalog's facts and whether a player is to move
        (a ruling) or not (the standings)."""
        pending = self.pending
        return engine.Position(
            factions=[
                engine.Faction(
                    slug=f.name,
                    controller=f.controller,
                    units=[engine.Unit(name=u.name, alive=u.alive) for u in f.units],
                )
                for f in self.factions
            ],
            players=[
                engine.Player(
                    name=p.name,
                    hand=[c.for_engine() for c in p.hand or []],
                    lost_turns=p.lost_turns or 0,
                    faction=p.faction,
                    hand_complete=p.hand_complete,
                )
                for p in self.players
            ],
            turn=self.turn,
            turn_lost=self.turn_lost,
            pending=None
            if pending is None
            else engine.Pending(
                card=pending.card.for_engine(),
                by=pending.by,
                target=pending.target_unit.for_engine(),
            ),
            catalog=catalog,
            to_move=to_move,
        )


class Position(TablePosition):
    players: Annotated[list[Player], BeforeValidator(seat_players)] = Field(  # type: ignore[assignment]
        description="the players in seat order"
    )
    turn: PlayerRef = Field(description="the name of the player whose turn it is")


# One model per kind of move, told apart by "action": the card moves name a card.
class CardMove(RequestModel):
    action: Literal["play", "defend", "discard"]
    card: CardIn = Field(
        description='the card played, defended with or discarded, {"card", "faction"}'
    )
    target_player: PlayerRef | None = Field(default=None, description="a player's name")
    target_unit: UnitRefIn | None = Field(
        default=None, description='the unit aimed at, {"faction", "unit"}'
    )


class OtherMove(RequestModel):
    action: Literal["pass", "end_turn"]
    card: object = None  # not used by these moves: ignored, with a warning
    target_player: PlayerRef | None = Field(default=None, description="a player's name")
    target_unit: UnitRefIn | None = Field(
        default=None, description='the unit aimed at, {"faction", "unit"}'
    )


class RulingRequest(RequestModel):
    position: Position = Field(description="an object")
    move: CardMove | OtherMove = Field(discriminator="action", description="an object")


def move_for_engine(move: CardMove | OtherMove) -> engine.Move:
    unit = move.target_unit
    return engine.Move(
        action=move.action,
        card=move.card.for_engine() if isinstance(move, CardMove) else None,
        target_player=move.target_player,
        target_unit=unit.for_engine() if unit is not None else None,
    )
