"""Scores the end of an Academy Credits round for the API and the pages: parse the body, resolve
card and cadet names, read the options, call the engine, save the result.

Request body (API.md): ``{"players": [{"name", "in_round", "shielded", "marked", "discards":
[cards], "hand": card|null, "credits": n}], "deck_count": n, "options": {…}, "starter": name}``.
``hand`` is needed for the cadets still in at a deck-out showdown; ``credits`` are those before
this round. ``options`` (optional) overrides the game's ``credits_target`` (merged) and
``charles_vance_bonus``; ``starter`` (optional) is who started this round, which decides the next
starter after a shared win (AC-R10).

Response: the score body of API.md (``total`` is the credits awarded this round; every step
carries its ``player``) plus ``ended_by`` (``last_cadet_standing`` | ``deck_out_showdown``),
``round_winners``, ``awards`` (``[{"player", "credits", "reason"}]``), ``standings`` (``[{"rank",
"player", "credits_before", "awarded", "credits", "to_target"}]``, most credits first), ``target``,
``match_winners`` (empty until someone reaches the target), ``next_starter`` and ``options`` (the
readings used).

Errors: 400 ``invalid_input`` (the entries of games.academy_credits.rulings, plus
``required`` / ``value_unknown`` for a showdown card that is missing or has no known value, and
``invalid_option`` when the target has no entry for the number of cadets); 400
``impossible_position`` with the entries of games.academy_credits.engine.
"""

from __future__ import annotations

from cards.models import Game
from common.api_errors import error_entry
from common.body_checks import json_type
from common.card_names import CardNameResolver, invalid_input
from games.academy_credits import engine
from games.academy_credits.rulings import (
    CHARLES_VANCE,
    CREDITS_TARGET,
    canonical_name,
    count_field,
    game_specs,
    parse_options,
    parse_players,
    unknown_fields,
)
from games.protocol import ImpossiblePosition, MissingFacts
from games.responses import impossible_position
from results.services import result_save

GAME = "academy-credits"
BODY_FIELDS = ("players", "deck_count", "options", "starter")


def score_round(*, game: Game, body) -> dict:
    players, deck_count, options, starter, resolver = parse_request(game=game, body=body)
    count = len(players)
    targets = options.get(CREDITS_TARGET) or {}
    target = targets.get(str(count)) if isinstance(targets, dict) else None
    in_range = game.min_players <= count <= (game.max_players or count)
    if target is None and in_range:
        detail = (f"The credits_target option has no target for {count} cadets "
                  f"({json_type(targets)} is set); give one in options.credits_target.")
        raise invalid_input([error_entry(path="options.credits_target", code="invalid_option",
                                         detail=detail)])
    position = engine.Position(
        players=players, turn=None, hand=[], deck_count=deck_count, cards=game_specs(resolver),
        min_players=game.min_players, max_players=game.max_players or count, options=options,
        starter=starter)
    try:
        board = engine.check(position)
        result = board.score()
    except ImpossiblePosition as impossible:
        raise impossible_position(impossible.errors) from None
    except MissingFacts as missing:
        raise invalid_input(missing.missing) from None
    response = {
        "game": game.slug,
        "total": result.total,
        "steps": [step.as_dict() for step in result.steps],
        "warnings": board.warnings,
        "ended_by": result.ended_by,
        "round_winners": result.round_winners,
        "awards": result.awards,
        "standings": result.standings,
        "target": result.target,
        "match_winners": result.match_winners,
        "next_starter": result.next_starter,
        "options": {CREDITS_TARGET: targets, CHARLES_VANCE: options.get(CHARLES_VANCE)},
    }
    return result_save(game=game, kind="score", request_body=body, response_body=response)


def parse_request(*, game: Game, body):
    errors: list[dict] = []
    if not isinstance(body, dict):
        raise invalid_input([error_entry(path="body", code="invalid_type",
                                         detail="The request body must be a JSON object.")])
    errors += unknown_fields(body, BODY_FIELDS, "")
    resolver = CardNameResolver(game)
    players = parse_players(body, "players", resolver, errors)
    deck_count = count_field(body, "deck_count", "deck_count", errors,
                             what="cards left in the deck", maximum=1000)
    options = parse_options(body.get("options"), "options", game, errors)
    starter = body.get("starter")
    if starter is not None:
        if not isinstance(starter, str) or not starter.strip():
            errors.append(error_entry(path="starter", code="invalid_type",
                                      detail="starter must be the name of the cadet who started "
                                             f"the round, or null; got {json_type(starter)}."))
            starter = None
        else:
            starter = canonical_name(starter, players)
    if errors:
        raise invalid_input(errors)
    return players, deck_count, options, starter, resolver
