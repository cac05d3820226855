"""Ascent's entry in GAMES: the one line a new game adds there is `GAME`."""

from games.package import GamePackage, Job, Presenter

GAME = GamePackage(
    slug="ascent",
    package="tests.fifth_game",
    engine="tests.fifth_game.engine",
    ruling=Job(request_models=("tests.fifth_game.services.PlayRequest",),
               ask="tests.fifth_game.services.ask_play", position_at="position",
               page="ascent:check-play",
               label="Check a play", link_pairs="tests.fifth_game.pages.play_link_pairs",
               presenter=Presenter("results.views.ruling_view", "ruling", "ascent/_result.html")),
    score=Job(request_models=("tests.fifth_game.services.HandRequest",),
              ask="tests.fifth_game.services.ask_hand", page="ascent:score",
              label="Score a hand",
              presenter=Presenter("results.views.score_view", "score", "ascent/_result.html")),
    api_docs="tests.fifth_game.api_docs",
)
