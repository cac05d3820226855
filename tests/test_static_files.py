"""Each game's own scripts and stylesheets live in its package (games/<game>/static/<game>/) and
are found as any app's are (each game package is a Django app: AppDirectoriesFinder): by
`collectstatic` (so whitenoise's manifest has them), by whitenoise in development and tests, by the
offline cache."""

from __future__ import annotations

import re
from pathlib import Path

from django.contrib.staticfiles import finders

from games.registry import GAMES

ROOT = Path(__file__).resolve().parents[1]
STATIC_TAG = re.compile(r"""\{% static ['"]([^'"]+)['"] %\}""")


def games_own_files():
    return [
        (game, path)
        for game in GAMES
        if game.static.is_dir()
        for path in sorted(game.static.rglob("*"))
        if path.is_file()
    ]


def test_each_games_files_are_found_under_its_package_name():
    files = games_own_files()
    assert {game.slug for game, _ in files} == {game.slug for game in GAMES if game.static.is_dir()}
    assert len(files) >= 10
    for game, path in files:
        name = path.relative_to(game.static).as_posix()
        # Under a folder of the package's name, so no two games' files (nor static/'s) clash.
        assert name.startswith(game.package.rpartition(".")[2] + "/")
        assert Path(finders.find(name)) == path


def test_every_static_file_a_template_names_is_found():
    folders = [ROOT / "templates", *(game.templates for game in GAMES)]
    named = {}
    for folder in folders:
        for template in folder.rglob("*.html"):
            for name in STATIC_TAG.findall(template.read_text(encoding="utf-8")):
                named.setdefault(name, template.relative_to(ROOT).as_posix())
    assert len(named) >= 20
    assert [name for name in named if not finders.find(name)] == []
    assert "star_trek_missions/js/picker.js" in named and "js/site.js" in named


def test_the_shared_static_folder_holds_no_games_script_or_stylesheet():
    """What only one game's pages use lives in that game: no file of the shared static/js/ or
    static/css/ is named by one game's templates alone."""
    shared = {
        path.relative_to(ROOT / "static").as_posix()
        for kind in ("js", "css")
        for path in (ROOT / "static" / kind).iterdir()
    }
    users: dict[str, set[str]] = {name: set() for name in shared}
    for game in GAMES:
        for template in game.templates.rglob("*.html"):
            for name in STATIC_TAG.findall(template.read_text(encoding="utf-8")):
                if name in users:
                    users[name].add(game.slug)
    assert [name for name, games in users.items() if len(games) == 1] == []
