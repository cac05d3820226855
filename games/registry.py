"""GAMES: every game Tableside referees, like python-chess's VARIANTS. A game is one package
under games/ (engine, request models and answer fields, pages, URLs, catalog, its AppConfig;
games/README.md) and one line here. This module holds the list and nothing else: the apps find a
game through common.games (`game_package(slug)`, `slugs_with(kind)`, `games()`), which reads this
list through settings.GAMES when first asked, so no module of games/ imports it back and closes a
circle."""

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
