"""The one flow (games/services.py): every game's every job answers through it, with the answers
the eight service functions it replaced gave.

The oracle, tests/data/answers-before.json, holds those answers (status and body, without the
saved result's id and url) to every request body the API, pages and tables tests sent, each
game's schema examples, the published Star Trek: Missions hands and error cases made from the
examples (scripts/oracle_answers.py wrote it, on the code before the flow), and the answers of
each game added since (`scripts/oracle_answers.py --game <slug>`, a step of games/README.md's
"Adding a game"). Each is asked again through the API and must be answered the same, its card
admin links in the same terms (the card, not its database id: `stable_references`).
"""

from __future__ import annotations

import ast
import inspect
import json
from collections import Counter
from pathlib import Path

import pytest

from scripts.oracle_answers import ADMIN_CARD, stable_references

ORACLE = Path(__file__).parent / "data" / "answers-before.json"


def _settled(content: object) -> object:
    """The answer as compared: an error body's entries in a fixed order (the order of the
    unknown fields of one object comes from a Python set, so it differs between processes)."""
    if isinstance(content, dict) and isinstance(content.get("errors"), list):
        errors = sorted(content["errors"], key=lambda entry: json.dumps(entry, sort_keys=True))
        return {**content, "errors": errors}
    return content


@pytest.fixture(scope="module")
def oracle() -> list[dict]:
    return json.loads(ORACLE.read_text(encoding="utf-8"))


def test_the_oracle_covers_every_job_with_answers_and_refusals(oracle):
    """Every job of every game in GAMES has answers and refusals in the oracle (a game added
    since the flow records its own: games/README.md), the four it was recorded for many."""
    seen = Counter((item["game"], item["kind"], item["response"]["status"]) for item in oracle)
    from games.registry import GAMES

    for game in GAMES:
        for kind in ("ruling", "score"):
            if game.job(kind) is None:
                continue
            assert seen[(game.slug, kind, 200)] >= 1, (game.slug, kind, "record its answers")
            assert seen[(game.slug, kind, 400)] >= 1, (game.slug, kind, "record its answers")
    well_covered = [
        slug
        for slug in {item["game"] for item in oracle}
        if all(
            seen[(slug, kind, status)] >= 5 for kind in ("ruling", "score") for status in (200, 400)
        )
    ]
    assert len(well_covered) >= 4
    codes = {
        item["response"]["body"].get("code") for item in oracle if item["response"]["status"] == 400
    }
    assert {"invalid_input", "impossible_position", "illegal_hand"} <= codes
    assert len(oracle) > 1000


def test_the_oracle_holds_no_database_id(oracle):
    """A card's admin link names the card: the ids a database gives differ between databases."""
    text = ORACLE.read_text(encoding="utf-8")
    assert ADMIN_CARD.search(text) is None
    assert "/admin/cards/card/<star-realms-academy/Corvette>/change/" in text


def test_every_request_of_the_oracle_is_answered_as_before(api, catalog, oracle):
    different = []
    for item in oracle:
        game, kind, body = item["game"], item["kind"], item["body"]
        path = f"/api/games/{game}/{'rulings' if kind == 'ruling' else 'score'}/"
        response = api.post(path, data=json.dumps(body), content_type="application/json")
        content = response.json()
        if isinstance(content, dict):
            content = {key: value for key, value in content.items() if key not in ("id", "url")}
        now = {"status": response.status_code, "body": _settled(stable_references(content))}
        before = {**item["response"], "body": _settled(item["response"]["body"])}
        if now != before:
            different.append((game, kind, json.dumps(body)[:200], before, now))
    print(f"{len(oracle)} requests compared with the answers before the one flow")
    assert not different, (
        f"{len(different)} of {len(oracle)} answers changed; the first: {different[0]}"
    )


# --- Nothing but the flow saves a result; every job goes through it --------------------------------

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = (
    "cards",
    "common",
    "results",
    "scoring",
    "adjudicator",
    "tables",
    "games",
    "config",
    "bench",
    "scripts",
)
FLOW = "games/services.py"
DEFINES = "results/services.py"


def project_modules() -> list[Path]:
    """Every Python module of the project (its apps, games, benchmarks and scripts, and the fifth
    test game, the template of a new game); the tests themselves may call anything."""
    found = [path for package in PACKAGES for path in (ROOT / package).rglob("*.py")]
    found += list((ROOT / "tests" / "fifth_game").rglob("*.py"))
    return sorted(found)


def names_used(path: Path) -> set[str]:
    """The names a module imports or calls (bare or as an attribute: x.result_save)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.Call):
            func = node.func
            names.add(
                func.id
                if isinstance(func, ast.Name)
                else func.attr
                if isinstance(func, ast.Attribute)
                else ""
            )
    return names


def test_no_module_but_the_flow_saves_a_result():
    modules = project_modules()
    assert len(modules) > 100 and ROOT / FLOW in modules
    savers = sorted(
        str(path.relative_to(ROOT)) for path in modules if "result_save" in names_used(path)
    )
    assert savers == [FLOW], savers
    # results/services.py defines it (and calls nothing of it).
    assert "def result_save(" in (ROOT / DEFINES).read_text(encoding="utf-8")


def test_the_api_the_pages_and_the_tables_ask_the_flow():
    for module in ("games/api.py", "games/pages.py", "tables/game_states.py"):
        tree = ast.parse((ROOT / module).read_text(encoding="utf-8"))
        assert any(
            isinstance(node, ast.ImportFrom) and node.module == "games.services"
            for node in ast.walk(tree)
        ), module
    # And no module names a job's own service: a Job has none.
    from games.package import Job

    assert not hasattr(Job, "run") and "service" not in Job.__dataclass_fields__


def test_every_job_declares_what_the_flow_needs_and_its_engine_one_check():
    from games.package import RULING, SCORE
    from games.registry import GAMES

    for game in GAMES:
        parameters = list(inspect.signature(game.check).parameters.values())
        assert [p.kind for p in parameters] == [inspect.Parameter.POSITIONAL_OR_KEYWORD], (
            f"{game.slug}: check(position) takes the position alone"
        )
        assert game.check.__module__ == f"{game.package}.engine", game.slug
        for kind in (RULING, SCORE):
            job = game.job(kind)
            assert job is not None and job.request_models and callable(job.ask), (game.slug, kind)
        assert game.ruling.position_at == "position", game.slug  # the body's "position"


def test_every_job_of_every_game_is_saved_by_the_flow(api, catalog, monkeypatch, oracle):
    """Each game's answered requests, asked through the API, are saved by the flow's one call."""
    from games import services
    from games.registry import GAMES

    saved = []
    real = services.result_save

    def spy(**kwargs):
        saved.append((kwargs["game"].slug, kwargs["kind"]))
        return real(**kwargs)

    monkeypatch.setattr(services, "result_save", spy)
    for game in GAMES:
        for kind in ("ruling", "score"):
            item = next(
                item
                for item in oracle
                if (item["game"], item["kind"]) == (game.slug, kind)
                and item["response"]["status"] == 200
            )
            path = f"/api/games/{game.slug}/{'rulings' if kind == 'ruling' else 'score'}/"
            response = api.post(
                path, data=json.dumps(item["body"]), content_type="application/json"
            )
            assert response.status_code == 200 and response.json()["id"]
            assert saved[-1] == (game.slug, kind)
    assert len(saved) == 2 * len(GAMES)


def test_each_job_app_owns_its_part_of_the_flow(monkeypatch, catalog):
    """The board rules on the move in adjudicator/, scores in scoring/ (issue 31): each app hands
    its part to the one flow when Django starts; without it the flow says which app is missing
    rather than answering something else."""
    from adjudicator.services import rule_on_move
    from cards.models import Game
    from games import services
    from games.package import RULING, SCORE
    from scoring.services import score_position

    assert services.JOB_PARTS == {RULING: rule_on_move, SCORE: score_position}
    monkeypatch.delitem(services.JOB_PARTS, SCORE)
    game = Game.objects.get(slug="star-trek-missions")
    body = {"hand": ["Captain Jean-Luc Picard"]}
    with pytest.raises(LookupError, match="score job's part.*scoring"):
        services.answer(game=game, kind=SCORE, body=body)
