"""The apps below games/ (the catalog, saved results, the pages' shared layer) find the games
through settings.GAMES (common/games.py), as Django's apps find the user model, never by importing
games.registry: they see exactly GAMES, a game added to it included."""

from __future__ import annotations

from django.conf import settings

from common import games as common_games
from games import registry
from games.package import GamePackage, Job


def test_settings_name_the_registry():
    assert settings.GAMES == "games.registry.GAMES"
    assert common_games.registered_games() is registry.GAMES


def test_the_apps_see_every_game_in_order():
    assert list(common_games.GAMES) == registry.GAMES
    assert len(common_games.GAMES) == len(registry.GAMES)
    assert common_games.GAMES[0] is registry.GAMES[0]
    for game in registry.GAMES:
        assert common_games.game_package(game.slug) is game
    assert common_games.game_package("no-such-game") is None
    for kind in ("ruling", "score"):
        assert common_games.slugs_with(kind) == registry.slugs_with(kind)


def test_a_game_added_to_games_is_seen_below(register_game):
    package = register_game(GamePackage(
        slug="ascent-lookup", package="tests.fifth_game",
        score=Job(page="", label="Score")))
    assert common_games.game_package("ascent-lookup") is package
    assert "ascent-lookup" in common_games.slugs_with("score")
    assert "ascent-lookup" not in common_games.slugs_with("ruling")
    assert common_games.GAMES[-1] is package
