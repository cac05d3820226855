"""A pytest plugin that records every request body a test sends to a game's job, so that
scripts/oracle_answers.py can answer them all again: `pytest -p tests.oracle_recorder` with
ORACLE_RECORD=<file> appends one JSON line {"game", "kind", "body"} per call of a job.

It was run once over the API, pages and tables tests before the one flow (games/services.py)
replaced the games' eight service functions; the answers to the recorded bodies are the oracle
tests/data/answers-before.json that tests/test_one_flow.py holds the flow to.
"""

from __future__ import annotations

import json
import os

SHIPPED = {"academy-credits", "factions", "star-realms-academy", "star-trek-missions"}


def pytest_configure(config):
    target = os.environ.get("ORACLE_RECORD")
    if not target:
        return
    from games.package import Job

    original = Job.run

    def run(self, *, game, body):
        if game.slug in SHIPPED:
            from games.registry import game_package

            package = game_package(game.slug)
            kind = "ruling" if package is not None and package.ruling is self else "score"
            try:
                line = json.dumps({"game": game.slug, "kind": kind, "body": body})
            except (TypeError, ValueError):
                line = None
            if line is not None:
                with open(target, "a", encoding="utf-8") as out:
                    out.write(line + "\n")
        return original(self, game=game, body=body)

    Job.run = run
