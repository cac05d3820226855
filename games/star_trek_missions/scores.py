"""Scores Star Trek: Missions for the API and the pages: parse the body, resolve the card names,
check each hand is a legal final hand, call the engine, save the result.

Two bodies (API.md):

* one hand, ``{"hand": [names], "choices": {…}}``: the hand's total, steps, cards and choices;
* the whole table at game end, ``{"players": [{"name", "hand", "choices"}, …]}``: each player's
  hand scored exactly as a single hand is (its own best choices, its own steps), then
  ``standings`` (by total, highest first, with each player's margin to the winner) and
  ``winners`` (every player with the highest total: tied players share victory, STM-9.4).
  The table is checked as a whole first: the player count lies in the game's range, every
  player has a name of their own, no card is in two hands (every card exists once) and every hand
  is a legal final hand. A table has no single total: its ``total`` is null and its ``steps``
  empty; the steps are each player's.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import cast

from cards.models import Card, Game
from cards.selectors import game_attribute_specs
from common.api_errors import ApiError, error_entry
from common.body_checks import unknown_fields
from common.card_names import CardNameResolver, invalid_input
from games.protocol import ImpossiblePosition
from games.star_trek_missions import engine
from games.star_trek_missions.scorer import CardSpec, ChoiceError
from results.services import result_save

ATTRIBUTES = ("type", "specialty", "lifeform", "affiliation")
BODY_FIELDS = ("hand", "choices")
TABLE_FIELDS = ("players",)
PLAYER_FIELDS = ("name", "hand", "choices")
# Choice fields that name cards of the hand (resolved like every card name in a request).
NAMED_FIELDS = ("target", "copies")
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


def _parse_hand(resolver: CardNameResolver, body: dict, *, prefix: str = ""
                ) -> tuple[list[Card], dict[str, dict], list[dict]]:
    """The cards and choices of one hand's body ({"hand", "choices"}), and the problems found,
    each at its path (under `prefix`, e.g. "players[1].")."""
    errors: list[dict] = []
    if "hand" not in body:
        errors.append(error_entry(path=f"{prefix}hand", code="required",
                                  detail="Give the hand: a list of card names."))
    cards, hand_errors = resolver.resolve(body.get("hand", []), path=f"{prefix}hand")
    errors += hand_errors
    choices: dict[str, dict] = {}
    raw_choices = body.get("choices", {})
    if raw_choices is None:
        raw_choices = {}
    if not isinstance(raw_choices, dict):
        errors.append(error_entry(path=f"{prefix}choices", code="invalid_type",
                                  detail="choices must be an object: card name to its choice."))
        raw_choices = {}
    for key, choice in raw_choices.items():
        path = f"{prefix}choices[{key!r}]"
        card, error = resolver.resolve_one(key, path=path)
        if error:
            errors.append(error)
            continue
        assert card is not None  # resolve_one gives a card or an error
        if not isinstance(choice, dict):
            errors.append(error_entry(path=path, code="invalid_type",
                                      detail=f"The choice for {card.name} must be an object."))
            continue
        choice = dict(choice)
        for field in NAMED_FIELDS:
            if isinstance(choice.get(field), str):
                named, error = resolver.resolve_one(choice[field], path=f"{path}.{field}")
                errors += [error] if error else []
                choice[field] = named.name if named else choice[field]
        if isinstance(choice.get("blank"), list):
            blanked, blank_errors = resolver.resolve(choice["blank"], path=f"{path}.blank")
            errors += blank_errors
            choice["blank"] = [c.name for c in blanked if c is not None]
        choices[card.name] = choice
    # A name not resolved (None) comes with an error, and the callers use the cards only when
    # there is none.
    return cast(list[Card], cards), choices, errors


def _hand_answer(board: engine.HandBoard, cards: list[Card]) -> dict:
    """One hand's answer: total, steps, warnings, cards, choices (ChoiceError for a fixed choice
    the hand does not allow)."""
    result = board.score()
    warnings = list(board.warnings)
    for card in cards:
        if (card.field_provenance or {}).get("rule") == "provisional":
            warnings.append(f"{card.name}'s rule is provisional: {card.provenance_note}")
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


def score_star_trek_missions(*, game: Game, body: dict) -> dict:
    if "players" in body and "hand" not in body:
        return score_table(game=game, body=body)
    resolver = CardNameResolver(game)
    errors = unknown_fields(body, BODY_FIELDS, of="a score request (hand and choices for one "
                                                 "hand, or players without hand for the table)")
    cards, choices, hand_errors = _parse_hand(resolver, body)
    errors += hand_errors
    if errors:
        raise invalid_input(errors)
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


def player_name(raw) -> tuple[str, str]:
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


def _player_range(game: Game) -> str:
    low, high = game.min_players, game.max_players
    if high is None:
        return f"at least {low}"
    return f"{low} to {high}"


def _parse_table(game: Game, body: dict) -> list[Seat]:
    errors = unknown_fields(body, TABLE_FIELDS, of="a table score request (players, each with "
                                                  "name, hand and choices)")
    players = body.get("players")
    if not isinstance(players, list):
        errors.append(error_entry(path="players", code="invalid_type",
                                  detail="players must be a list: one object per player, each "
                                         "with name, hand and choices."))
        raise invalid_input(errors)
    low, high = game.min_players, game.max_players
    if len(players) < low or (high is not None and len(players) > high):
        detail = (f"The table has {len(players)} player{'s' if len(players) != 1 else ''}; "
                  f"{game.name} is played by {_player_range(game)}.")
        code = "too_few_players" if len(players) < low else "too_many_players"
        raise ApiError(status_code=400, code="invalid_player_count", detail=detail,
                       errors=[*errors, error_entry(path="players", code=code, detail=detail)])
    resolver = CardNameResolver(game)
    seats: list[Seat] = []
    named: dict[str, int] = {}
    for index, player in enumerate(players):
        prefix = f"players[{index}]."
        if not isinstance(player, dict):
            errors.append(error_entry(path=f"players[{index}]", code="invalid_type",
                                      detail="Each player is an object: name, hand and choices."))
            continue
        errors += unknown_fields(player, PLAYER_FIELDS, prefix, of="a player")
        name, problem = player_name(player.get("name"))
        if "name" not in player:
            errors.append(error_entry(path=f"{prefix}name", code="required",
                                      detail="Give each player a name."))
        elif problem:
            errors.append(error_entry(path=f"{prefix}name", code="invalid_name", detail=problem))
        elif name.casefold() in named:
            first = named[name.casefold()]
            errors.append(error_entry(
                path=f"{prefix}name", code="duplicate_player",
                detail=f"Two players are named '{name}' (players[{first}] and players[{index}]); "
                       "give each player a name of their own.",
                player=name))
        else:
            named[name.casefold()] = index
        cards, choices, hand_errors = _parse_hand(resolver, player, prefix=prefix)
        errors += hand_errors
        seats.append(Seat(index, name, cards, choices))
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
    response = {
        "game": game.slug,
        "total": None,
        "steps": [],
        "warnings": [f"{answer['name']}: {warning}"
                     for answer in answers for warning in answer["warnings"]],
        "players": answers,
        "standings": standings,
        "winners": winners,
    }
    return result_save(game=game, kind="score", request_body=body, response_body=response)
