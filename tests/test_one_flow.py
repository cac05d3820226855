"""The one flow (games/services.py): every game's every job answers through it, with the answers
the eight service functions it replaced gave.

The oracle, tests/data/answers-before.json, holds those answers (status and body, without the
saved result's id and url) to every request body the API, pages and tables tests sent, each
game's schema examples, the published Star Trek: Missions hands and error cases made from the
examples (scripts/oracle_answers.py wrote it, on the code before the flow). Each is asked again
through the API and must be answered the same.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

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
    seen = Counter((item["game"], item["kind"], item["response"]["status"]) for item in oracle)
    from games.registry import GAMES

    for game in GAMES:
        for kind in ("ruling", "score"):
            assert seen[(game.slug, kind, 200)] >= 5, (game.slug, kind)
            assert seen[(game.slug, kind, 400)] >= 5, (game.slug, kind)
    codes = {item["response"]["body"].get("code") for item in oracle
             if item["response"]["status"] == 400}
    assert {"invalid_input", "impossible_position", "illegal_hand"} <= codes
    assert len(oracle) > 1000


def test_every_request_of_the_oracle_is_answered_as_before(api, catalog, oracle):
    different = []
    for item in oracle:
        game, kind, body = item["game"], item["kind"], item["body"]
        path = f"/api/games/{game}/{'rulings' if kind == 'ruling' else 'score'}/"
        response = api.post(path, data=json.dumps(body), content_type="application/json")
        content = response.json()
        if isinstance(content, dict):
            content = {key: value for key, value in content.items() if key not in ("id", "url")}
        now = {"status": response.status_code, "body": _settled(content)}
        before = {**item["response"], "body": _settled(item["response"]["body"])}
        if now != before:
            different.append((game, kind, json.dumps(body)[:200], before, now))
    print(f"{len(oracle)} requests compared with the answers before the one flow")
    assert not different, f"{len(different)} of {len(oracle)} answers changed; the first: " \
                          f"{different[0]}"
