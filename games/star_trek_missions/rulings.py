"""Star Trek: Missions rulings: validate the request, resolve card names, ask the engine, save.

Request body (API.md): ``{"position": {"hand": [names], "discard_area": [names],
"galaxy_deck": n, "mission_deck": n}, "move": {...}}``. ``position.extra_turn`` (optional,
default false) says the turn is the extra turn Time Distortion granted (STM-R7), which may follow
the end trigger.

A request that does not have this shape is a 400 ``invalid_input`` whose entries name each
problem by path: ``required``, ``invalid_type``, ``unknown_field``, ``invalid_action``,
``invalid_count``, and the card-name codes of common.card_names (``unknown_card`` with
suggestions, ``invalid_card``, ``too_many``). A position that cannot exist is a 400
``impossible_position`` (entries in games.star_trek_missions.engine). Anything else is a
ruling, legal or illegal, saved under a permalink.
"""

from __future__ import annotations

import difflib
from typing import cast

from cards.models import Card, Game
from common.api_errors import error_entry
from common.body_checks import json_type as _json_type
from common.body_checks import required as _required
from common.body_checks import required_object, unknown_fields
from common.body_checks import shown_json as _shown_json
from common.card_names import CardNameResolver, invalid_input
from games.protocol import ImpossiblePosition
from games.responses import impossible_position, ruling_response
from games.star_trek_missions import engine
from results.services import result_save

GAME = "star-trek-missions"
BODY_FIELDS = ("position", "move")
POSITION_FIELDS = ("hand", "discard_area", "galaxy_deck", "mission_deck", "extra_turn")
MOVE_FIELDS = ("action", "take", "draw", "discard")


def rule_turn(*, game: Game, body) -> dict:
    """The ruling response of API.md, saved (with "id" and "url"). Raises ApiError for a 400."""
    position, move = parse_request(game=game, body=body)
    try:
        board = engine.check(position)
    except ImpossiblePosition as impossible:
        raise impossible_position(impossible.errors) from None
    response = ruling_response(game=game, ruling=board.rule(move))
    return result_save(game=game, kind="ruling", request_body=body, response_body=response)


def card_spec(card: Card) -> engine.CardSpec:
    """What the engine needs of a catalog card: name, deck and the kinds of its rule's effects."""
    rule = card.rule if isinstance(card.rule, dict) else {}
    listed = rule.get("effects")
    effects = listed if isinstance(listed, list) else []
    kinds = frozenset(
        effect["kind"] for effect in effects
        if isinstance(effect, dict) and isinstance(effect.get("kind"), str)
    )
    deck = (card.attributes or {}).get("deck") or ""
    return engine.CardSpec(name=card.name, deck=deck, effects=kinds)


def parse_request(*, game: Game, body) -> tuple[engine.Position, engine.Move]:
    """The engine's Position and Move from a request body; raises ApiError (400) naming every
    problem at once."""
    errors: list[dict] = []
    if not isinstance(body, dict):
        raise invalid_input([error_entry(path="body", code="invalid_type",
                                         detail="The request body must be a JSON object.")])
    errors += unknown_fields(body, BODY_FIELDS, "")
    resolver = CardNameResolver(game)
    position_raw = required_object(body, "position", errors)
    move_raw = required_object(body, "move", errors)

    hand: list[Card | None] = []
    discard_area: list[Card | None] = []
    counts: dict[str, int] = {}
    extra_turn = False
    if position_raw is not None:
        errors += unknown_fields(position_raw, POSITION_FIELDS, "position.")
        for key in ("hand", "discard_area"):
            if key not in position_raw:
                errors.append(_required(f"position.{key}", "a list of card names"))
                continue
            cards, card_errors = resolver.resolve(position_raw[key], path=f"position.{key}")
            errors += card_errors
            if key == "hand":
                hand = cards
            else:
                discard_area = cards
        for key in ("galaxy_deck", "mission_deck"):
            value = position_raw.get(key)
            if key not in position_raw:
                errors.append(_required(f"position.{key}", "the number of cards in the deck"))
            elif isinstance(value, bool) or not isinstance(value, int):
                errors.append(error_entry(path=f"position.{key}", code="invalid_type",
                                          detail=f"position.{key} must be a whole number of "
                                                 f"cards; got {_json_type(value)}."))
            elif value < 0:
                errors.append(error_entry(path=f"position.{key}", code="invalid_count",
                                          detail=f"position.{key} cannot be negative; got {value}."))
            else:
                counts[key] = value
        if "extra_turn" in position_raw:
            if not isinstance(position_raw["extra_turn"], bool):
                errors.append(error_entry(path="position.extra_turn", code="invalid_type",
                                          detail="position.extra_turn must be true or false."))
            else:
                extra_turn = position_raw["extra_turn"]

    move = None
    if move_raw is not None:
        move, move_errors = _parse_move(move_raw, resolver)
        errors += move_errors

    if errors:
        raise invalid_input(errors)
    galaxy_cards = sum(c.copies for c in resolver.cards if (c.attributes or {}).get("deck") == "galaxy")
    mission_cards = sum(c.copies for c in resolver.cards if (c.attributes or {}).get("deck") == "mission")
    # No error: every name was resolved (no card is None) and the move was parsed.
    assert move is not None
    position = engine.Position(
        hand=[card_spec(card) for card in cast(list[Card], hand)],
        discard_area=[card_spec(card) for card in cast(list[Card], discard_area)],
        galaxy_deck=counts["galaxy_deck"],
        mission_deck=counts["mission_deck"],
        extra_turn=extra_turn,
        galaxy_cards=galaxy_cards or engine.GALAXY_CARDS,
        mission_cards=mission_cards or engine.MISSION_CARDS,
    )
    return position, move


def _parse_move(raw: dict, resolver: CardNameResolver) -> tuple[engine.Move | None, list[dict]]:
    errors = unknown_fields(raw, MOVE_FIELDS, "move.")
    action = raw.get("action")
    if "action" not in raw:
        errors.append(_required("move.action", "one of " + ", ".join(engine.ACTIONS)))
        return None, errors
    if action not in engine.ACTIONS:
        suggestions = difflib.get_close_matches(str(action), engine.ACTIONS, n=3, cutoff=0.5)
        errors.append(error_entry(
            path="move.action", code="invalid_action",
            detail=f"move.action must be one of {', '.join(engine.ACTIONS)}; got "
                   f"{_shown_json(action)}.",
            suggestions=suggestions or list(engine.ACTIONS)))
        return None, errors
    own = engine.ACTION_FIELDS[action]
    other_fields = [key for key in ("take", "draw") if key in raw and key not in own]

    take = None
    draw: list[Card | None] = []
    if action == engine.TAKE_DISCARD:
        if "take" not in raw:
            errors.append(_required("move.take", "the card taken from the discard area"))
        else:
            take, error = resolver.resolve_one(raw["take"], path="move.take")
            if error:
                errors.append(error)
    elif action == engine.DRAW_GALAXY:
        if "draw" not in raw:
            errors.append(_required("move.draw", "the Galaxy card drawn"))
        elif isinstance(raw["draw"], list):
            errors.append(error_entry(path="move.draw", code="invalid_type",
                                      detail="For draw_galaxy, move.draw is one card name, not a "
                                             "list."))
        else:
            card, error = resolver.resolve_one(raw["draw"], path="move.draw")
            if error:
                errors.append(error)
            draw = [card]
    else:
        if "draw" not in raw:
            errors.append(_required("move.draw", "a list of the two Mission cards drawn"))
        else:
            draw, draw_errors = resolver.resolve(raw["draw"], path="move.draw")
            errors += draw_errors
    discard: list[Card | None] = []
    if "discard" not in raw:
        errors.append(_required("move.discard", "a list of the cards discarded"))
    else:
        discard, discard_errors = resolver.resolve(raw["discard"], path="move.discard")
        errors += discard_errors
    if errors:
        return None, errors
    # No error: every name was resolved (no card is None).
    return engine.Move(
        action=action,
        take=card_spec(take) if take else None,
        draw=[card_spec(card) for card in cast(list[Card], draw)],
        discard=[card_spec(card) for card in cast(list[Card], discard)],
        other_fields=other_fields,
    ), []




