"""How the Star Trek: Missions scorer reads a card's rule (plain Python, no Django import): a card
of the hand as given (`CardSpec`) and as it stands during one evaluation (`Live`), and each rule
compiled once into the tests the scorer runs (`compile_rule`, `compile_criterion`): which cards a
bonus counts, what a card needs not to be blanked, and which attributes a rule reads (for the
caches of the evaluation and of the search, `compile_reads`).

The rule language itself (what a rule may say, how it is checked and written as card text) is
language.py's; settling a card's bonuses is bonuses.py's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .language import ATTRIBUTES, UNBLANKER_KEY

WILD_KEYS = ("type", "lifeform", "affiliation", "specialty")  # what the Unidentified Ship chooses

# A card's rule and its parts as stored (JSON objects, checked by language.validate_rule), and a
# player's choice for one card ({"type": …}, {"target": …, "affiliation": …}, {"blank": […]}, …).
Rule = Mapping[str, Any]
Choice = dict[str, Any]


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


# --- A card of the hand --------------------------------------------------------------------


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


# --- Compiled rules --------------------------------------------------------------------------


class Live:
    """One card as it stands during one evaluation: attributes after choices and changes."""

    __slots__ = ("spec", "name", "deck", "attrs", "chosen")

    def __init__(self, spec: CardSpec, base: dict[str, frozenset[str]] | None = None) -> None:
        self.spec = spec
        self.name = spec.name
        self.deck = spec.deck
        self.attrs = (
            dict(base)
            if base is not None
            else {key: frozenset(spec.attributes.get(key, ())) for key in ATTRIBUTES}
        )
        self.chosen: dict[str, str] = {}


# A compiled criterion: does this card (as it stands) meet it, given the receiving card's choices
# (its `chosen` values)?
Match = Callable[[Live, Mapping[str, str]], bool]


def copy_live(live: Live) -> Live:
    copy = Live(live.spec, live.attrs)
    copy.chosen = live.chosen
    return copy


def compile_criterion(crit: Rule) -> Match:
    ((key, value),) = crit.items()
    if key == "name":
        return lambda card, chosen: card.name == value
    if key == "deck":
        return lambda card, chosen: card.deck == value
    if key in ATTRIBUTES:
        return lambda card, chosen: value in card.attrs[key]
    if key == "has":
        return lambda card, chosen: bool(card.attrs[value])
    if key == "non":
        ((attribute, literal),) = value.items()

        def non(card: Live, chosen: Mapping[str, str]) -> bool:
            values = card.attrs[attribute]
            return bool(values) and (
                literal not in values or (type(values) is WildSet and len(values) > 1)
            )

        return non
    if key == "chosen":
        return lambda card, chosen: (
            chosen.get(value) is not None and chosen[value] in card.attrs[value]
        )
    parts = [compile_criterion(c) for c in value]
    if key == "all":
        return lambda card, chosen: all(part(card, chosen) for part in parts)
    return lambda card, chosen: any(part(card, chosen) for part in parts)


def criterion_attributes(crit: Rule, by_value: bool = False) -> set[str]:
    """The attributes a criterion reads; with `by_value`, only those whose value it reads (not
    "has", which a chosen attribute always passes)."""
    ((key, value),) = crit.items()
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
    ((key, value),) = crit.items()
    if key in ATTRIBUTES:
        into[key].add(value)
    elif key == "non":
        ((attribute, literal),) = value.items()
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
    ((key, value),) = crit.items()
    if key in ("all", "any"):
        for part in value:
            criterion_leaves(part, into)
    else:
        into.setdefault(
            (key, tuple(sorted(value.items())) if isinstance(value, Mapping) else value), crit
        )


def _requirement(req: Rule) -> Requirement:
    return Requirement(
        compile_criterion(req["match"]),
        req.get("count", 1),
        req.get("distinct"),
        req.get("same"),
        dict(req),
    )


def compile_rule(rule: Rule | None) -> CompiledRule:
    rule = rule or {}
    for_each: list[tuple[int, int, Match, dict[str, int]]] = []
    different: list[tuple[int, int, str, Match | None]] = []
    withs: list[tuple[int, list[Tier]]] = []
    attributes: set[str] = set()
    for index, bonus in enumerate(rule.get("bonuses", [])):
        kind = bonus["kind"]
        if kind == "for_each":
            for_each.append(
                (
                    index,
                    bonus["points"],
                    compile_criterion(bonus["match"]),
                    bonus.get("points_if_chosen") or {},
                )
            )
            attributes |= criterion_attributes(bonus["match"])
        elif kind == "for_each_different":
            match = bonus.get("match")
            different.append(
                (
                    index,
                    bonus["points"],
                    bonus["attribute"],
                    compile_criterion(match) if match else None,
                )
            )
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

        def meets_blanked_unless(
            card: Live,
            chosen: Mapping[str, str],
            _criteria: tuple[Match, ...] = tuple(blanked_unless),
        ) -> bool:
            return any(match(card, {}) for match in _criteria)

        unblanker = meets_blanked_unless
        for crit in rule["blanked_unless"]:
            attributes |= criterion_attributes(crit)
    return CompiledRule(
        for_each,
        different,
        withs,
        blanked_unless,
        tuple(sorted(attributes)),
        list(rule.get("bonuses", [])),
        unblanker,
    )


def compile_reads(compiled: CompiledRule, rule: Rule | None) -> None:
    """Fills in what a rule reads of a giving card (CompiledRule.atoms, .counted), which only
    the search needs."""
    rule = rule or {}
    read = [crit for bonus in rule.get("bonuses", []) for crit in bonus_criteria(bonus)]
    if compiled.unblanker is not None:
        read += rule["blanked_unless"]
    leaves: dict[tuple[Any, Any], Rule] = {}
    for crit in read:
        criterion_leaves(crit, leaves)
    counted: set[str] = {
        b["attribute"] for b in rule.get("bonuses", []) if b["kind"] == "for_each_different"
    }
    for bonus in rule.get("bonuses", []):
        for tier in bonus.get("tiers", [bonus] if bonus["kind"] == "with" else []):
            for req in tier["requires"]:
                counted |= {req[k] for k in ("distinct", "same") if k in req}
    compiled.atoms = tuple(compile_criterion(leaf) for leaf in leaves.values())
    compiled.counted = tuple(sorted(counted))


def bonus_criteria(bonus: Rule) -> list[Rule]:
    if bonus["kind"] in ("for_each",):
        return [bonus["match"]]
    if bonus["kind"] == "for_each_different":
        return [bonus["match"]] if "match" in bonus else []
    tiers = bonus["tiers"] if bonus["kind"] == "tiers" else [bonus]
    return [req["match"] for tier in tiers for req in tier["requires"]]
