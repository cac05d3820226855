"""The games a table can hold, found through GAMES: each game that offers tables names its
table-state module in its GamePackage (`table_state`; games/table_state.py says what the module
holds). This module names no game.

A table never scores by itself: `asker(game)` is the one place the tables app runs a game's own
jobs (through games.registry, as the score and rulings endpoints find them); every event kind of
every game gets its answers from it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from cards.models import Game
from games.registry import GAMES, game_package
from games.table_state import Ask, State, TableGame

__all__ = ["TABLE_GAMES", "Ask", "State", "TableGame", "asker", "job_request_body", "table_games"]


def table_games() -> dict[str, TableGame]:
    """Every game that offers tables, by slug, in GAMES' order."""
    offered: dict[str, TableGame] = {}
    for package in GAMES:
        table = package.table()
        if table is not None:
            offered[package.slug] = table
    return offered


class _TableGames(Mapping[str, TableGame]):
    """TABLE_GAMES reads GAMES when asked (a game added to GAMES in a test is found)."""

    def __getitem__(self, slug: str) -> TableGame:
        return table_games()[slug]

    def __iter__(self) -> Iterator[str]:
        return iter(table_games())

    def __len__(self) -> int:
        return len(table_games())


TABLE_GAMES: Mapping[str, TableGame] = _TableGames()


def asker(game: Game) -> Ask:
    """`ask(job kind, body)`: the game's own job (score or ruling) run on `body`: its answer,
    saved, with id and url."""
    package = game_package(game.slug)

    def ask(kind: str, body: dict) -> dict:
        job = package.job(kind) if package else None
        if job is None:  # pragma: no cover - a table game without that job is a setup fault
            raise LookupError(f"{game.slug} has no {kind} job")
        return job.run(game=game, body=body)

    return ask


def job_request_body(game: Game, state: State, players: list[str], kind: str) -> dict | None:
    """The body of the game's own job request filled in from the table's state (None when the
    game offers no tables or the job asks nothing the table knows)."""
    package = game_package(game.slug)
    module = package.table_module() if package else None
    if module is None:
        return None
    return module.job_request_body(state, players, kind)
