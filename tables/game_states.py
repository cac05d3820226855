"""The games a table can hold, found through GAMES (common.games): each game that offers tables
declares them in its GamePackage (`table`, a games.package.GameTable: what a table of it carries,
its TableGame, and how the game's own pages open at one). This module names no game.

A table never scores by itself: `asker(game)` is the one place the tables app runs a game's own
jobs (the one flow, as the score and rulings endpoints do); every event kind of every game gets
its answers from it.
"""

from __future__ import annotations

from typing import Any

from cards.models import Game
from common.games import game_package, table_slugs
from games.package import GameTable
from games.services import answer
from games.table_state import Ask, State, TableGame

__all__ = ["Ask", "State", "TableGame", "asker", "game_table", "job_request_body", "table_slugs"]


def game_table(slug: str) -> GameTable:
    """The tables of the game `slug` (its GamePackage's `table`); LookupError for a game that
    offers none (the callers have checked the table's game is one that does)."""
    package = game_package(slug)
    table: GameTable | None = package.table if package is not None else None
    if table is None:
        raise LookupError(f"GAMES gives {slug} no tables")
    return table


def asker(game: Game) -> Ask:
    """`ask(job kind, body)`: the game's own job (score or ruling) run on `body`: its answer,
    saved, with id and url."""
    package = game_package(game.slug)

    def ask(kind: str, body: dict[str, Any]) -> dict[str, Any]:
        job = package.job(kind) if package else None
        if job is None:  # pragma: no cover - a table game without that job is a setup fault
            raise LookupError(f"{game.slug} has no {kind} job")
        return answer(game=game, kind=kind, body=body)  # the one flow (games.services)

    return ask


def job_request_body(
    game: Game, state: State, players: list[str], kind: str
) -> dict[str, Any] | None:
    """The body of the game's own job request filled in from the table's state (None when the
    game offers no tables or the job asks nothing the table knows)."""
    package = game_package(game.slug)
    table: GameTable | None = package.table if package is not None else None
    if table is None:
        return None
    return table.request_body(state, players, kind, None, False)
