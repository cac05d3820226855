"""Settles one receiving card's bonuses from the giving cards that stand with it (plain Python,
no Django import).

A card never counts towards its own bonus, and a giving card grants one bonus at most to each
receiving card (STM-7.3, STM-R1): the bonuses are settled by an exact maximum-weight assignment
of the giving cards (`settle`, scipy's linear_sum_assignment), never greedily. "Different" counts
are the largest number of values that can be assigned one per card (STM-R2). On a card whose
"other" is read as STM-R10 reads it, the card keeping it from being blanked is left out.

`settle` gives the points with who gave what (the explanation); `settle_points` the same points
only, without the solver where the rule's shape allows it (the search's many evaluations).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast

import numpy as np
from scipy.optimize import linear_sum_assignment

from .rules import CompiledRule, Live, MetTier

REQUIRED = 1_000_000  # weight of a slot that must be filled; far above any hand's points
FORBIDDEN = -1_000_000_000


# --- One receiving card ----------------------------------------------------------------------


@dataclass
class Grant:
    """Points one receiving card gets from one bonus, and from which giving cards."""

    bonus: int
    points: int
    giving: list[str]
    value: str | None = None  # the attribute value a "different" slot counted
    tier: int | None = None


@dataclass
class Settlement:
    points: int
    grants: list[Grant]
    left_out: str | None = None  # STM-R10: the card keeping it from being blanked, not "other"


def _private_values(
    rule: CompiledRule, receiver: Live, givers: Sequence[Live]
) -> tuple[list[int], list[int | None]]:
    """Each giving card's best FOR EACH bonus on its own (it may grant only one): its points, and
    the index of the bonus (None when no FOR EACH bonus counts it)."""
    values: list[int] = []
    which: list[int | None] = []
    best_index: int | None
    for giver in givers:
        best, best_index = 0, None
        for index, points, match, if_chosen in rule.for_each:
            if match(giver, receiver.chosen):
                if if_chosen:
                    points = next(
                        (if_chosen[v] for v in receiver.chosen.values() if v in if_chosen), points
                    )
                if points > best or best_index is None:
                    best, best_index = points, index
        values.append(best)
        which.append(best_index)
    return values, which


def _tier_instances(
    rule: CompiledRule, receiver: Live, givers: Sequence[Live]
) -> Iterator[tuple[MetTier | None, ...]]:
    """Every way each WITH bonus may be met (or not): a tier, and for "same" requirements the
    shared value."""
    options = []
    for index, tiers in rule.withs:
        choices: list[MetTier | None] = [None]
        for tier_index, tier in enumerate(tiers):
            value_sets: list[Sequence[str | None]] = []
            for req in tier.requirements:
                if req.same is None:
                    value_sets.append([None])
                else:
                    present = sorted(
                        {
                            v
                            for g in givers
                            if req.match(g, receiver.chosen)
                            for v in g.attrs[req.same]
                        }
                    )
                    value_sets.append(present)
            for values in itertools.product(*value_sets):
                choices.append((index, tier_index, tier, values))
        options.append(choices)
    return itertools.product(*options)


def settle(rule: CompiledRule, receiver: Live, givers: Sequence[Live]) -> Settlement:
    """The receiving card's best total from the giving cards, with who gave what.

    STM-R10: on a card whose "other" means other than the card keeping it from being blanked
    (`unblanker_is_not_other`), one giving card that meets its BLANKED UNLESS condition is left
    out of every bonus: the one whose absence costs least (the player's best pick; the first in
    hand order among equals). Space Confrontation with Daimon Bok, Daimon Tog and Vice Admiral
    Nakamura: Bok keeps it, Tog and Nakamura count, 12. With no such card standing (it cannot
    happen once the card is not blanked) nothing is left out."""
    if rule.unblanker is not None:
        keepers = [i for i, giver in enumerate(givers) if rule.unblanker(giver, receiver.chosen)]
        best: Settlement | None = None
        for i in keepers:
            settlement = _settle_givers(rule, receiver, [*givers[:i], *givers[i + 1 :]])
            if best is None or settlement.points > best.points:
                best = Settlement(settlement.points, settlement.grants, givers[i].name)
        if best is not None:
            return best
    return _settle_givers(rule, receiver, givers)


def settle_points(rule: CompiledRule, receiver: Live, givers: Sequence[Live]) -> int:
    """`settle(...).points`, for the search, which needs no explanation: the same maximum,
    reached without the assignment solver where the rule's shape allows it. The winner's
    explanation always comes from `settle`; a test holds the two to the same points.

    The shapes: FOR EACH bonuses alone (each giving card its best one); one "different" bonus
    with FOR EACH bonuses (a giving card moved to a value slot gains the slot's points less its
    own: the sets of cards that can take different values form a matroid, so taking the largest
    gains first while they still can is exact); WITH bonuses whose requirements are cards of one
    card each, plus at most one asking for several (distinct values or not): every way of
    filling the one-card requirements with different cards, and the cheapest cards for the
    other (by the same matroid argument when the values must differ)."""
    if rule.unblanker is not None:
        keepers = [i for i, giver in enumerate(givers) if rule.unblanker(giver, receiver.chosen)]
        if keepers:
            return max(
                _points_of_givers(rule, receiver, [*givers[:i], *givers[i + 1 :]]) for i in keepers
            )
    return _points_of_givers(rule, receiver, givers)


MAX_TRIED = 256  # requirement assignments tried one by one before the solver takes over


def _points_of_givers(rule: CompiledRule, receiver: Live, givers: Sequence[Live]) -> int:
    points: int | None
    private, private_bonus = _private_values(rule, receiver, givers)
    everyone = sum(private)
    if not rule.different and not rule.withs:
        return everyone
    chosen = receiver.chosen
    if not rule.withs and len(rule.different) == 1:
        _, points, attribute, match = rule.different[0]
        values = [
            g.attrs[attribute] if (match(g, chosen) if match else bool(g.attrs[attribute])) else ()
            for g in givers
        ]
        gains = sorted(
            (
                (points - private[i], i)
                for i in range(len(givers))
                if values[i] and points > private[i]
            ),
            reverse=True,
        )
        kept = _different_values(values, [i for _, i in gains])
        return everyone + sum(points - private[i] for i in kept)
    best = 0
    for combination in _tier_instances(rule, receiver, givers):
        met = [c for c in combination if c is not None]
        if not met and not rule.different:
            best = max(best, everyone)
            continue
        points = None
        if not rule.different:
            lost = _least_given_up(met, givers, private, chosen)
            if lost is False:  # the requirements cannot all be met
                continue
            if lost is not None:
                points = sum(tier.points for _, _, tier, _ in met) + everyone - lost
        if points is None:
            settlement = _assign(rule, receiver, givers, private, private_bonus, met)
            if settlement is None:
                continue
            points = settlement.points
        best = max(best, points)
    return best


def _least_given_up(
    met: list[MetTier], givers: Sequence[Live], private: list[int], chosen: Mapping[str, str]
) -> int | Literal[False] | None:
    """The least FOR EACH points given up by the cards filling these met requirements (False if
    they cannot be filled; None if their shape is left to the solver)."""
    needs = [
        (req, same_value)
        for _, _, tier, same_values in met
        for req, same_value in zip(tier.requirements, same_values, strict=True)
    ]
    # (A requirement has a shared value only when it asks for one: `req.same` is then set.)
    matching = [
        [
            i
            for i, g in enumerate(givers)
            if req.match(g, chosen)
            and (same_value is None or same_value in g.attrs[cast(str, req.same)])
        ]
        for req, same_value in needs
    ]
    big = [n for n, (req, _) in enumerate(needs) if req.count > 1 or req.distinct]
    if len(big) > 1:
        return None
    small = [n for n in range(len(needs)) if n not in big]
    if math.prod(len(matching[n]) for n in small) > MAX_TRIED:
        return None
    least: int | None = None
    for pick in itertools.product(*(matching[n] for n in small)):
        if len(set(pick)) < len(pick):
            continue
        lost = sum(private[i] for i in pick)
        if big:
            req, _ = needs[big[0]]
            rest = sorted((i for i in matching[big[0]] if i not in pick), key=private.__getitem__)
            if req.distinct:
                rest = _different_values(
                    [givers[i].attrs[req.distinct] for i in range(len(givers))], rest, req.count
                )
            if len(rest) < req.count:
                continue
            lost += sum(private[i] for i in rest[: req.count])
        least = lost if least is None else min(least, lost)
    return False if least is None else least


def _different_values(
    values: Sequence[Iterable[str]], order: Sequence[int], limit: int | None = None
) -> list[int]:
    """The cards of `order` kept in turn while the kept ones can still each take a different
    value (values[i]: the values card i may take), up to `limit` cards (a greedy pass over a
    matroid: optimal for any order by weight)."""
    owner: dict[str, int] = {}
    kept: list[int] = []
    for i in order:
        if _augment(i, values, owner, set()):
            kept.append(i)
            if limit is not None and len(kept) == limit:
                break
    return kept


def _augment(
    i: int, values: Sequence[Iterable[str]], owner: dict[str, int], seen: set[str]
) -> bool:
    for value in values[i]:
        if value not in seen:
            seen.add(value)
            if value not in owner or _augment(owner[value], values, owner, seen):
                owner[value] = i
                return True
    return False


def _settle_givers(rule: CompiledRule, receiver: Live, givers: Sequence[Live]) -> Settlement:
    private, private_bonus = _private_values(rule, receiver, givers)
    if not rule.different and not rule.withs:
        grants = [
            Grant(cast(int, private_bonus[i]), private[i], [g.name])
            for i, g in enumerate(givers)
            if private_bonus[i] is not None and private[i] > 0
        ]
        return Settlement(sum(private), grants)

    best: Settlement | None = None
    settlement: Settlement | None
    for combination in _tier_instances(rule, receiver, givers):
        met = [c for c in combination if c is not None]
        if not met and not rule.different:  # no WITH bonus met: each giver's own FOR EACH
            grants = [
                Grant(cast(int, private_bonus[i]), private[i], [g.name])
                for i, g in enumerate(givers)
                if private_bonus[i] is not None and private[i] > 0
            ]
            grants.sort(key=lambda g: (g.bonus, g.value or "", g.giving))  # as _assign orders them
            settlement = Settlement(sum(private), grants)
        else:
            settlement = _assign(rule, receiver, givers, private, private_bonus, met)
        if settlement is not None and (best is None or settlement.points > best.points):
            best = settlement
    return best if best is not None else Settlement(0, [])


def _assign(
    rule: CompiledRule,
    receiver: Live,
    givers: Sequence[Live],
    private: list[int],
    private_bonus: list[int | None],
    met: list[MetTier],
) -> Settlement | None:
    n = len(givers)
    chosen = receiver.chosen
    slot_accepts: list[list[int]] = []
    slot_weight: list[int] = []
    # ("with", bonus, tier, req, value) | ("different", bonus, value)
    slot_owner: list[tuple[Any, ...]] = []
    dummy_rows: list[list[int]] = []
    required = 0
    for index, tier_index, tier, same_values in met:
        for req_index, (req, same_value) in enumerate(
            zip(tier.requirements, same_values, strict=True)
        ):
            # (A shared value comes with `req.same` set, as in _least_given_up.)
            matching = [
                i
                for i, g in enumerate(givers)
                if req.match(g, chosen)
                and (same_value is None or same_value in g.attrs[cast(str, req.same)])
            ]
            if len(matching) < req.count:
                return None
            if req.distinct:
                values = sorted({v for i in matching for v in givers[i].attrs[req.distinct]})
                if len(values) < req.count:
                    return None
                columns = []
                for value in values:
                    columns.append(len(slot_accepts))
                    slot_accepts.append(
                        [i for i in matching if value in givers[i].attrs[req.distinct]]
                    )
                    slot_weight.append(REQUIRED)
                    slot_owner.append(("with", index, tier_index, req_index, value))
                    required += 1
                # Stand-ins fill the value slots beyond the count needed, so the real cards only
                # have to cover `count` different values.
                dummy_rows.extend([columns] * (len(values) - req.count))
            else:
                for _ in range(req.count):
                    slot_accepts.append(matching)
                    slot_weight.append(REQUIRED)
                    slot_owner.append(("with", index, tier_index, req_index, same_value))
                    required += 1
    for index, points, attribute, match in rule.different:
        matching = [
            i
            for i, g in enumerate(givers)
            if (match(g, chosen) if match else bool(g.attrs[attribute]))
        ]
        for value in sorted({v for i in matching for v in givers[i].attrs[attribute]}):
            slot_accepts.append([i for i in matching if value in givers[i].attrs[attribute]])
            slot_weight.append(points)
            slot_owner.append(("different", index, value))

    shared = len(slot_accepts)
    rows = n + len(dummy_rows)
    # The allowed cells are gathered first and written in one go: element-wise numpy writes
    # cost more than the solve itself.
    cells_r: list[int] = []
    cells_c: list[int] = []
    cells_w: list[int] = []
    for column, accepts in enumerate(slot_accepts):
        for i in accepts:
            cells_r.append(i)
            cells_c.append(column)
            cells_w.append(slot_weight[column])
    for d, columns in enumerate(dummy_rows):
        for column in columns:
            cells_r.append(n + d)
            cells_c.append(column)
            cells_w.append(REQUIRED)
    for i in range(rows):
        cells_r.append(i)
        cells_c.append(shared + i)
        cells_w.append(private[i] if i < n else 0)
    matrix = np.full((rows, shared + rows), FORBIDDEN, dtype=np.int64)
    matrix[cells_r, cells_c] = cells_w
    weights = matrix.tolist()
    row_index, column_index = linear_sum_assignment(matrix, maximize=True)

    filled = 0
    points = sum(tier.points for _, _, tier, _ in met)
    grants: dict[tuple[Any, ...], Grant] = {}
    for r, c in zip(row_index.tolist(), column_index.tolist(), strict=True):
        weight = weights[r][c]
        if weight == FORBIDDEN:
            continue
        if c < shared and slot_weight[c] == REQUIRED:
            filled += 1
            if r < n:
                _, bonus, tier_index, _, _ = slot_owner[c]
                grant = grants.setdefault(("with", bonus), Grant(bonus, 0, [], tier=tier_index))
                grant.giving.append(givers[r].name)
        elif c < shared:
            points += weight
            _, bonus, value = slot_owner[c]
            grants[("different", bonus, value)] = Grant(
                bonus, weight, [givers[r].name], value=value
            )
        elif r < n and weight > 0:
            points += weight
            grants[("private", r)] = Grant(private_bonus[r], weight, [givers[r].name])
    if filled < required:
        return None
    for index, tier_index, tier, _ in met:
        grant = grants.setdefault(("with", index), Grant(index, 0, [], tier=tier_index))
        grant.points = tier.points
    ordered = sorted(grants.values(), key=lambda g: (g.bonus, g.value or "", g.giving))
    return Settlement(points, ordered)
