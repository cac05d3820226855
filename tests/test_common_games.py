"""Every app finds the games one way, through settings.GAMES (common/games.py), as Django's apps
find the user model, never by importing games.registry: it sees exactly GAMES, a game added to it
included. games/registry.py holds the list and nothing else."""

from __future__ import annotations

from django.conf import settings

from common import games as common_games
from games import registry
from games.package import GamePackage, Job
from tests.fifth_game import engine, scores


def test_settings_name_the_registry_which_holds_only_the_list():
    assert settings.GAMES == "games.registry.GAMES"
    assert common_games.games() is registry.GAMES
    assert [
        name
        for name in vars(registry)
        if not name.startswith("_")
        and name.isupper()
        and not isinstance(getattr(registry, name), GamePackage)
    ] == ["GAMES"]
    assert not any(
        callable(value) and getattr(value, "__module__", "") == registry.__name__
        for value in vars(registry).values()
    )


def test_the_apps_see_every_game_in_order():
    for game in registry.GAMES:
        assert common_games.game_package(game.slug) is game
    assert common_games.game_package("no-such-game") is None
    for kind in ("ruling", "score"):
        assert common_games.slugs_with(kind) == sorted(
            game.slug for game in registry.GAMES if game.job(kind) is not None
        )
    assert common_games.table_slugs() == [
        game.slug for game in registry.GAMES if game.table is not None
    ]


def test_a_game_added_to_games_is_seen_below(register_game):
    package = register_game(
        GamePackage(
            slug="ascent-lookup",
            package="tests.fifth_game",
            check=engine.check,
            score=Job(page="", label="Score", request_models=(scores.HandRequest,), ask=scores.ask),
        )
    )
    assert common_games.game_package("ascent-lookup") is package
    assert "ascent-lookup" in common_games.slugs_with("score")
    assert "ascent-lookup" not in common_games.slugs_with("ruling")
    assert "ascent-lookup" not in common_games.table_slugs()
    assert common_games.games()[-1] is package
