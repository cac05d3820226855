"""A game is one typed object (issue 31): its game.py passes its functions and classes to
games/package.py's dataclasses, and mypy checks each against their types, so a function of the
wrong shape is a type error where the game declares it. Here, a declaration with four wrong
functions, checked by mypy under the project's configuration (as `make typecheck` runs it); and a
GamePackage is what the apps read of an entry through common.games (its GameEntry protocol)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from games.package import GamePackage
from games.registry import GAMES
from tests.mypy_cache import copy_the_projects_cache

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent

WRONG = """\
from common.games import GameEntry
from games.academy_credits import engine, pages, rulings, scores
from games.package import GamePackage, Job, PageResult

GAME = GamePackage(
    slug="wrong",
    package="games.academy_credits",
    check=engine.check,
    ruling=Job(request_models=(rulings.PlayRequest,), ask=rulings.reading, page="", label=""),
    score=Job(request_models=(scores.RoundRequest,), ask=scores.ask, answer_fields=scores.ask,
              page="", label="", link_pairs=pages.play_ruling_view,
              page_result=PageResult(pages.play_link_pairs, "score", "x.html")),
)
ENTRY: GameEntry = GAME  # what the apps read of an entry (common.games): a GamePackage is one
"""


def test_mypy_refuses_a_game_declaring_functions_of_the_wrong_shape(tmp_path):
    snippet = tmp_path / "wrong_game.py"
    snippet.write_text(WRONG, encoding="utf-8")
    # mypy's cache of the project, finished (tests/mypy_cache.py): the snippet is checked afresh
    # against the modules it imports, and those are read again only where they changed since (the
    # cache keeps each module's hash), not all of them and django-stubs from nothing (13 s).
    # Without a cache, the copy is empty and mypy reads all.
    cache = tmp_path / "mypy_cache"
    copy_the_projects_cache(cache)
    done = subprocess.run(
        [str(BIN / "mypy"), "--cache-dir", str(cache), str(snippet)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    wrong = re.findall(r'wrong_game\.py:(\d+): error: Argument "?(\w+)"? to "(\w+)"', done.stdout)
    assert sorted(wrong) == [
        ("10", "answer_fields", "Job"),
        ("11", "link_pairs", "Job"),
        ("12", "1", "PageResult"),
        ("9", "ask", "Job"),
    ], done.stdout
    assert done.stdout.count(": error:") == 4, done.stdout  # and GAME is a GameEntry


def test_every_game_declares_references_not_dotted_strings():
    for game in GAMES:
        assert isinstance(game, GamePackage)
        assert callable(game.check)
        for job in (game.ruling, game.score):
            assert job is not None
            assert all(isinstance(model, type) for model in job.request_models)
            assert callable(job.ask)
            for function in (
                job.answer_fields,
                job.reading,
                job.link_pairs,
                job.result_context,
                job.page_result.shape if job.page_result else None,
            ):
                assert function is None or callable(function), (game.slug, function)
