"""Each game package is a Django app (issue 31): config/settings/base.py installs every package
under games/ that has an apps.py (GAME_APPS), and those are exactly GAMES' packages, so Django's
own loaders find each game's templates (APP_DIRS) and static files (AppDirectoriesFinder,
`collectstatic`): the project keeps no loader or finder of its own."""

from __future__ import annotations

from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.contrib.staticfiles import finders
from django.template.loader import get_template

from games.registry import GAMES

ROOT = Path(__file__).resolve().parents[1]


def test_the_installed_game_apps_are_exactly_the_games_of_games():
    assert settings.GAME_APPS == sorted(game.package for game in GAMES)
    installed = [name for name in settings.INSTALLED_APPS if name.startswith("games.")]
    assert sorted(installed) == sorted(game.package for game in GAMES)
    for game in GAMES:
        config = apps.get_app_config(game.package.rpartition(".")[2])
        assert config.name == game.package and Path(config.path) == game.directory


def test_no_loader_or_finder_of_the_projects_own():
    engine = settings.TEMPLATES[0]
    assert engine["APP_DIRS"] is True and "loaders" not in engine["OPTIONS"]
    assert settings.STATICFILES_FINDERS == [
        "django.contrib.staticfiles.finders.FileSystemFinder",
        "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    ]
    assert not (ROOT / "games" / "template_loader.py").exists()
    assert not (ROOT / "games" / "static_finder.py").exists()


def test_each_games_templates_and_static_files_are_found_by_djangos_loaders():
    for game in GAMES:
        templates = sorted(game.templates.rglob("*.html"))
        assert templates, game.slug
        for path in templates:
            name = path.relative_to(game.templates).as_posix()
            assert Path(get_template(name).origin.name) == path, name
        for path in sorted(game.static.rglob("*.*")):
            name = path.relative_to(game.static).as_posix()
            assert Path(finders.find(name)) == path, name
