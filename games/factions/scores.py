"""Factions standings for the API and the pages: parse the position (the body itself, in the
rulings' shape, API.md), check it can exist, ask the engine, save the result.

The body is the position: ``{"factions": [...], "players": [...], "turn"?, "pending"?}``; hands
and the turn are optional here (the standings do not use them, but a position that has them is
checked all the same). Errors are those of games.factions.rulings, with paths from the
body (``factions[1].units[0].name``); an impossible position is a 400 ``impossible_position``.

Response (API.md's score body): ``total`` null (Factions has no points), ``steps`` (one line per
faction a player controls, a line per player saying whether they are still in the game, and a
closing line naming the winner or saying why there is none), ``warnings``, and the extra fields
``standings`` (per player in seat order: ``player``, ``factions`` [{``faction``, ``name``,
``own`` (true, false or null when the request does not say), ``surviving``, ``defeated``,
``unlisted``}], ``surviving_units``, ``defeated_units``, ``eliminated`` (null when unknown),
``lost_turns``), ``eliminated`` (names) and ``winner`` (a name or null).
"""

from __future__ import annotations

from cards.models import Game
from games.factions import engine
from games.factions.rulings import TablePosition, impossible_position, option_warnings, read_request
from games.protocol import ImpossiblePosition
from results.services import result_save


def score_factions(*, game: Game, body) -> dict:
    position, catalog = read_request(game, TablePosition, body)
    try:
        result = engine.check(catalog, position.for_engine(), to_move=False).score()
    except ImpossiblePosition as impossible:
        raise impossible_position(impossible.errors, prefix="") from None
    response = {
        "game": game.slug,
        "total": result.total,
        "steps": [step.as_dict() for step in result.steps],
        "warnings": option_warnings(position) + result.warnings,
        "standings": result.standings,
        "eliminated": result.eliminated,
        "winner": result.winner,
    }
    return result_save(game=game, kind="score", request_body=body, response_body=response)
