"""Academy Credits rulings: the request declared (card and cadet names resolved), and as the
engine takes it; the one flow (games.services) reads it, asks the engine and saves the ruling.

Request body (API.md): ``{"position": {"players": [{"name", "in_round", "shielded", "marked",
"discards": [cards], "hand": card|null, "credits": n}], "turn": name, "hand": [two cards],
"deck_count": n, "options": {…}}, "move": {"play": card, "target": name|null, "guess":
card|null, "confirm": bool}}``. A cadet needs only ``name``: ``in_round`` defaults to true,
``shielded``/``marked`` to false, ``discards`` to none, ``hand`` to unknown, ``credits`` to 0
(null is the default too). ``deck_count`` is the cards left in the deck after the cadet to move
drew (AC-3.1); it may be left out (or null): a play illegal whatever the deck holds is ruled
without it, and a legal one whose outcome depends on it is answered ``needs_information``
(``deck_count_required``, with a ``missing`` entry for ``position.deck_count``). Cards are named
by name (any case), slug or value; cadets by name, any case.

``position.options`` overrides the game's options (GameOption rows: ``credits_target``, an object
of player count → credits, merged over the game's; ``charles_vance_bonus``, one of its choices).
A play's ruling does not depend on them; a legal ruling's ``outcome.options`` says which readings
are in force for the round's score.

The request is declared below (PlayRequest; the score's RoundRequest shares Player and Options)
and read by common.requests. Errors: 400 ``invalid_input`` with entries ``required``,
``invalid_type``, ``unknown_field``, ``invalid_count``, ``invalid_name``, ``too_many``,
``unknown_option``, ``invalid_option``, the card-name codes of web.card_names
(``unknown_card`` with suggestions, ``invalid_card``, ``too_long``) and, once the body has its
shape, ``unknown_player`` (a target who is not at the table, with suggestions); 400
``impossible_position`` with the engine's entries (games.academy_credits.engine).
"""

from __future__ import annotations

import difflib
from typing import Annotated, Any

from pydantic import Field, ValidationInfo, model_validator
from pydantic.functional_validators import AfterValidator, BeforeValidator, PlainValidator
from pydantic_core import PydanticCustomError

from cards.models import Card, Game
from cards.selectors import game_options
from common.api_errors import error_entry
from common.body_checks import json_type, shown
from common.requests import (
    BoundedList,
    CardName,
    NameSchema,
    RequestModel,
    invalid_body,
)
from games.academy_credits import engine, model
from games.package import Asked
from web.card_names import CardNameResolver

MAX_CADETS_LISTED = 50  # past this a request is refused before any name is resolved
MAX_NAME = 40
MAX_CARDS_LISTED = 30  # a list of cards longer than the deck
MAX_CREDITS = 1000
MAX_DECK = 1000
CREDITS_TARGET = "credits_target"
CHARLES_VANCE = "charles_vance_bonus"


# --- What the one flow (games.services) asks of the game --------------------------------------


def reading(game: Game) -> dict[str, Any]:
    """The context a request is read in: the game's card names and its options (GameOption
    rows, which an override is checked against)."""
    return {
        "cards": CardNameResolver(game),
        "options": {option.key: option for option in game_options(game=game)},
    }


def ask(game: Game, request: PlayRequest, context: dict[str, Any]) -> Asked:
    """A play request as the engine's position (its played card among the copies) and move; a
    target who is not at the table is a 400 unknown_player. The played card's provisional
    effect is said after the engine's warnings."""
    position, move = request.position, request.move
    players = [player.cadet() for player in position.players]
    target = canonical_name(move.target, players) if move.target is not None else None
    names = [cadet.name for cadet in players]
    if target is not None and players and target not in names:
        raise invalid_body(
            [
                error_entry(
                    path="move.target",
                    code="unknown_player",
                    detail=f"No cadet called '{shown(move.target)}' is at the table; the cadets are "
                    f"{', '.join(names)}.",
                    suggestions=difflib.get_close_matches(move.target or "", names, n=3, cutoff=0.4)
                    or names,
                )
            ]
        )
    played = card_spec(move.play)
    return Asked(
        position=engine.Position(
            players=players,
            turn=canonical_name(position.turn, players),
            hand=[card_spec(card) for card in position.hand],
            deck_count=position.deck_count,
            cards=game_specs(context["cards"]),
            min_players=game.min_players,
            max_players=game.max_players or model.MAX_PLAYERS,
            options=options_in_force(game, position.options),
            played=played,
        ),
        move=engine.Move(
            play=played,
            target=target,
            guess=card_spec(move.guess) if move.guess is not None else None,
            confirm=bool(move.confirm),
        ),
        later_warnings=provisional_warnings([move.play]),
    )


def card_spec(card: Card) -> engine.CardSpec:
    """The engine's view of a catalog card; a value the catalog holds as unknown stays None."""
    attributes = card.attributes or {}
    provenance = card.field_provenance or {}

    def known(key: str) -> Any:
        return None if provenance.get(key) == "unknown" else attributes.get(key)

    value = known("value")
    effect = known("effect")
    return engine.CardSpec(
        name=card.name,
        value=value if isinstance(value, int) and not isinstance(value, bool) else None,
        effect=effect if isinstance(effect, str) else None,
        copies=card.copies,
    )


def game_specs(resolver: CardNameResolver) -> list[engine.CardSpec]:
    return [card_spec(card) for card in resolver.cards]


def provisional_warnings(cards: list[Card]) -> list[str]:
    """A warning for each card whose effect is inferred rather than stated (AC-R3)."""
    warnings, seen = [], set()
    for card in cards:
        if card is None or card.name in seen:
            continue
        seen.add(card.name)
        if (card.field_provenance or {}).get("effect") == "provisional":
            warnings.append(f"{card.name}'s effect is provisional: {card.provenance_note}")
    return warnings


# --- The request, declared ----------------------------------------------------------------------


def problem(code: str, detail: str, suggestions: list[str] | None = None) -> PydanticCustomError:
    """An entry of the API's error body, raised from a field's validator."""
    return PydanticCustomError(code, detail, {"suggestions": suggestions or []})


def at_most(limit: int, code: str, what: str) -> BoundedList:
    """A list longer than `limit` is refused (`code`) before any entry of it is looked at."""

    def check(value: object) -> object:
        if isinstance(value, list) and len(value) > limit:
            raise problem(code, f"This list names {len(value)} {what}.")
        return value

    return BoundedList(check, most=limit)


def cadet_name(value: object) -> str:
    """A seated cadet's name, its spacing tidied."""
    if not isinstance(value, str) or not value.strip():
        raise problem(
            "invalid_name", f"A cadet's name must be a non-empty name; got {json_type(value)}."
        )
    if len(value.strip()) > MAX_NAME:
        raise problem("invalid_name", f"A cadet's name is longer than {MAX_NAME} characters.")
    return " ".join(value.split())


def not_blank(value: str) -> str:
    if not value.strip():
        raise problem("invalid_type", "A cadet is named by their name; got a blank text.")
    return value


def option_pairs(value: object) -> object:
    """Each option's value with its key, so that the value's validator knows its option."""
    return {key: (key, item) for key, item in value.items()} if isinstance(value, dict) else value


def option_value(pair: tuple[str, object], info: ValidationInfo) -> object:
    """An option's value, checked against the game's GameOption row (in the context's
    "options"); a credits_target is the override for each player count given."""
    key, value = pair
    rows, game = (info.context or {})["options"], (info.context or {})["cards"].game
    if key not in rows:
        raise problem(
            "unknown_option",
            f"'{shown(key)}' is not an option of {game.name}; the options are "
            f"{', '.join(sorted(rows))}.",
            difflib.get_close_matches(str(key), list(rows), n=3, cutoff=0.6),
        )
    choices = rows[key].choices
    if choices and value not in choices:
        raise problem(
            "invalid_option",
            f"{key} must be one of {', '.join(map(str, choices))}; got {json_type(value)}.",
            list(choices),
        )
    if choices or key != CREDITS_TARGET:
        return value
    if not isinstance(value, dict) or not value:
        raise problem(
            "invalid_option",
            f'{key} must be an object of player count → credits, like {{"2": 4, "3": 5, "4": 6}}.',
        )
    targets = {}
    for count, credits in value.items():
        if not (
            isinstance(count, str)
            and count.isascii()
            and count.isdigit()
            and game.min_players <= int(count) <= (game.max_players or 99)
        ):
            raise problem(
                "invalid_option",
                f"{key}: '{shown(count)}' is not a player count of "
                f"{game.name} ({game.min_players} to "
                f"{game.max_players}).",
            )
        if isinstance(credits, bool) or not isinstance(credits, int) or not 1 <= credits <= 100:
            raise problem(
                "invalid_option",
                f"{key}.{count} must be a whole number of credits "
                f"from 1 to 100; got {json_type(credits)}.",
            )
        targets[str(int(count))] = credits
    return targets


CadetName = Annotated[str, AfterValidator(not_blank), NameSchema]
Cards = Annotated[list[CardName], at_most(MAX_CARDS_LISTED, "too_many", "cards; the deck has 22")]
Options = Annotated[
    dict[str, Annotated[Any, PlainValidator(option_value)]], BeforeValidator(option_pairs)
]


class Player(RequestModel):
    @model_validator(mode="before")
    @classmethod
    def an_object(cls, value: object) -> object:
        if not isinstance(value, dict):
            raise problem(
                "invalid_type",
                f"A cadet is an object with the cadet's name; got {json_type(value)}.",
            )
        return value

    name: Annotated[str, PlainValidator(cadet_name), NameSchema] = Field(
        description="the cadet's name"
    )
    in_round: bool | None = Field(default=True, description="true or false")
    shielded: bool | None = Field(default=False, description="true or false")
    marked: bool | None = Field(default=False, description="true or false")
    discards: Cards | None = Field(default=None, description="a list of card names")
    hand: CardName | None = Field(default=None, description="a card name or null")
    credits: int | None = Field(
        default=0, ge=0, le=MAX_CREDITS, description="a whole number of credits"
    )

    def cadet(self) -> engine.Cadet:
        return engine.Cadet(
            name=self.name,
            in_round=self.in_round is not False,
            shielded=bool(self.shielded),
            marked=bool(self.marked),
            discards=[card_spec(card) for card in self.discards or []],
            hand=card_spec(self.hand) if self.hand is not None else None,
            credits=self.credits or 0,
        )


Players = Annotated[
    list[Player], at_most(MAX_CADETS_LISTED, "too_many", "cadets; Academy Credits is for 2 to 4")
]


class Position(RequestModel):
    players: Players = Field(description="a list of the cadets in seat order")
    turn: CadetName = Field(description="the name of the cadet whose turn it is")
    hand: Cards = Field(description="a list of the two cards of the cadet to move")
    deck_count: int | None = Field(
        default=None, ge=0, le=MAX_DECK, description="the number of cards left in the deck"
    )
    options: Options | None = Field(default=None, description="an object of option → value")


class Move(RequestModel):
    play: CardName = Field(description="the card played")
    target: CadetName | None = Field(default=None, description="a cadet's name or null")
    guess: CardName | None = Field(default=None, description="a card name or null")
    confirm: bool | None = Field(default=False, description="true or false")


class PlayRequest(RequestModel):
    position: Position = Field(description="an object")
    move: Move = Field(description="an object")


def canonical_name(name: str, players: list[engine.Cadet]) -> str:
    """The seated cadet's name for a name given in any case and spacing; else the name."""
    wanted = " ".join(str(name).split()).casefold()
    for cadet in players:
        if cadet.name.casefold() == wanted:
            return cadet.name
    return " ".join(str(name).split())


def options_in_force(game: Game, given: dict[str, Any] | None) -> dict[str, Any]:
    """The game's options as stored (GameOption rows), key → value, with the request's overrides
    (a credits_target merged over the game's)."""
    options = {option.key: option.value for option in game_options(game=game)}
    for key, value in (given or {}).items():
        options[key] = {**dict(options.get(key) or {}), **value} if key == CREDITS_TARGET else value
    return options
