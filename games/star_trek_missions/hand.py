"""One hand of Star Trek: Missions with every choice decided: its compiled rules and card facts
(`Hand`), and the evaluation of one fully fixed assignment of choices (`Hand.evaluate`), in the
order of STM-R3 (plain Python, no Django import):

1. the players' choices: whom Borg Cube blanks first (a blanked card's own choice has no effect,
   STM-R5), then the Unidentified Ship's attributes, Mysterious Plague's choice and Thought
   Maker's change;
2. BLANKED UNLESS, in card-number order, against the cards not blanked so far (STM-7.4);
3. attribute changes that depend on the other cards (counts as …);
4. every card not blanked scores from the others (bonuses.settle), copies read the card they copy,
   and the cards Borg Cube blanked score what it scores.

This makes no choice of its own: choices.py checks and proposes choices, the search (scorer.py)
finds the best.
The plain-enumeration reference of the tests (tests/engines/star_trek_missions_reference.py) uses
this class alone, so it shares none of the search's shortcuts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .bonuses import Settlement, settle
from .language import ATTRIBUTES, CHOICE_EFFECTS
from .rules import CardSpec, Choice, Live, Match, compile_criterion, compile_rule, copy_live


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


class Hand:
    """One hand: its compiled rules, the facts about its cards every evaluation reads, and a
    cache of settlements shared by every combination of choices evaluated."""

    def __init__(self, hand: Sequence[CardSpec], vocabulary: Mapping[str, Sequence[str]]) -> None:
        self.hand = list(hand)
        self.vocabulary = {key: list(values) for key, values in vocabulary.items()}
        self.rules = {spec.name: compile_rule(spec.rule) for spec in self.hand}
        self.by_name = {spec.name: spec for spec in self.hand}
        self.cache: dict[tuple[Any, ...], Settlement] = {}
        self.base = {
            spec.name: {key: frozenset(spec.attributes.get(key, ())) for key in ATTRIBUTES}
            for spec in self.hand
        }
        self.effects: dict[str, dict[str, dict[str, Any]]] = {
            spec.name: {e["kind"]: e for e in (spec.rule or {}).get("effects", [])}
            for spec in self.hand
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
            (spec.name for spec, effect in self._choice_cards if effect["kind"] == "assimilate"),
            None,
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

    def choice_cards(self) -> list[tuple[CardSpec, dict[str, Any]]]:
        return self._choice_cards

    # Evaluation ------------------------------------------------------------------------------

    def evaluate(
        self, combination: Mapping[str, Choice], fixed_copies: Mapping[str, str | None]
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
                    if target_match(live, {}) and live.attrs["affiliation"] != {
                        choice["affiliation"]
                    }:
                        live = lives[target] = copy_live(live)
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
                live = lives[name] = copy_live(lives[name])
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
            options = [
                n for n in standing if n != name and n not in copiers and match(lives[n], {})
            ]
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
        return Evaluation(
            sum(points.values()),
            points,
            blanked,
            blank_rule,
            settlements,
            copies,
            changed,
            assimilated,
            choices,
        )

    def _settle(
        self,
        receiver: Live,
        standing: list[str],
        lives: dict[str, Live],
        standing_key: frozenset[str],
        modified: list[str],
    ) -> Settlement:
        """A receiving card's settlement, cached: it depends only on which cards stand, and on
        the attributes (those its rule looks at) of the few cards changed from their printing."""
        rule = self.rules[receiver.name]
        if not rule.bonuses:
            return Settlement(0, [])
        key = (
            receiver.name,
            tuple(sorted(receiver.chosen.items())) if receiver.chosen else (),
            standing_key,
            tuple(
                (n, tuple(lives[n].attrs[a] for a in rule.relevant))
                for n in modified
                if n != receiver.name
            ),
        )
        settlement = self.cache.get(key)
        if settlement is None:
            givers = [lives[n] for n in standing if n != receiver.name]
            settlement = settle(rule, receiver, givers)
            self.cache[key] = settlement
        return settlement
