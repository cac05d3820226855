"""Every game in GAMES names its engine, whose check(...) gives a games.protocol.Board; each
game's own board tests (test_<game>_board.py) run the shared conformance checks on it."""

import importlib

import pytest

from games.registry import GAMES


@pytest.mark.parametrize("game", GAMES, ids=[game.slug for game in GAMES])
def test_every_game_names_an_engine_with_check(game):
    assert game.engine, f"{game.slug} names no engine in GAMES"
    engine = importlib.import_module(game.engine)
    assert callable(getattr(engine, "check", None))
