"""The plain-enumeration reference for Star Trek: Missions' best choices (STM-R4, STM-R15), kept
in the tests and sharing none of the search's code.

Every choice card's allowed values are listed here from the rules text and the card data alone
(ruling 15): the Unidentified Ship any of its types with any Lifeform, Affiliation and Specialty;
Thought Maker no change, or any other card with a Lifeform (printed, or the Ship) and any
Affiliation; Borg Cube any zero to two other Galaxy cards; Mysterious Plague any Lifeform but
the ones it excludes; Ensign Wesley Crusher no card, or any other card. Every combination of them is evaluated, one by one, and the
highest total kept. Nothing is skipped, merged or bounded: no value stands for another, no
branch is cut, and the enumeration does not use the scorer's candidates, search order, bounds or
caches (choices.py, bounds.py, scorer.py: `HandScorer.candidates`, `_search_space`, `_Search`,
`score_points`, `_points`, ...).

What is reused of the scorer is the evaluation of ONE fully fixed assignment, `evaluate` of
hand.Hand (the hand without its choices' candidates or the search, which build on it): it
applies the given choices, blanks, copies and Borg Cube's scores and settles each card's bonuses
by the exact assignment (`settle`); it makes no choice of its own when every choice, Wesley's
copy included, is given, and holds no search logic (no candidates, bounds or order). Its one
cache (`Hand._settle`) keys a card's settlement on the cards standing and on the attributes
its rule reads (`CompiledRule.relevant`, read off the rule's text by `compile_rule`); the search
uses other caches (`_points`: signatures of what each rule reads), so no shortcut is shared.
Targets a card's criterion does not accept at that point (Wesley on a card that is neither a
System nor an Engineer, Thought Maker's target blanked by Borg Cube) are evaluated too: `evaluate`
applies no copy or change for them, so they score what "no choice" scores and cannot raise the
maximum.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from games.star_trek_missions.hand import Evaluation, Hand
from games.star_trek_missions.rules import CardSpec

Choice = dict[str, Any]


def _effects(spec: CardSpec) -> list[dict[str, Any]]:
    return list((spec.rule or {}).get("effects", []))


def allowed_choices(
    spec: CardSpec,
    effect: Mapping[str, Any],
    hand: Sequence[CardSpec],
    vocabulary: Mapping[str, Sequence[str]],
) -> list[Choice]:
    """Every choice the rules allow this card in this hand (a superset where a criterion decides
    at evaluation time: see the module's docstring)."""
    kind = effect["kind"]
    others = [s for s in hand if s.name != spec.name]
    if kind == "wild":
        return [
            {"type": t, "lifeform": lf, "affiliation": af, "specialty": sp}
            for t in effect["types"]
            for lf in vocabulary["lifeform"]
            for af in vocabulary["affiliation"]
            for sp in vocabulary["specialty"]
        ]
    if kind == "change_affiliation":
        # Its text changes a card with a Lifeform: one printed with one, or the Ship (which
        # always has one). Every Affiliation, its current one included (no change).
        targets = [
            s
            for s in others
            if s.attributes.get("lifeform") or any(e["kind"] == "wild" for e in _effects(s))
        ]
        return [{}] + [
            {"target": s.name, "affiliation": af}
            for s in targets
            for af in vocabulary["affiliation"]
        ]
    if kind == "assimilate":
        galaxy = [s.name for s in others if s.deck == "galaxy"]
        return [
            {"blank": list(c)}
            for size in range(effect["max"] + 1)
            for c in itertools.combinations(galaxy, size)
        ]
    if kind == "choose":
        excluded = set(effect.get("exclude", []))
        return [
            {effect["attribute"]: v} for v in vocabulary[effect["attribute"]] if v not in excluded
        ]
    if kind == "copy_score":
        return [{"copies": None}] + [{"copies": s.name} for s in others]
    raise AssertionError(f"unknown choice kind {kind!r}")


CHOICE_KINDS = ("wild", "change_affiliation", "assimilate", "choose", "copy_score")


def choice_cards(hand: Sequence[CardSpec]) -> list[tuple[CardSpec, dict[str, Any]]]:
    return [
        (spec, effect)
        for spec in hand
        for effect in _effects(spec)
        if effect["kind"] in CHOICE_KINDS
    ]


def plain_space(hand: Sequence[CardSpec], vocabulary: Mapping[str, Sequence[str]]) -> int:
    size = 1
    for spec, effect in choice_cards(hand):
        size *= len(allowed_choices(spec, effect, hand, vocabulary))
    return size


def plain_best(
    hand: Sequence[CardSpec],
    vocabulary: Mapping[str, Sequence[str]],
    fixed: Mapping[str, Choice] | None = None,
) -> Evaluation:
    """The highest total over every combination of every allowed choice (a fixed choice is
    taken as given)."""
    fixed = fixed or {}
    scorer = Hand(hand, vocabulary)  # only its `evaluate` is used: a hand, without the search
    names: list[str] = []
    options: list[list[Choice]] = []
    for spec, effect in choice_cards(hand):
        names.append(spec.name)
        options.append(
            [dict(fixed[spec.name])]
            if spec.name in fixed
            else allowed_choices(spec, effect, hand, vocabulary)
        )
    best: Evaluation | None = None
    for combination in itertools.product(*options):
        chosen = dict(zip(names, combination, strict=True))
        copies = {
            name: choice.get("copies") for name, choice in chosen.items() if "copies" in choice
        }
        evaluation = scorer.evaluate(chosen, copies)
        if best is None or evaluation.total > best.total:
            best = evaluation
    assert best is not None
    return best


def score_by_plain_enumeration(
    hand: Sequence[CardSpec],
    *,
    vocabulary: Mapping[str, Sequence[str]],
    labels: object = None,
    choices: Mapping[str, Choice] | None = None,
) -> Evaluation:
    """`plain_best` in the shape of explain.score_hand's call (bench/stm.py times both)."""
    return plain_best(hand, vocabulary, choices)
