"""The games, as the apps below games/ reach them: the catalog (each game's catalog file, rule
language and card text), the saved results (how /r/<id> shows a game's result) and the game-job
plumbing the endpoints share.

games/registry.py's GAMES lists every game, and games/ imports those apps (its services read the
catalog and save results), so they must not import it back: the arrow would point both ways. They
find it as Django's apps find the user model (settings.AUTH_USER_MODEL and get_user_model()):
settings.GAMES names the list (config, at the top, wires the layers together) and it is imported
when first read, so the lower apps depend only on what they read of an entry (`GameEntry`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol, overload


class GameEntry(Protocol):
    """What the apps below games/ read of an entry of GAMES (games.package.GamePackage)."""

    slug: str
    shortcuts: tuple[tuple[str, str], ...]  # (name, URL name): pages kept offline

    @property
    def catalog_file(self) -> Path: ...

    @property
    def static(self) -> Path: ...  # its pages' own static files (games.static_finder)

    def job(self, kind: str) -> Any: ...  # a games.package.Job, or None

    def docs(self, name: str) -> Any: ...

    def language(self) -> Any: ...  # the rule language module, or None

    def card_renderer(self) -> Any: ...  # render(specs, attributes) -> str, or None


def registered_games() -> list[GameEntry]:
    """settings.GAMES's list itself (tests add a game to it for a while)."""
    from django.conf import settings
    from django.utils.module_loading import import_string

    games: list[GameEntry] = import_string(settings.GAMES)
    return games


class _Games(Sequence[GameEntry]):
    """GAMES, read when iterated: importing this module imports no game."""

    @overload
    def __getitem__(self, index: int) -> GameEntry: ...

    @overload
    def __getitem__(self, index: slice) -> list[GameEntry]: ...

    def __getitem__(self, index: int | slice) -> GameEntry | list[GameEntry]:
        return registered_games()[index]

    def __len__(self) -> int:
        return len(registered_games())

    def __iter__(self) -> Iterator[GameEntry]:
        return iter(list(registered_games()))


GAMES: Sequence[GameEntry] = _Games()


def game_package(slug: str) -> GameEntry | None:
    return next((game for game in registered_games() if game.slug == slug), None)


def slugs_with(kind: str) -> list[str]:
    """The games that do one job ("ruling" or "score"), sorted: the suggestions of a 404."""
    return sorted(game.slug for game in registered_games() if game.job(kind) is not None)
