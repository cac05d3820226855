"""Nothing outside games/ names a game (issue 24): per-game code lives in games/<game>/ and the
apps reach it through GAMES (games/package.py's GamePackage), so a game is added, changed or
removed in its own package and nowhere else.

Every Python module, template, script and stylesheet of the project is read (the shared static/js/
and static/css/ too: a game's own live in games/<game>/static/<game>/); none outside games/ may
hold a game's slug, its name (from the catalog it ships), its package's dotted name or its
package's folder name. What a game's text looks like is read from GAMES, so a new game is held to
it too.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from games.registry import GAMES

ROOT = Path(__file__).resolve().parents[1]

# Folders whose files may name games, each with its reason.
EXEMPT = {
    "games": "the games themselves",
    "tests": "tests name the games they test",
    "docs": "the rules and the HTTP contract, per game",
    "bench": "benchmarks measure named games' hands",
    "scripts": "tools driving named games' pages (the README's screenshots), as bench/ does",
    "static/vendor": "others' code, as shipped (htmx)",
}
# A migration is a frozen record of what was done once (cards/0007 corrected one game's rulings).
# staticfiles/ (collectstatic's output, every game's files copied side by side), backups/ and the
# caches are made by commands, never written (all in .gitignore).
SKIPPED_PARTS = {
    ".venv",
    ".git",
    "node_modules",
    "__pycache__",
    "migrations",
    ".grimp_cache",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".hypothesis",
    "build",
    "staticfiles",
    "backups",
}
KINDS = (".py", ".html", ".js", ".css")


def game_words() -> dict[str, set[str]]:
    """{game slug: every word that names it}: slug, name, package's dotted and folder names."""
    words = {}
    for game in GAMES:
        catalog = json.loads(game.catalog_file.read_text(encoding="utf-8"))["game"]
        words[game.slug] = {
            game.slug,
            catalog["name"],
            game.package,
            game.package.rpartition(".")[2],
        }
    return words


def naming(text: str, words: dict[str, set[str]]) -> list[str]:
    """The words of `words` that `text` holds as words of their own (the slug "factions" is in
    "Factions' table" and "games/factions/", not in "unit_in_two_factions")."""
    found = []
    for names in words.values():
        for name in sorted(names):
            if re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", text):
                found.append(name)
    return found


def exempt(relative: Path) -> bool:
    text = relative.as_posix()
    return any(text == folder or text.startswith(f"{folder}/") for folder in EXEMPT)


def project_files() -> list[Path]:
    files = []
    for path in ROOT.rglob("*"):
        relative = path.relative_to(ROOT)
        if path.suffix not in KINDS or not path.is_file() or SKIPPED_PARTS & set(relative.parts):
            continue
        if not exempt(relative):
            files.append(relative)
    return sorted(files)


def test_every_game_has_words_to_look_for():
    words = game_words()
    assert len(words) == len(GAMES) >= 4
    for game in GAMES:
        assert {game.slug, game.package, game.package.rpartition(".")[2]} < words[game.slug]


def test_the_apps_are_read():
    files = {path.as_posix() for path in project_files()}
    for expected in (
        "cards/rendering.py",
        "results/views.py",
        "scoring/api.py",
        "adjudicator/api.py",
        "web/offline.py",
        "common/games.py",
        "templates/results/_ruling.html",
        "templates/home.html",
        "templates/sw.js",
        "static/js/offline.js",
        "static/js/site.js",
        "static/css/site.css",
        "static/css/results.css",
        "static/css/tables.css",
    ):
        assert expected in files
    assert not any(name.startswith(("games/", "tests/", "static/vendor/")) for name in files)


def test_no_module_or_template_outside_games_names_a_game():
    words = game_words()
    named = {}
    for relative in project_files():
        found = naming((ROOT / relative).read_text(encoding="utf-8"), words)
        if found:
            named[relative.as_posix()] = found
    assert named == {}, "per-game code belongs in games/<game>/, reached through GAMES"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("GAME = 'star-trek-missions'", ["star-trek-missions"]),
        ("{% include 'factions/_seat.html' %}", ["factions"]),
        ("Score a hand (Academy Credits)", ["Academy Credits"]),
        (
            "from games.star_realms_academy import engine",
            ["games.star_realms_academy", "star_realms_academy"],
        ),
        ('"unit_in_two_factions", "faction"', []),
        ("Two factions of units", ["factions"]),
    ],
)
def test_a_name_is_found_as_a_word_of_its_own(text, expected):
    words = {
        "star-trek-missions": {"star-trek-missions"},
        "factions": {"factions"},
        "academy-credits": {"Academy Credits"},
        "star-realms-academy": {"games.star_realms_academy", "star_realms_academy"},
    }
    assert naming(text, words) == expected
