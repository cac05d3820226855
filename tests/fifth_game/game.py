"""Ascent in GAMES: its jobs, the requests they read, its engine, its pages and how its saved
results are shown again. The one line a game adds to games/registry.py names `GAME`."""

from games.package import GamePackage, Job, Presenter

GAME = GamePackage(
    slug="ascent",
    package="tests.fifth_game",
    engine="tests.fifth_game.engine",
    ruling=Job(
        request_models=("tests.fifth_game.rulings.PlayRequest",),
        ask="tests.fifth_game.rulings.ask",
        position_at="position",
        page="fifth_game:ruling",
        label="Check a play",
        link_pairs="tests.fifth_game.pages.play_link_pairs",
        presenter=Presenter("results.contexts.ruling_context", "ruling", "fifth_game/_result.html"),
    ),
    score=Job(
        request_models=("tests.fifth_game.scores.HandRequest",),
        ask="tests.fifth_game.scores.ask",
        page="fifth_game:score",
        label="Score a hand",
        link_pairs="tests.fifth_game.pages.hand_link_pairs",
        presenter=Presenter("results.contexts.score_context", "score", "fifth_game/_result.html"),
    ),
    api_docs="tests.fifth_game.api_docs",
)
