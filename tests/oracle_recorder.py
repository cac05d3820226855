"""A pytest plugin that records every request body a test sends to a game's job, so that
scripts/oracle_answers.py can answer them all again: `PYTHONPATH=. pytest -p
tests.oracle_recorder` with ORACLE_RECORD=<file> appends one JSON line {"game", "kind", "body"}
per body the one flow reads (games.services.read, which every job's answer goes through).

It was run once over the API, pages and tables tests before the one flow (games/services.py)
replaced the games' eight service functions (it then wrapped their Job.run); the answers to the
recorded bodies are the oracle tests/data/answers-before.json that tests/test_one_flow.py holds
the flow to.
"""

from __future__ import annotations

import json
import os

SHIPPED = {"academy-credits", "factions", "star-realms-academy", "star-trek-missions"}


def pytest_configure(config):
    target = os.environ.get("ORACLE_RECORD")
    if not target:
        return
    from games import services
    from games.registry import GAMES

    original = services.read

    def read(job, body, context):
        found = next(
            (
                (game.slug, kind)
                for game in GAMES
                for kind in ("ruling", "score")
                if game.job(kind) is job
            ),
            None,
        )
        if found is not None and found[0] in SHIPPED:
            try:
                line = json.dumps({"game": found[0], "kind": found[1], "body": body})
            except (TypeError, ValueError):
                line = None
            if line is not None:
                with open(target, "a", encoding="utf-8") as out:
                    out.write(line + "\n")
        return original(job, body, context)

    services.read = read
