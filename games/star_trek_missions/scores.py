"""Scores Star Trek: Missions: the bodies declared (Hand, Choice, Player, TableHands), as the
engine takes them (`ask`: a HandPosition or a TablePosition, whose check makes each hand a legal
final hand) and the answer's own fields (`answer_fields`); games.services reads, checks, scores
and saves.

Two bodies (API.md):

* one hand, ``{"hand": [names], "choices": {…}}``: the hand's total, steps, cards and choices;
* the whole table at game end, ``{"players": [{"name", "hand", "choices"}, …]}``: each player's
  hand scored exactly as a single hand is (its own best choices, its own steps), then
  ``standings`` (by total, highest first, with each player's margin to the winner) and
  ``winners`` (every player with the highest total: tied players share victory, STM-9.4).
  The table is checked as a whole first: the player count lies in the game's range and is one a
  finished game can have (STM-R16: nine or more never reach the end trigger), every
  player has a name of their own, no card is in two hands (every card exists once) and every hand
  is a legal final hand. A table has no single total: its ``total`` is null and its ``steps``
  empty; the steps are each player's.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import ConfigDict, Field, ValidationInfo
from pydantic.functional_validators import BeforeValidator, PlainValidator
from pydantic_core import PydanticCustomError

from cards.models import Card, Game
from cards.selectors import game_attribute_specs
from common.api_errors import ApiError, error_entry
from common.requests import (
    CardNames,
    CardNameSchema,
    NameSchema,
    RequestModel,
    card_name,
)
from games.package import Asked
from games.protocol import ImpossiblePosition
from games.star_trek_missions import engine
from games.star_trek_missions.explain import HandScore
from games.star_trek_missions.rules import CardSpec
from games.wording import listing
from web.card_names import invalid_input

ATTRIBUTES = ("type", "specialty", "lifeform", "affiliation")
MAX_NAME = 40  # characters of a player's name
WIN_RULE = "STM-9.4"  # "The highest total wins; tied players share victory."


def card_spec(card: Card) -> CardSpec:
    attributes = card.attributes or {}
    return CardSpec(
        name=card.name,
        number=attributes.get("number") or "",
        deck=attributes.get("deck") or "galaxy",
        attributes={key: tuple(attributes.get(key) or ()) for key in ATTRIBUTES},
        rule=card.rule,
    )


def vocabulary_and_labels(game: Game) -> tuple[dict[str, list[str]], dict[str, dict[str, str]]]:
    specs = game_attribute_specs(game=game)
    vocabulary = {s.key: list(s.choice_values) for s in specs if s.key in ATTRIBUTES}
    labels = {s.key: dict(s.choices) for s in specs if s.choices}
    return vocabulary, labels


def choice_card(value: object, info: ValidationInfo) -> str:
    """A card a choice names (its key, target, copies, blank): the catalog's name of it."""
    return str(card_name(value, info).name)


ChoiceCard = Annotated[str, PlainValidator(choice_card), CardNameSchema]


class Choice(RequestModel):
    """One card's choice. The fields naming cards are read here; the rest (type, lifeform,
    affiliation, …) are the engine's to check against the card's rule (invalid_choice)."""

    model_config = ConfigDict(extra="allow")
    target: ChoiceCard | None = Field(default=None, description="a card name")
    copies: ChoiceCard | None = Field(default=None, description="a card name")
    blank: list[ChoiceCard] | None = Field(default=None, description="a list of card names")


class Hand(RequestModel):
    hand: CardNames = Field(description="a list of card names")
    choices: dict[ChoiceCard, Choice] | None = Field(
        default=None, description="an object: card name to its choice"
    )

    def engine_choices(self) -> dict[str, dict[str, Any]]:
        return {
            name: choice.model_dump(exclude_unset=True)
            for name, choice in (self.choices or {}).items()
        }


def provisional_cards(cards: list[Card]) -> list[str]:
    """The cards whose scoring rule is provisional (not yet checked against the printed card)."""
    names: list[str] = []
    for card in cards:
        if (card.field_provenance or {}).get("rule") == "provisional" and card.name not in names:
            names.append(card.name)
    return names


def provisional_warning(names: list[str]) -> str:
    """Said once per answer, in a player's words: where each value comes from is on the card's
    page, not here (issue 23: no file paths or codes in an answer)."""
    one = len(names) == 1
    return (
        f"Provisional: {listing(names)}'s scoring {'rule is' if one else 'rules are'} not yet "
        f"checked against the printed card{'' if one else 's'}, so the score may change "
        f"once an admin checks {'it' if one else 'them'}; the card's page says more."
    )


def ask(game: Game, request: Hand | TableHands, context: dict[str, Any]) -> Asked:
    """One final hand, or the whole table, as the engine's position; the provisional scoring
    rules of its cards are said once, after the engine's warnings. A table no finished game can
    have (STM-R16) is a 400 impossible_position, two players of one name a 400 invalid_input."""
    vocabulary, labels = vocabulary_and_labels(game)
    if isinstance(request, TableHands):
        seats = _seats(request)
        position: engine.HandPosition | engine.TablePosition = engine.TablePosition(
            [
                engine.Seat(seat.name, _hand_position(seat.cards, seat.choices, vocabulary, labels))
                for seat in seats
            ]
        )
        cards = [card for seat in seats for card in seat.cards]
    else:
        cards = list(request.hand)
        position = _hand_position(cards, request.engine_choices(), vocabulary, labels)
    provisional = provisional_cards(cards)
    return Asked(
        position=position, later_warnings=[provisional_warning(provisional)] if provisional else []
    )


def answer_fields(
    game: Game, request: Hand | TableHands, asked: Asked, result: HandScore | engine.TableScore
) -> dict[str, Any]:
    """A hand's cards and choices; a table's players (each hand's answer, as a single hand's),
    standings and winners."""
    if isinstance(result, engine.TableScore):
        assert isinstance(request, TableHands)
        answers = [
            {
                "name": name,
                "total": scored.total,
                "steps": [step.as_dict() for step in scored.steps],
                "warnings": scored.warnings + _provisional(list(player.hand)),
                **_hand_fields(scored),
            }
            for (name, scored), player in zip(result.seats, request.players, strict=True)
        ]
        standings, winners = standings_of([(answer["name"], answer["total"]) for answer in answers])
        return {"players": answers, "standings": standings, "winners": winners}
    return _hand_fields(result)


def _hand_position(
    cards: list[Card],
    choices: dict[str, dict[str, Any]],
    vocabulary: dict[str, list[str]],
    labels: dict[str, dict[str, str]],
) -> engine.HandPosition:
    return engine.HandPosition(
        [card_spec(card) for card in cards], vocabulary=vocabulary, labels=labels, choices=choices
    )


def _provisional(cards: list[Card]) -> list[str]:
    names = provisional_cards(cards)
    return [provisional_warning(names)] if names else []


def _hand_fields(result: HandScore) -> dict[str, Any]:
    return {
        "cards": [
            {
                "name": c.name,
                "points": c.points,
                "blanked": c.blanked,
                "blanked_reason": c.blanked_reason,
            }
            for c in result.cards
        ],
        "choices": result.choices,
    }


# --- The whole table ------------------------------------------------------------------------------


@dataclass
class Seat:
    index: int
    name: str
    cards: list[Card]
    choices: dict[str, dict[str, Any]]

    @property
    def prefix(self) -> str:
        return f"players[{self.index}]."


def player_name(raw: object) -> tuple[str, str]:
    """(the name, "") or ("", the problem): a player's name is text of 1 to 40 characters,
    without control characters; surrounding spaces are dropped and inner runs of space become
    one."""
    if not isinstance(raw, str):
        return "", "A player's name is text."
    name = re.sub(r"\s+", " ", raw).strip()
    if not name:
        return "", "Give the player a name."
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        return "", "A player's name cannot hold control characters."
    if len(name) > MAX_NAME:
        return "", f"A player's name is at most {MAX_NAME} characters; this one has {len(name)}."
    return name, ""


def tidy_name(value: object) -> str:
    name, problem = player_name(value)
    if problem:
        raise PydanticCustomError("invalid_name", problem)
    return name


def _player_range(game: Game) -> str:
    low, high = game.min_players, game.max_players
    if high is None:
        return f"at least {low}"
    return f"{low} to {high}"


def seat_count(value: object, info: ValidationInfo) -> object:
    """Before the players are read: their count lies in the game's range (too_few_players or
    too_many_players, which the table answers as invalid_player_count)."""
    game: Game = (info.context or {})["cards"].game
    low, high = game.min_players, game.max_players
    if isinstance(value, list) and (len(value) < low or (high is not None and len(value) > high)):
        raise PydanticCustomError(
            "too_few_players" if len(value) < low else "too_many_players",
            f"The table has {len(value)} player{'s' if len(value) != 1 else ''}; {game.name} is "
            f"played by {_player_range(game)}.",
        )
    return value


class Player(Hand):
    name: Annotated[str, PlainValidator(tidy_name), NameSchema] = Field(
        description="the player's name: text of 1 to 40 characters"
    )


# The whole table at game end: every player's final hand. Not "Table": tables.models.Table is the
# shared table several phones play at.
class TableHands(RequestModel):
    players: Annotated[list[Player], BeforeValidator(seat_count)] = Field(
        description="a list: one object per player, each with name, hand and choices"
    )

    @classmethod
    def refused(cls, error: ApiError) -> ApiError:
        """A table with too few or too many players is an invalid_player_count."""
        counted = [e for e in error.errors if e["code"] in ("too_few_players", "too_many_players")]
        if counted:
            return ApiError(
                status_code=400,
                code="invalid_player_count",
                detail=counted[0]["detail"],
                errors=error.errors,
            )
        return error


def _seats(table: TableHands) -> list[Seat]:
    """The table's seats: a table no finished game can have is impossible (STM-R16: within the
    game's range, but no such game ends), two players of one name an invalid input."""
    unfinished = engine.table_contradiction(len(table.players))
    if unfinished is not None:
        raise ImpossiblePosition([unfinished])
    seats = [
        Seat(index, player.name, list(player.hand), player.engine_choices())
        for index, player in enumerate(table.players)
    ]
    named: dict[str, Seat] = {}
    errors = []
    for seat in seats:
        first = named.setdefault(seat.name.casefold(), seat)
        if first is not seat:
            errors.append(
                error_entry(
                    path=f"{seat.prefix}name",
                    code="duplicate_player",
                    detail=f"Two players are named '{seat.name}' (players {first.index + 1} and "
                    f"{seat.index + 1}); give each player a name of their own.",
                    player=seat.name,
                )
            )
    if errors:
        raise invalid_input(errors)
    return seats


def standings_of(totals: list[tuple[str, int]]) -> tuple[list[dict[str, Any]], list[str]]:
    """(standings, winners) of [(name, total)] in seat order: highest total first (seat order
    among equals), each with its rank (tied players share one) and its margin to the winner."""
    if not totals:
        return [], []
    best = max(total for _, total in totals)
    ordered = sorted(totals, key=lambda item: -item[1])  # stable: seat order among equals
    standings = [
        {
            "rank": 1 + sum(1 for _, other in totals if other > total),
            "name": name,
            "total": total,
            "margin": best - total,
        }
        for name, total in ordered
    ]
    return standings, [name for name, total in ordered if total == best]
