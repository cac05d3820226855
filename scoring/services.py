"""The score job's own part of the one flow (games/services.py, which reads the body, asks the
game's `ask` for the position and checks it, then saves the answer): the checked position's
board scores (playing the moves asked, for a game whose score plays any), and the score becomes
the answer every game shares: the total, the steps a person can follow from zero, the warnings.
Registered with the flow when Django starts (apps.py)."""

from __future__ import annotations

from typing import Any

from cards.models import Game
from games.package import Asked
from games.protocol import Board, Scored


def score_position(game: Game, board: Board[Any], asked: Asked) -> tuple[Scored, dict[str, Any]]:
    """The board's score and its body (the game's own fields are added by the flow from its
    job's `answer_fields`): the reading's warnings, then the score's (or the board's, for a
    score that carries none), then the reading's later ones."""
    scored = board.score(asked.moves)
    engine_warnings = getattr(scored, "warnings", None)
    response = {
        "game": game.slug,
        "total": scored.total,
        "steps": [step.as_dict() for step in scored.steps],
        "warnings": asked.warnings
        + list(board.warnings if engine_warnings is None else engine_warnings)
        + asked.later_warnings,
    }
    return scored, response
