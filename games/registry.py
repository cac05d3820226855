"""GAMES: every game Tableside referees, like python-chess's VARIANTS. A game is one package
under games/ (engine, request models and presenters, pages, URLs, catalog; games/README.md) and one
line here. The apps find everything of a game through its entry: the one flow (games.services)
its jobs, the endpoints its schema paragraphs, config/urls.py its pages, the catalog its cards and rule
language, /r/<id> how to show its saved results."""

from __future__ import annotations

from games.academy_credits.game import GAME as ACADEMY_CREDITS
from games.factions.game import GAME as FACTIONS
from games.package import GamePackage
from games.star_realms_academy.game import GAME as STAR_REALMS_ACADEMY
from games.star_trek_missions.game import GAME as STAR_TREK_MISSIONS

GAMES: list[GamePackage] = [
    STAR_TREK_MISSIONS,
    ACADEMY_CREDITS,
    STAR_REALMS_ACADEMY,
    FACTIONS,
]


def game_package(slug: str) -> GamePackage | None:
    return next((game for game in GAMES if game.slug == slug), None)


def slugs_with(kind: str) -> list[str]:
    """The games that do one job ("ruling" or "score"), sorted: the suggestions of a 404."""
    return sorted(game.slug for game in GAMES if game.job(kind) is not None)
