"""Scores a final hand of Star Trek: Missions from the cards' rules (plain Python, no Django).

Order (STM-R3): the players' choices, then blanking (Borg Cube's, then BLANKED UNLESS in card-number
order against the cards not blanked), then attribute changes (counts as …), then every card that is
not blanked scores. A card never counts towards its own bonus, and a giving card grants one bonus
at most to each receiving card (STM-7.3, STM-R1): each receiving card's bonuses are settled by an
exact maximum-weight assignment of the giving cards, never greedily. "Different" counts are the
largest number of values that can be assigned one per card (STM-R2). Choices nobody fixed are the
ones that give the highest total (STM-R4).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import linear_sum_assignment

from .language import ATTRIBUTES, CHOICE_EFFECTS, UNBLANKER_KEY

REQUIRED = 1_000_000  # weight of a slot that must be filled; far above any hand's points
FORBIDDEN = -1_000_000_000


# --- Input and output ------------------------------------------------------------------------


@dataclass(frozen=True)
class CardSpec:
    name: str
    number: str
    deck: str  # "galaxy" | "mission"
    attributes: Mapping[str, tuple[str, ...]]  # type, specialty, lifeform, affiliation
    rule: Mapping | None

    def effect(self, kind: str) -> dict | None:
        for effect in (self.rule or {}).get("effects", []):
            if effect.get("kind") == kind:
                return effect
        return None


@dataclass
class Step:
    n: int
    rule: str
    card: str
    giving: list[str]
    detail: str
    points: int
    running_total: int


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
    choices: dict[str, dict]
    warnings: list[str] = field(default_factory=list)


class ChoiceError(ValueError):
    """A choice the player fixed that the rules or the hand do not allow."""

    def __init__(self, path: str, detail: str):
        super().__init__(detail)
        self.path = path
        self.detail = detail


# --- Compiled rules --------------------------------------------------------------------------


class Live:
    """One card as it stands during one evaluation: attributes after choices and changes."""

    __slots__ = ("spec", "name", "deck", "attrs", "chosen")

    def __init__(self, spec: CardSpec, base: dict[str, frozenset] | None = None):
        self.spec = spec
        self.name = spec.name
        self.deck = spec.deck
        self.attrs = dict(base) if base is not None else {
            key: frozenset(spec.attributes.get(key, ())) for key in ATTRIBUTES
        }
        self.chosen: dict[str, str] = {}


def _copy(live: Live) -> Live:
    copy = Live(live.spec, live.attrs)
    copy.chosen = live.chosen
    return copy


def compile_criterion(crit: Mapping):
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
        return lambda card, chosen: bool(card.attrs[attribute]) and literal not in card.attrs[attribute]
    if key == "chosen":
        return lambda card, chosen: chosen.get(value) is not None and chosen[value] in card.attrs[value]
    parts = [compile_criterion(c) for c in value]
    if key == "all":
        return lambda card, chosen: all(part(card, chosen) for part in parts)
    return lambda card, chosen: any(part(card, chosen) for part in parts)


def criterion_attributes(crit: Mapping) -> set[str]:
    (key, value), = crit.items()
    if key in ATTRIBUTES:
        return {key}
    if key in ("has", "chosen"):
        return {value}
    if key == "non":
        return set(value)
    if key in ("all", "any"):
        return set().union(*(criterion_attributes(c) for c in value))
    return set()


def criterion_literals(crit: Mapping, into: dict[str, set[str]]) -> None:
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
    match: object
    count: int
    distinct: str | None
    same: str | None
    source: dict


@dataclass
class Tier:
    points: int
    requirements: list[Requirement]


@dataclass
class CompiledRule:
    for_each: list[tuple[int, int, object, dict]]  # (bonus index, points, match, points_if_chosen)
    different: list[tuple[int, int, str, object | None]]  # (bonus index, points, attribute, match)
    withs: list[tuple[int, list[Tier]]]  # (bonus index, tiers)
    blanked_unless: list[object]
    relevant: tuple[str, ...]  # attributes the rule looks at (for caching)
    bonuses: list[dict]
    # STM-R10: whether a card meeting blanked_unless qualifies as the one card left out of the
    # bonuses (None: every other card counts).
    unblanker: object | None = None


def _requirement(req: Mapping) -> Requirement:
    return Requirement(compile_criterion(req["match"]), req.get("count", 1), req.get("distinct"),
                       req.get("same"), dict(req))


def compile_rule(rule: Mapping | None) -> CompiledRule:
    rule = rule or {}
    for_each, different, withs = [], [], []
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
            compiled = []
            for tier in tiers:
                reqs = [_requirement(r) for r in tier["requires"]]
                for req in tier["requires"]:
                    attributes |= criterion_attributes(req["match"])
                    attributes |= {req[k] for k in ("distinct", "same") if k in req}
                compiled.append(Tier(tier["points"], reqs))
            withs.append((index, compiled))
    blanked_unless = [compile_criterion(c) for c in rule.get("blanked_unless", [])]
    unblanker = None
    if rule.get(UNBLANKER_KEY) and blanked_unless:
        def unblanker(card, chosen, _criteria=tuple(blanked_unless)):
            return any(match(card, {}) for match in _criteria)
        for crit in rule["blanked_unless"]:
            attributes |= criterion_attributes(crit)
    return CompiledRule(for_each, different, withs, blanked_unless,
                        tuple(sorted(attributes)), list(rule.get("bonuses", [])), unblanker)


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


def _private_values(rule: CompiledRule, receiver: Live, givers: Sequence[Live]):
    """Each giving card's best FOR EACH bonus on its own (it may grant only one)."""
    values, which = [], []
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


def _tier_instances(rule: CompiledRule, receiver: Live, givers: Sequence[Live]):
    """Every way each WITH bonus may be met (or not): a tier, and for "same" requirements the
    shared value."""
    options = []
    for index, tiers in rule.withs:
        choices: list[tuple | None] = [None]
        for tier_index, tier in enumerate(tiers):
            value_sets = []
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


def _settle_givers(rule: CompiledRule, receiver: Live, givers: Sequence[Live]) -> Settlement:
    private, private_bonus = _private_values(rule, receiver, givers)
    if not rule.different and not rule.withs:
        grants = [Grant(private_bonus[i], private[i], [g.name]) for i, g in enumerate(givers)
                  if private_bonus[i] is not None and private[i] > 0]
        return Settlement(sum(private), grants)

    best: Settlement | None = None
    for combination in _tier_instances(rule, receiver, givers):
        settlement = _assign(rule, receiver, givers, private, private_bonus,
                             [c for c in combination if c is not None])
        if settlement is not None and (best is None or settlement.points > best.points):
            best = settlement
    return best if best is not None else Settlement(0, [])


def _assign(rule, receiver, givers, private, private_bonus, met) -> Settlement | None:
    n = len(givers)
    chosen = receiver.chosen
    slot_accepts: list[list[int]] = []
    slot_weight: list[int] = []
    slot_owner: list[tuple] = []  # ("with", bonus, tier, req) | ("different", bonus, value)
    dummy_rows: list[list[int]] = []
    required = 0
    for index, tier_index, tier, same_values in met:
        for req_index, (req, same_value) in enumerate(zip(tier.requirements, same_values, strict=True)):
            matching = [i for i, g in enumerate(givers) if req.match(g, chosen)
                        and (same_value is None or same_value in g.attrs[req.same])]
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
    weights = np.full((rows, shared + rows), FORBIDDEN, dtype=np.int64)
    for column, accepts in enumerate(slot_accepts):
        for i in accepts:
            weights[i, column] = slot_weight[column]
    for d, columns in enumerate(dummy_rows):
        weights[n + d, columns] = REQUIRED
    for i in range(n):
        weights[i, shared + i] = private[i]
    for d in range(len(dummy_rows)):
        weights[n + d, shared + n + d] = 0
    row_index, column_index = linear_sum_assignment(weights, maximize=True)

    filled = 0
    points = sum(tier.points for _, _, tier, _ in met)
    grants: dict[tuple, Grant] = {}
    for r, c in zip(row_index.tolist(), column_index.tolist(), strict=True):
        weight = int(weights[r, c])
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
    choices: dict[str, dict]


class HandScorer:
    """Scores one hand: holds its compiled rules and a cache of settlements shared by every
    combination of choices tried."""

    def __init__(self, hand: Sequence[CardSpec], vocabulary: Mapping[str, Sequence[str]]):
        self.hand = list(hand)
        self.vocabulary = {key: list(values) for key, values in vocabulary.items()}
        self.rules = {spec.name: compile_rule(spec.rule) for spec in self.hand}
        self.by_name = {spec.name: spec for spec in self.hand}
        self.cache: dict[tuple, Settlement] = {}
        self.base = {
            spec.name: {key: frozenset(spec.attributes.get(key, ())) for key in ATTRIBUTES}
            for spec in self.hand
        }
        self.effects = {
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
        self.counts_as = {
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

    # Choices ---------------------------------------------------------------------------------

    def choice_cards(self) -> list[tuple[CardSpec, dict]]:
        return self._choice_cards

    def _literals(self) -> dict[str, set[str]]:
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
        return literals

    def _counted_by_value(self) -> set[str]:
        """Attributes whose exact values matter beyond the literals (different/same/chosen)."""
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
        return counted

    def candidate_values(self, attribute: str, exclude_card: str | None = None) -> list[str]:
        """The values worth trying for a chosen attribute. Values that no rule in the hand names
        and (where a rule compares values) no other card carries all behave alike, so one of them
        stands for the rest; two cards setting the same compared attribute get two."""
        literals = self._literals()[attribute]
        wanted = set(literals)
        fresh_needed = 1
        if attribute in self._counted_by_value():
            for spec in self.hand:
                if spec.name != exclude_card:
                    wanted |= set(spec.attributes.get(attribute, ()))
            fresh_needed = max(1, self._setters(attribute))
        vocabulary = self.vocabulary.get(attribute, [])
        ordered = [v for v in vocabulary if v in wanted]
        fresh = [v for v in vocabulary if v not in wanted][:fresh_needed]
        return ordered + fresh

    def _setters(self, attribute: str) -> int:
        """How many cards of the hand may set this attribute by a choice."""
        kinds = {"wild": ATTRIBUTES, "change_affiliation": ("affiliation",)}
        return sum(1 for _, effect in self._choice_cards if attribute in kinds.get(effect["kind"], ()))

    def candidates(self, spec: CardSpec, effect: dict) -> list[dict]:
        kind = effect["kind"]
        if kind == "wild":
            return [
                {"type": t, "lifeform": lf, "affiliation": af, "specialty": sp}
                for t in effect["types"]
                for lf in self.candidate_values("lifeform", spec.name)
                for af in self.candidate_values("affiliation", spec.name)
                for sp in self.candidate_values("specialty", spec.name)
            ]
        if kind == "change_affiliation":
            match = compile_criterion(effect["target"])
            options: list[dict] = [{}]
            for other in self.hand:
                if other.name == spec.name:
                    continue
                live = Live(other)
                # The Unidentified Ship's lifeform is itself a choice: it may be the target.
                if match(live, {}) or other.effect("wild") is not None:
                    # Changing a card to the affiliation it has is no change (and no bonus):
                    # try the other values, with a stand-in unlike its current one.
                    current = set(other.attributes.get("affiliation", ()))
                    values = [v for v in self.candidate_values("affiliation") if {v} != current]
                    vocabulary = self.vocabulary.get("affiliation", [])
                    stand_in = next((v for v in vocabulary if v not in current
                                     and v not in self._literals()["affiliation"]), None)
                    if stand_in and stand_in not in values:
                        values.append(stand_in)
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
            values = [v for v in self.candidate_values(attribute) if v not in excluded]
            if not values:
                values = [v for v in self.vocabulary.get(attribute, []) if v not in excluded][:1]
            return [{attribute: v} for v in values]
        return [{}]  # copy_score: settled after scoring, not enumerated

    def check_choice(self, spec: CardSpec, effect: dict, choice) -> dict:
        """A fixed choice, checked against the rules and the hand (ChoiceError otherwise)."""
        path = f"choices[{spec.name!r}]"
        kind = effect["kind"]
        if not isinstance(choice, dict):
            raise ChoiceError(path, f"The choice for {spec.name} must be an object.")
        shapes = {"wild": {"type", "lifeform", "affiliation", "specialty"},
                  "change_affiliation": {"target", "affiliation"}, "assimilate": {"blank"},
                  "choose": {effect.get("attribute")}, "copy_score": {"copies"}}
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
        # copy_score
        copied = choice.get("copies")
        if copied is not None and copied not in self.by_name:
            raise ChoiceError(f"{path}.copies", f"{copied!r} is not in the hand.")
        return {"copies": copied}

    # Evaluation ------------------------------------------------------------------------------

    def evaluate(self, combination: dict[str, dict], fixed_copies: dict[str, str | None]) -> Evaluation:
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
                standing_key: frozenset, modified: list[str]) -> Settlement:
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

    def best(self, fixed: Mapping[str, dict]) -> Evaluation:
        """The combination of choices with the highest total. Every combination counts; Borg
        Cube's blanking sets are skipped only when an upper bound proves they cannot win."""
        cards = self.choice_cards()
        options: list[list[dict]] = []
        fixed_copies: dict[str, str | None] = {}
        assimilator = None
        for spec, effect in cards:
            if spec.name in fixed:
                checked = self.check_choice(spec, effect, fixed[spec.name])
                if effect["kind"] == "copy_score":
                    fixed_copies[spec.name] = checked["copies"]
                options.append([checked])
            else:
                options.append(self.candidates(spec, effect))
                if effect["kind"] == "assimilate":
                    assimilator = spec.name
        names = [spec.name for spec, _ in cards]
        blank_sets = options[names.index(assimilator)] if assimilator else None
        if blank_sets is not None:
            options[names.index(assimilator)] = [{"blank": []}]
        best: Evaluation | None = None
        for combination in itertools.product(*options):
            chosen = dict(zip(names, combination, strict=True))
            unblanked = self.evaluate(chosen, fixed_copies)
            if best is None or unblanked.total > best.total:
                best = unblanked
            for blank in (blank_sets or [])[1:]:
                if self._may_beat(blank["blank"], unblanked, best.total, assimilator):
                    evaluation = self.evaluate({**chosen, assimilator: blank}, fixed_copies)
                    if evaluation.total > best.total:
                        best = evaluation
        assert best is not None
        return best

    def _may_beat(self, blank: list[str], unblanked: Evaluation, to_beat: int, assimilator: str) -> bool:
        """Whether blanking these cards could beat `to_beat`. Removing cards never raises another
        card's score, so blanking them scores at most the unblanked total, less their own points,
        plus what the assimilator scored, once per blanked card. That bound does not hold when a
        blanked card makes a choice or when a card's attributes depend on others (counts as): such
        sets are always evaluated."""
        if self.counts_as or any(self.effects[name] for name in blank):
            return True
        bound = (unblanked.total - sum(unblanked.points[name] for name in blank)
                 + len(blank) * unblanked.points.get(assimilator, 0))
        return bound > to_beat


def _bonus_criteria(bonus: Mapping) -> list[Mapping]:
    if bonus["kind"] in ("for_each",):
        return [bonus["match"]]
    if bonus["kind"] == "for_each_different":
        return [bonus["match"]] if "match" in bonus else []
    tiers = bonus["tiers"] if bonus["kind"] == "tiers" else [bonus]
    return [req["match"] for tier in tiers for req in tier["requires"]]
