"""Turns the best evaluation of a hand into the response: per-card lines and ordered steps that
add up from zero to the total (plain Python, no Django import)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.protocol import Step

from .choices import ChoiceError
from .hand import Evaluation
from .language import (
    Labels,
    aside,
    attribute_label,
    names_only,
    phrase,
    requirements_phrase,
    value_label,
)
from .rules import CardSpec, Choice
from .scorer import HandScorer

RULE_WITH = "STM-7.1"
RULE_FOR_EACH = "STM-7.2"
RULE_DIFFERENT = "STM-R2"
RULE_CHOICES = "STM-R3"
RULE_NOTHING = "STM-9.3"
RULE_UNBLANKER = "STM-R10"


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


def explain(scorer: HandScorer, evaluation: Evaluation, labels: Labels) -> HandScore:
    entries: list[tuple[str, str, list[str], str, int]] = []  # rule, card, giving, detail, points
    cards: list[CardResult] = []
    for spec in scorer.hand:
        name = spec.name
        points = evaluation.points[name]
        if name in evaluation.blanked:
            reason = _blank_reason(scorer, evaluation, spec, labels)
            cards.append(CardResult(name, points, True, reason))
            giving = (
                [evaluation.blanked[name].removeprefix("blanked by ")]
                if name in evaluation.assimilated
                else []
            )
            entries.append((evaluation.blank_rule[name], name, giving, reason, points))
            continue
        cards.append(CardResult(name, points, False, None))
        if name in evaluation.copies:
            target = evaluation.copies[name]
            detail = (
                f"scores as {target}: {points}"
                if target
                else "no card it may copy is in the hand: 0"
            )
            entries.append((RULE_CHOICES, name, [target] if target else [], detail, points))
            continue
        settlement = evaluation.settlements.get(name)
        bonuses = (spec.rule or {}).get("bonuses", [])
        if settlement and settlement.left_out:
            entries.append(
                (
                    RULE_UNBLANKER,
                    name,
                    [settlement.left_out],
                    f"{settlement.left_out} keeps it from being blanked, so it is not one "
                    "of the other cards its bonuses count: 0",
                    0,
                )
            )
        for grant in settlement.grants if settlement else []:
            bonus = bonuses[grant.bonus]
            kind = bonus["kind"]
            if kind == "for_each":
                detail = (
                    f"{grant.points} for {grant.giving[0]}{aside(phrase(bonus['match'], labels))}"
                )
                entries.append((RULE_FOR_EACH, name, grant.giving, detail, grant.points))
            elif kind == "for_each_different":
                assert grant.value is not None  # a "different" slot counts one value
                value = value_label(labels, bonus["attribute"], grant.value)
                detail = (
                    f"{grant.points} for a different {attribute_label(bonus['attribute'])}: "
                    f"{value} ({grant.giving[0]})"
                )
                entries.append((RULE_DIFFERENT, name, grant.giving, detail, grant.points))
            else:
                tier = bonus["tiers"][grant.tier] if kind == "tiers" else bonus
                detail = f"{grant.points} with {', '.join(grant.giving)}"
                if not all(names_only(req["match"]) for req in tier["requires"]):
                    detail += aside(requirements_phrase(tier["requires"], labels))
                entries.append((RULE_WITH, name, grant.giving, detail, grant.points))
        if name in evaluation.changed:
            target, affiliation = evaluation.changed[name]
            change = spec.effect("change_affiliation")
            assert change is not None  # only a card with the effect changes an affiliation
            bonus = change["points"]
            detail = (
                f"{bonus} for changing the Affiliation of {target} to "
                f"{value_label(labels, 'affiliation', affiliation)}"
            )
            entries.append((RULE_CHOICES, name, [target], detail, bonus))
        if points == 0:
            entries.append((RULE_NOTHING, name, [], "no bonus applies: 0", 0))
    steps, running = [], 0
    for n, (rule, card, giving, detail, points) in enumerate(entries, start=1):
        running += points
        steps.append(
            Step(
                n=n,
                rule=rule,
                card=card,
                detail=detail,
                points=points,
                running_total=running,
                more={"giving": giving},
            )
        )
    assert running == evaluation.total, (running, evaluation.total)
    return HandScore(evaluation.total, cards, steps, _choices(scorer, evaluation))


def _blank_reason(
    scorer: HandScorer, evaluation: Evaluation, spec: CardSpec, labels: Labels
) -> str:
    if spec.name in evaluation.assimilated:
        return (
            f"Blanked by {evaluation.blanked[spec.name].removeprefix('blanked by ')}: it scores "
            f"what that card scores ({evaluation.points[spec.name]})."
        )
    needed = " or ".join(phrase(c, labels) for c in (spec.rule or {}).get("blanked_unless", []))
    return f"Blanked: no {needed} stands in the hand."


def _choices(scorer: HandScorer, evaluation: Evaluation) -> dict[str, dict[str, Any]]:
    return {spec.name: evaluation.choices.get(spec.name, {}) for spec, _ in scorer.choice_cards()}


def score_hand(
    hand: Sequence[CardSpec],
    *,
    vocabulary: Mapping[str, Sequence[str]],
    labels: Labels | None = None,
    choices: Mapping[str, dict[str, Any]] | None = None,
) -> HandScore:
    """The best score of a hand, honouring any choice the player fixed (ChoiceError when a fixed
    choice is not allowed). engine.check(HandPosition(…)) checks the hand is a final hand first."""
    scorer = HandScorer(hand, vocabulary)
    unknown = [name for name in (choices or {}) if name not in scorer.by_name]
    if unknown:
        raise ChoiceError(f"choices[{unknown[0]!r}]", f"{unknown[0]} is not in the hand.")
    not_choosing = [
        name for name in (choices or {}) if name not in {s.name for s, _ in scorer.choice_cards()}
    ]
    if not_choosing:
        raise ChoiceError(f"choices[{not_choosing[0]!r}]", f"{not_choosing[0]} makes no choice.")
    evaluation = scorer.best(choices or {})
    return explain(scorer, evaluation, labels or {})
