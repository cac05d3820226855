"""What every game's Board must do (games/protocol.py), checked the same way for each game: its
tests build boards from their own positions and hand them here."""

from __future__ import annotations

from games.protocol import ILLEGAL, LEGAL, NEEDS_INFORMATION, Board, Ruling


def assert_board_conforms(board: object, *, illegal_moves: tuple = ()) -> list[Ruling]:
    """`board` is a Board; every move it lists as legal is ruled legal (or needs information the
    position lacks, never illegal), and every ruling names its rule, says why and shows its
    checks; each of `illegal_moves` is ruled illegal with the legal moves as alternatives.
    Returns the rulings on the legal moves."""
    assert isinstance(board, Board)
    assert isinstance(board.warnings, list)
    rulings = []
    for move in board.legal_moves():
        ruling = board.rule(move)
        assert ruling.verdict in (LEGAL, NEEDS_INFORMATION), (move, ruling.code, ruling.reason)
        rulings.append(ruling)
    for move in illegal_moves:
        ruling = board.rule(move)
        assert ruling.verdict == ILLEGAL, (move, ruling.code)
        assert ruling.alternatives or not board.legal_moves()
        rulings.append(ruling)
    for ruling in rulings:
        assert ruling.rule and ruling.reason and ruling.code
        assert ruling.checks and all(check.rule and check.detail for check in ruling.checks)
    return rulings
