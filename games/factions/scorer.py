"""Factions: the standings of a table (plain Python, no Django import).

Factions has no points: the standings say, per player in seat order, which factions they control
(their own and the conquered ones), how many units survive and how many are defeated, who is
eliminated (no surviving unit in any faction they control, FAC-17, FAC-R9) and who has won (the
last player who controls a surviving unit, FAC-18), or nobody yet.

The position is the rulings' position, checked once by games.factions.engine.check(position)
(its ``to_move`` false), whose board's score() gives these standings: it needs no turn, as a finished game
is what the standings are for. A player's own faction is known only when the request gives
``players[].faction``; otherwise a faction is reported as controlled, neither own nor conquered.

Each step is one line of the standings: ``points`` is the surviving units that line adds,
``running_total`` the player's surviving units so far (it starts again at each player); the
headline ``total`` is null, as the game has no score.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any

from games.factions.model import PositionReader
from games.protocol import Step
from games.wording import count as _count
from games.wording import listing

_list = partial(listing, empty="none")


@dataclass
class Standings:
    standings: list[dict[str, Any]]
    eliminated: list[str]
    winner: str | None
    steps: list[Step]
    warnings: list[str] = field(default_factory=list)
    total: int | None = None  # Factions has no points: the winner is the one left (FAC-18)


def standings(table: PositionReader, warnings: list[str]) -> Standings:
    """The standings of a checked table; ``warnings`` (the check's) gain what stays unknown."""
    label = table.label
    steps: list[Step] = []
    rows: list[dict[str, Any]] = []
    owners = {p.faction: p.name for p in table.position.players if p.faction}

    def step(
        rule: str, player: str, faction: str | None, detail: str, points: int, running: int
    ) -> None:
        steps.append(
            Step(
                n=len(steps) + 1,
                rule=rule,
                detail=detail,
                points=points,
                running_total=running,
                more={"player": player, "faction": faction},
            )
        )

    for player in table.position.players:
        name = player.name
        running = 0
        defeated_total = 0
        factions = []
        for faction in table.controlled(name):
            own = None if player.faction is None else player.faction == faction.slug
            surviving = [u.name for u in faction.units if u.alive]
            defeated = [u.name for u in faction.units if not u.alive]
            unlisted = table.unlisted(faction)
            running += len(surviving)
            defeated_total += len(defeated)
            if own:
                what, rule = "own faction", "FAC-3"
            elif own is False:
                origin = owners.get(faction.slug)
                what = f"conquered{' from ' + origin if origin else ''}"
                rule = "FAC-14"
            else:
                what, rule = "", "FAC-R1"
            total_units = len(surviving) + len(defeated) + len(unlisted)
            detail = (
                f"{name} controls {label(faction.slug)}{' (' + what + ')' if what else ''}: "
                f"{len(surviving)} of {total_units} units survive"
                f"{' (' + _list(surviving) + ')' if surviving else ''}; "
                f"defeated: {_list(defeated) if defeated else 'none'}."
            )
            if defeated and own is not None:
                detail += f" {name} may restore them with DOCTOR (FAC-R6)."
            if unlisted:
                detail += f" Not listed, state unknown: {_list(unlisted)}."
            step(rule, name, faction.slug, detail, len(surviving), running)
            factions.append(
                {
                    "faction": faction.slug,
                    "name": label(faction.slug),
                    "own": own,
                    "surviving": surviving,
                    "defeated": defeated,
                    "unlisted": unlisted,
                }
            )
        state = table.in_game(name)
        if not factions:
            lost_own = ""
            if player.faction and table.controller(player.faction) not in (None, name):
                lost_own = (
                    f" (their own, {label(player.faction)}, was conquered by "
                    f"{table.controller(player.faction)})"
                )
            summary = f"{name} controls no faction{lost_own}: eliminated (FAC-17, FAC-R9)."
        elif state is True:
            summary = (
                f"{name} controls {_count(running, 'surviving unit')} in "
                f"{_count(len(factions), 'faction')}: still in the game (FAC-R9)."
            )
        elif state is False:
            summary = f"{name} controls no surviving unit: eliminated (FAC-17, FAC-R9)."
        else:
            summary = (
                f"{name} has no listed surviving unit, and the position does not list "
                f"every unit {name} controls: whether {name} is eliminated is unknown."
            )
            warnings.append(summary)
        step("FAC-R9", name, None, summary, 0, running)
        rows.append(
            {
                "player": name,
                "factions": factions,
                "surviving_units": running,
                "defeated_units": defeated_total,
                "eliminated": None if state is None else not state,
                "lost_turns": player.lost_turns,
            }
        )

    states = {row["player"]: row["eliminated"] for row in rows}
    eliminated = [name for name, out in states.items() if out is True]
    left = [name for name, out in states.items() if out is False]
    unknown = [name for name, out in states.items() if out is None]
    winner = left[0] if len(left) == 1 and not unknown else None
    if winner:
        detail = f"Only {winner} still controls a surviving unit: {winner} wins (FAC-18)."
    elif unknown:
        detail = (
            f"No winner can be named: whether {_list(unknown)} "
            f"{'is' if len(unknown) == 1 else 'are'} still in the game is unknown."
        )
    else:
        detail = (
            f"{_count(len(left), 'player')} still control a surviving unit "
            f"({_list(left)}): no winner yet (FAC-18)."
        )
    steps.append(
        Step(
            n=len(steps) + 1,
            rule="FAC-18",
            detail=detail,
            points=0,
            running_total=0,
            more={"player": None, "faction": None},
        )
    )
    return Standings(
        standings=rows, eliminated=eliminated, winner=winner, steps=steps, warnings=warnings
    )
