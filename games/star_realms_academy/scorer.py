"""Star Realms Academy: a whole turn, action by action (plain Python, no Django import).

The position of API.md plus the turn's actions in order, scored as
``engine.check(position).score(actions)``: each action is pushed in turn onto the engine's board,
on the state the actions before it left: the order matters (coins are capped at 8, SRA-R1). Each
step shows, after its action, the Coins, the combat pool, the cards drawn this turn, both Health
totals and the damage on every base.

The breakdown stops at the first action that is illegal, or that needs a card value nobody has
transcribed (``needs_information``): what follows would rest on a state that did not happen or is
not known. That action still has its step (its verdict says why the breakdown stops there), and
its full ruling is returned.

The headline ``total`` is the Health the opponent lost this turn; each step's ``points`` is what
that action took from it and ``running_total`` the sum so far.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from games.protocol import LEGAL, Ruling, Step
from games.star_realms_academy.provisional import is_provisional_warning, merge_provisional

# What the breakdown reads of the engine's actions and turn (games.star_realms_academy.engine:
# Move and TurnBoard), as protocols: the engine's board calls this module, and this module
# imports nothing of the engine (issue 24: no import circles).


class Action(Protocol):
    @property
    def shown_card(self) -> str | None: ...

    def as_dict(self) -> dict[str, Any]: ...


A = TypeVar("A", bound=Action, contravariant=True)
M = TypeVar("M", bound=Action)


class Turn(Protocol[A]):
    winner: str | None
    turn_over: bool

    def push(self, move: A) -> Ruling: ...

    def numbers(self) -> dict[str, Any]: ...

    def position(self) -> dict[str, Any]: ...


@dataclass
class Breakdown:
    steps: list[Step]
    total: int
    start: dict[str, Any]  # the running numbers before the first action
    final: dict[str, Any]  # the position after the last action ruled legal
    winner: str | None
    turn_over: bool
    ruling: Ruling | None  # of the action the breakdown stopped at, if any
    stopped_at: int | None  # that action's index in the request
    warnings: list[str]


def break_down(board: Turn[M], moves: Sequence[M]) -> Breakdown:
    """Push every action in order onto ``board`` (a checked position's, changed in place)."""
    start = board.numbers()
    steps: list[Step] = []
    warnings: list[str] = []
    stopped: Ruling | None = None
    stopped_at: int | None = None
    running = 0
    for index, move in enumerate(moves):
        ruling = board.push(move)
        warnings = merge_provisional(warnings + ruling.warnings)
        points = 0
        if ruling.verdict == LEGAL:
            points = int((ruling.outcome or {}).get("health_lost", 0))
        running += points
        steps.append(
            Step(
                n=index + 1,
                rule=ruling.rule,
                card=move.shown_card,
                detail=ruling.reason,
                points=points,
                running_total=running,
                more={
                    "action": move.as_dict(),
                    "verdict": ruling.verdict,
                    "code": ruling.code,
                    **board.numbers(),
                    # A step's own warnings; the provisional values are said once for the turn.
                    "warnings": [w for w in ruling.warnings if not is_provisional_warning(w)],
                },
            )
        )
        if ruling.verdict != LEGAL:
            stopped, stopped_at = ruling, index
            break
    return Breakdown(
        steps=steps,
        total=running,
        start=start,
        final=board.position(),
        winner=board.winner,
        turn_over=board.turn_over,
        ruling=stopped,
        stopped_at=stopped_at,
        warnings=warnings,
    )
