"""Every game in GAMES gives its engine's check(...), which gives a games.protocol.Board; each
game's own board tests (test_<game>_board.py) run the shared conformance checks on it."""

import importlib

import pytest

from games.registry import GAMES


@pytest.mark.parametrize("game", GAMES, ids=[game.slug for game in GAMES])
def test_every_game_names_an_engine_with_check(game):
    assert callable(game.check), f"{game.slug} gives no engine check in GAMES"
    engine = importlib.import_module(f"{game.package}.engine")
    assert game.check is engine.check
