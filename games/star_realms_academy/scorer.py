"""Star Realms Academy: a whole turn, action by action (plain Python, no Django import).

The position of API.md plus the turn's actions in order. Each action is ruled in turn by the
adjudicator's engine (games.star_realms_academy.engine), on the state the actions before it
left: the order matters (coins are capped at 8, SRA-R1). Each step shows, after its action, the
Coins, the combat pool, the cards drawn this turn, both Health totals and the damage on every base.

The breakdown stops at the first action that is illegal, or that needs a card value nobody has
transcribed (``needs_information``): what follows would rest on a state that did not happen or is
not known. That action still has its step (its verdict says why the breakdown stops there), and
its full ruling is returned.

The headline ``total`` is the Health the opponent lost this turn; each step's ``points`` is what
that action took from it and ``running_total`` the sum so far.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.protocol import LEGAL, Ruling, Step
from games.star_realms_academy.engine import (
    ATTACK,
    END_TURN,
    Move,
    Position,
    Turn,
)


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


def break_down_turn(position: Position, moves: list[Move], *, path: str = "") -> Breakdown:
    """Rule on every action in order. Raises ImpossiblePosition when the position cannot exist
    (error paths start with ``path``)."""
    turn = Turn(position, path=path)
    start = _numbers(turn)
    steps: list[Step] = []
    warnings: list[str] = []
    stopped: Ruling | None = None
    stopped_at: int | None = None
    running = 0
    for index, move in enumerate(moves):
        ruling = turn.rule(move)
        for warning in ruling.warnings:
            if warning not in warnings:
                warnings.append(warning)
        points = 0
        if ruling.verdict == LEGAL:
            points = int((ruling.outcome or {}).get("health_lost", 0))
        running += points
        numbers = _numbers(turn)
        steps.append(Step(
            n=index + 1, rule=ruling.rule, card=_card(move), detail=ruling.reason,
            points=points, running_total=running,
            more={"action": move.as_dict(), "verdict": ruling.verdict, "code": ruling.code,
                  **numbers, "warnings": list(ruling.warnings)},
        ))
        if ruling.verdict != LEGAL:
            stopped, stopped_at = ruling, index
            break
    return Breakdown(
        steps=steps, total=running, start=start, final=turn.position(), winner=turn.winner,
        turn_over=turn.turn_over, ruling=stopped, stopped_at=stopped_at, warnings=warnings,
    )


def _numbers(turn: Turn) -> dict[str, Any]:
    return {
        "coins": turn.active.coins,
        "combat": turn.active.combat,
        "draws": turn.active.draws,
        "health": turn.active.health,
        "opponent_health": turn.opponent.health,
        "bases": turn.base_damage(),
    }


def _card(move: Move) -> str | None:
    if move.action == ATTACK:
        return None if move.target_health or move.target is None else move.target.name
    if move.action == END_TURN or move.card is None:
        return None
    return move.card.name
