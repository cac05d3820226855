"""Per-game services register themselves by game slug, so adding a game adds a module, not a
branch in a dispatch table."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable


class GameRegistry:
    def __init__(self, what: str):
        self.what = what
        self._services: dict[str, Callable] = {}

    def register(self, game_slug: str) -> Callable[[Callable], Callable]:
        def decorator(function: Callable) -> Callable:
            if game_slug in self._services:
                raise ValueError(f"Two {self.what} services for {game_slug}.")
            self._services[game_slug] = function
            return function

        return decorator

    def get(self, game_slug: str) -> Callable | None:
        return self._services.get(game_slug)

    def games(self) -> list[str]:
        return sorted(self._services)


def import_submodules(package_name: str) -> None:
    """Import every module of a package, so their @register decorators run."""
    package = importlib.import_module(package_name)
    for module in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"{package_name}.{module.name}")


def page_url(url_name: str | None) -> str:
    """The address of a game's page named in a registry, or "" while it has none yet."""
    from django.urls import NoReverseMatch, reverse

    if not url_name:
        return ""
    try:
        return reverse(url_name)
    except NoReverseMatch:
        return ""
