"""The one way to find a game: `games()` (GAMES, in order), `game_package(slug)` and
`slugs_with(kind)`, for every app, the catalog, saved results and the pages' shared layer below
games/ as much as the endpoints, the tables and games/ itself above it.

games/registry.py's GAMES lists every game (one typed games.package.GamePackage each), and it
imports every game, whose modules import the catalog, the one flow and the apps below: an import of
the registry from any of those would close a circle (import-linter's "layers" and "acyclic"
contracts forbid it). So the list is found as Django's apps find the user model
(settings.AUTH_USER_MODEL and get_user_model()): settings.GAMES names it (config, at the top,
wires the layers together) and it is imported when first asked, never at import time. The apps
below games/ depend only on what they read of an entry (`GameEntry`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol


class GameEntry(Protocol):
    """What the apps read of an entry of GAMES (games.package.GamePackage, which mypy checks
    in full; here its jobs, engine and tables are Any, as their types live in games/)."""

    @property
    def slug(self) -> str: ...

    @property
    def package(self) -> str: ...  # the Django app of the game: "games.<package name>"

    @property
    def shortcuts(self) -> tuple[tuple[str, str], ...]: ...  # (name, URL name): kept offline

    @property
    def check(self) -> Any: ...  # the engine's check(position) -> a games.protocol.Board

    @property
    def ruling(self) -> Any: ...  # a games.package.Job, or None

    @property
    def score(self) -> Any: ...  # a games.package.Job, or None

    @property
    def rule_language(self) -> Any: ...  # the rule language module, or None

    @property
    def card_text(self) -> Any: ...  # render(specs, attributes) -> str, or None

    @property
    def table(self) -> Any: ...  # a games.package.GameTable, or None: no tables

    @property
    def catalog_file(self) -> Path: ...

    @property
    def static(self) -> Path: ...  # its pages' own static files (static/<package name>/)

    @property
    def urls(self) -> str: ...  # the module of its pages' URLs

    def job(self, kind: str) -> Any: ...  # a games.package.Job, or None

    def docs(self, name: str) -> Any: ...


def games() -> list[GameEntry]:
    """GAMES itself, in its order (tests add a game to it for a while)."""
    from django.conf import settings
    from django.utils.module_loading import import_string

    listed: list[GameEntry] = import_string(settings.GAMES)
    return listed


def game_package(slug: str) -> GameEntry | None:
    """The entry of GAMES for `slug`, or None."""
    return next((game for game in games() if game.slug == slug), None)


def slugs_with(kind: str) -> list[str]:
    """The games that do one job ("ruling" or "score"), sorted: the suggestions of a 404."""
    return sorted(game.slug for game in games() if game.job(kind) is not None)


def table_slugs() -> list[str]:
    """The games that offer tables, in GAMES' order."""
    return [game.slug for game in games() if game.table is not None]
