"""The choices of a Star Trek: Missions hand (plain Python, no Django import): a choice the player
fixed, checked against the rules and the hand (`check_choice`, `check_together`, ChoiceError:
STM-R15), and the values worth trying for a choice nobody fixed (`candidates`, `wild_values`,
`candidate_values`), exactly: plain enumeration of every allowed value finds no higher total.
Values the hand cannot tell apart are tried once (see `candidate_values`, `_undominated`,
`_excluded_only`, `_distinct_changes`).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any, cast

from .hand import Hand
from .language import ATTRIBUTES, phrase
from .rules import (
    WILD_KEYS,
    CardSpec,
    Choice,
    Live,
    Match,
    Rule,
    WildSet,
    bonus_criteria,
    compile_criterion,
    criterion_leaves,
    criterion_literals,
)


class ChoiceError(ValueError):
    """A choice the player fixed that the rules or the hand do not allow."""

    def __init__(self, path: str, detail: str) -> None:
        super().__init__(detail)
        self.path = path
        self.detail = detail


class HandChoices(Hand):
    """A hand (hand.Hand) with what its choices may be and which values are worth trying."""

    def __init__(self, hand: Sequence[CardSpec], vocabulary: Mapping[str, Sequence[str]]) -> None:
        super().__init__(hand, vocabulary)
        self._literals_cache: dict[str, set[str]] | None = None
        self._counted_cache: set[str] | None = None
        # Values the fixed choices name (`best`): told apart like the values rules name.
        self.fixed_values: dict[str, set[str]] = {}

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
                for crit in bonus_criteria(bonus):
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
        return [v for v in universe if v in wanted] + [v for v in universe if v not in wanted][
            :fresh_needed
        ]

    def _setters(self, attribute: str) -> int:
        """How many cards of the hand set or name this attribute by a choice."""
        kinds = {"wild": WILD_KEYS, "change_affiliation": ("affiliation",)}
        return sum(
            1
            for _, effect in self._choice_cards
            if attribute in kinds.get(effect["kind"], ())
            or (effect["kind"] == "choose" and effect["attribute"] == attribute)
        )

    def candidates(self, spec: CardSpec, effect: dict[str, Any]) -> list[Choice]:
        kind = effect["kind"]
        if kind == "wild":
            by_key = dict(self.wild_values(spec, effect))
            return [
                dict(zip(WILD_KEYS, combination, strict=True))
                for combination in itertools.product(*(by_key[key] for key in WILD_KEYS))
            ]
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
                attribute, [v for v in self.vocabulary.get(attribute, []) if v not in excluded]
            )
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
        shapes = {
            "wild": {"type", "lifeform", "affiliation", "specialty"},
            "change_affiliation": {"target", "affiliation"},
            "assimilate": {"blank"},
            "choose": {cast(str, effect.get("attribute"))},
            "copy_score": {"copies"},
        }
        unknown = set(choice) - shapes[kind]
        if unknown:
            raise ChoiceError(
                f"{path}.{sorted(unknown)[0]}",
                f"{spec.name} has no choice '{sorted(unknown)[0]}'; "
                f"it takes {', '.join(sorted(shapes[kind]))}.",
            )
        if kind == "wild":
            for key in ("type", "lifeform", "affiliation", "specialty"):
                if key not in choice:
                    raise ChoiceError(f"{path}.{key}", f"Choose the {key} of {spec.name}.")
                allowed = effect["types"] if key == "type" else self.vocabulary.get(key, [])
                if choice[key] not in allowed:
                    raise ChoiceError(
                        f"{path}.{key}",
                        f"{spec.name} cannot be {choice[key]!r}: "
                        f"choose one of {', '.join(allowed)}.",
                    )
            return dict(choice)
        if kind == "change_affiliation":
            if not choice:
                return {}
            target, affiliation = choice.get("target"), choice.get("affiliation")
            if target not in self.by_name or target == spec.name:
                raise ChoiceError(
                    f"{path}.target",
                    f"{spec.name} must target another card in the hand; {target!r} is not one.",
                )
            target_spec = self.by_name[target]
            if not (
                compile_criterion(effect["target"])(Live(target_spec), {})
                or "wild" in self.effects[target]
            ):
                raise ChoiceError(
                    f"{path}.target",
                    f"{spec.name} cannot target {target}: it changes a card with a Lifeform.",
                )
            if "wild" not in self.effects[target] and set(
                target_spec.attributes.get("affiliation", ())
            ) == {affiliation}:
                raise ChoiceError(
                    f"{path}.affiliation",
                    f"{target} already has that Affiliation; "
                    "choose another, or {} to make no change.",
                )
            if affiliation not in self.vocabulary.get("affiliation", []):
                raise ChoiceError(
                    f"{path}.affiliation",
                    f"{affiliation!r} is not an affiliation; "
                    f"choose one of {', '.join(self.vocabulary.get('affiliation', []))}.",
                )
            return {"target": target, "affiliation": affiliation}
        if kind == "assimilate":
            blank = choice.get("blank", [])
            if (
                not isinstance(blank, list)
                or len(blank) > effect["max"]
                or len(set(blank)) != len(blank)
            ):
                raise ChoiceError(
                    f"{path}.blank", f"{spec.name} blanks up to {effect['max']} different cards."
                )
            match = compile_criterion(effect["target"])
            for index, name in enumerate(blank):
                if (
                    name not in self.by_name
                    or name == spec.name
                    or not match(Live(self.by_name[name]), {})
                ):
                    raise ChoiceError(
                        f"{path}.blank[{index}]",
                        f"{spec.name} cannot blank {name!r}: "
                        "it must be another card of the hand it may blank.",
                    )
            return {"blank": list(blank)}
        if kind == "choose":
            attribute = effect["attribute"]
            value = choice.get(attribute)
            allowed = [
                v for v in self.vocabulary.get(attribute, []) if v not in effect.get("exclude", [])
            ]
            if value not in allowed:
                raise ChoiceError(
                    f"{path}.{attribute}",
                    f"{spec.name} cannot choose {value!r}: choose one of {', '.join(allowed)}.",
                )
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
            raise ChoiceError(
                f"{path}.copies",
                f"{spec.name} cannot copy itself: it scores as another card that is a {wanted}.",
            )
        if not self._may_meet(copied, compile_criterion(effect["of"])):
            raise ChoiceError(
                f"{path}.copies",
                f"{spec.name} cannot copy {copied}: it scores as "
                f"a card that is a {wanted}, and {copied} is not one.",
            )
        return {"copies": copied}

    def _labels(self) -> dict[str, dict[str, str]]:
        """Values as words for a refusal ('System', 'Klingon Empire'): the scorer has no labels."""
        return {
            key: {v: " ".join(w.capitalize() for w in v.split("-")) for v in values}
            for key, values in self.vocabulary.items()
        }

    def _may_meet(self, name: str, match: Match) -> bool:
        """Whether a card of the hand meets a criterion as printed, or (the Unidentified Ship)
        for some choice of its attributes."""
        spec = self.by_name[name]
        live = Live(spec)
        wild = self.effects[name].get("wild")
        if wild is not None:  # every value it may take, answered optimistically
            for key in WILD_KEYS:
                live.attrs[key] = WildSet(
                    wild["types"] if key == "type" else self.vocabulary.get(key, [])
                )
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
                raise ChoiceError(
                    f"{path}.affiliation",
                    f"{target} is fixed as "
                    f"{ship['affiliation']}: {name} must change its Affiliation to "
                    "another, or make no change ({}).",
                )
            effect = self.effects[name].get("copy_score")
            if effect is not None and ship:
                live = Live(self.by_name[target])
                for key in WILD_KEYS:
                    live.attrs[key] = frozenset([ship[key]])
                if not compile_criterion(effect["of"])(live, {}):
                    raise ChoiceError(
                        f"{path}.copies",
                        f"{name} cannot copy {target} as fixed: it "
                        f"scores as a card that is a {phrase(effect['of'], self._labels())}.",
                    )

    def _distinct_changes(
        self, by_target: dict[str | None, list[Any]]
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
        unnamed = [
            v
            for v in values
            if v not in named
            and not any(v in spec.attributes.get(attribute, ()) for spec in self.hand)
        ]
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
        choosing = [
            (spec, effect)
            for spec, effect in self._choice_cards
            if effect["kind"] == "choose" and effect["attribute"] == attribute
        ]
        if not choosing:
            return values
        choosers = [effect for _, effect in choosing]
        named = self._find_literals(with_exclusions=False).get(
            attribute, set()
        ) | self.fixed_values.get(attribute, set())
        for spec in self.hand:
            for bonus in (spec.rule or {}).get("bonuses", []):
                named = named | set(bonus.get("points_if_chosen") or {})
        printed = {v for spec in self.hand for v in spec.attributes.get(attribute, ())}
        excluded_by_all = set.intersection(*(set(e.get("exclude", [])) for e in choosers))
        excluded_by_any = set().union(*(set(e.get("exclude", [])) for e in choosers))
        chooser_values = [
            {c.get(attribute) for c in self.candidates(spec, effect)} for spec, effect in choosing
        ]
        stand_in = next(
            (
                w
                for w in values
                if w not in named
                and w not in excluded_by_any
                and w not in printed
                and all(w in vs for vs in chooser_values)
            ),
            None,
        )
        if stand_in is None:
            return values
        return [
            v
            for v in values
            if v == stand_in or v in named or v in printed or v not in excluded_by_all
        ]

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
                for crit in bonus_criteria(bonus):
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
            criteria = [c for bonus in rule.get("bonuses", []) for c in bonus_criteria(bonus)]
            criteria += list(rule.get("blanked_unless", []))
            for effect in rule.get("effects", []):
                criteria += [effect[k] for k in ("target", "of") if k in effect]
                criteria += list(effect.get("when", []))
                compared |= effect["kind"] == "choose" and effect["attribute"] == "affiliation"
                compared |= "affiliation" in {
                    **effect.get("set", {}),
                    **effect.get("otherwise", {}),
                }
            for bonus in rule.get("bonuses", []):
                compared |= (
                    bonus["kind"] == "for_each_different" and bonus["attribute"] == "affiliation"
                )
                for tier in bonus.get("tiers", [bonus] if bonus["kind"] == "with" else []):
                    compared |= any(
                        req.get(k) == "affiliation"
                        for req in tier["requires"]
                        for k in ("distinct", "same")
                    )
            for crit in criteria:
                criterion_leaves(crit, leaves)
        compared |= any(key == "chosen" and value == "affiliation" for key, value in leaves)
        return [compile_criterion(leaf) for leaf in leaves.values()], compared

    def wild_values(self, spec: CardSpec, effect: dict[str, Any]) -> list[tuple[str, list[str]]]:
        """The values worth trying for each attribute the Unidentified Ship chooses, in search
        order (specialty, lifeform, affiliation, type): `candidate_values` of each, its type
        out of the types the card allows."""
        values = {
            "type": self.candidate_values("type", effect["types"]),
            **{
                key: self._excluded_only(key, self._undominated(key, self.candidate_values(key)))
                for key in WILD_KEYS[1:]
            },
        }
        return [(key, values[key]) for key in ("specialty", "lifeform", "affiliation", "type")]
