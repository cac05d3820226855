"""Imports flow one way (issue 13), read from the source, so a wrong one fails here first:

- an engine module (every module of games/ but a game's Django side: rulings, scores, pages,
  urls, game, api_docs, …; see DJANGO_SIDE) imports nothing of Django and nothing of the apps:
  only the standard library, scipy, other engine modules and the catalog's plain-Python modules;
- a game package (games/) imports common, cards, results and games, never the scoring or
  adjudicator app, nor config;
- scoring and adjudicator never import each other;
- common, cards and results never import scoring or adjudicator, and common never imports games.

The engines are also imported in a fresh interpreter without Django settings, which must leave
Django unloaded.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PLAIN_CATALOG_MODULES = {"cards.attributes", "cards.rendering", "cards.naming"}
PLAIN_LIBRARIES = {"scipy", "numpy"}
APPS = ("cards", "common", "results", "scoring", "adjudicator", "config", "games")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def module_path(name: str) -> Path | None:
    base = ROOT.joinpath(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.exists():
            return candidate
    return None


def imports_of(source: str, *, module: str, is_package: bool = False) -> set[str]:
    """Every module an import statement names, relative imports resolved; for `from a import b`
    both `a` and `a.b` (b may be a module)."""
    package = module if is_package else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")
                base_parts = base_parts[: len(base_parts) - node.level + 1]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def project_imports(path: Path) -> set[str]:
    return imports_of(path.read_text(encoding="utf-8"), module=module_name(path),
                      is_package=path.name == "__init__.py")


def top(name: str) -> str:
    return name.split(".")[0]


def source_files(*folders: str) -> list[Path]:
    return sorted(path for folder in folders for path in (ROOT / folder).rglob("*.py")
                  if "migrations" not in path.parts)


# A game package's Django side, by module name; every other module of games/ is an engine module.
DJANGO_SIDE = {"rulings", "scores", "pages", "turn_pages", "table", "urls", "game", "api_docs",
               "responses", "package", "registry", "template_loader"}


def engine_modules() -> dict[str, Path]:
    """Every module of games/ outside the Django side (engine.py, scorer.py, the rule language,
    protocol.py, wording.py, the packages' __init__)."""
    return {module_name(path): path for path in source_files("games")
            if path.stem not in DJANGO_SIDE}


def engine_violations(name: str, imported: set[str]) -> list[str]:
    bad = []
    for other in sorted(imported):
        root = top(other)
        if root in {"django", "rest_framework", "drf_spectacular"}:
            bad.append(f"{name} imports {other} (Django)")
        elif root in APPS and root != "games" and not _plain_catalog(other):
            bad.append(f"{name} imports {other} (an app)")
        elif root == "games" and module_path(other) and not _is_engine_module(other):
            bad.append(f"{name} imports {other} (a game's Django side)")
    return bad


def _plain_catalog(name: str) -> bool:
    return any(name == plain or name.startswith(plain + ".") for plain in PLAIN_CATALOG_MODULES)


def _is_engine_module(name: str) -> bool:
    return name in ENGINES or module_path(name) is None


ENGINES = engine_modules()


def test_the_engine_set_holds_every_game_and_the_shared_modules():
    assert {"games.protocol", "games.wording", "games.star_trek_missions.language",
            "games.star_trek_missions.explain", "games.star_realms_academy.card_rules"} <= set(ENGINES)
    for game in ("academy_credits", "factions", "star_realms_academy", "star_trek_missions"):
        assert f"games.{game}.engine" in ENGINES and f"games.{game}.scorer" in ENGINES


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_an_engine_imports_nothing_of_django_nor_of_the_apps(name):
    imported = project_imports(ENGINES[name])
    assert engine_violations(name, imported) == []


def test_the_engines_load_without_django():
    names = sorted(name for name in ENGINES if top(name) == "games")
    code = ("import sys\n" + "".join(f"import {name}\n" for name in names)
            + "print(sorted(m for m in sys.modules if m.split('.')[0] in "
              "{'django', 'rest_framework', 'drf_spectacular'}))")
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, env={"PATH": "/usr/bin:/bin"}, check=True)
    assert run.stdout.strip() == "[]"


RULES = [
    # (folders, forbidden top-level packages)
    (("games",), {"scoring", "adjudicator", "config"}),
    (("scoring",), {"adjudicator"}),
    (("adjudicator",), {"scoring"}),
    (("cards", "results"), {"scoring", "adjudicator"}),
    (("common",), {"scoring", "adjudicator", "games"}),
]


def layer_violations(path: Path, forbidden: set[str]) -> list[str]:
    return [f"{module_name(path)} imports {name}" for name in sorted(project_imports(path))
            if top(name) in forbidden]


@pytest.mark.parametrize("folders, forbidden", RULES,
                         ids=["-".join(folders) for folders, _ in RULES])
def test_imports_flow_one_way(folders, forbidden):
    problems = [problem for path in source_files(*folders)
                for problem in layer_violations(path, forbidden)]
    assert problems == []


def test_the_checks_catch_an_import_the_wrong_way():
    # The rules above find nothing to report in the project; here they are shown a bad import.
    engine = imports_of("from django.db import models\nfrom cards.models import Card\n"
                        "from games.academy_credits import rulings\n",
                        module="games.academy_credits.engine")
    assert engine_violations("games.academy_credits.engine", engine) == [
        "games.academy_credits.engine imports cards.models (an app)",
        "games.academy_credits.engine imports cards.models.Card (an app)",
        "games.academy_credits.engine imports django.db (Django)",
        "games.academy_credits.engine imports django.db.models (Django)",
        "games.academy_credits.engine imports games.academy_credits.rulings (a game's Django side)",
    ]
    relative = imports_of("from ..scoring import api\n", module="adjudicator.views")
    assert "scoring.api" in relative
