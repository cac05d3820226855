"""Scores a final hand of Star Trek: Missions from the cards' rules (plain Python, no Django).

Order (STM-R3): the players' choices, then blanking (Borg Cube's, then BLANKED UNLESS in card-number
order against the cards not blanked), then attribute changes (counts as …), then every card that is
not blanked scores. A card never counts towards its own bonus, and a giving card grants one bonus
at most to each receiving card (STM-7.3, STM-R1): each receiving card's bonuses are settled by an
exact maximum-weight assignment of the giving cards, never greedily. "Different" counts are the
largest number of values that can be assigned one per card (STM-R2). Choices nobody fixed are the
ones that give the highest total (STM-R4).

The choices are found by an exact branch-and-bound search (`HandScorer.best`, `_Search`), not by
trying every combination: values no card of the hand can tell apart are tried once; a branch is
skipped when an optimistic scoring of the hand with its open choices (`score_points`) cannot beat
the best total found; settlements are cached on what each card's rule reads, so a choice
re-scores only the cards that read what it changes. The tests and bench/stm.py hold it to plain
enumeration of every allowed value of every choice (tests/engines/stm_reference.py), which shares
none of this code but the evaluation of one fully fixed assignment (`evaluate`, `settle`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, cast

import numpy as np
from scipy.optimize import linear_sum_assignment

from games.protocol import Step

from .language import ATTRIBUTES, CHOICE_EFFECTS, UNBLANKER_KEY, phrase

REQUIRED = 1_000_000  # weight of a slot that must be filled; far above any hand's points
FORBIDDEN = -1_000_000_000
WILD_KEYS = ("type", "lifeform", "affiliation", "specialty")  # what the Unidentified Ship chooses

# A card's rule and its parts as stored (JSON objects, checked by language.validate_rule), and a
# player's choice for one card ({"type": …}, {"target": …, "affiliation": …}, {"blank": […]}, …).
Rule = Mapping[str, Any]
Choice = dict[str, Any]
# One open choice of the search: (card, part of its choice or None, the values to try; for Thought
# Maker's affiliation, the values for each target).
Dim = tuple[str, str | None, list[Any] | dict[str | None, list[Any]]]


# --- Undecided choices (upper bounds only) ----------------------------------------------------


class WildSet(frozenset[str]):
    """An attribute whose value is not decided yet while the search bounds a branch: it will be
    one of these values. Every test is answered optimistically: `value in` as for any set, and a
    "non" test holds when some possible value differs. Exact evaluations never see one. It never
    equals a plain set of the same values (a decided attribute), so no cache confuses the two."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return type(other) is WildSet and frozenset.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = frozenset.__hash__



# --- Input and output ------------------------------------------------------------------------


@dataclass(frozen=True)
class CardSpec:
    name: str
    number: str
    deck: str  # "galaxy" | "mission"
    attributes: Mapping[str, tuple[str, ...]]  # type, specialty, lifeform, affiliation
    rule: Rule | None

    def effect(self, kind: str) -> dict[str, Any] | None:
        effect: dict[str, Any]
        for effect in (self.rule or {}).get("effects", []):
            if effect.get("kind") == kind:
                return effect
        return None


@dataclass
class CardResult:
    name: str
    points: int
    blanked: bool
    blanked_reason: str | None


@dataclass
class HandScore:
    total: int
    cards: list[CardResult]
    steps: list[Step]
    choices: dict[str, Choice]
    warnings: list[str] = field(default_factory=list)


class ChoiceError(ValueError):
    """A choice the player fixed that the rules or the hand do not allow."""

    def __init__(self, path: str, detail: str) -> None:
        super().__init__(detail)
        self.path = path
        self.detail = detail


# --- Compiled rules --------------------------------------------------------------------------


class Live:
    """One card as it stands during one evaluation: attributes after choices and changes."""

    __slots__ = ("spec", "name", "deck", "attrs", "chosen")

    def __init__(self, spec: CardSpec, base: dict[str, frozenset[str]] | None = None) -> None:
        self.spec = spec
        self.name = spec.name
        self.deck = spec.deck
        self.attrs = dict(base) if base is not None else {
            key: frozenset(spec.attributes.get(key, ())) for key in ATTRIBUTES
        }
        self.chosen: dict[str, str] = {}


# A compiled criterion: does this card (as it stands) meet it, given the receiving card's choices
# (its `chosen` values)?
Match = Callable[[Live, Mapping[str, str]], bool]


def _copy(live: Live) -> Live:
    copy = Live(live.spec, live.attrs)
    copy.chosen = live.chosen
    return copy


def compile_criterion(crit: Rule) -> Match:
    (key, value), = crit.items()
    if key == "name":
        return lambda card, chosen: card.name == value
    if key == "deck":
        return lambda card, chosen: card.deck == value
    if key in ATTRIBUTES:
        return lambda card, chosen: value in card.attrs[key]
    if key == "has":
        return lambda card, chosen: bool(card.attrs[value])
    if key == "non":
        (attribute, literal), = value.items()

        def non(card: Live, chosen: Mapping[str, str]) -> bool:
            values = card.attrs[attribute]
            return bool(values) and (literal not in values or (type(values) is WildSet and len(values) > 1))
        return non
    if key == "chosen":
        return lambda card, chosen: chosen.get(value) is not None and chosen[value] in card.attrs[value]
    parts = [compile_criterion(c) for c in value]
    if key == "all":
        return lambda card, chosen: all(part(card, chosen) for part in parts)
    return lambda card, chosen: any(part(card, chosen) for part in parts)


def criterion_attributes(crit: Rule, by_value: bool = False) -> set[str]:
    """The attributes a criterion reads; with `by_value`, only those whose value it reads (not
    "has", which a chosen attribute always passes)."""
    (key, value), = crit.items()
    if key in ATTRIBUTES:
        return {key}
    if key == "chosen" or (key == "has" and not by_value):
        return {value}
    if key == "non":
        return set(value)
    if key in ("all", "any"):
        return set().union(*(criterion_attributes(c, by_value) for c in value))
    return set()


def criterion_literals(crit: Rule, into: dict[str, set[str]]) -> None:
    (key, value), = crit.items()
    if key in ATTRIBUTES:
        into[key].add(value)
    elif key == "non":
        (attribute, literal), = value.items()
        into[attribute].add(literal)
    elif key in ("all", "any"):
        for part in value:
            criterion_literals(part, into)


@dataclass
class Requirement:
    match: Match
    count: int
    distinct: str | None
    same: str | None
    source: dict[str, Any]


@dataclass
class Tier:
    points: int
    requirements: list[Requirement]


# A WITH bonus met: (bonus index, tier index, the tier, each requirement's shared "same" value or
# None).
MetTier = tuple[int, int, Tier, tuple[str | None, ...]]


@dataclass
class CompiledRule:
    # (bonus index, points, match, points_if_chosen)
    for_each: list[tuple[int, int, Match, dict[str, int]]]
    different: list[tuple[int, int, str, Match | None]]  # (bonus index, points, attribute, match)
    withs: list[tuple[int, list[Tier]]]  # (bonus index, tiers)
    blanked_unless: list[Match]
    relevant: tuple[str, ...]  # attributes the rule looks at (for caching)
    bonuses: list[dict[str, Any]]
    # STM-R10: whether a card meeting blanked_unless qualifies as the one card left out of the
    # bonuses (None: every other card counts).
    unblanker: Match | None = None
    # All the rule reads of a giving card: the answers to its simple tests (`atoms`) and the
    # values of the attributes it compares (`counted`). Two giving cards alike in both give the
    # same points (the search's settlement cache is keyed on them).
    atoms: tuple[Match, ...] = ()
    counted: tuple[str, ...] = ()


def criterion_leaves(crit: Rule, into: dict[tuple[Any, Any], Rule]) -> None:
    """The simple tests a criterion is made of (all/any unfolded), each once."""
    (key, value), = crit.items()
    if key in ("all", "any"):
        for part in value:
            criterion_leaves(part, into)
    else:
        into.setdefault((key, tuple(sorted(value.items())) if isinstance(value, Mapping) else value), crit)


def _requirement(req: Rule) -> Requirement:
    return Requirement(compile_criterion(req["match"]), req.get("count", 1), req.get("distinct"),
                       req.get("same"), dict(req))


def compile_rule(rule: Rule | None) -> CompiledRule:
    rule = rule or {}
    for_each: list[tuple[int, int, Match, dict[str, int]]] = []
    different: list[tuple[int, int, str, Match | None]] = []
    withs: list[tuple[int, list[Tier]]] = []
    attributes: set[str] = set()
    for index, bonus in enumerate(rule.get("bonuses", [])):
        kind = bonus["kind"]
        if kind == "for_each":
            for_each.append((index, bonus["points"], compile_criterion(bonus["match"]),
                             bonus.get("points_if_chosen") or {}))
            attributes |= criterion_attributes(bonus["match"])
        elif kind == "for_each_different":
            match = bonus.get("match")
            different.append((index, bonus["points"], bonus["attribute"],
                              compile_criterion(match) if match else None))
            attributes |= {bonus["attribute"]} | (criterion_attributes(match) if match else set())
        else:
            tiers = bonus["tiers"] if kind == "tiers" else [bonus]
            compiled: list[Tier] = []
            for tier in tiers:
                reqs = [_requirement(r) for r in tier["requires"]]
                for req in tier["requires"]:
                    attributes |= criterion_attributes(req["match"])
                    attributes |= {req[k] for k in ("distinct", "same") if k in req}
                compiled.append(Tier(tier["points"], reqs))
            withs.append((index, compiled))
    blanked_unless = [compile_criterion(c) for c in rule.get("blanked_unless", [])]
    unblanker: Match | None = None
    if rule.get(UNBLANKER_KEY) and blanked_unless:
        def meets_blanked_unless(card: Live, chosen: Mapping[str, str],
                                 _criteria: tuple[Match, ...] = tuple(blanked_unless)) -> bool:
            return any(match(card, {}) for match in _criteria)
        unblanker = meets_blanked_unless
        for crit in rule["blanked_unless"]:
            attributes |= criterion_attributes(crit)
    return CompiledRule(for_each, different, withs, blanked_unless,
                        tuple(sorted(attributes)), list(rule.get("bonuses", [])), unblanker)


def compile_reads(compiled: CompiledRule, rule: Rule | None) -> None:
    """Fills in what a rule reads of a giving card (CompiledRule.atoms, .counted), which only
    the search needs."""
    rule = rule or {}
    read = [crit for bonus in rule.get("bonuses", []) for crit in _bonus_criteria(bonus)]
    if compiled.unblanker is not None:
        read += rule["blanked_unless"]
    leaves: dict[tuple[Any, Any], Rule] = {}
    for crit in read:
        criterion_leaves(crit, leaves)
    counted: set[str] = {b["attribute"] for b in rule.get("bonuses", [])
                         if b["kind"] == "for_each_different"}
    for bonus in rule.get("bonuses", []):
        for tier in bonus.get("tiers", [bonus] if bonus["kind"] == "with" else []):
            for req in tier["requires"]:
                counted |= {req[k] for k in ("distinct", "same") if k in req}
    compiled.atoms = tuple(compile_criterion(leaf) for leaf in leaves.values())
    compiled.counted = tuple(sorted(counted))


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


def _private_values(rule: CompiledRule, receiver: Live, givers: Sequence[Live]
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
                    points = next((if_chosen[v] for v in receiver.chosen.values() if v in if_chosen), points)
                if points > best or best_index is None:
                    best, best_index = points, index
        values.append(best)
        which.append(best_index)
    return values, which


def _tier_instances(rule: CompiledRule, receiver: Live, givers: Sequence[Live]
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
                    present = sorted({v for g in givers if req.match(g, receiver.chosen) for v in g.attrs[req.same]})
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
            settlement = _settle_givers(rule, receiver, [*givers[:i], *givers[i + 1:]])
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
            return max(_points_of_givers(rule, receiver, [*givers[:i], *givers[i + 1:]]) for i in keepers)
    return _points_of_givers(rule, receiver, givers)


FEW_LEAVES = 16  # fewer combinations than this are simply all tried: bounds would cost more
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
        values = [g.attrs[attribute] if (match(g, chosen) if match else bool(g.attrs[attribute]))
                  else () for g in givers]
        gains = sorted(((points - private[i], i) for i in range(len(givers))
                        if values[i] and points > private[i]), reverse=True)
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


def _least_given_up(met: list[MetTier], givers: Sequence[Live], private: list[int],
                    chosen: Mapping[str, str]) -> int | Literal[False] | None:
    """The least FOR EACH points given up by the cards filling these met requirements (False if
    they cannot be filled; None if their shape is left to the solver)."""
    needs = [(req, same_value) for _, _, tier, same_values in met
             for req, same_value in zip(tier.requirements, same_values, strict=True)]
    # (A requirement has a shared value only when it asks for one: `req.same` is then set.)
    matching = [[i for i, g in enumerate(givers) if req.match(g, chosen)
                 and (same_value is None or same_value in g.attrs[cast(str, req.same)])]
                for req, same_value in needs]
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
                rest = _different_values([givers[i].attrs[req.distinct] for i in range(len(givers))],
                                         rest, req.count)
            if len(rest) < req.count:
                continue
            lost += sum(private[i] for i in rest[:req.count])
        least = lost if least is None else min(least, lost)
    return False if least is None else least


def _different_values(values: Sequence[Iterable[str]], order: Sequence[int],
                      limit: int | None = None) -> list[int]:
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


def _augment(i: int, values: Sequence[Iterable[str]], owner: dict[str, int], seen: set[str]
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
        grants = [Grant(cast(int, private_bonus[i]), private[i], [g.name])
                  for i, g in enumerate(givers) if private_bonus[i] is not None and private[i] > 0]
        return Settlement(sum(private), grants)

    best: Settlement | None = None
    settlement: Settlement | None
    for combination in _tier_instances(rule, receiver, givers):
        met = [c for c in combination if c is not None]
        if not met and not rule.different:  # no WITH bonus met: each giver's own FOR EACH
            grants = [Grant(cast(int, private_bonus[i]), private[i], [g.name])
                      for i, g in enumerate(givers)
                      if private_bonus[i] is not None and private[i] > 0]
            grants.sort(key=lambda g: (g.bonus, g.value or "", g.giving))  # as _assign orders them
            settlement = Settlement(sum(private), grants)
        else:
            settlement = _assign(rule, receiver, givers, private, private_bonus, met)
        if settlement is not None and (best is None or settlement.points > best.points):
            best = settlement
    return best if best is not None else Settlement(0, [])


def _assign(rule: CompiledRule, receiver: Live, givers: Sequence[Live], private: list[int],
            private_bonus: list[int | None], met: list[MetTier]) -> Settlement | None:
    n = len(givers)
    chosen = receiver.chosen
    slot_accepts: list[list[int]] = []
    slot_weight: list[int] = []
    # ("with", bonus, tier, req, value) | ("different", bonus, value)
    slot_owner: list[tuple[Any, ...]] = []
    dummy_rows: list[list[int]] = []
    required = 0
    for index, tier_index, tier, same_values in met:
        for req_index, (req, same_value) in enumerate(zip(tier.requirements, same_values, strict=True)):
            # (A shared value comes with `req.same` set, as in _least_given_up.)
            matching = [i for i, g in enumerate(givers) if req.match(g, chosen)
                        and (same_value is None or same_value in g.attrs[cast(str, req.same)])]
            if len(matching) < req.count:
                return None
            if req.distinct:
                values = sorted({v for i in matching for v in givers[i].attrs[req.distinct]})
                if len(values) < req.count:
                    return None
                columns = []
                for value in values:
                    columns.append(len(slot_accepts))
                    slot_accepts.append([i for i in matching if value in givers[i].attrs[req.distinct]])
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
        matching = [i for i, g in enumerate(givers)
                    if (match(g, chosen) if match else bool(g.attrs[attribute]))]
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
            grants[("different", bonus, value)] = Grant(bonus, weight, [givers[r].name], value=value)
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


# --- A whole hand ----------------------------------------------------------------------------


@dataclass
class Evaluation:
    total: int
    points: dict[str, int]
    blanked: dict[str, str]  # name -> reason
    blank_rule: dict[str, str]
    settlements: dict[str, Settlement]
    copies: dict[str, str | None]  # copying card -> copied card
    changed: dict[str, tuple[str, str]]  # chooser -> (target, affiliation)
    assimilated: list[str]
    choices: dict[str, Choice]


class HandScorer:
    """Scores one hand: holds its compiled rules and a cache of settlements shared by every
    combination of choices tried."""

    def __init__(self, hand: Sequence[CardSpec], vocabulary: Mapping[str, Sequence[str]]) -> None:
        self.hand = list(hand)
        self.vocabulary = {key: list(values) for key, values in vocabulary.items()}
        self.rules = {spec.name: compile_rule(spec.rule) for spec in self.hand}
        self._literals_cache: dict[str, set[str]] | None = None
        self._counted_cache: set[str] | None = None
        # Values the fixed choices name (`best`): told apart like the values rules name.
        self.fixed_values: dict[str, set[str]] = {}
        self.by_name = {spec.name: spec for spec in self.hand}
        self.cache: dict[tuple[Any, ...], Settlement] = {}
        self.base = {
            spec.name: {key: frozenset(spec.attributes.get(key, ())) for key in ATTRIBUTES}
            for spec in self.hand
        }
        self.effects: dict[str, dict[str, dict[str, Any]]] = {
            spec.name: {e["kind"]: e for e in (spec.rule or {}).get("effects", [])} for spec in self.hand
        }
        self._choice_cards = [
            (spec, self.effects[spec.name][kind])
            for spec in self.hand
            for kind in CHOICE_EFFECTS
            if kind in self.effects[spec.name]
        ]
        self.by_number = sorted(self.hand, key=lambda spec: spec.number)
        # Cards blanked unless another card is present, checked in card-number order (STM-R3).
        self.conditional = [spec for spec in self.by_number if self.rules[spec.name].blanked_unless]
        self.printed = {spec.name: Live(spec, self.base[spec.name]) for spec in self.hand}
        self.assimilator = next(
            (spec.name for spec, effect in self._choice_cards if effect["kind"] == "assimilate"), None
        )
        self.counts_as: dict[str, tuple[dict[str, Any], list[Match]]] = {
            name: (effect, [compile_criterion(c) for c in effect["when"]])
            for name, kinds in self.effects.items()
            for kind, effect in kinds.items()
            if kind == "counts_as"
        }
        self.copy_of = {
            name: compile_criterion(kinds["copy_score"]["of"])
            for name, kinds in self.effects.items()
            if "copy_score" in kinds
        }
        self.change_target = {
            name: compile_criterion(kinds["change_affiliation"]["target"])
            for name, kinds in self.effects.items()
            if "change_affiliation" in kinds
        }
        self.wilds = {name for name, kinds in self.effects.items() if "wild" in kinds}
        # Cards whose choice only their own rule reads ("choose": Mysterious Plague).
        self.choosers_of = {spec.name for spec, effect in self._choice_cards
                            if effect["kind"] == "choose"}
        self.prepared = False  # the search's structures (`_prepare_search`)
        self.searched: dict[str, int] = {}  # what the last search did (bounds, evaluations)


    def _prepare_search(self) -> None:
        """What the search (and plain enumeration) needs, built once and only for hands with a
        choice to make."""
        if self.prepared:
            return
        self.prepared = True
        for spec in self.hand:
            compile_reads(self.rules[spec.name], spec.rule)
        # What the search needs: the cards whose attributes are chosen, each open attribute's
        # possible values, who Thought Maker may target, whom Borg Cube may blank.
        self.affiliations = frozenset(self.vocabulary.get("affiliation", []))
        self.open_values = {
            spec.name: {key: WildSet(effect["types"] if key == "type" else self.vocabulary.get(key, []))
                        for key in WILD_KEYS}
            for spec, effect in self._choice_cards if effect["kind"] == "wild"
        }
        self.change_targets = {
            name: [s.name for s in self.hand if s.name != name
                   and (match(Live(s), {}) or s.name in self.wilds)]
            for name, match in self.change_target.items()
        }
        assimilate = next((e for _, e in self._choice_cards if e["kind"] == "assimilate"), None)
        self.assimilate_max: int = assimilate["max"] if assimilate else 0
        self.assimilable = frozenset(
            s.name for s in self.hand
            if assimilate and s.name != self.assimilator
            and compile_criterion(assimilate["target"])(Live(s), {})
        )
        self.points_cache: dict[tuple[Any, ...], int] = {}
        # what a rule reads of a giving card -> an id
        self.signatures: dict[tuple[Any, ...], int] = {}
        self.printed_ids: dict[tuple[Any, ...], list[int]] = {}  # the unchanged cards' ids, sorted
        # (receiver, chosen, changed card, what it reads)
        self.signature_memo: dict[tuple[Any, ...], int] = {}
        # (receiver, chosen, card as printed)
        self.printed_signatures: dict[tuple[Any, ...], int] = {}
        self.quick_cache: dict[tuple[Any, ...], int] = {}
        # An open choice only its own rule reads: its best points, on the same key as
        # quick_cache's less the choice (`_best_chosen`).
        self.chooser_cache: dict[tuple[Any, ...], int] = {}
        self.may_copy_printed: dict[tuple[str, str], bool] = {}  # (copier, card as printed)
        self.scoring = frozenset(name for name, rule in self.rules.items() if rule.bonuses)
        # Attributes that decide which cards stand or what a card counts as: a choice setting one
        # re-places every card (sibling_totals).
        # (A conditional card has a rule: its BLANKED UNLESS.)
        placing = [c for spec in self.conditional for c in cast(Rule, spec.rule)["blanked_unless"]]
        placing += [c for effect, _ in self.counts_as.values() for c in effect["when"]]
        placing += [self.effects[n]["change_affiliation"]["target"] for n in self.change_target]
        self.structural: set[str] = set().union(
            *(criterion_attributes(c, by_value=True) for c in placing))
        self.singletons: dict[str, frozenset[str]] = {}
        # Cards whose choice ("choose") only their own rule reads, with the values worth trying.
        self.choosers = {spec.name: self.candidates(spec, effect)
                         for spec, effect in self._choice_cards if effect["kind"] == "choose"}

    # Choices ---------------------------------------------------------------------------------

    def choice_cards(self) -> list[tuple[CardSpec, dict[str, Any]]]:
        return self._choice_cards

    def _literals(self) -> dict[str, set[str]]:
        if self._literals_cache is None:
            self._literals_cache = self._find_literals()
        return self._literals_cache

    def _find_literals(self, with_exclusions: bool = True) -> dict[str, set[str]]:
        """Every value some rule of the hand names: in its criteria, the values a choice may not
        take (Mysterious Plague's exclusions) and the values a card counts as (Leah Brahms's
        Hologram). A value none of them names is told apart from another only by comparison."""
        literals: dict[str, set[str]] = {key: set() for key in ATTRIBUTES}
        for spec in self.hand:
            rule = spec.rule or {}
            for bonus in rule.get("bonuses", []):
                for crit in _bonus_criteria(bonus):
                    criterion_literals(crit, literals)
            for crit in rule.get("blanked_unless", []):
                criterion_literals(crit, literals)
            for effect in rule.get("effects", []):
                for key in ("target", "of"):
                    if key in effect:
                        criterion_literals(effect[key], literals)
                for crit in effect.get("when", []):
                    criterion_literals(crit, literals)
                if effect["kind"] == "choose" and with_exclusions:
                    literals[effect["attribute"]].update(effect.get("exclude", []))
                for key in ("set", "otherwise"):
                    for attribute, values in effect.get(key, {}).items():
                        literals[attribute].update(values)
        return literals

    def _counted_by_value(self) -> set[str]:
        """Attributes whose exact values are compared, beyond the literals: "different",
        "same" and "distinct" counts, a value a card chooses and others must carry (Mysterious
        Plague), and an affiliation Thought Maker must really change."""
        if self._counted_cache is None:
            self._counted_cache = self._find_counted_by_value()
        return self._counted_cache

    def _find_counted_by_value(self) -> set[str]:
        counted: set[str] = set()
        for spec in self.hand:
            for bonus in (spec.rule or {}).get("bonuses", []):
                if bonus["kind"] == "for_each_different":
                    counted.add(bonus["attribute"])
                for tier in bonus.get("tiers", [bonus] if bonus["kind"] == "with" else []):
                    for req in tier.get("requires", []):
                        counted |= {req[k] for k in ("distinct", "same") if k in req}
            for effect in (spec.rule or {}).get("effects", []):
                if effect["kind"] == "choose":
                    counted.add(effect["attribute"])
                if effect["kind"] == "change_affiliation":
                    counted.add("affiliation")
        return counted

    def candidate_values(self, attribute: str, allowed: Sequence[str] | None = None) -> list[str]:
        """The values worth trying for a chosen attribute, out of `allowed` (the vocabulary's
        values by default), exactly: plain enumeration of every allowed value finds no higher
        total (STM-R15).

        Why: a value that no rule of the hand names (`_literals`: criteria, exclusions, values
        a card counts as), nor a fixed choice (`fixed_values`), and, where values are compared (`_counted_by_value`), that no card
        prints, is told apart from another such value by nothing in the hand: swapping two of
        them in every choice changes no total. So among those "unnamed" values, only how many
        different ones the choices use matters, and at most one per card that sets or names
        the attribute (`_setters`): the first that many of them, in vocabulary order, stand for
        the rest. Every card takes them from the same list, so two cards may agree on an
        unnamed value (the Unidentified Ship as a Vulcan and Mysterious Plague naming Vulcan)
        or differ (the Ship's Affiliation and the one Thought Maker gives it). Where values are
        not compared, one stands for all."""
        vocabulary = self.vocabulary.get(attribute, [])
        wanted = set(self._literals().get(attribute, ())) | self.fixed_values.get(attribute, set())
        fresh_needed = 1
        if attribute in self._counted_by_value():
            for spec in self.hand:
                wanted |= set(spec.attributes.get(attribute, ()))
            fresh_needed = max(1, self._setters(attribute))
        universe = list(vocabulary if allowed is None else allowed)
        # (Every card that may take an unnamed value may take any of them: exclusions are named.)
        return ([v for v in universe if v in wanted]
                + [v for v in universe if v not in wanted][:fresh_needed])

    def _setters(self, attribute: str) -> int:
        """How many cards of the hand set or name this attribute by a choice."""
        kinds = {"wild": WILD_KEYS, "change_affiliation": ("affiliation",)}
        return sum(1 for _, effect in self._choice_cards
                   if attribute in kinds.get(effect["kind"], ())
                   or (effect["kind"] == "choose" and effect["attribute"] == attribute))

    def candidates(self, spec: CardSpec, effect: dict[str, Any]) -> list[Choice]:
        kind = effect["kind"]
        if kind == "wild":
            by_key = dict(self.wild_values(spec, effect))
            return [dict(zip(WILD_KEYS, combination, strict=True))
                    for combination in itertools.product(*(by_key[key] for key in WILD_KEYS))]
        if kind == "change_affiliation":
            match = compile_criterion(effect["target"])
            options: list[Choice] = [{}]
            for other in self.hand:
                if other.name == spec.name:
                    continue
                live = Live(other)
                # The Unidentified Ship's lifeform is itself a choice: it may be the target.
                if match(live, {}) or other.effect("wild") is not None:
                    # Changing a card to the affiliation it has is no change (and no bonus):
                    # the other values (its own is printed, so named: `candidate_values`).
                    current = set(other.attributes.get("affiliation", ()))
                    values = [v for v in self.candidate_values("affiliation") if {v} != current]
                    for affiliation in values:
                        options.append({"target": other.name, "affiliation": affiliation})
            return options
        if kind == "assimilate":
            match = compile_criterion(effect["target"])
            targets = [s.name for s in self.hand if s.name != spec.name and match(Live(s), {})]
            options = []
            for size in range(0, effect["max"] + 1):
                options.extend({"blank": list(c)} for c in itertools.combinations(targets, size))
            return options
        if kind == "choose":
            attribute = effect["attribute"]
            excluded = set(effect.get("exclude", []))
            values = self.candidate_values(
                attribute, [v for v in self.vocabulary.get(attribute, []) if v not in excluded])
            if not values:
                values = [v for v in self.vocabulary.get(attribute, []) if v not in excluded][:1]
            return [{attribute: v} for v in values]
        return [{}]  # copy_score: settled after scoring, not enumerated

    def check_choice(self, spec: CardSpec, effect: dict[str, Any], choice: object) -> Choice:
        """A fixed choice, checked against the rules and the hand (ChoiceError otherwise)."""
        path = f"choices[{spec.name!r}]"
        kind = effect["kind"]
        if not isinstance(choice, dict):
            raise ChoiceError(path, f"The choice for {spec.name} must be an object.")
        # ("choose" is read only for a choose effect, which names its attribute.)
        shapes = {"wild": {"type", "lifeform", "affiliation", "specialty"},
                  "change_affiliation": {"target", "affiliation"}, "assimilate": {"blank"},
                  "choose": {cast(str, effect.get("attribute"))}, "copy_score": {"copies"}}
        unknown = set(choice) - shapes[kind]
        if unknown:
            raise ChoiceError(f"{path}.{sorted(unknown)[0]}",
                              f"{spec.name} has no choice '{sorted(unknown)[0]}'; "
                              f"it takes {', '.join(sorted(shapes[kind]))}.")
        if kind == "wild":
            for key in ("type", "lifeform", "affiliation", "specialty"):
                if key not in choice:
                    raise ChoiceError(f"{path}.{key}", f"Choose the {key} of {spec.name}.")
                allowed = effect["types"] if key == "type" else self.vocabulary.get(key, [])
                if choice[key] not in allowed:
                    raise ChoiceError(f"{path}.{key}", f"{spec.name} cannot be {choice[key]!r}: "
                                      f"choose one of {', '.join(allowed)}.")
            return dict(choice)
        if kind == "change_affiliation":
            if not choice:
                return {}
            target, affiliation = choice.get("target"), choice.get("affiliation")
            if target not in self.by_name or target == spec.name:
                raise ChoiceError(f"{path}.target", f"{spec.name} must target another card in the "
                                  f"hand; {target!r} is not one.")
            target_spec = self.by_name[target]
            if not (compile_criterion(effect["target"])(Live(target_spec), {})
                    or "wild" in self.effects[target]):
                raise ChoiceError(f"{path}.target", f"{spec.name} cannot target {target}: it "
                                  "changes a card with a Lifeform.")
            if "wild" not in self.effects[target] and set(target_spec.attributes.get("affiliation", ())) == {affiliation}:
                raise ChoiceError(f"{path}.affiliation", f"{target} already has that Affiliation; "
                                  "choose another, or {} to make no change.")
            if affiliation not in self.vocabulary.get("affiliation", []):
                raise ChoiceError(f"{path}.affiliation", f"{affiliation!r} is not an affiliation; "
                                  f"choose one of {', '.join(self.vocabulary.get('affiliation', []))}.")
            return {"target": target, "affiliation": affiliation}
        if kind == "assimilate":
            blank = choice.get("blank", [])
            if not isinstance(blank, list) or len(blank) > effect["max"] or len(set(blank)) != len(blank):
                raise ChoiceError(f"{path}.blank", f"{spec.name} blanks up to {effect['max']} "
                                  "different cards.")
            match = compile_criterion(effect["target"])
            for index, name in enumerate(blank):
                if name not in self.by_name or name == spec.name or not match(Live(self.by_name[name]), {}):
                    raise ChoiceError(f"{path}.blank[{index}]", f"{spec.name} cannot blank {name!r}: "
                                      "it must be another card of the hand it may blank.")
            return {"blank": list(blank)}
        if kind == "choose":
            attribute = effect["attribute"]
            value = choice.get(attribute)
            allowed = [v for v in self.vocabulary.get(attribute, []) if v not in effect.get("exclude", [])]
            if value not in allowed:
                raise ChoiceError(f"{path}.{attribute}", f"{spec.name} cannot choose {value!r}: "
                                  f"choose one of {', '.join(allowed)}.")
            return {attribute: value}
        # copy_score: no card, or another card of the hand its criterion may accept (STM-R15:
        # a card the text does not allow is refused, never replaced by no card).
        copied = choice.get("copies")
        if copied is None:
            return {"copies": None}
        if not isinstance(copied, str) or copied not in self.by_name:
            raise ChoiceError(f"{path}.copies", f"{copied!r} is not in the hand.")
        wanted = phrase(effect["of"], self._labels())
        if copied == spec.name:
            raise ChoiceError(f"{path}.copies", f"{spec.name} cannot copy itself: it scores as "
                              f"another card that is a {wanted}.")
        if not self._may_meet(copied, compile_criterion(effect["of"])):
            raise ChoiceError(f"{path}.copies", f"{spec.name} cannot copy {copied}: it scores as "
                              f"a card that is a {wanted}, and {copied} is not one.")
        return {"copies": copied}

    def _labels(self) -> dict[str, dict[str, str]]:
        """Values as words for a refusal ('System', 'Klingon Empire'): the scorer has no labels."""
        return {key: {v: " ".join(w.capitalize() for w in v.split("-")) for v in values}
                for key, values in self.vocabulary.items()}

    def _may_meet(self, name: str, match: Match) -> bool:
        """Whether a card of the hand meets a criterion as printed, or (the Unidentified Ship)
        for some choice of its attributes."""
        spec = self.by_name[name]
        live = Live(spec)
        wild = self.effects[name].get("wild")
        if wild is not None:  # every value it may take, answered optimistically
            for key in WILD_KEYS:
                live.attrs[key] = WildSet(wild["types"] if key == "type"
                                          else self.vocabulary.get(key, []))
        return match(live, {})

    def check_together(self, decided: Mapping[str, Choice]) -> None:
        """Fixed choices that are allowed one by one but not together (STM-R15): Thought Maker
        giving the Unidentified Ship the Affiliation the Ship was fixed with (no change), and a
        copy of the Ship fixed as a card the copy may not take."""
        for name, choice in decided.items():
            target = choice.get("target") or choice.get("copies")
            if target not in self.wilds or target not in decided:
                continue
            ship = decided[target]
            path = f"choices[{name!r}]"
            if "target" in choice and ship.get("affiliation") == choice.get("affiliation"):
                raise ChoiceError(f"{path}.affiliation", f"{target} is fixed as "
                                  f"{ship['affiliation']}: {name} must change its Affiliation to "
                                  "another, or make no change ({}).")
            effect = self.effects[name].get("copy_score")
            if effect is not None and ship:
                live = Live(self.by_name[target])
                for key in WILD_KEYS:
                    live.attrs[key] = frozenset([ship[key]])
                if not compile_criterion(effect["of"])(live, {}):
                    raise ChoiceError(f"{path}.copies", f"{name} cannot copy {target} as fixed: it "
                                      f"scores as a card that is a {phrase(effect['of'], self._labels())}.")

    # Evaluation ------------------------------------------------------------------------------

    def evaluate(self, combination: Mapping[str, Choice], fixed_copies: Mapping[str, str | None]
                 ) -> Evaluation:
        # Cards keep their printed attributes unless a choice or a change below replaces their
        # Live with a fresh copy: the shared ones are never modified.
        lives = dict(self.printed)
        # 1. Choices (STM-R3): who is blanked by Borg Cube first, so a blanked card's own
        #    choice has no effect.
        assimilated: list[str] = []
        assimilator = None
        if self.assimilator is not None:
            assimilator = self.assimilator
            assimilated = list(combination[assimilator]["blank"])
        blanked: dict[str, str] = {n: f"blanked by {assimilator}" for n in assimilated}
        blank_rule = {n: "STM-R5" for n in assimilated}
        changed: dict[str, tuple[str, str]] = {}
        for spec, effect in self.choice_cards():
            if spec.name in blanked:
                continue
            choice = combination.get(spec.name, {})
            kind = effect["kind"]
            if kind == "wild":
                live = lives[spec.name] = Live(spec, self.base[spec.name])
                for key in ("type", "lifeform", "affiliation", "specialty"):
                    live.attrs[key] = frozenset([choice[key]])
            elif kind == "choose":
                live = lives[spec.name] = Live(spec, self.base[spec.name])
                live.chosen = dict(choice)
        for name, target_match in self.change_target.items():
            if name not in blanked:
                choice = combination.get(name, {})
                target = choice.get("target")
                if target and target not in blanked:
                    live = lives[target]
                    if target_match(live, {}) and live.attrs["affiliation"] != {choice["affiliation"]}:
                        live = lives[target] = _copy(live)
                        live.attrs["affiliation"] = frozenset([choice["affiliation"]])
                        changed[name] = (target, choice["affiliation"])
        # 2. BLANKED UNLESS, in card-number order, against the cards not blanked so far.
        for spec in self.conditional:
            rule = self.rules[spec.name]
            if spec.name in blanked:
                continue
            others = [lives[n] for n in lives if n != spec.name and n not in blanked]
            if not any(match(o, {}) for match in rule.blanked_unless for o in others):
                blanked[spec.name] = "blanked: none of the cards it needs is in the hand"
                blank_rule[spec.name] = "STM-7.4"
        # 3. Attribute changes that depend on the other cards (counts as …).
        standing = [n for n in lives if n not in blanked]
        for name, (effect, when) in self.counts_as.items():
            if name in lives and name not in blanked:
                others = [lives[n] for n in standing if n != name]
                present = any(match(o, {}) for match in when for o in others)
                live = lives[name] = _copy(lives[name])
                for key, values in (effect["set"] if present else effect["otherwise"]).items():
                    live.attrs[key] = frozenset(values)
        # 4. Every standing card scores from the other standing cards.
        points: dict[str, int] = {}
        settlements: dict[str, Settlement] = {}
        copiers = [n for n in standing if n in self.copy_of]
        # Cards whose attributes differ from their printed ones, for the settlement cache key.
        modified = [n for n in standing if lives[n] is not self.printed[n]]
        standing_key = frozenset(standing)
        for name in standing:
            if name in copiers:
                continue
            settlement = self._settle(lives[name], standing, lives, standing_key, modified)
            settlements[name] = settlement
            points[name] = settlement.points + (
                self.effects[name]["change_affiliation"]["points"] if name in changed else 0
            )
        # 5. Copies read the score of the card they copy (the best one unless fixed).
        copies: dict[str, str | None] = {}
        for name in copiers:
            match = self.copy_of[name]
            options = [n for n in standing if n != name and n not in copiers and match(lives[n], {})]
            if name in fixed_copies:
                target = fixed_copies[name]
                if target is not None and target not in options:
                    target = None  # the fixed card is blanked or does not qualify here
            else:
                target = max(options, key=lambda n: (points[n], -options.index(n)), default=None)
            copies[name] = target
            points[name] = points[target] if target else 0
        # 6. Cards Borg Cube blanked score what it scores (STM-R5).
        if assimilator is not None:  # (no Borg Cube, nobody assimilated)
            for name in assimilated:
                points[name] = points.get(assimilator, 0) if assimilator not in blanked else 0
        for name in lives:
            points.setdefault(name, 0)
        choices = {name: dict(choice) for name, choice in combination.items()}
        for name, target in copies.items():
            choices[name] = {"copies": target}
        return Evaluation(sum(points.values()), points, blanked, blank_rule, settlements, copies,
                          changed, assimilated, choices)

    def _settle(self, receiver: Live, standing: list[str], lives: dict[str, Live],
                standing_key: frozenset[str], modified: list[str]) -> Settlement:
        """A receiving card's settlement, cached: it depends only on which cards stand, and on
        the attributes (those its rule looks at) of the few cards changed from their printing."""
        rule = self.rules[receiver.name]
        if not rule.bonuses:
            return Settlement(0, [])
        key = (
            receiver.name,
            tuple(sorted(receiver.chosen.items())) if receiver.chosen else (),
            standing_key,
            tuple((n, tuple(lives[n].attrs[a] for a in rule.relevant)) for n in modified
                  if n != receiver.name),
        )
        settlement = self.cache.get(key)
        if settlement is None:
            givers = [lives[n] for n in standing if n != receiver.name]
            settlement = settle(rule, receiver, givers)
            self.cache[key] = settlement
        return settlement

    def best(self, fixed: Mapping[str, Choice]) -> Evaluation:
        """The combination of choices with the highest total (STM-R4), found exactly by a
        depth-first branch-and-bound search over the choices nobody fixed.

        What is searched: every value plain enumeration would try, less values that cannot be
        told apart (STM-R15). A value of a chosen attribute that no rule of the hand names (its
        criteria, Mysterious Plague's exclusions, what a card counts as) and, where values are
        compared, that no card prints, behaves like every other such value: one stand-in per
        card that may set or name the attribute, taken by every card from the same list
        (`candidate_values`), so two choices can agree on such a value or differ. A card Borg
        Cube blanks has its choice tried once: it changes nothing (STM-R13). Mysterious
        Plague's Lifeform, which only its own rule reads, is not searched: every total scores
        it at its best value, and the winner's is picked at the end (`_choose_last`).

        In what order: the hand's most telling choice first (`_order_dims`: the one that lowers
        the bound most on average, judged along the most promising path), each of the
        Ship's attributes placed on its own; within a choice its values in the order of its
        candidates; and at each level the branch with the highest bound first. This order is
        also the tie-break: the first best combination found is reported, a later one must score
        strictly more. Totals never depend on it; among equally good choices, which is reported
        may differ from one release to another.

        How: before a branch is entered its bound is computed (`score_points` with its open
        choices made optimistically, the Ship's open attributes any of the values it may still
        take, which no way of deciding them can beat); a branch that cannot beat the best total
        found is skipped. The first descent, down the highest bounds, is a greedy dive that
        finds a good total early. Sibling branches are bounded, and the last choice's values
        scored, together (`sibling_totals`). Settlements are cached on what each card's rule
        reads (`_points`), so a choice re-scores only the cards that read what it changes.
        Hands with few combinations are simply tried in full. The winner is then evaluated once
        more in full, for its explanation (`evaluate`). The tests hold the total to plain
        enumeration of every allowed value of every choice (tests/engines/stm_reference.py),
        which shares none of this code."""
        # A value a fixed choice names is told apart from the others (Mysterious Plague fixed
        # on Klingon with no Klingon in the hand: the Ship may be the Klingon it counts).
        self.fixed_values = {}
        for choice in fixed.values():
            if isinstance(choice, Mapping):
                for attribute in ATTRIBUTES:
                    if isinstance(choice.get(attribute), str):
                        self.fixed_values.setdefault(attribute, set()).add(choice[attribute])
        decided, dims, fixed_copies = self._search_space(fixed)
        # A choice only its own card's rule reads (Mysterious Plague's Lifeform) is not searched:
        # every total the search computes scores it at its best value, exactly (`_tally`), and
        # the winner's value is picked at the end (`_choose_last`).
        last = [dim for dim in dims if dim[0] in self.choosers_of]
        dims = [dim for dim in dims if dim[0] not in self.choosers_of]
        if not dims:  # nothing else to search
            self.searched = {"bounds": 0, "evaluations": 1, "pruned": 0}
            return self.evaluate(self._choose_last(decided, last, fixed_copies), fixed_copies)
        self._prepare_search()
        for name, key, values in dims:
            if name in self.wilds:
                # While the Ship's attribute is open, the bounds take it to be any of the values
                # the search tries (they stand for the rest), not any of the vocabulary.
                self.open_values[name][cast(str, key)] = WildSet(cast(list[str], values))
        # A choice with one value to try is no choice: decided up front.
        for name, key, values in dims:
            if key is not None and key != "target" and isinstance(values, list) and len(values) == 1 \
                    and name in self.wilds:
                decided[name] = {**decided.get(name, {}), key: values[0]}
        dims = [d for d in dims if not (d[0] in self.wilds and isinstance(d[2], list) and len(d[2]) == 1)]
        if not dims:
            self.searched = {"bounds": 0, "evaluations": 1, "pruned": 0}
            best = self.evaluate(decided, fixed_copies)
            if last:
                best = self.evaluate(self._choose_last(best.choices, last, fixed_copies), fixed_copies)
            return best
        bounded = _leaves(dims) > FEW_LEAVES
        if bounded:  # the most telling choices first (`_order_dims`)
            dims = self._order_dims(dims, decided, fixed_copies)
        search = _Search(self, dims, fixed_copies, bounded=bounded)
        best = search.run(decided)
        self.searched = search.counts
        if last:
            best = self.evaluate(self._choose_last(best.choices, last, fixed_copies), fixed_copies)
        return best

    def _choose_last(self, decided: Mapping[str, Choice], last: list[Dim],
                     fixed_copies: dict[str, str | None]) -> dict[str, Choice]:
        """The choices only their own card reads, each at its first best value (they do not
        touch one another)."""
        combination = {name: choice for name, choice in decided.items()
                       if "copies" not in choice or name in fixed_copies}
        for name, _, values in last:
            totals = [self.evaluate({**combination, name: value}, fixed_copies).total
                      for value in cast(list[Choice], values)]
            combination[name] = cast(list[Choice], values)[totals.index(max(totals))]
        return combination

    def _search_space(self, fixed: Mapping[str, Choice]
                      ) -> tuple[dict[str, Choice], list[Dim], dict[str, str | None]]:
        """Choices decided up front (fixed ones, and copies, settled after scoring) and the open
        dimensions in search order (see `best`): Borg Cube, Thought Maker, the Unidentified Ship,
        Mysterious Plague; each a list of values, or for Thought Maker's affiliation a list per
        target."""
        decided: dict[str, Choice] = {}
        dims: list[Dim] = []
        fixed_copies: dict[str, str | None] = {}
        for spec, effect in self.choice_cards():
            kind = effect["kind"]
            if spec.name in fixed:
                checked = self.check_choice(spec, effect, fixed[spec.name])
                if kind == "copy_score":
                    fixed_copies[spec.name] = checked["copies"]
                decided[spec.name] = checked
            elif kind == "copy_score":
                decided[spec.name] = {}
            elif kind == "assimilate":
                dims.insert(0, (spec.name, None, self.candidates(spec, effect)))
            elif kind == "wild":
                for key, values in self.wild_values(spec, effect):
                    dims.append((spec.name, key, values))
            elif kind == "change_affiliation":
                # Its target first (None: no change), then the new affiliation: the order of its
                # candidates, one card at a time.
                by_target: dict[str | None, list[Any]] = {None: [None]}
                for option in self.candidates(spec, effect)[1:]:
                    by_target.setdefault(option["target"], []).append(option["affiliation"])
                by_target = self._distinct_changes(by_target)
                dims.append((spec.name, "target", list(by_target)))
                dims.append((spec.name, "affiliation", by_target))
            else:
                dims.append((spec.name, None, self.candidates(spec, effect)))
        self.check_together(decided)
        order = {"assimilate": 0, "change_affiliation": 1, "wild": 2, "choose": 3}
        kinds = {spec.name: effect["kind"] for spec, effect in self.choice_cards()}
        dims.sort(key=lambda dim: order.get(kinds[dim[0]], 4))
        return decided, dims, fixed_copies

    def _distinct_changes(self, by_target: dict[str | None, list[Any]]
                          ) -> dict[str | None, list[Any]]:
        """Thought Maker's changes that the hand can tell apart, out of `by_target` (its
        affiliations per target; None: no change), exactly: a change left out scores as one
        kept.

        Why: a card's affiliation is read only by the simple tests the hand's criteria are made
        of (`_affiliation_reads`), and by value where the hand compares affiliations. A target
        printed as it stands (not the Unidentified Ship, not a card that counts as something)
        given two affiliations that pass the same tests is the same card to every rule: the
        same cards stand, give and score, and Thought Maker gets its points either way, so the
        first stands for the other. A change no test sees at all (a Vulcan civilian made
        Klingon where no rule reads a Klingon civilian) leaves the hand as printed plus Thought
        Maker's points: such changes on different targets are alike too, and better than no
        change, unless Borg Cube is in the hand (it may blank the target, which is then not
        changed, or Thought Maker): then each target, and no change, is kept. (The Meddlesome Q hands the benchmark's hunt found spent three quarters of
        their search on such changes.)"""
        tests, compared = self._affiliation_reads()
        if compared:
            return by_target
        kept: dict[str | None, list[Any]] = {}
        unseen: str | None = None  # the target of the first change no test sees
        for target, values in by_target.items():
            if target is None or target in self.wilds or target in self.counts_as:
                kept[target] = values
                continue
            spec = self.by_name[target]
            live = Live(spec)

            def seen(value: frozenset[str], live: Live = live) -> tuple[bool, ...]:
                live.attrs["affiliation"] = value
                return tuple(test(live, {}) for test in tests)

            printed = seen(frozenset(spec.attributes.get("affiliation", ())))
            classes: dict[tuple[bool, ...], Any] = {}
            for value in values:
                classes.setdefault(seen(frozenset([value])), value)
            if list(classes) == [printed] and self.assimilator is None:
                if unseen is None:
                    unseen = target
                    kept[target] = list(classes.values())
                continue
            kept[target] = list(classes.values())
        if unseen is not None:
            del kept[None]
        return kept

    def _undominated(self, attribute: str, values: list[str]) -> list[str]:
        """The Unidentified Ship's values for `attribute` worth trying, out of `values`
        (`candidate_values`), exactly: a value left out never scores more than the unnamed one
        kept.

        Why: where the hand compares this attribute only by "different" and "distinct" counts (no
        "same" count, no chosen value others must carry, no Thought Maker's real change), a value
        that no simple test of the hand's criteria names is kept in the candidates only because
        a card prints it. The Ship passes the same tests with it as with an unnamed value, and
        with the unnamed one, which no other card carries, every count of different values is
        at least as high: the unnamed value stands for it. (Commander Tomalak counting three
        Federation cards of different Specialties with Sarek's Ambassador and Troi's Counselor
        in the hand: the Ship as an Ambassador is never better than as an Archaeologist.)"""
        if attribute not in self._counted_by_value():
            return values
        tests, _ = self._affiliation_reads()
        named = set(self._literals().get(attribute, ()))
        unnamed = [v for v in values if v not in named
                   and not any(v in spec.attributes.get(attribute, ()) for spec in self.hand)]
        if not unnamed or not self._compared_only_by_count(attribute):
            return values
        live = Live(self.hand[0])
        seen: dict[str, tuple[bool, ...]] = {}
        for value in values:
            live.attrs[attribute] = frozenset([value])
            seen[value] = tuple(test(live, {}) for test in tests)
        stand_in = seen[unnamed[0]]
        return [v for v in values if v in named or v in unnamed or seen[v] != stand_in]

    def _excluded_only(self, attribute: str, values: list[str]) -> list[str]:
        """The Unidentified Ship's values for `attribute` worth trying, out of `values`, less
        those that only a choice's exclusions name, exactly: a value left out never scores more
        than a value nobody names that is kept.

        Why: a value v that every card choosing this attribute excludes (Mysterious Plague: not
        Hologram nor Android), that no other part of any rule names (criteria, what a card
        counts as, points for a chosen value) and that no card prints, and a value w that
        nothing names at all and no card prints: the Ship is the only card that can carry
        either, so every test, "different", "same" and "distinct" count answers alike with the
        Ship as v or as w; the one difference is that a choosing card may name w (and so count
        the Ship) and may never name v. Every way of deciding the other choices scores at least
        as much with the Ship as w: v is left out. (Mysterious Plague's hands tried the Ship as
        an Android and as a Hologram in every branch.)"""
        choosing = [(spec, effect) for spec, effect in self._choice_cards
                    if effect["kind"] == "choose" and effect["attribute"] == attribute]
        if not choosing:
            return values
        choosers = [effect for _, effect in choosing]
        named = (self._find_literals(with_exclusions=False).get(attribute, set())
                 | self.fixed_values.get(attribute, set()))
        for spec in self.hand:
            for bonus in (spec.rule or {}).get("bonuses", []):
                named = named | set(bonus.get("points_if_chosen") or {})
        printed = {v for spec in self.hand for v in spec.attributes.get(attribute, ())}
        excluded_by_all = set.intersection(*(set(e.get("exclude", [])) for e in choosers))
        excluded_by_any = set().union(*(set(e.get("exclude", [])) for e in choosers))
        chooser_values = [{c.get(attribute) for c in self.candidates(spec, effect)}
                          for spec, effect in choosing]
        stand_in = next((w for w in values if w not in named and w not in excluded_by_any
                         and w not in printed and all(w in vs for vs in chooser_values)), None)
        if stand_in is None:
            return values
        return [v for v in values if v == stand_in or v in named or v in printed
                or v not in excluded_by_all]

    def _compared_only_by_count(self, attribute: str) -> bool:
        """Whether the hand compares this attribute's values only by "different" and "distinct"
        counts (never "same", a chosen value or Thought Maker's real change)."""
        for spec in self.hand:
            rule = spec.rule or {}
            for effect in rule.get("effects", []):
                if effect["kind"] == "choose" and effect["attribute"] == attribute:
                    return False
                if effect["kind"] == "change_affiliation" and attribute == "affiliation":
                    return False
            for bonus in rule.get("bonuses", []):
                for tier in bonus.get("tiers", [bonus] if bonus["kind"] == "with" else []):
                    if any(req.get("same") == attribute for req in tier["requires"]):
                        return False
                for crit in _bonus_criteria(bonus):
                    leaves: dict[tuple[Any, Any], Rule] = {}
                    criterion_leaves(crit, leaves)
                    if ("chosen", attribute) in leaves:
                        return False
        return True

    def _affiliation_reads(self) -> tuple[list[Match], bool]:
        """The simple tests of the hand's criteria (bonuses, BLANKED UNLESS, counts-as
        conditions, whom a card may target, copy or blank), and whether the hand compares
        affiliations by value (a "different", "same" or "distinct" count, or a chosen value
        others must carry)."""
        leaves: dict[tuple[Any, Any], Rule] = {}
        compared = False
        for spec in self.hand:
            rule = spec.rule or {}
            criteria = [c for bonus in rule.get("bonuses", []) for c in _bonus_criteria(bonus)]
            criteria += list(rule.get("blanked_unless", []))
            for effect in rule.get("effects", []):
                criteria += [effect[k] for k in ("target", "of") if k in effect]
                criteria += list(effect.get("when", []))
                compared |= effect["kind"] == "choose" and effect["attribute"] == "affiliation"
                compared |= "affiliation" in {**effect.get("set", {}), **effect.get("otherwise", {})}
            for bonus in rule.get("bonuses", []):
                compared |= bonus["kind"] == "for_each_different" and bonus["attribute"] == "affiliation"
                for tier in bonus.get("tiers", [bonus] if bonus["kind"] == "with" else []):
                    compared |= any(req.get(k) == "affiliation" for req in tier["requires"]
                                    for k in ("distinct", "same"))
            for crit in criteria:
                criterion_leaves(crit, leaves)
        compared |= any(key == "chosen" and value == "affiliation" for key, value in leaves)
        return [compile_criterion(leaf) for leaf in leaves.values()], compared

    def _order_dims(self, dims: list[Dim], decided: dict[str, Choice],
                    fixed_copies: dict[str, str | None]) -> list[Dim]:
        """The open choices in the order that makes this hand's bounds tight soonest: the most
        telling first, where a choice's telling is the mean bound of the hand over its values
        (every other choice left open), the lowest first. Each of the Unidentified Ship's
        attributes is placed on its own; Thought Maker's target stays just before its
        affiliation. Equal ones keep `_search_space`'s
        order. Any order gives the same best total; only which of several equally good
        combinations is reported depends on it (the first found in this order).

        Why: the cost of the search is the number of branches whose bound is not beaten, and a
        choice that bounds the hand low, decided first, cuts the branches below it. A fixed
        order left the telling choice last on some hands: the hand issue 21 reported (Meddlesome
        Q, Enemies to Friends, the Ship, Thought Maker, Leah Brahms, Tractor Beam, Transporter,
        Ambassador Sarek, Lieutenant Commander Data), whose rules read the Ship's Type, had 5,000
        of its 7,500 combinations scored (100 ms); ordered, 10 (4 ms)."""

        def child(partial: dict[str, Choice], name: str, key: str | None, value: Any
                  ) -> dict[str, Choice]:
            if key is None:
                return {**partial, name: value}
            if key == "target":
                return {**partial, name: {"target": value} if value is not None else {}}
            return {**partial, name: {**partial.get(name, {}), key: value}}

        # Units placed as wholes: each of the Ship's attributes, Thought Maker's target with its
        # affiliation, every other choice.
        units: list[list[Dim]] = []
        for dim in dims:
            if dim[1] == "affiliation" and units and units[-1][0][0] == dim[0] \
                    and units[-1][0][1] == "target":
                units[-1].append(dim)
            else:
                units.append([dim])
        sizes = [_leaves(unit) for unit in units]
        # Greedily, along the dive's path: the unit that lowers the bound most on average comes
        # next (alike ones: the fewest values first), then the others are judged with it set to
        # its most promising value. (Per bit of branching, as before, left the Ship's Lifeform,
        # with eight values, after choices that told less on the hunt's slow hands.)
        partial = dict(decided)
        root = self.upper_bound(partial, fixed_copies)
        order: list[int] = []
        remaining = list(range(len(units)))
        while len(remaining) > 1:
            judged = []
            for i in remaining:
                name, key, values = units[i][0]
                assert not isinstance(values, dict)  # (a first dimension)
                children = [child(partial, name, key, v) for v in values]
                bounds = [self.upper_bound(c, fixed_copies) for c in children]
                telling = root - sum(bounds) / len(bounds)
                # The path goes on with the most promising value, but not one in which Borg
                # Cube blanks a card whose choice is still to be placed: that card's choice
                # would then tell nothing on the path and be placed last, where under every
                # other blanking it tells the most.
                later = {units[j][0][0] for j in remaining if j != i}
                keeps = [k for k, c in enumerate(children) if name != self.assimilator
                         or not later & set(c[name]["blank"])] or list(range(len(children)))
                top = max(keeps, key=lambda k: (bounds[k], -k))
                judged.append((-telling, sizes[i], i, bounds[top], children[top]))
            _, _, pick, root, partial = min(judged, key=lambda j: j[:3])
            order.append(pick)
            remaining.remove(pick)
        order += remaining
        return [dim for i in order for dim in units[i]]

    def wild_values(self, spec: CardSpec, effect: dict[str, Any]) -> list[tuple[str, list[str]]]:
        """The values worth trying for each attribute the Unidentified Ship chooses, in search
        order (specialty, lifeform, affiliation, type): `candidate_values` of each, its type
        out of the types the card allows."""
        values = {"type": self.candidate_values("type", effect["types"]),
                  **{key: self._excluded_only(key, self._undominated(key, self.candidate_values(key)))
                     for key in WILD_KEYS[1:]}}
        return [(key, values[key]) for key in ("specialty", "lifeform", "affiliation", "type")]

    # Fast scoring for the search: totals, exact or upper bounds ------------------------------

    def upper_bound(self, partial: Mapping[str, Choice], fixed_copies: dict[str, str | None]
                    ) -> int:
        """The most the hand can score over every way of deciding the choices `partial` leaves
        open; its exact total when it leaves none open (`score_points`)."""
        return self.score_points(partial, fixed_copies)[0]

    def score_points(self, partial: Mapping[str, Choice], fixed_copies: dict[str, str | None]
                     ) -> tuple[int, dict[str, int]]:
        """The hand's total and each card's points under `partial`: exactly what `evaluate`
        computes when every choice is decided (without the explanation), else upper bounds.

        A choice is open when its card is absent from `partial` (or, for the Unidentified
        Ship, an attribute is absent from its choice). The hand is then scored once with every
        open choice made optimistically, which can only raise each card's score: an open
        attribute is a WildSet of its possible values; an open Mysterious Plague choice, which
        only its own rule reads, scores its best value; an open Thought Maker gives its +5 and
        leaves every card it may target with any affiliation; a card that counts as one thing or
        another counts as both. Every card that may stand stands: a standing card only ever adds
        to the others' scores (their bonuses are maxima over more giving cards; BLANKED UNLESS
        and "other than the card keeping it" only find more cards). While Borg Cube's blanking is
        open, a Thought Maker it may blank may change nothing, so its target may keep its
        affiliation too; blanking a set S scores at most the others' bounds plus Borg Cube's
        bound for each card of S, so the best gains (Borg Cube's bound less the card's own), up
        to its maximum number of cards, are added."""
        if not self.prepared:
            self._prepare_search()
        world = self._world(partial)
        return self._tally(world, world.lives, world.bonus, partial, fixed_copies)

    def sibling_totals(self, children: list[dict[str, Choice]], name: str, key: str | None,
                       fixed_copies: dict[str, str | None]) -> list[int]:
        """`score_points(child)[0]` for sibling (partial) combinations that differ only in one
        choice, `name`'s (its part `key`): exact totals when every choice is decided, bounds
        otherwise. Where that choice cannot change which cards stand (no BLANKED UNLESS,
        counts-as condition or Thought Maker target reads the attribute it sets), the cards are
        placed once and only the changed card is replaced; the cards whose rules do not read it
        keep their cached points."""
        kind = next(iter(self.effects[name]), None)
        kind = next((k for k in ("wild", "change_affiliation", "choose") if k in self.effects[name]), kind)
        first = children[0]
        blank = (first.get(self.assimilator) or {}).get("blank", ()) if self.assimilator else ()
        plain = len(children) == 1 or name in blank or (
            kind == "wild" and (key in self.structural or (key == "affiliation" and any(
                (first.get(n) or {}).get("target") == name for n in self.change_target))))
        plain = plain or (kind == "change_affiliation" and (
            key != "affiliation" or "affiliation" in self.structural
            or any("affiliation" in {**e["set"], **e["otherwise"]} for e, _ in self.counts_as.values())))
        plain = plain or kind not in ("wild", "change_affiliation", "choose")
        plain = plain or (self.assimilator is not None and self.assimilator not in first)
        plain = plain or (kind == "change_affiliation" and "affiliation" not in first[name])
        plain = plain or (kind == "wild" and key not in first[name])
        if plain:
            return [self.score_points(child, fixed_copies)[0] for child in children]
        world = self._world(first)
        totals: list[int] = []
        if kind == "wild" or kind == "choose":
            base = world.lives[name]
            attribute = cast(str, key)  # what a wild card's dimension sets (unused for choose)
            for child in children:
                live = Live(base.spec, base.attrs)
                if kind == "wild":
                    live.attrs[attribute] = self._one(child[name][attribute])
                else:
                    live.chosen = dict(child[name])
                lives = dict(world.lives)
                lives[name] = live
                totals.append(self._tally(world, lives, world.bonus, child, fixed_copies)[0])
            return totals
        target = first[name]["target"]
        before = world.before_change.get(target)
        points = self.effects[name]["change_affiliation"]["points"]
        for child in children:
            lives, bonus = world.lives, world.bonus
            if before is not None:  # the target stands to be changed
                lives, bonus = dict(lives), dict(bonus)
                affiliation = self._one(child[name]["affiliation"])
                # The target as placed (what it counts as included), with this affiliation.
                live = lives[target] = _copy(lives[target])
                if self.change_target[name](before, {}) and before.attrs["affiliation"] != affiliation:
                    live.attrs["affiliation"] = affiliation
                    bonus[name] = points
                else:
                    live.attrs["affiliation"] = before.attrs["affiliation"]
                    bonus.pop(name, None)
            totals.append(self._tally(world, lives, bonus, child, fixed_copies)[0])
        return totals

    def _world(self, partial: Mapping[str, Choice]) -> _World:
        """The cards as they stand under `partial` (see `score_points`), before any scores."""
        lives = dict(self.printed)
        before_change: dict[str, Live] = {}
        assimilator = self.assimilator
        blank_choice = partial.get(assimilator) if assimilator is not None else None
        borg_open = assimilator is not None and blank_choice is None
        blanked = set(blank_choice["blank"]) if blank_choice else set()
        maybe_blanked = self.assimilable if borg_open else frozenset()
        is_open = borg_open
        bonus: dict[str, int] = {}
        for spec, effect in self._choice_cards:
            kind = effect["kind"]
            choice = partial.get(spec.name)
            # (An open "choose" changes what no other card reads: it leaves every card as it is.)
            if kind in ("wild", "change_affiliation") and (
                    choice is None or (kind == "wild" and len(choice) < len(WILD_KEYS))
                    or (kind == "change_affiliation" and "target" in choice and "affiliation" not in choice)):
                is_open = True
            if spec.name in blanked:
                continue
            if kind == "wild":
                choice = choice or {}
                live = lives[spec.name] = Live(spec, self.base[spec.name])
                for key in WILD_KEYS:
                    live.attrs[key] = (self._one(choice[key]) if key in choice
                                       else self.open_values[spec.name][key])
            elif kind == "choose" and choice is not None:
                live = lives[spec.name] = Live(spec, self.base[spec.name])
                live.chosen = dict(choice)
        target: str | None
        for name, target_match in self.change_target.items():
            if name in blanked:
                continue
            points = self.effects[name]["change_affiliation"]["points"]
            choice = partial.get(name)
            if choice is None:
                for target in self.change_targets[name]:
                    if target not in blanked and target_match(lives[target], {}):
                        live = lives[target] = _copy(lives[target])
                        live.attrs["affiliation"] = WildSet(self.affiliations | live.attrs["affiliation"])
                        bonus[name] = points
                continue
            target = choice.get("target")
            if target and target not in blanked and "affiliation" not in choice:
                # The target is decided, its new affiliation open.
                if target_match(lives[target], {}):
                    live = lives[target] = _copy(lives[target])
                    live.attrs["affiliation"] = WildSet(self.affiliations | live.attrs["affiliation"])
                    bonus[name] = points
            elif target and target not in blanked:
                live = before_change[target] = lives[target]
                affiliation = self._one(choice["affiliation"])
                if target_match(live, {}) and live.attrs["affiliation"] != affiliation:
                    live = lives[target] = _copy(live)
                    live.attrs["affiliation"] = (WildSet(affiliation | live.attrs["affiliation"])
                                                 if name in maybe_blanked else affiliation)
                    bonus[name] = points
        for spec in self.conditional:
            if spec.name in blanked:
                continue
            rule = self.rules[spec.name]
            others = [lives[n] for n in lives if n != spec.name and n not in blanked]
            if not any(match(o, {}) for match in rule.blanked_unless for o in others):
                blanked.add(spec.name)
        standing = [n for n in lives if n not in blanked]
        for name, (effect, when) in self.counts_as.items():
            if name in lives and name not in blanked:
                live = lives[name] = _copy(lives[name])
                other_names = [n for n in standing if n != name]
                present = any(match(lives[n], {}) for match in when for n in other_names)
                if present and is_open:
                    # Certain only if a card that surely stands, as printed, meets it.
                    present = any(match(lives[n], {}) for match in when for n in other_names
                                  if lives[n] is self.printed[n] and n not in maybe_blanked
                                  and not self.rules[n].blanked_unless)
                    if not present:
                        for key in set(effect["set"]) | set(effect["otherwise"]):
                            live.attrs[key] = WildSet(effect["set"].get(key, []) +
                                                      effect["otherwise"].get(key, []))
                        continue
                for key, values in (effect["set"] if present else effect["otherwise"]).items():
                    live.attrs[key] = frozenset(values)
                if live.attrs == self.printed[name].attrs:
                    lives[name] = self.printed[name]  # as printed: unchanged for every cache
        return _World(lives, standing, bonus, blank_choice, borg_open, before_change)

    def _tally(self, world: _World, lives: dict[str, Live], bonus: dict[str, int],
               partial: Mapping[str, Choice], fixed_copies: dict[str, str | None]
               ) -> tuple[int, dict[str, int]]:
        """Every standing card's points, and the total, in a world (`_world`)."""
        standing, blank_choice, borg_open = world.standing, world.blank_choice, world.borg_open
        assimilator = self.assimilator
        points: dict[str, int] = {}
        copiers = [n for n in standing if n in self.copy_of]
        printed = self.printed
        modified = tuple(n for n in standing if lives[n] is not printed[n])
        context: _Context = (frozenset(standing), standing, lives, modified, {})
        scoring = self.scoring
        for name in standing:
            if name in copiers:
                continue
            if name not in scoring:  # no bonuses of its own
                points[name] = bonus.get(name, 0)
                continue
            if name in self.choosers and name not in partial:
                # An open choice read only by its own card's rule: its best value, exactly.
                points[name] = self._best_chosen(lives[name], context) + bonus.get(name, 0)
            else:
                points[name] = self._points(lives[name], context) + bonus.get(name, 0)
        for name in copiers:
            match = self.copy_of[name]
            # (Whether a card as printed may be copied is asked once: printed Lives never change.)
            may_copy = self.may_copy_printed
            options = []
            for n in standing:
                if n == name or n in copiers:
                    continue
                live = lives[n]
                if live is printed[n]:
                    ok = may_copy.get((name, n))
                    if ok is None:
                        ok = may_copy[(name, n)] = match(live, {})
                else:
                    ok = match(live, {})
                if ok:
                    options.append(n)
            if name in fixed_copies:
                options = [n for n in options if n == fixed_copies[name]]
            points[name] = max((points[n] for n in options), default=0)
        total = sum(points.values())
        if assimilator in points:
            if borg_open:
                gains = sorted((points[assimilator] - points.get(n, 0) for n in self.assimilable),
                               reverse=True)
                total += sum(g for g in gains[:self.assimilate_max] if g > 0)
            else:  # (Borg Cube's blanking is decided: blank_choice is set)
                for name in cast(Choice, blank_choice)["blank"]:
                    points[name] = points[assimilator]
                    total += points[assimilator]
        return total, points

    def _best_chosen(self, receiver: Live, context: _Context) -> int:
        """A card's points at the best value of its open choice (`choosers`), cached on what
        `_points` keys each value on, less the value: the standing cards, those changed and
        what the card's rule reads of them."""
        rule = self.rules[receiver.name]
        standing_key, _, lives, modified, projections = context
        projection = projections.get(rule.relevant)
        if projection is None:
            projection = projections[rule.relevant] = tuple(
                [lives[n].attrs[a] for n in modified for a in rule.relevant])
        key = (receiver.name, standing_key, modified, projection)
        best = self.chooser_cache.get(key)
        if best is None:
            best = 0
            for chosen in self.choosers[receiver.name]:
                live = Live(receiver.spec, receiver.attrs)
                live.chosen = chosen
                best = max(best, self._points(live, context))
            self.chooser_cache[key] = best
        return best

    def _points(self, receiver: Live, context: _Context) -> int:
        """A receiving card's points from the standing cards. Cached twice: on the attributes its
        rule reads of the cards changed from their printing (quick to look up), and on what its
        rule reads of every giving card (CompiledRule.atoms and .counted), which is all its
        points depend on, whichever card is which: giving cards alike to this rule, and choices
        it cannot tell apart, share one settlement."""
        rule = self.rules[receiver.name]
        if not rule.bonuses:
            return 0
        standing_key, standing, lives, modified, projections = context
        name, chosen = receiver.name, receiver.chosen
        chosen_key = tuple(chosen.items()) if chosen else ()
        # What this rule reads of the changed cards (its own attributes too: harmless), shared by
        # the rules that read the same attributes.
        projection = projections.get(rule.relevant)
        if projection is None:
            projection = projections[rule.relevant] = tuple(
                [lives[n].attrs[a] for n in modified for a in rule.relevant])
        quick = (name, chosen_key, standing_key, modified, projection)
        points = self.quick_cache.get(quick)
        if points is not None:
            return points
        base_key = (name, chosen_key, standing_key, modified)
        ids = self.printed_ids.get(base_key)
        if ids is None:
            memo = self.printed_signatures
            ids = []
            for n in standing:
                if n != name and n not in modified:
                    found = memo.get((name, chosen_key, n))
                    if found is None:
                        found = memo[(name, chosen_key, n)] = self._signature(rule, lives[n], chosen)
                    ids.append(found)
            ids.sort()
            self.printed_ids[base_key] = ids
        if modified:
            memo = self.signature_memo
            extra = []
            for n in modified:
                if n != name:
                    giver = lives[n]
                    memo_key = (name, chosen_key, n, tuple([giver.attrs[a] for a in rule.relevant]))
                    found = memo.get(memo_key)
                    if found is None:
                        found = memo[memo_key] = self._signature(rule, giver, chosen)
                    extra.append(found)
            ids = sorted(ids + extra)
        key = (name, chosen_key, tuple(ids))
        points = self.points_cache.get(key)
        if points is None:
            givers = [lives[n] for n in standing if n != name]
            points = self.points_cache[key] = settle_points(rule, receiver, givers)
        self.quick_cache[quick] = points
        return points

    def _one(self, value: str) -> frozenset[str]:
        """The one-value set of a chosen value, shared (its hash is computed once)."""
        one = self.singletons.get(value)
        if one is None:
            one = self.singletons[value] = frozenset([value])
        return one

    def _signature(self, rule: CompiledRule, giver: Live, chosen: Mapping[str, str]) -> int:
        """What a rule reads of a giving card, as a number shared by every card alike to it."""
        attrs = giver.attrs
        signature = (tuple(atom(giver, chosen) for atom in rule.atoms),
                     tuple(attrs[a] for a in rule.counted))
        return self.signatures.setdefault(signature, len(self.signatures))


@dataclass
class _World:
    lives: dict[str, Live]
    standing: list[str]
    bonus: dict[str, int]  # Thought Maker's points for its change
    blank_choice: Choice | None
    borg_open: bool
    before_change: dict[str, Live]  # a Thought Maker's target as it stood before the change


# What _points reads of one tally: the standing cards (as a set, and in order), the cards as they
# stand, those changed from their printing, and what each rule's relevant attributes read of them
# (filled in as the rules ask).
_Context = tuple[frozenset[str], list[str], dict[str, Live], tuple[str, ...],
                 dict[tuple[str, ...], tuple[frozenset[str], ...]]]


def _leaves(dims: list[Dim]) -> int:
    """How many combinations the dimensions hold."""
    size = 1
    for _, key, values in dims:
        if key != "target":  # a Thought Maker's targets are counted with their affiliations
            size *= sum(map(len, values.values())) if isinstance(values, dict) else len(values)
    return size


class _Search:
    """Depth-first branch and bound over the open choices of one hand (HandScorer.best).

    `dims` are the open choices in search order: (card, part of its choice or None, values).
    A partial combination maps each card to its choice so far; a card absent from it, or a
    part absent from its choice, is open."""

    def __init__(self, scorer: HandScorer, dims: list[Dim], fixed_copies: dict[str, str | None],
                 bounded: bool = True):
        self.bounded = bounded
        self.scorer = scorer
        self.dims = dims
        self.fixed_copies = fixed_copies
        self.best_total: int | None = None
        self.best_combination: dict[str, Choice] | None = None
        self.bounds: dict[tuple[Any, ...], int] = {}
        self.scored: set[tuple[Any, ...]] = set()  # the parents of the sibling sets scored
        self.counts = {"bounds": 0, "evaluations": 0, "pruned": 0}

    def run(self, decided: dict[str, Choice]) -> Evaluation:
        # (Its first descent, the branch with the highest bound at each level, is a greedy dive:
        # a good total found first, below which every branch is skipped.)
        if self.bounded and len(self.dims) > 2:
            # A dive down each first-level branch, the most promising first, before the full
            # search: a good total found in every branch early prunes the others' subtrees
            # sooner (their bounds are kept for the search).
            children = [self._child(decided, 0, value) for value in self._values(0, decided)]
            bounds = self._child_bounds(0, children)
            for i in sorted(range(len(children)), key=lambda i: -bounds[i]):
                if not self._beaten(bounds[i]):
                    self._dive(1, children[i])
        self._visit(0, decided)
        assert self.best_combination is not None
        # The winner's explanation: one full evaluation (an Unidentified Ship's choice in its
        # usual order: type, lifeform, affiliation, specialty).
        best = {name: ({key: choice[key] for key in WILD_KEYS} if name in self.scorer.wilds
                       and len(choice) == len(WILD_KEYS) else choice)
                for name, choice in self.best_combination.items()}
        return self.scorer.evaluate(best, self.fixed_copies)

    def _values(self, level: int, partial: dict[str, Choice]) -> list[Any]:
        name, _, values = self.dims[level]
        scorer = self.scorer
        if scorer.assimilator in partial and name in partial[scorer.assimilator]["blank"]:
            # Blanked, its choice changes nothing (STM-R13): the first value stands for all.
            return (values[partial[name].get("target")][:1] if isinstance(values, dict)
                    else values[:1])
        # A Thought Maker's affiliations depend on its target.
        return values[partial[name].get("target")] if isinstance(values, dict) else values

    def _child(self, partial: dict[str, Choice], level: int, value: Any) -> dict[str, Choice]:
        name, key, _ = self.dims[level]
        child = dict(partial)
        if key is None:
            child[name] = value
        elif value is not None:
            child[name] = {**partial.get(name, {}), key: value}
        else:
            child[name] = {}  # Thought Maker changes nothing
        return child

    @staticmethod
    def _key(partial: dict[str, Choice]) -> tuple[Any, ...]:
        return tuple((n, tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in c.items()))
                     for n, c in partial.items())

    def _beaten(self, bound: int) -> bool:
        """Whether a branch bounded by `bound` cannot hold a new best: it cannot beat the best
        total found."""
        self.counts["bounds"] += 1
        if self.best_total is not None and bound <= self.best_total:
            self.counts["pruned"] += 1
            return True
        return False

    def _child_bounds(self, level: int, children: list[dict[str, Choice]]) -> list[int]:
        """The bounds of sibling branches, computed together (`sibling_totals`), remembered."""
        keys = [self._key(child) for child in children]
        missing = [i for i, key in enumerate(keys) if key not in self.bounds]
        if missing:
            name, key, _ = self.dims[level]
            totals = self.scorer.sibling_totals([children[i] for i in missing], name, key,
                                                self.fixed_copies)
            for i, total in zip(missing, totals, strict=True):
                self.bounds[keys[i]] = total
        return [self.bounds[key] for key in keys]

    def _visit(self, level: int, partial: dict[str, Choice]) -> None:
        children = [self._child(partial, level, value) for value in self._values(level, partial)]
        if level + 1 == len(self.dims):
            self._leaves(level, children, partial)
            return
        if not self.bounded:
            for child in children:
                self._visit(level + 1, child)
            return
        # The most promising branch first (the highest bound; equal ones in order): a high
        # total found early cuts more of the rest.
        bounds = self._child_bounds(level, children)
        for i in sorted(range(len(children)), key=lambda i: -bounds[i]):
            if not self._beaten(bounds[i]):
                self._visit(level + 1, children[i])

    def _dive(self, level: int, partial: dict[str, Choice]) -> None:
        """Down the branch with the highest bound at each level, to one set of sibling
        combinations (`_leaves`), unless its bound cannot beat the best total found."""
        children = [self._child(partial, level, value) for value in self._values(level, partial)]
        if level + 1 == len(self.dims):
            self._leaves(level, children, partial)
            return
        bounds = self._child_bounds(level, children)
        top = max(range(len(children)), key=lambda i: (bounds[i], -i))
        if not self._beaten(bounds[top]):
            self._dive(level + 1, children[top])

    def _leaves(self, level: int, children: list[dict[str, Choice]], partial: dict[str, Choice]
                ) -> None:
        """Sibling combinations with every choice decided, in order: the first best one wins.
        Each set of siblings is scored once (a dive may have scored it before the search)."""
        done = self._key(partial)
        if done in self.scored:
            return
        self.scored.add(done)
        name, key, _ = self.dims[level]
        self.counts["evaluations"] += len(children)
        totals = self.scorer.sibling_totals(children, name, key, self.fixed_copies)
        for total, child in zip(totals, children, strict=True):
            if self.best_total is None or total > self.best_total:
                self.best_total, self.best_combination = total, child


def _bonus_criteria(bonus: Rule) -> list[Rule]:
    if bonus["kind"] in ("for_each",):
        return [bonus["match"]]
    if bonus["kind"] == "for_each_different":
        return [bonus["match"]] if "match" in bonus else []
    tiers = bonus["tiers"] if bonus["kind"] == "tiers" else [bonus]
    return [req["match"] for tier in tiers for req in tier["requires"]]
