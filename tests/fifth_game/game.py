"""Ascent in GAMES: its engine, its jobs and the requests they read, its pages and how its saved
results are shown again. The one line a game adds to games/registry.py names `GAME`."""

from games.package import GamePackage, Job, PageResult
from results.contexts import ruling_context, score_context

from . import api_docs, engine, pages, rulings, scores

GAME = GamePackage(
    slug="ascent",
    package="tests.fifth_game",
    check=engine.check,
    ruling=Job(
        request_models=(rulings.PlayRequest,),
        ask=rulings.ask,
        position_at="position",
        page="fifth_game:ruling",
        label="Check a move",
        link_pairs=pages.play_link_pairs,
        page_result=PageResult(ruling_context, "ruling", "fifth_game/_result.html"),
    ),
    score=Job(
        request_models=(scores.HandRequest,),
        ask=scores.ask,
        page="fifth_game:score",
        label="Score a hand",
        link_pairs=pages.hand_link_pairs,
        page_result=PageResult(score_context, "score", "fifth_game/_result.html"),
    ),
    api_docs=api_docs,
)
