"""Copying the fifth test game is the documented way to add a game (issue 24).

In a copy of the project, the steps of games/README.md's "Adding a game" are run as written there
(step 1's shell lines, step 2's registry line, step 3's commands recording the game's answers and
its section of the contract), then the checks of its step 4: `make lint typecheck`'s commands as
the Makefile has them (ruff, import-linter's contracts, mypy with the engines and the games'
declarations under --strict's flags), the copied game's tests with tests/test_import_contracts.py,
and the tests a game added without its records would fail: the HTTP contract's
(tests/test_api_contract.py), the one flow's recorded answers (tests/test_one_flow.py) and the
game apps' (tests/test_game_apps.py). The copy passes them all as it is: the package a new game
starts from is one the project's checks accept, and the README's steps are the ones that get it
there.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.mypy_cache import wait_for_the_projects_typecheck

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
SECTION = "## Adding a game"
# What a copy of the project leaves behind: the environment, caches, databases, built files.
NOT_COPIED = {
    ".venv",
    ".git",
    "db.sqlite3",
    "db.sqlite3-wal",
    "db.sqlite3-shm",
    "db.sqlite3-journal",
    "staticfiles",
    "backups",
    "build",
    "tmp",
}


def adding_a_game() -> str:
    text = (ROOT / "games" / "README.md").read_text(encoding="utf-8")
    start = text.index(SECTION)
    end = text.find("\n## ", start + len(SECTION))
    return text[start : end if end != -1 else None]


def blocks(section: str, language: str) -> list[str]:
    return [
        textwrap.dedent(block)
        for block in re.findall(rf"^ *```{language}\n(.*?)^ *```", section, flags=re.S | re.M)
    ]


def recipe(target: str) -> list[str]:
    """The commands of a Makefile target, with the virtual environment's programs."""
    lines = (ROOT / "Makefile").read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{target}:"))
    commands = []
    for line in lines[start + 1 :]:
        if not line.startswith("\t"):
            break
        commands.append(line.strip().replace("$(BIN)", str(BIN)))
    assert commands, f"the Makefile has no commands for {target}"
    return commands


def _ignore(directory: str, names: list[str]) -> set[str]:
    # mypy's cache is copied (with the files' times, as copytree keeps them): the copy's check
    # then reads again only what the copy changed, instead of the whole project from nothing.
    skipped = {
        name
        for name in names
        if name == "__pycache__"
        or name.endswith(".pyc")
        or (name.startswith(".") and name.endswith("_cache") and name != ".mypy_cache")
        or name == ".hypothesis"
        or name.endswith(".egg-info")
    }
    if Path(directory) == ROOT:
        skipped |= NOT_COPIED & set(names)
    return skipped


def run(command: list[str] | str, cwd: Path, **options) -> subprocess.CompletedProcess:
    # The copy's own test database (SQLite) and settings: nothing of the outer run's.
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PYTEST_", "DJANGO_")) and key != "DATABASE_URL"
    }
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '/usr/bin:/bin')}"
    return subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=600, **options
    )


@pytest.fixture(scope="module")
def copied(tmp_path_factory) -> tuple[Path, str]:
    """A copy of the project with a game added by the README's steps: (its root, the package)."""
    project = tmp_path_factory.mktemp("copy") / "project"
    # The project's mypy cache is copied with it: finished, not as `make test`'s typecheck beside
    # the suite has half-written it (tests/mypy_cache.py).
    wait_for_the_projects_typecheck()
    shutil.copytree(ROOT, project, ignore=_ignore, symlinks=True)
    # The README's commands run the project's environment as `.venv/bin/…`: the copy's is this one.
    (project / ".venv").symlink_to(BIN.parent, target_is_directory=True)
    section = adding_a_game()
    shell, python = blocks(section, "sh"), blocks(section, "python")
    assert len(shell) == 2 and len(python) == 1, (
        "step 1 is one shell block, step 2 one import, step 3 one shell block"
    )
    done = run(["bash", "-euo", "pipefail", "-c", shell[0]], project)
    assert done.returncode == 0, done.stderr
    variables = re.search(r"^PACKAGE=.*$", shell[0], flags=re.M).group(0)
    package = re.search(r"^PACKAGE=(\w+)", shell[0], flags=re.M).group(1)
    # Step 2: the import, and the one line in GAMES.
    registry = project / "games" / "registry.py"
    source = registry.read_text(encoding="utf-8")
    line = python[0].strip()
    constant = re.fullmatch(rf"from games\.{package}\.game import GAME as (\w+)", line).group(1)
    imports = re.search(r"^(from games\..*\n)+", source, flags=re.M)  # sorted, as ruff wants
    block = "".join(sorted([*imports.group(0).splitlines(keepends=True), line + "\n"]))
    source = source[: imports.start()] + block + source[imports.end() :]
    source = re.sub(
        r"^(GAMES: list\[GamePackage\] = \[\n(?:    .*\n)*)\]",
        rf"\1    {constant},\n]",
        source,
        flags=re.M,
    )
    registry.write_text(source, encoding="utf-8")
    # Step 3, with step 1's variables: the game's recorded answers and its contract section.
    done = run(["bash", "-euo", "pipefail", "-c", f"{variables}\n{shell[1]}"], project)
    assert done.returncode == 0, done.stdout + done.stderr
    return project, package


def test_the_copy_is_a_game_of_its_own(copied):
    project, package = copied
    game = project / "games" / package
    assert sorted(path.name for path in game.glob("*.py")) == [
        "__init__.py",
        "api_docs.py",
        "apps.py",
        "engine.py",
        "game.py",
        "model.py",
        "pages.py",
        "rulings.py",
        "scores.py",
        "urls.py",
    ]
    assert (game / "templates" / package / "page.html").is_file()
    # Nothing of it names the package it was copied from.
    named = [
        path.relative_to(project).as_posix()
        for path in [*game.rglob("*"), project / "tests" / f"test_{package}.py"]
        # Its source, not the bytecode step 3's commands leave beside it (__pycache__/).
        if path.is_file()
        and "__pycache__" not in path.parts
        and re.search("fifth_game|ascent|Ascent", path.read_text("utf-8"))
    ]
    assert named == []
    registry = (project / "games" / "registry.py").read_text(encoding="utf-8")
    assert f"from games.{package}.game import GAME as" in registry
    # Step 3's records: its answers, and its section of the contract naming its bodies' fields.
    slug = package.replace("_", "-")
    answers = json.loads((project / "tests" / "data" / "answers-before.json").read_text("utf-8"))
    assert {item["response"]["status"] for item in answers if item["game"] == slug} >= {200, 400}
    contract = (project / "docs" / "API.md").read_text(encoding="utf-8")
    assert re.search(
        r'^### .+\n\n- \*\*Check a move\*\* \(a ruling\): `\{"position"', contract, flags=re.M
    )


@pytest.mark.parametrize("target", ["lint", "typecheck"])
def test_make_lint_and_typecheck_pass_on_the_copy(copied, target):
    project, package = copied
    for command in recipe(target):
        done = run(command, project, shell=True)
        assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
        if "lint-imports" in command:
            assert " 0 broken." in done.stdout
        if "mypy" in command:
            assert "Success: no issues found" in done.stdout


def test_the_copied_tests_and_the_contract_tests_pass_on_the_copy(copied):
    project, package = copied
    done = run(
        [
            str(BIN / "pytest"),
            "-p",
            "no:randomly",
            "-p",
            "no:cacheprovider",
            "-n",
            "0",
            "-q",
            f"tests/test_{package}.py",
            "tests/test_import_contracts.py",
            "tests/test_api_contract.py",
            "tests/test_one_flow.py",
            "tests/test_game_apps.py",
        ],
        project,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert re.search(r"\b\d+ passed\b", done.stdout) and " failed" not in done.stdout
    assert "skipped" not in done.stdout


def test_the_copys_rules_are_held_by_the_engines_contract_and_strict_mypy(copied):
    """The checks above bite on the copy: Django reached from its model breaks the engines
    contract, and an untyped function in its engine fails mypy's strict flags."""
    project, package = copied
    model, engine = (project / "games" / package / name for name in ("model.py", "engine.py"))
    kept = {path: path.read_text(encoding="utf-8") for path in (model, engine)}
    try:
        model.write_text(kept[model] + "\nimport django.conf  # noqa: E402,F401\n", "utf-8")
        engine.write_text(kept[engine] + "\n\ndef untyped(value):\n    return value\n", "utf-8")
        linted = run([str(BIN / "lint-imports"), "--no-cache"], project)
        assert linted.returncode != 0
        assert f"games.{package}.model is not allowed to import django" in linted.stdout
        typed = run([str(BIN / "mypy"), f"games/{package}/engine.py"], project)
        assert typed.returncode != 0
        assert "Function is missing a type annotation" in typed.stdout
    finally:
        for path, text in kept.items():
            path.write_text(text, encoding="utf-8")
