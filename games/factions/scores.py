"""Factions standings for the API and the pages: parse the position (the body itself, in the
rulings' shape, API.md), check it can exist, ask the engine (games.services does the rest).

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

from typing import Any

from cards.models import Game
from games.factions.rulings import TablePosition, option_warnings
from games.factions.scorer import Standings
from games.package import Asked


def ask(game: Game, request: TablePosition, context: dict[str, Any]) -> Asked:
    """The standings' body (the position itself) as the engine's position, nobody to move; an
    option is a warning said before the engine's."""
    return Asked(
        position=request.for_engine(context["catalog"], to_move=False),
        warnings=option_warnings(request),
    )


def answer_fields(
    game: Game, request: TablePosition, asked: Asked, result: Standings
) -> dict[str, Any]:
    """The standings' own fields beside API.md's score body."""
    return {"standings": result.standings, "eliminated": result.eliminated, "winner": result.winner}
