"""Scores Star Trek: Missions for the API and the pages: read the body (declared below: Hand,
Choice, Player, Table, read by common.requests), check each hand is a legal final hand, call the
engine, save the result.

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
from typing import Annotated

from pydantic import ConfigDict, Field, ValidationInfo
from pydantic.functional_validators import BeforeValidator, PlainValidator
from pydantic_core import PydanticCustomError

from cards.models import Card, Game
from cards.selectors import game_attribute_specs
from common.api_errors import ApiError, error_entry
from common.card_names import CardNameResolver, invalid_input
from common.requests import (
    CardNames,
    CardNameSchema,
    NameSchema,
    RequestModel,
    card_name,
    read_body,
)
from games.protocol import ImpossiblePosition
from games.star_trek_missions import engine
from games.star_trek_missions.scorer import CardSpec, ChoiceError
from games.wording import listing
from results.services import result_save

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
        default=None, description="an object: card name to its choice")

    def engine_choices(self) -> dict[str, dict]:
        return {name: choice.model_dump(exclude_unset=True)
                for name, choice in (self.choices or {}).items()}


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
    return (f"Provisional: {listing(names)}'s scoring {'rule is' if one else 'rules are'} not yet "
            f"checked against the printed card{'' if one else 's'}, so the score may change "
            f"once an admin checks {'it' if one else 'them'}; the card's page says more.")


def _hand_answer(board: engine.HandBoard, cards: list[Card]) -> dict:
    """One hand's answer: total, steps, warnings, cards, choices (ChoiceError for a fixed choice
    the hand does not allow)."""
    result = board.score()
    warnings = list(board.warnings)
    provisional = provisional_cards(cards)
    if provisional:
        warnings.append(provisional_warning(provisional))
    return {
        "total": result.total,
        "steps": [step.as_dict() for step in result.steps],
        "warnings": warnings,
        "cards": [
            {"name": c.name, "points": c.points, "blanked": c.blanked,
             "blanked_reason": c.blanked_reason}
            for c in result.cards
        ],
        "choices": result.choices,
    }


def _choice_error(wrong: ChoiceError, *, prefix: str = "", player: str | None = None) -> dict:
    detail = f"{player}: {wrong.detail}" if player else wrong.detail
    extra = {"player": player} if player else {}
    return error_entry(path=f"{prefix}{wrong.path}", code="invalid_choice", detail=detail, **extra)


def score_star_trek_missions(*, game: Game, body: object) -> dict:
    if isinstance(body, dict) and "players" in body and "hand" not in body:
        return score_table(game=game, body=body)
    resolver = CardNameResolver(game)
    request = read_body(Hand, body, context={"cards": resolver})
    cards, choices = list(request.hand), request.engine_choices()
    vocabulary, labels = vocabulary_and_labels(game)
    try:
        board = engine.check_hand([card_spec(card) for card in cards], vocabulary=vocabulary,
                                  labels=labels, choices=choices)
    except ImpossiblePosition as illegal:
        problems = illegal.errors
        raise ApiError(
            status_code=400,
            code="illegal_hand",
            detail=problems[0]["detail"] if len(problems) == 1
            else "This is not a legal final hand; each problem is listed in errors.",
            errors=[error_entry(**problem) for problem in problems],
        ) from None
    try:
        answer = _hand_answer(board, cards)
    except ChoiceError as wrong:
        raise ApiError(status_code=400, code="invalid_choice", detail=wrong.detail,
                       errors=[_choice_error(wrong)]) from None
    response = {"game": game.slug, **answer}
    return result_save(game=game, kind="score", request_body=body, response_body=response)


# --- The whole table ------------------------------------------------------------------------------


@dataclass
class Seat:
    index: int
    name: str
    cards: list[Card]
    choices: dict[str, dict]

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
            f"played by {_player_range(game)}.")
    return value


class Player(Hand):
    name: Annotated[str, PlainValidator(tidy_name), NameSchema] = Field(
        description="the player's name: text of 1 to 40 characters")


class Table(RequestModel):
    players: Annotated[list[Player], BeforeValidator(seat_count)] = Field(
        description="a list: one object per player, each with name, hand and choices")


def _parse_table(game: Game, body: dict) -> list[Seat]:
    try:
        table = read_body(Table, body, context={"cards": CardNameResolver(game)})
    except ApiError as error:
        counted = [e for e in error.errors if e["code"] in ("too_few_players", "too_many_players")]
        if counted:
            raise ApiError(status_code=400, code="invalid_player_count",
                           detail=counted[0]["detail"], errors=error.errors) from None
        raise
    unfinished = engine.table_contradiction(len(table.players))
    if unfinished is not None:  # STM-R16: within the game's range, but no such game ends
        raise ApiError(status_code=400, code="impossible_position", detail=unfinished["detail"],
                       errors=[error_entry(**unfinished)])
    seats = [Seat(index, player.name, list(player.hand), player.engine_choices())
             for index, player in enumerate(table.players)]
    named: dict[str, Seat] = {}
    errors = []
    for seat in seats:
        first = named.setdefault(seat.name.casefold(), seat)
        if first is not seat:
            errors.append(error_entry(
                path=f"{seat.prefix}name", code="duplicate_player",
                detail=f"Two players are named '{seat.name}' (players {first.index + 1} and "
                       f"{seat.index + 1}); give each player a name of their own.",
                player=seat.name))
    if errors:
        raise invalid_input(errors)
    return seats


def _check_table(seats: list[Seat], *, vocabulary, labels) -> list[engine.HandBoard]:
    """Every card exists once, and every hand is a legal final hand (its board, one per seat): a
    400 naming the players and cards of each contradiction."""
    errors: list[dict] = []
    held: dict[str, Seat] = {}
    for seat in seats:
        for position, card in enumerate(seat.cards):
            other = held.get(card.name)
            if other is not None and other is not seat:
                errors.append(error_entry(
                    path=f"{seat.prefix}hand[{position}]", code="card_in_two_hands",
                    detail=f"{card.name} is in {other.name}'s hand and in {seat.name}'s hand; "
                           "every card exists once.",
                    card=card.name, players=[other.name, seat.name]))
            held.setdefault(card.name, seat)
    boards = []
    for seat in seats:
        try:
            boards.append(engine.check_hand([card_spec(card) for card in seat.cards],
                                            vocabulary=vocabulary, labels=labels,
                                            choices=seat.choices))
        except ImpossiblePosition as illegal:
            errors += [error_entry(path=f"{seat.prefix}{problem['path']}", code=problem["code"],
                                   detail=f"{seat.name}: {problem['detail']}", player=seat.name)
                       for problem in illegal.errors]
    if not errors:
        return boards
    two_hands = any(entry["code"] == "card_in_two_hands" for entry in errors)
    code = "card_in_two_hands" if two_hands else "illegal_hand"
    detail = errors[0]["detail"] if len(errors) == 1 else (
        f"This table cannot exist: {len(errors)} problems, each listed in errors.")
    raise ApiError(status_code=400, code=code, detail=detail, errors=errors)


def standings_of(totals: list[tuple[str, int]]) -> tuple[list[dict], list[str]]:
    """(standings, winners) of [(name, total)] in seat order: highest total first (seat order
    among equals), each with its rank (tied players share one) and its margin to the winner."""
    if not totals:
        return [], []
    best = max(total for _, total in totals)
    ordered = sorted(totals, key=lambda item: -item[1])  # stable: seat order among equals
    standings = [
        {"rank": 1 + sum(1 for _, other in totals if other > total), "name": name,
         "total": total, "margin": best - total}
        for name, total in ordered
    ]
    return standings, [name for name, total in ordered if total == best]


def score_table(*, game: Game, body: dict) -> dict:
    seats = _parse_table(game, body)
    vocabulary, labels = vocabulary_and_labels(game)
    boards = _check_table(seats, vocabulary=vocabulary, labels=labels)
    answers, errors = [], []
    for seat, board in zip(seats, boards, strict=True):
        try:
            answer = _hand_answer(board, seat.cards)
        except ChoiceError as wrong:
            errors.append(_choice_error(wrong, prefix=seat.prefix, player=seat.name))
            continue
        answers.append({"name": seat.name, **answer})
    if errors:
        raise ApiError(status_code=400, code="invalid_choice",
                       detail=errors[0]["detail"] if len(errors) == 1
                       else f"{len(errors)} choices are not allowed; each is listed in errors.",
                       errors=errors)
    standings, winners = standings_of([(answer["name"], answer["total"]) for answer in answers])
    table_provisional = provisional_cards([card for seat in seats for card in seat.cards])
    response = {
        "game": game.slug,
        "total": None,
        "steps": [],
        # Each player's own warnings, then the provisional cards of the whole table once.
        "warnings": [f"{answer['name']}: {warning}"
                     for answer in answers for warning in answer["warnings"]
                     if not warning.startswith("Provisional: ")]
        + ([provisional_warning(table_provisional)] if table_provisional else []),
        "players": answers,
        "standings": standings,
        "winners": winners,
    }
    return result_save(game=game, kind="score", request_body=body, response_body=response)
