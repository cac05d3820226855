"""The ruling job's own part of the one flow (games/services.py, which reads the body, asks the
game's `ask` for the position and checks it, then saves the answer): the checked position's
board rules on the move, and the ruling becomes API.md's ruling body, quoting the rule it rests
on. Registered with the flow when Django starts (apps.py)."""

from __future__ import annotations

from typing import Any

from cards.models import Game
from games.package import Asked
from games.protocol import Board, Ruling
from games.responses import ruling_response


def rule_on_move(game: Game, board: Board[Any], asked: Asked) -> tuple[Ruling, dict[str, Any]]:
    """The board's ruling on the move asked, and its body (without "id" and "url", which saving
    adds): the reading's warnings come before the engine's, its later ones after."""
    ruling = board.rule(asked.move)
    response = ruling_response(game=game, ruling=ruling)
    response["warnings"] = asked.warnings + response["warnings"] + asked.later_warnings
    return ruling, response
