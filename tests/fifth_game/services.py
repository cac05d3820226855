"""Ascent's services: read the body, resolve card names, ask the engine, save the result."""

from __future__ import annotations

from cards.models import Card as CatalogCard
from cards.models import Game
from common.api_errors import ApiError, error_entry
from common.body_checks import unknown_fields
from games.protocol import ImpossiblePosition
from games.responses import ruling_response
from results.services import result_save
from web.card_names import CardNameResolver, invalid_input

from . import engine


def _card(card: CatalogCard) -> engine.Card:
    return engine.Card(card.name, int((card.attributes or {}).get("value") or 0), card.copies)


def _cards(resolver: CardNameResolver, names, path: str, errors: list[dict]) -> list[engine.Card]:
    cards, problems = resolver.resolve(names, path=path)
    errors += problems
    return [_card(card) for card in cards if card is not None]


def rule_play(*, game: Game, body: dict) -> dict:
    errors = unknown_fields(body, ("position", "move"))
    position = body.get("position") if isinstance(body.get("position"), dict) else {}
    move = body.get("move") if isinstance(body.get("move"), dict) else {}
    resolver = CardNameResolver(game)
    hand = _cards(resolver, position.get("hand", []), "position.hand", errors)
    table = _cards(resolver, [position["table"]], "position.table", errors) \
        if position.get("table") else []
    play = _cards(resolver, [move.get("play")], "move.play", errors) if "play" in move else []
    if "play" not in move:
        errors.append(error_entry(path="move.play", code="required",
                                  detail="move.play is required: the card played."))
    if errors:
        raise invalid_input(errors)
    try:
        ruling = engine.rule_play(engine.Position(tuple(hand), table[0] if table else None),
                                  play[0])
    except ImpossiblePosition as impossible:
        raise ApiError(status_code=400, code="impossible_position",
                       detail=impossible.errors[0]["detail"], errors=impossible.errors) from None
    return result_save(game=game, kind="ruling", request_body=body,
                       response_body=ruling_response(game=game, ruling=ruling))


def score_hand(*, game: Game, body: dict) -> dict:
    errors = unknown_fields(body, ("hand",))
    hand = _cards(CardNameResolver(game), body.get("hand", []), "hand", errors)
    if errors:
        raise invalid_input(errors)
    total, steps = engine.score_hand(hand)
    response = {"game": game.slug, "total": total,
                "steps": [step.as_dict() for step in steps], "warnings": []}
    return result_save(game=game, kind="score", request_body=body, response_body=response)
