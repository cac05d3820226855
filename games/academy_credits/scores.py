"""Scores the end of an Academy Credits round: the body declared, as the engine takes it (`ask`:
the options read) and the round's own answer fields (`answer_fields`); the one flow (games.services)
reads, checks, scores and saves.

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

The request is declared below (RoundRequest, with the ruling's Player and Options) and read by
common.requests. Errors: 400 ``invalid_input`` (the entries of games.academy_credits.rulings, plus
``required`` / ``value_unknown`` for a showdown card that is missing or has no known value, and
``invalid_option`` when the target has no entry for the number of cadets); 400
``impossible_position`` with the entries of games.academy_credits.engine.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from cards.models import Game
from common.api_errors import error_entry
from common.body_checks import json_type
from common.requests import RequestModel, invalid_body
from games.academy_credits import engine
from games.academy_credits.rulings import (
    CHARLES_VANCE,
    CREDITS_TARGET,
    MAX_DECK,
    CadetName,
    Options,
    Players,
    canonical_name,
    game_specs,
    options_in_force,
)
from games.academy_credits.scorer import RoundScore
from games.package import Asked


class RoundRequest(RequestModel):
    players: Players = Field(description="a list of the cadets in seat order")
    deck_count: int = Field(ge=0, le=MAX_DECK, description="the number of cards left in the deck")
    options: Options | None = Field(default=None, description="an object of option → value")
    starter: CadetName | None = Field(
        default=None, description="the name of the cadet who started the round, or null"
    )


def ask(game: Game, request: RoundRequest, context: dict[str, Any]) -> Asked:
    """The end of a round as the engine's position (no cadet to move); a credits target with no
    entry for the number of cadets is a 400 invalid_option."""
    players = [player.cadet() for player in request.players]
    options = options_in_force(game, request.options)
    starter = canonical_name(request.starter, players) if request.starter is not None else None
    count = len(players)
    targets = options.get(CREDITS_TARGET) or {}
    target = targets.get(str(count)) if isinstance(targets, dict) else None
    in_range = game.min_players <= count <= (game.max_players or count)
    if target is None and in_range:
        detail = (
            f"The credits_target option has no target for {count} cadets "
            f"({json_type(targets)} is set); give one in options.credits_target."
        )
        raise invalid_body(
            [error_entry(path="options.credits_target", code="invalid_option", detail=detail)]
        )
    return Asked(
        position=engine.Position(
            players=players,
            turn=None,
            hand=[],
            deck_count=request.deck_count,
            cards=game_specs(context["cards"]),
            min_players=game.min_players,
            max_players=game.max_players or count,
            options=options,
            starter=starter,
        )
    )


def answer_fields(
    game: Game, request: RoundRequest, asked: Asked, result: RoundScore
) -> dict[str, Any]:
    """The round's own fields beside API.md's score body, and the readings used."""
    options = asked.position.options
    return {
        "ended_by": result.ended_by,
        "round_winners": result.round_winners,
        "awards": result.awards,
        "standings": result.standings,
        "target": result.target,
        "match_winners": result.match_winners,
        "next_starter": result.next_starter,
        "options": {
            CREDITS_TARGET: options.get(CREDITS_TARGET) or {},
            CHARLES_VANCE: options.get(CHARLES_VANCE),
        },
    }
