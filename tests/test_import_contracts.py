"""The direction of imports is held by import-linter's contracts ([tool.importlinter] in
pyproject.toml, run by `make lint`, part of `make test`), and the engines' strictness by mypy's
overrides ([tool.mypy]). What this file adds:

- every module of games/ is either an engine (a module of the "engines" contract, plain Python)
  or on the Django side (it reaches Django through its imports): a new module that is neither
  would escape both the contract and mypy's strict flags, so it fails here until it is named;
- mypy's strict overrides name exactly the contract's engines;
- the engines load in a fresh interpreter without Django settings, leaving Django unloaded;
- each contract holds on the project and breaks when a wrong import is added to its graph;
- no import circle anywhere: between the project's packages (the "layers" contract names every
  root package, so no arrow between two of them points both ways) and between its modules (none
  imports itself through others, however long the chain).
"""

from __future__ import annotations

import copy
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
CONTRACTS = {contract["id"]: contract for contract in CONFIG["tool"]["importlinter"]["contracts"]}
ENGINE_PATTERNS = CONTRACTS["engines"]["source_modules"]
DJANGO = ("django", "rest_framework", "drf_spectacular")


def matches(pattern: str, module: str) -> bool:
    """import-linter's and mypy's `*`: one part of a dotted name."""
    regex = r"\.".join("[^.]+" if part == "*" else re.escape(part) for part in pattern.split("."))
    return re.fullmatch(regex, module) is not None


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph(
        "games",
        "cards",
        "common",
        "web",
        "results",
        include_external_packages=True,
        exclude_type_checking_imports=False,
    )


def game_modules(graph: grimp.ImportGraph) -> list[str]:
    """Every module of games/ but the packages' __init__ (a docstring each) and migrations."""
    packages = {module.rpartition(".")[0] for module in graph.modules}
    return sorted(
        module
        for module in graph.modules
        if module.startswith("games.") and module not in packages and ".migrations" not in module
    )


def engines(graph: grimp.ImportGraph) -> list[str]:
    return [
        module
        for module in game_modules(graph)
        if any(matches(pattern, module) for pattern in ENGINE_PATTERNS)
    ]


def test_the_engines_are_every_game_and_the_shared_rules(graph):
    found = set(engines(graph))
    assert {
        "games.protocol",
        "games.wording",
        "games.star_trek_missions.language",
        "games.star_trek_missions.explain",
        "games.star_realms_academy.card_rules",
        "games.academy_credits.model",
        "games.factions.model",
    } <= found
    for game in ("academy_credits", "factions", "star_realms_academy", "star_trek_missions"):
        assert {f"games.{game}.engine", f"games.{game}.scorer"} <= found


def test_every_module_of_games_is_an_engine_or_on_the_django_side(graph):
    engine_set = set(engines(graph))
    unclassified = [
        module
        for module in game_modules(graph)
        if module not in engine_set
        and not any(graph.chain_exists(importer=module, imported=name) for name in DJANGO)
    ]
    assert unclassified == [], (
        "plain-Python modules of games/ outside the engines contract: name them in "
        "[tool.importlinter] 'engines' and in mypy's strict overrides (pyproject.toml)"
    )


def test_every_engine_pattern_names_a_module(graph):
    modules = game_modules(graph)
    assert [p for p in ENGINE_PATTERNS if not any(matches(p, m) for m in modules)] == []


def test_mypy_is_strict_on_exactly_the_engines_of_the_contract():
    strict = [
        override
        for override in CONFIG["tool"]["mypy"]["overrides"]
        if override.get("disallow_untyped_defs")
    ]
    engines_strict = [override for override in strict if "games.protocol" in override["module"]]
    assert len(engines_strict) == 1
    assert sorted(engines_strict[0]["module"]) == sorted(ENGINE_PATTERNS)
    # The other strict override: the games' declarations (games/package.py, registry.py, and
    # each game's game.py), under the same flags.
    declarations = [override for override in strict if override not in engines_strict]
    assert [sorted(override["module"]) for override in declarations] == [
        sorted(["games.package", "games.registry", "games.*.game"])
    ]
    assert {key: value for key, value in declarations[0].items() if key != "module"} == {
        key: value for key, value in engines_strict[0].items() if key != "module"
    }


def test_the_engines_load_without_django(graph):
    code = (
        "import sys\n"
        + "".join(f"import {name}\n" for name in engines(graph))
        + "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        f"{set(DJANGO)!r}))"
    )
    run = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin"},
        check=True,
    )
    assert run.stdout.strip() == "[]"


def test_the_pattern_reading_is_import_linters():
    assert matches("games.*.engine", "games.factions.engine")
    assert not matches("games.*.engine", "games.factions.engine_extra")
    assert not matches("games.*.engine", "games.engine")
    assert matches("games.protocol", "games.protocol")


# --- The contracts themselves, on the project's graph and on one with a wrong import added ------


def contract_checks(graph: grimp.ImportGraph) -> dict[str, bool]:
    """Each contract of pyproject.toml checked on `graph` (as lint-imports checks them): id → kept."""
    from importlinter.api import read_configuration
    from importlinter.contracts.acyclic_siblings import AcyclicSiblingsContract
    from importlinter.contracts.forbidden import ForbiddenContract
    from importlinter.contracts.independence import IndependenceContract
    from importlinter.contracts.layers import LayersContract

    kinds = {
        "forbidden": ForbiddenContract,
        "layers": LayersContract,
        "independence": IndependenceContract,
        "acyclic_siblings": AcyclicSiblingsContract,
    }
    config = read_configuration(str(ROOT / "pyproject.toml"))
    kept = {}
    for options in config["contracts_options"]:
        contract = kinds[options["type"]](
            options["name"],
            config["session_options"],
            {k: v for k, v in options.items() if k not in ("id", "name", "type")},
        )
        kept[options["id"]] = contract.check(copy.deepcopy(graph), verbose=False).kept
    return kept


@pytest.fixture(scope="module")
def project_graph() -> grimp.ImportGraph:
    return grimp.build_graph(
        *CONFIG["tool"]["importlinter"]["root_packages"],
        include_external_packages=True,
        exclude_type_checking_imports=False,
    )


WRONG_WAYS = [
    # (a wrong import, the contract that catches it)
    ("games.factions.model", "cards.models", "engines"),  # an engine reaching Django
    ("games.star_trek_missions.explain", "games.star_trek_missions.rulings", "engines"),
    ("games.academy_credits.rulings", "scoring.api", "games"),
    ("scoring.api", "adjudicator.api", "endpoints"),
    ("common.api_errors", "results.models", "layers"),
    ("games.factions.scorer", "games.factions.engine", "acyclic"),  # the circle that went
    ("games.star_trek_missions.hand", "games.star_trek_missions.choices", "stm-scorer"),
    # The arrows issue 24 turned round: the catalog and the saved results find the games through
    # settings.GAMES (common.games), and common's page layer is web/.
    ("cards.views", "games.registry", "layers"),
    ("results.views", "games.wording", "layers"),
    ("common.links", "web.page_results", "layers"),
    ("cards.rendering", "web.card_names", "layers"),
]


def test_every_contract_holds_on_the_project(project_graph):
    assert contract_checks(project_graph) == {
        contract["id"]: True for contract in CONFIG["tool"]["importlinter"]["contracts"]
    }


@pytest.mark.parametrize(
    "importer, imported, contract", WRONG_WAYS, ids=[f"{a}->{b}" for a, b, _ in WRONG_WAYS]
)
def test_a_wrong_import_breaks_its_contract(project_graph, importer, imported, contract):
    graph = copy.deepcopy(project_graph)
    graph.add_import(
        importer=importer, imported=imported, line_number=1, line_contents=f"import {imported}"
    )
    assert contract_checks(graph)[contract] is False


# --- No import circle anywhere ---------------------------------------------------------------


def root_packages_on_disk() -> set[str]:
    """The project's packages at the top of the repository (tests/ aside)."""
    return {path.parent.name for path in ROOT.glob("*/__init__.py")} - {"tests"}


def test_the_contracts_cover_every_package_of_the_project():
    roots = CONFIG["tool"]["importlinter"]["root_packages"]
    assert sorted(roots) == sorted(root_packages_on_disk())
    layered = {name.strip() for layer in CONTRACTS["layers"]["layers"] for name in layer.split("|")}
    assert layered == set(roots)
    assert not CONTRACTS["layers"].get("ignore_imports"), "every arrow points one way"


def package_circles(graph: grimp.ImportGraph) -> list[tuple[str, str]]:
    """Pairs of root packages each of which imports the other, directly or through others."""
    roots = sorted(root_packages_on_disk())
    return [
        (a, b)
        for a in roots
        for b in roots
        if a < b
        and graph.chain_exists(importer=a, imported=b, as_packages=True)
        and graph.chain_exists(importer=b, imported=a, as_packages=True)
    ]


def module_circles(graph: grimp.ImportGraph) -> list[tuple[str, str]]:
    """Each import of a module of the project by one that the imported module reaches back to."""
    project = tuple(f"{root}." for root in root_packages_on_disk())
    return [
        (module, imported)
        for module in sorted(graph.modules)
        if module.startswith(project)
        for imported in sorted(graph.find_modules_directly_imported_by(module))
        if imported.startswith(project) and graph.chain_exists(importer=imported, imported=module)
    ]


def test_no_two_packages_import_each_other(project_graph):
    assert package_circles(project_graph) == []


def test_no_module_imports_itself_through_others(project_graph):
    assert module_circles(project_graph) == []


def test_the_circle_checks_see_a_circle(project_graph):
    graph = copy.deepcopy(project_graph)
    # The catalog's models reaching the pages' forms, which read the catalog: a circle of two
    # packages and of modules.
    graph.add_import(
        importer="cards.models",
        imported="web.page_forms",
        line_number=1,
        line_contents="import web.page_forms",
    )
    assert ("cards", "web") in package_circles(graph)
    assert ("cards.models", "web.page_forms") in module_circles(graph)
