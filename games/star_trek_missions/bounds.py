"""Fast scoring of a Star Trek: Missions hand for the search (plain Python, no Django import): the
total of a partial combination of choices, exact when every choice is decided and an upper bound
otherwise (`score_points`, `sibling_totals`), without the explanation.

The open choices are made optimistically (an open attribute is a WildSet of its possible values,
every card that may stand stands, …: see `score_points`), which no way of deciding them can beat.
Settlements are cached on what each card's rule reads (`_points`: CompiledRule.atoms and
.counted), so a choice re-scores only the cards that read what it changes, sibling
combinations differing in one choice are placed once (`sibling_totals`), and worlds differing only
in the Unidentified Ship's attributes once per hand (`_ship_context`). The search (scorer.py)
is the only user; tests/engines/test_star_trek_missions_search.py holds `settle_points` to `settle`.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from .bonuses import settle_points
from .choices import HandChoices
from .rules import (
    WILD_KEYS,
    CardSpec,
    Choice,
    CompiledRule,
    Live,
    Match,
    Rule,
    WildSet,
    compile_criterion,
    compile_reads,
    copy_live,
    criterion_attributes,
)


class HandBounds(HandChoices):
    """A hand (choices.HandChoices) that scores partial combinations of choices quickly: exact
    totals or upper bounds, for the search."""

    def __init__(self, hand: Sequence[CardSpec], vocabulary: Mapping[str, Sequence[str]]) -> None:
        super().__init__(hand, vocabulary)
        self.prepared = False  # the search's structures (`_prepare_search`)

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
            spec.name: {
                key: WildSet(effect["types"] if key == "type" else self.vocabulary.get(key, []))
                for key in WILD_KEYS
            }
            for spec, effect in self._choice_cards
            if effect["kind"] == "wild"
        }
        self.change_targets = {
            name: [
                s.name
                for s in self.hand
                if s.name != name and (match(Live(s), {}) or s.name in self.wilds)
            ]
            for name, match in self.change_target.items()
        }
        assimilate = next((e for _, e in self._choice_cards if e["kind"] == "assimilate"), None)
        self.assimilate_max: int = assimilate["max"] if assimilate else 0
        self.assimilable = frozenset(
            s.name
            for s in self.hand
            if assimilate
            and s.name != self.assimilator
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
        # Behind quick_cache and chooser_cache: the same points on a key that leaves out the
        # changed cards the rule reads as printed (`_unchanged_left_out`).
        self.canonical_cache: dict[tuple[Any, ...], int] = {}
        self.canonical_chooser: dict[tuple[Any, ...], int] = {}
        # (the attributes a rule reads, a card) -> what they read of the card as printed
        self.printed_reads: dict[tuple[tuple[str, ...], str], tuple[frozenset[str], ...]] = {}
        # An open choice only its own rule reads: its best points, on the same key as
        # quick_cache's less the choice (`_best_chosen`).
        self.chooser_cache: dict[tuple[Any, ...], int] = {}
        self.may_copy_printed: dict[tuple[str, str], bool] = {}  # (copier, card as printed)
        # (BLANKED UNLESS card, card as printed): whether it meets the card's criteria (`_world`).
        self.meets_printed: dict[tuple[str, str], bool] = {}
        self.scoring = frozenset(name for name, rule in self.rules.items() if rule.bonuses)
        # The attributes each copy's criterion reads of the card it may copy.
        self.copy_reads = {
            name: tuple(sorted(criterion_attributes(self.effects[name]["copy_score"]["of"])))
            for name in self.copy_of
        }
        # Attributes that decide which cards stand or what a card counts as: a choice setting one
        # re-places every card (sibling_totals).
        # (A conditional card has a rule: its BLANKED UNLESS.)
        placing = [c for spec in self.conditional for c in cast(Rule, spec.rule)["blanked_unless"]]
        placing += [c for effect, _ in self.counts_as.values() for c in effect["when"]]
        placing += [self.effects[n]["change_affiliation"]["target"] for n in self.change_target]
        self.structural: set[str] = set().union(
            *(criterion_attributes(c, by_value=True) for c in placing)
        )
        self.singletons: dict[str, frozenset[str]] = {}
        self.structural_wild = tuple(k for k in WILD_KEYS if k in self.structural)
        # The kind of choice each choice card makes, as `sibling_scores` reads it.
        self.sibling_kind = {
            name: next(
                (k for k in ("wild", "change_affiliation", "choose") if k in effects),
                next(iter(effects), None),
            )
            for name, effects in self.effects.items()
        }
        # Keys' parts made once and shared (`_tally`, `_wild`): the standing cards, those changed,
        # the open values.
        self.interned: dict[Any, Any] = {}
        # Worlds that differ only in the Unidentified Ship's attributes, placed once
        # (`_ship_context`): their key -> the world and what its cards share (`_Same`).
        self.ship_contexts: dict[tuple[Any, ...], _ShipContext] = {}
        # Thought Maker's affiliation siblings: the world with no change, its scores and the
        # cards to re-score (`_change_scores`), per the other choices.
        self.change_bases: dict[
            tuple[Any, ...], tuple[_World, tuple[int, dict[str, int]], list[str]]
        ] = {}
        # Cards whose choice ("choose") only their own rule reads, with the values worth trying.
        self.choosers = {
            spec.name: self.candidates(spec, effect)
            for spec, effect in self._choice_cards
            if effect["kind"] == "choose"
        }
        # Each of those values with its key in the caches (`_points`' chosen_key).
        self.chooser_keys = {
            name: [(chosen, tuple(chosen.items()) if chosen else ()) for chosen in values]
            for name, values in self.choosers.items()
        }

    # Fast scoring for the search: totals, exact or upper bounds ------------------------------

    def upper_bound(
        self, partial: Mapping[str, Choice], fixed_copies: dict[str, str | None]
    ) -> int:
        """The most the hand can score over every way of deciding the choices `partial` leaves
        open; its exact total when it leaves none open (`score_points`)."""
        return self.score_points(partial, fixed_copies)[0]

    def score_points(
        self, partial: Mapping[str, Choice], fixed_copies: dict[str, str | None]
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

    def sibling_totals(
        self,
        children: list[dict[str, Choice]],
        name: str,
        key: str | None,
        fixed_copies: dict[str, str | None],
        parent: dict[str, int] | None = None,
    ) -> list[int]:
        """The totals of `sibling_scores`."""
        return [
            total for total, _ in self.sibling_scores(children, name, key, fixed_copies, parent)
        ]

    def sibling_scores(
        self,
        children: list[dict[str, Choice]],
        name: str,
        key: str | None,
        fixed_copies: dict[str, str | None],
        parent: dict[str, int] | None = None,
    ) -> list[tuple[int, dict[str, int]]]:
        """`score_points(child)` for sibling (partial) combinations that differ only in one
        choice, `name`'s (its part `key`): exact totals when every choice is decided, bounds
        otherwise. `parent`: each card's points in the branch they come from, where that
        choice is open (None: not at hand). Where that choice cannot change which cards stand (no BLANKED UNLESS,
        counts-as condition or Thought Maker target reads the attribute it sets), the cards are
        placed once and only the changed card is replaced; the cards whose rules do not read it
        keep their cached points."""
        kind = self.sibling_kind[name]
        first = children[0]
        blank = (first.get(self.assimilator) or {}).get("blank", ()) if self.assimilator else ()
        if (
            kind == "change_affiliation"
            and key == "target"
            and len(children) > 1
            and name not in blank
            and "affiliation" not in self.structural
            and not self.counts_as
            and all("affiliation" not in child[name] for child in children)
        ):
            return self._target_scores(children, name, fixed_copies)
        if (
            kind == "change_affiliation"
            and key == "affiliation"
            and "target" in first[name]
            and name not in blank
            and (self.assimilator is None or self.assimilator in first)
            and "affiliation" not in self.structural
            and not self.counts_as
        ):
            return self._change_scores(children, name, fixed_copies)
        # (The Ship's Affiliation is re-placed in full while a Thought Maker targets it or is
        # still open, and so may target it: its WildSet of new affiliations must stay.)
        plain = (
            len(children) == 1
            or name in blank
            or (
                kind == "wild"
                and (
                    key in self.structural
                    or (
                        key == "affiliation"
                        and any(
                            n not in first or first[n].get("target") == name
                            for n in self.change_target
                        )
                    )
                )
            )
        )
        plain = plain or (
            kind == "change_affiliation"
            and (
                key != "affiliation"
                or "affiliation" in self.structural
                or any(
                    "affiliation" in {**e["set"], **e["otherwise"]}
                    for e, _ in self.counts_as.values()
                )
            )
        )
        plain = plain or kind not in ("wild", "change_affiliation", "choose")
        # While Borg Cube's blanking is open every card stands (its bound adds the best gains
        # last, `_tally`), so the Ship's siblings and Thought Maker's targets are placed once as
        # when it is decided; only Thought Maker's decided change is placed in full, since a
        # Thought Maker it may blank may change nothing (`_world`). (The ordering's first round
        # scored every choice's siblings in full at the root: a quarter of the time of the
        # 16-seed hunt's slowest Borg Cube hand.)
        plain = plain or (
            kind == "change_affiliation"
            and self.assimilator is not None
            and self.assimilator not in first
        )
        plain = plain or (kind == "change_affiliation" and "affiliation" not in first[name])
        plain = plain or (kind == "wild" and key not in first[name])
        if plain:
            return [self.score_points(child, fixed_copies) for child in children]
        totals: list[tuple[int, dict[str, int]]] = []
        context = self._ship_context(first, name, fixed_copies) if kind == "wild" else None
        if context is not None:
            # Placed once for every world that differs only in the Ship's attributes: each
            # sibling re-scores only the cards whose rules read the Ship (`_ship_context`).
            # The first sibling re-scores every card that reads the Ship, the others only those
            # that read the attribute they differ in (`_narrow`).
            world, shared, changers, ships = context
            # (With the parent's points at hand, the first sibling too re-scores only the cards
            # that read the attribute the siblings set: the parent differs from each of them
            # only in it, and a card that does not read it scores as there.)
            siblings = shared if parent is None else self._narrow(shared, parent, cast(str, key))
            for child in children:
                lives = dict(world.lives)
                # (The Ship as placed, made once per context for each choice of it: a Live is
                # never changed once placed.)
                choice = child[name]
                placed = (
                    choice.get("type"),
                    choice.get("lifeform"),
                    choice.get("affiliation"),
                    choice.get("specialty"),
                )
                ship_live = ships.get(placed)
                if ship_live is None:
                    ship_live = ships[placed] = self._ship_live(child, name, changers)
                lives[name] = ship_live
                total, points = self._tally(
                    world, lives, world.bonus, child, fixed_copies, siblings
                )
                if siblings is shared:
                    siblings = self._narrow(shared, points, cast(str, key))
                totals.append((total, points))
            return totals
        world = self._world(first)
        if kind == "wild" or kind == "choose":
            base = world.lives[name]
            attribute = cast(str, key)  # what a wild card's dimension sets (unused for choose)
            same: _Same | None = None
            for child in children:
                live = Live(base.spec, base.attrs)
                if kind == "wild":
                    live.attrs[attribute] = self._one(child[name][attribute])
                else:
                    live.chosen = dict(child[name])
                lives = dict(world.lives)
                lives[name] = live
                total, points = self._tally(world, lives, world.bonus, child, fixed_copies, same)
                if kind == "wild" and same is None:
                    same = self._same(world, lives, points, name, (attribute,))
                totals.append((total, points))
            return totals
        target = first[name]["target"]
        before = world.before_change.get(target)
        points = self.effects[name]["change_affiliation"]["points"]
        # Siblings differ only in the target's affiliation and whether Thought Maker scores its
        # change: after the first, only the cards whose rules read an affiliation, and Thought
        # Maker, are scored again (`_same`).
        changes: _Same | None = None
        for child in children:
            lives, bonus = world.lives, world.bonus
            if before is not None:  # the target stands to be changed
                lives, bonus = dict(lives), dict(bonus)
                affiliation = self._one(child[name]["affiliation"])
                # The target as placed (what it counts as included), with this affiliation.
                live = lives[target] = copy_live(lives[target])
                if (
                    self.change_target[name](before, {})
                    and before.attrs["affiliation"] != affiliation
                ):
                    live.attrs["affiliation"] = affiliation
                    bonus[name] = points
                else:
                    live.attrs["affiliation"] = before.attrs["affiliation"]
                    bonus.pop(name, None)
            total, scores = self._tally(world, lives, bonus, child, fixed_copies, changes)
            if changes is None and before is not None and target in world.standing:
                changes = self._same(world, lives, scores, target, ("affiliation",))
                if name in changes.kept:
                    del changes.kept[name]
                    changes.readers.append(name)
            totals.append((total, scores))
        return totals

    def _target_scores(
        self, children: list[dict[str, Choice]], name: str, fixed_copies: dict[str, str | None]
    ) -> list[tuple[int, dict[str, int]]]:
        """`sibling_scores` for siblings that differ only in the card a Thought Maker (`name`)
        changes, its new affiliation still open: the cards are placed once, as with no change,
        and each sibling gives its target any affiliation and Thought Maker its points, as
        `_world` does. The same world: no BLANKED UNLESS, counts-as condition or Thought
        Maker's target reads an affiliation (`structural`), no card counts as something (how it
        is read depends on whether a choice is open), and Borg Cube's blanking is decided (the
        caller's conditions). Placing the cards for each sibling was a fifth of the time of
        the 16-seed hunt's slowest hands that decide Thought Maker below the Ship."""
        world = self._world({**children[0], name: {}})
        target_match = self.change_target[name]
        points = self.effects[name]["change_affiliation"]["points"]
        blanked = set(world.blank_choice["blank"]) if world.blank_choice else set()
        rules, scoring = self.rules, self.scoring
        # The world with no change, scored once: a sibling whose target is not changed scores as
        # it; one whose target is changed re-scores only the cards whose rules read an
        # affiliation, the target and Thought Maker, and the others keep their points there
        # (what `_same` keeps: a rule that reads no affiliation reads nothing the change
        # touches). Scoring every card for every target was most of the time of these
        # siblings, the costliest of the 16-seed hunt's slowest hands.
        base: tuple[int, dict[str, int]] | None = None
        readers = [
            n
            for n in world.standing
            if n == name or (n in scoring and "affiliation" in rules[n].relevant)
        ]
        scores = []
        for child in children:
            target = child[name].get("target")
            if target is None or target in blanked or not target_match(world.lives[target], {}):
                if base is None:
                    base = self._tally(world, world.lives, world.bonus, child, fixed_copies)
                scores.append(base)
                continue
            lives, bonus = dict(world.lives), dict(world.bonus)
            live = lives[target] = copy_live(lives[target])
            live.attrs["affiliation"] = self._wild(self.affiliations | live.attrs["affiliation"])
            bonus[name] = points
            if base is None:
                base = self._tally(world, world.lives, world.bonus, child, fixed_copies)
            scored = (
                [*readers, target]
                if target not in readers and target in world.standing
                else readers
            )
            same = self._one_changed(world, lives, base[1], scored, target)
            scores.append(self._tally(world, lives, bonus, child, fixed_copies, same))
        return scores

    def _change_scores(
        self, children: list[dict[str, Choice]], name: str, fixed_copies: dict[str, str | None]
    ) -> list[tuple[int, dict[str, int]]]:
        """`sibling_scores` for siblings that differ only in the affiliation a Thought Maker
        (`name`) gives its decided target: as `_target_scores`, the world with no change is
        placed and scored once (here for every set of siblings under the same other choices),
        and a sibling that changes its target re-scores only the cards that read an
        affiliation, the target and Thought Maker. The same world as `_world` places: no
        BLANKED UNLESS, counts-as condition or Thought Maker's target reads an affiliation, no
        card counts as something, and Borg Cube's blanking is decided (the caller's
        conditions). Each of these siblings placed and scored every card again: after the
        target siblings, the costliest sets of the 16-seed hunt's slowest hand."""
        first = children[0]
        key = tuple(
            [
                (n, tuple(c["blank"]) if n == self.assimilator else tuple(c.items()))
                for n, c in first.items()
                if n != name
            ]
        )
        cached = self.change_bases.get(key)
        if cached is None:
            no_change = {**first, name: {}}
            world = self._world(no_change)
            base = self._tally(world, world.lives, world.bonus, no_change, fixed_copies)
            rules, scoring = self.rules, self.scoring
            readers = [
                n
                for n in world.standing
                if n == name or (n in scoring and "affiliation" in rules[n].relevant)
            ]
            cached = self.change_bases[key] = (world, base, readers)
        world, base, readers = cached
        target = first[name]["target"]
        blanked = set(world.blank_choice["blank"]) if world.blank_choice else set()
        before = world.lives[target]
        changes = target not in blanked and self.change_target[name](before, {})
        points = self.effects[name]["change_affiliation"]["points"]
        scored = (
            [*readers, target] if target not in readers and target in world.standing else readers
        )
        scores = []
        # (What the siblings that change the target share: the same cards standing and changed,
        # made for the first of them.)
        same: _Same | None = None
        for child in children:
            affiliation = self._one(child[name]["affiliation"])
            if not changes or before.attrs["affiliation"] == affiliation:
                scores.append(base)  # (no change, as `_world` places it)
                continue
            lives, bonus = dict(world.lives), dict(world.bonus)
            live = lives[target] = copy_live(before)
            live.attrs["affiliation"] = affiliation
            bonus[name] = points
            if same is None:
                same = self._one_changed(world, lives, base[1], scored, target)
            scores.append(self._tally(world, lives, bonus, child, fixed_copies, same))
        return scores

    def _one_changed(
        self,
        world: _World,
        lives: dict[str, Live],
        kept: dict[str, int],
        scored: list[str],
        target: str,
    ) -> _Same | None:
        """What a sibling whose one change is `target`'s affiliation shares with the world with
        no change: the points `kept` of every standing card but the `scored` ones (the cards
        that read an affiliation, the target and Thought Maker) and the copies, scored again for
        it alone. None (every card scored) where a copy stands and the target does not: a copy
        is asked whether it may copy the changed card, which only a standing card may be."""
        copy_of = self.copy_of
        # A copy stands: it copies again among the cards it may copy, the target asked for
        # each sibling (`_tally`), the others once here. (A Thought Maker's sibling sets were
        # scored card by card with a copy standing: on the 16-seed hunt's Borg Cube hands with
        # Ensign Wesley Crusher, two fifths of their tallies.)
        copiers = [n for n in world.standing if n in copy_of]
        if copiers and target not in world.standing:
            return None
        standing_key, modified = self._keys(world.standing, lives)
        copy_options = {
            copier: [
                n
                for n in world.standing
                if n != copier
                and n != target
                and n not in copiers
                and self._may_copy(copier, lives[n])
            ]
            for copier in copiers
        }
        return _Same(
            {n: kept[n] for n in world.standing if n not in scored and n not in copy_of},
            scored,
            [],
            target,
            standing_key,
            modified,
            {},
            copiers,
            copy_options,
            {copier: {} for copier in copiers},
        )

    def _may_copy(self, copier: str, live: Live) -> bool:
        """Whether `copier` may copy the card `live` (asked once of a card as printed)."""
        if live is not self.printed[live.name]:
            return self.copy_of[copier](live, {})
        ok = self.may_copy_printed.get((copier, live.name))
        if ok is None:
            ok = self.may_copy_printed[(copier, live.name)] = self.copy_of[copier](live, {})
        return ok

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
                choice is None
                or (kind == "wild" and len(choice) < len(WILD_KEYS))
                or (
                    kind == "change_affiliation"
                    and "target" in choice
                    and "affiliation" not in choice
                )
            ):
                is_open = True
            if spec.name in blanked:
                continue
            if kind == "wild":
                choice = choice or {}
                live = lives[spec.name] = Live(spec, self.base[spec.name])
                for key in WILD_KEYS:
                    live.attrs[key] = (
                        self._one(choice[key])
                        if key in choice
                        else self.open_values[spec.name][key]
                    )
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
                        live = lives[target] = copy_live(lives[target])
                        live.attrs["affiliation"] = self._wild(
                            self.affiliations | live.attrs["affiliation"]
                        )
                        bonus[name] = points
                continue
            target = choice.get("target")
            if target and target not in blanked and "affiliation" not in choice:
                # The target is decided, its new affiliation open.
                if target_match(lives[target], {}):
                    live = lives[target] = copy_live(lives[target])
                    live.attrs["affiliation"] = self._wild(
                        self.affiliations | live.attrs["affiliation"]
                    )
                    bonus[name] = points
            elif target and target not in blanked:
                live = before_change[target] = lives[target]
                affiliation = self._one(choice["affiliation"])
                if target_match(live, {}) and live.attrs["affiliation"] != affiliation:
                    live = lives[target] = copy_live(live)
                    live.attrs["affiliation"] = (
                        self._wild(affiliation | live.attrs["affiliation"])
                        if name in maybe_blanked
                        else affiliation
                    )
                    bonus[name] = points
        # BLANKED UNLESS, in card-number order. Whether a card as printed meets a rule's
        # criteria is asked once per hand (printed Lives never change): this test, repeated for
        # every world, was two fifths of the time of the hunt's slowest hands that hold James
        # Moriarty (issue 30).
        printed, meets_printed = self.printed, self.meets_printed
        for spec in self.conditional:
            name = spec.name
            if name in blanked:
                continue
            criteria = self.rules[name].blanked_unless
            for n, other in lives.items():
                if n == name or n in blanked:
                    continue
                if other is printed[n]:
                    met = meets_printed.get((name, n))
                    if met is None:
                        met = meets_printed[(name, n)] = any(match(other, {}) for match in criteria)
                else:
                    met = any(match(other, {}) for match in criteria)
                if met:
                    break
            else:
                blanked.add(name)
        standing = [n for n in lives if n not in blanked]
        for name, (effect, when) in self.counts_as.items():
            if name in lives and name not in blanked:
                live = lives[name] = copy_live(lives[name])
                other_names = [n for n in standing if n != name]
                present = any(match(lives[n], {}) for match in when for n in other_names)
                if present and is_open:
                    # Certain only if a card that surely stands, as printed, meets it.
                    present = any(
                        match(lives[n], {})
                        for match in when
                        for n in other_names
                        if lives[n] is self.printed[n]
                        and n not in maybe_blanked
                        and not self.rules[n].blanked_unless
                    )
                    if not present:
                        for key in set(effect["set"]) | set(effect["otherwise"]):
                            live.attrs[key] = self._wild(
                                effect["set"].get(key, []) + effect["otherwise"].get(key, [])
                            )
                        continue
                for key, values in (effect["set"] if present else effect["otherwise"]).items():
                    value = frozenset(values)
                    live.attrs[key] = self.interned.setdefault(value, value)
                if live.attrs == self.printed[name].attrs:
                    lives[name] = self.printed[name]  # as printed: unchanged for every cache
        return _World(lives, standing, bonus, blank_choice, borg_open, before_change)

    def _same(
        self,
        world: _World,
        lives: dict[str, Live],
        points: dict[str, int],
        name: str,
        attributes: tuple[str, ...],
    ) -> _Same:
        """What the siblings of a first one (its `lives` and `points`) that differ from it only
        in `attributes` of `name` share with it (`_Same`)."""
        copy_of, scoring, rules = self.copy_of, self.scoring, self.rules
        readers: list[str] = []
        kept: dict[str, int] = {}
        standing_key, modified = self._keys(world.standing, lives)
        context: _Context = (standing_key, world.standing, lives, modified, {})
        settled: list[tuple[str, tuple[tuple[str, str], ...], list[int]]] = []
        for n in world.standing:
            if n in copy_of:
                continue
            if n in scoring and (
                n == name or any(attribute in rules[n].relevant for attribute in attributes)
            ):
                if n == name or n in self.choosers:
                    readers.append(n)
                else:
                    # Its points differ from sibling to sibling only by what its rule reads of
                    # `name`: what it reads of the other cards is settled once (`_given_ids`).
                    chosen = lives[n].chosen
                    chosen_key = tuple(chosen.items()) if chosen else ()
                    settled.append(
                        (n, chosen_key, self._given_ids(n, chosen, chosen_key, context, name))
                    )
            else:
                kept[n] = points[n]
        copiers = [n for n in world.standing if n in copy_of]
        copy_options = {
            copier: [
                n
                for n in world.standing
                if n != copier and n != name and n not in copiers and copy_of[copier](lives[n], {})
            ]
            for copier in copiers
        }
        return _Same(
            kept,
            readers,
            settled,
            name,
            standing_key,
            modified,
            {n: {} for n, _, _ in settled},
            copiers,
            copy_options,
            {copier: {} for copier in copiers},
        )

    def _ship_context(
        self, partial: Mapping[str, Choice], ship: str, fixed_copies: dict[str, str | None]
    ) -> _ShipContext | None:
        """The world of `partial` (`_world`) and what it shares (`_Same`) with every world that
        differs from it only in the Unidentified Ship's attributes, made once per hand and
        shared: the search meets hundreds of such worlds below each of the other choices, and
        placed every card again, and scored every card once, for each set of siblings. None
        where the Ship's attributes may change more than the cards whose rules read them
        (`sibling_scores` then places the cards for each set of siblings).

        Why it is the same world: the other cards are placed from the other choices, and from
        the Ship only through the attributes a BLANKED UNLESS, counts-as condition or Thought
        Maker's target reads (`structural`, part of the key, as is whether any of the Ship's
        attributes is open: a counts-as condition is read more cautiously then). A Thought
        Maker that changed the Ship to a decided affiliation scores only if the Ship's own
        differs: not shared. The cards whose rules read none of the Ship's attributes score
        alike in every such world (kept in `_Same`); the others are scored for each."""
        for changer in self.change_target:
            change = partial.get(changer)
            if change and change.get("target") == ship and "affiliation" in change:
                return None
        choice = partial.get(ship, {})
        # (Each choice as its items, in the order they were made: the same choices made in
        # another order only miss the cache. Borg Cube's blanking is a list: as a tuple.)
        key = (
            ship,
            tuple(
                [
                    (n, tuple(c["blank"]) if n == self.assimilator else tuple(c.items()))
                    for n, c in partial.items()
                    if n != ship
                ]
            ),
            tuple([choice.get(k) for k in self.structural_wild]),
            len(choice) < len(WILD_KEYS),
        )
        context = self.ship_contexts.get(key)
        if context is None:
            world = self._world(partial)
            if ship not in world.standing:
                return None
            _, points = self._tally(world, world.lives, world.bonus, partial, fixed_copies)
            # The Thought Makers that may still change the Ship to any affiliation.
            blank_choice = partial.get(self.assimilator) if self.assimilator else None
            blanked = set(blank_choice["blank"]) if blank_choice else set()
            changers = []
            for changer, target_match in self.change_target.items():
                change = partial.get(changer)
                if changer not in blanked and (
                    (change is None and ship in self.change_targets[changer])
                    or (change and change.get("target") == ship)
                ):
                    changers.append(target_match)
            context = self.ship_contexts[key] = (
                world,
                self._same(world, world.lives, points, ship, WILD_KEYS),
                changers,
                {},
            )
        return context

    def _narrow(self, shared: _Same, points: dict[str, int], attribute: str) -> _Same:
        """What siblings that differ only in one `attribute` of the Ship share, out of what
        every world of their `_ship_context` shares (`shared`) and the first sibling's
        `points`: the cards whose rules do not read that attribute keep their points."""
        rules = self.rules
        kept = dict(shared.kept)
        settled = []
        for entry in shared.settled:
            if attribute in rules[entry[0]].relevant:
                settled.append(entry)
            else:
                kept[entry[0]] = points[entry[0]]
        readers = []
        for name in shared.readers:
            if name == shared.changed or attribute in rules[name].relevant:
                readers.append(name)
            else:
                kept[name] = points[name]
        return _Same(
            kept,
            readers,
            settled,
            shared.changed,
            shared.standing_key,
            shared.modified,
            shared.by_reader,
            shared.copiers,
            shared.copy_options,
            shared.may_copy,
        )

    def _ship_live(self, partial: Mapping[str, Choice], ship: str, changers: list[Match]) -> Live:
        """The Unidentified Ship as `_world` places it under `partial` (not blanked, and no
        Thought Maker has changed it to a decided affiliation: `_ship_context`): its chosen
        attributes, its open ones any of their values, and while a Thought Maker (`changers`,
        whom it may target) may still change it, any affiliation."""
        choice = partial.get(ship, {})
        live = Live(self.by_name[ship], self.base[ship])
        attrs, open_values = live.attrs, self.open_values[ship]
        for key in WILD_KEYS:
            attrs[key] = self._one(choice[key]) if key in choice else open_values[key]
        for target_match in changers:
            if target_match(live, {}):
                attrs["affiliation"] = self._wild(self.affiliations | attrs["affiliation"])
        return live

    def _keys(
        self, standing: list[str], lives: dict[str, Live]
    ) -> tuple[frozenset[str], tuple[str, ...]]:
        """The standing cards as a set and those changed from their printing, interned (a
        cache key compares as quickly as its parts are the same objects)."""
        interned, printed = self.interned, self.printed
        changed = []
        for n in standing:
            if lives[n] is not printed[n]:
                changed.append(n)
        modified = tuple(changed)
        modified = interned.setdefault(modified, modified)
        standing_key = frozenset(standing)
        standing_key = interned.setdefault(standing_key, standing_key)
        return standing_key, modified

    def _tally(
        self,
        world: _World,
        lives: dict[str, Live],
        bonus: dict[str, int],
        partial: Mapping[str, Choice],
        fixed_copies: dict[str, str | None],
        same: _Same | None = None,
    ) -> tuple[int, dict[str, int]]:
        """Every standing card's points, and the total, in a world (`_world`). `same`: what a
        sibling world that differed only in one attribute of one card shares with this one
        (`_same`): the cards whose rule does not read that attribute score as there, and only
        the others are scored."""
        standing, blank_choice, borg_open = world.standing, world.blank_choice, world.borg_open
        assimilator = self.assimilator
        copy_of = self.copy_of
        copiers = [n for n in standing if n in copy_of] if same is None else same.copiers
        printed = self.printed
        points: dict[str, int]
        if same is None:
            points = {}
            standing_key, modified = self._keys(standing, lives)
            scored = standing
        else:
            points = dict(same.kept)
            standing_key, modified = same.standing_key, same.modified
            scored = same.readers
        projections: dict[Any, tuple[frozenset[str], ...]] = {}
        context: _Context = (standing_key, standing, lives, modified, projections)
        scoring, rules, choosers = self.scoring, self.rules, self.choosers
        quick_cache, chooser_cache = self.quick_cache, self.chooser_cache
        if same is not None:
            # The readers of the changed attribute (`_same`): only what their rule reads of the
            # changed card is looked at; the rest of their cache key is the first sibling's.
            changed = lives[same.changed]
            memo, points_cache = self.signature_memo, self.points_cache
            by_reader = same.by_reader
            attrs = changed.attrs
            for name, chosen_key, given in same.settled:
                rule = rules[name]
                # (What it reads of the changed card, spelt out for the usual one or two
                # attributes: a comprehension here was a twentieth of the search's time.)
                relevant = rule.relevant
                reads: tuple[frozenset[str], ...]
                if len(relevant) == 1:
                    reads = (attrs[relevant[0]],)
                elif len(relevant) == 2:
                    reads = (attrs[relevant[0]], attrs[relevant[1]])
                else:
                    reads = tuple([attrs[a] for a in relevant])
                # (Its points for what it reads of the changed card, among these siblings.)
                found = by_reader[name].get(reads)
                if found is None:
                    memo_key = (name, chosen_key, same.changed, reads)
                    found = memo.get(memo_key)
                    if found is None:
                        found = memo[memo_key] = self._signature(rule, changed, lives[name].chosen)
                    ids = list(given)
                    insort(ids, found)
                    key = (name, chosen_key, tuple(ids))
                    found = points_cache.get(key)
                    if found is None:
                        givers = [lives[n] for n in standing if n != name]
                        found = points_cache[key] = settle_points(rule, lives[name], givers)
                    by_reader[name][reads] = found
                points[name] = found + bonus.get(name, 0)
        for name in scored:
            if name in copy_of:
                continue
            if name not in scoring:  # no bonuses of its own
                points[name] = bonus.get(name, 0)
                continue
            # The cached points looked up here first, on the keys `_points` and `_best_chosen`
            # store them under (a call per card cost as much as the lookup: issue 30).
            relevant = rules[name].relevant
            # (`_projection`, inlined: it ran for every card of every tally.)
            pkey: Any = relevant if name not in modified else (relevant, name)
            projection = projections.get(pkey)
            if projection is None:
                if len(relevant) == 1:
                    a = relevant[0]
                    projection = tuple([lives[n].attrs[a] for n in modified if n != name])
                else:
                    projection = tuple(
                        [lives[n].attrs[a] for n in modified if n != name for a in relevant]
                    )
                projections[pkey] = projection
            live = lives[name]
            if name in choosers and name not in partial:
                # An open choice read only by its own card's rule: its best value, exactly.
                found = chooser_cache.get((name, standing_key, modified, projection))
                if found is None:
                    found = self._best_chosen(live, context)
            else:
                chosen = live.chosen
                chosen_key = tuple(chosen.items()) if chosen else ()
                quick = (name, chosen_key, standing_key, modified, projection)
                found = quick_cache.get(quick)
                if found is None:
                    found = self._settled(live, chosen_key, projection, quick, context)
            points[name] = found + bonus.get(name, 0)
        for name in copiers if same is not None else ():
            # Among siblings only the changed card may become or stop being one it may copy.
            assert same is not None  # (the loop runs only with it)
            options = same.copy_options[name]
            changed_name = same.changed
            if changed_name != name and changed_name not in copiers:
                changed = lives[changed_name]
                copy_reads = tuple([changed.attrs[a] for a in self.copy_reads[name]])
                may = same.may_copy[name].get(copy_reads)
                if may is None:
                    may = same.may_copy[name][copy_reads] = self.copy_of[name](changed, {})
                if may:
                    options = [*options, changed_name]
            if name in fixed_copies:
                options = [n for n in options if n == fixed_copies[name]]
            points[name] = max((points[n] for n in options), default=0)
        for name in copiers if same is None else ():
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
                gains = sorted(
                    (points[assimilator] - points.get(n, 0) for n in self.assimilable), reverse=True
                )
                total += sum(g for g in gains[: self.assimilate_max] if g > 0)
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
        projection = self._projection(receiver.name, rule.relevant, context)
        key = (receiver.name, standing_key, modified, projection)
        best = self.chooser_cache.get(key)
        if best is None:
            left_out = self._unchanged_left_out(receiver.name, rule.relevant, projection, modified)
            canonical = (receiver.name, standing_key, left_out)
            best = self.canonical_chooser.get(canonical)
            if best is not None:
                self.chooser_cache[key] = best
                return best
            best = 0
            if rule.bonuses:
                # `_points` for each value, inlined: the same keys, looked up and stored alike
                # (this runs for each world the open choice is met in: a fifth of the time of
                # the hunt's slowest hand, issue 30).
                quick_cache, name = self.quick_cache, receiver.name
                for chosen, chosen_key in self.chooser_keys[name]:
                    quick = (name, chosen_key, standing_key, modified, projection)
                    points = quick_cache.get(quick)
                    if points is None:
                        live = Live(receiver.spec, receiver.attrs)
                        live.chosen = chosen
                        points = self._settled(
                            live, chosen_key, projection, quick, context, left_out
                        )
                    if points > best:
                        best = points
            self.chooser_cache[key] = self.canonical_chooser[canonical] = best
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
        standing_key, _, _, modified, _ = context
        name, chosen = receiver.name, receiver.chosen
        chosen_key = tuple(chosen.items()) if chosen else ()
        projection = self._projection(name, rule.relevant, context)
        quick = (name, chosen_key, standing_key, modified, projection)
        points = self.quick_cache.get(quick)
        if points is not None:
            return points
        return self._settled(receiver, chosen_key, projection, quick, context)

    def _settled(
        self,
        receiver: Live,
        chosen_key: tuple[tuple[str, str], ...],
        projection: tuple[frozenset[str], ...],
        quick: tuple[Any, ...],
        context: _Context,
        left_out: tuple[Any, ...] | None = None,
    ) -> int:
        """`_points` past its quick cache (`quick`, its key, missed): on what the rule reads of
        every giving card. `left_out`: `_unchanged_left_out`, when the caller has it."""
        name = receiver.name
        standing_key, standing, lives, modified, _ = context
        rule = self.rules[name]
        if left_out is None:
            left_out = self._unchanged_left_out(name, rule.relevant, projection, modified)
        canonical = (name, chosen_key, standing_key, left_out)
        points = self.canonical_cache.get(canonical)
        if points is not None:
            self.quick_cache[quick] = points
            return points
        key = (
            name,
            chosen_key,
            tuple(self._given_ids(name, receiver.chosen, chosen_key, context, None, projection)),
        )
        points = self.points_cache.get(key)
        if points is None:
            givers = [lives[n] for n in standing if n != name]
            points = self.points_cache[key] = settle_points(rule, receiver, givers)
        self.quick_cache[quick] = self.canonical_cache[canonical] = points
        return points

    def _unchanged_left_out(
        self,
        name: str,
        relevant: tuple[str, ...],
        projection: tuple[frozenset[str], ...],
        modified: tuple[str, ...],
    ) -> tuple[Any, ...]:
        """What a card's rule reads (`relevant`) of the other changed cards (`projection`, as
        `_projection` lists it), less the cards it reads as printed: each card it reads
        changed, by name, with what it reads of it.

        Why: the quick caches are keyed on every changed card, but a rule reads a changed card
        whose changed attributes it does not read (Thought Maker's target, to a rule that
        reads no affiliation) exactly as the card as printed: such keys name the same points.
        The hunt's slowest hands missed the quick caches three times as often as this key
        (Mysterious Plague's best value: a fifth of their time)."""
        if not modified:
            return ()
        width, start = len(relevant), 0
        printed_reads = self.printed_reads
        parts: list[Any] = []
        for n in modified:
            if n == name:
                continue
            reads = projection[start : start + width]
            start += width
            printed = printed_reads.get((relevant, n))
            if printed is None:
                attrs = self.printed[n].attrs
                printed = printed_reads[(relevant, n)] = tuple([attrs[a] for a in relevant])
            if reads != printed:
                parts.append(n)
                parts.append(reads)
        return tuple(parts)

    def _given_ids(
        self,
        name: str,
        chosen: Mapping[str, str],
        chosen_key: tuple[tuple[str, str], ...],
        context: _Context,
        leaving: str | None,
        projection: tuple[frozenset[str], ...] | None = None,
    ) -> list[int]:
        """What a card's rule (with its `chosen` values) reads of each other standing card but
        `leaving`, as the sorted ids of `_signature` (the key of `points_cache`, with its name
        and choice). `projection`: what the rule reads of the changed cards (`_projection`),
        when it is at hand. The list may be a cached one: not to be changed."""
        rule = self.rules[name]
        standing_key, standing, lives, modified, _ = context
        base_key = (name, chosen_key, standing_key, modified)
        ids = self.printed_ids.get(base_key)
        if ids is None:
            memo = self.printed_signatures
            ids = []
            for n in standing:
                if n != name and n not in modified:
                    found = memo.get((name, chosen_key, n))
                    if found is None:
                        found = memo[(name, chosen_key, n)] = self._signature(
                            rule, lives[n], chosen
                        )
                    ids.append(found)
            ids.sort()
            self.printed_ids[base_key] = ids
        if modified:
            memo = self.signature_memo
            extra = []
            # (The projection holds what the rule reads of each other changed card, in turn.)
            width, start = len(rule.relevant), 0
            for n in modified:
                if n != name:
                    if projection is not None:
                        reads = projection[start : start + width]
                        start += width
                    else:
                        reads = tuple([lives[n].attrs[a] for a in rule.relevant])
                    if n == leaving:
                        continue
                    memo_key = (name, chosen_key, n, reads)
                    found = memo.get(memo_key)
                    if found is None:
                        found = memo[memo_key] = self._signature(rule, lives[n], chosen)
                    extra.append(found)
            ids = sorted(ids + extra)
        return ids

    @staticmethod
    def _projection(
        name: str, relevant: tuple[str, ...], context: _Context
    ) -> tuple[frozenset[str], ...]:
        """What a card's rule reads (`relevant`) of the other changed cards, shared by the rules
        that read the same attributes. Not of the card itself: its points never depend on its own
        attributes (a card never counts towards its own bonus; `_points`'s settlement is keyed
        on the other cards alone), so a Thought Maker's change of the receiving card itself
        leaves its points cached (issue 30)."""
        _, _, lives, modified, projections = context
        key: Any = relevant if name not in modified else (relevant, name)
        projection = projections.get(key)
        if projection is None:
            projection = projections[key] = tuple(
                [lives[n].attrs[a] for n in modified if n != name for a in relevant]
            )
        return projection

    def _wild(self, values: Iterable[str]) -> WildSet:
        """The WildSet of these values, shared (a cache key holding it compares by identity,
        not by WildSet.__eq__)."""
        wild = WildSet(values)
        return cast(WildSet, self.interned.setdefault(wild, wild))

    def _one(self, value: str) -> frozenset[str]:
        """The one-value set of a chosen value, shared (its hash is computed once)."""
        one = self.singletons.get(value)
        if one is None:
            one = self.singletons[value] = frozenset([value])
        return one

    def _signature(self, rule: CompiledRule, giver: Live, chosen: Mapping[str, str]) -> int:
        """What a rule reads of a giving card, as a number shared by every card alike to it."""
        attrs = giver.attrs
        signature = (
            tuple(atom(giver, chosen) for atom in rule.atoms),
            tuple(attrs[a] for a in rule.counted),
        )
        return self.signatures.setdefault(signature, len(self.signatures))


@dataclass
class _Same:
    """What sibling worlds differing in one attribute of one card share (`_same`): the points
    of the cards whose rule does not read it, the standing cards that do (scored for each
    sibling), and the keys of the cards standing and changed."""

    kept: dict[str, int]
    readers: list[str]
    # The other readers, each with its choice (as in `_points`'s keys) and what its rule reads of
    # every standing card but the changed one (`_given_ids`).
    settled: list[tuple[str, tuple[tuple[str, str], ...], list[int]]]
    changed: str
    standing_key: frozenset[str]
    modified: tuple[str, ...]
    # Each settled reader's points (less Thought Maker's) for what its rule reads of the changed
    # card, filled in as the siblings meet them.
    by_reader: dict[str, dict[tuple[frozenset[str], ...], int]]
    copiers: list[str]
    # The cards each copy may copy, the changed card left out (it is asked for each sibling, and
    # remembered on its attributes).
    copy_options: dict[str, list[str]]
    may_copy: dict[str, dict[tuple[frozenset[str], ...], bool]]


@dataclass
class _World:
    lives: dict[str, Live]
    standing: list[str]
    bonus: dict[str, int]  # Thought Maker's points for its change
    blank_choice: Choice | None
    borg_open: bool
    before_change: dict[str, Live]  # a Thought Maker's target as it stood before the change


# A world shared by the worlds that differ only in the Unidentified Ship's attributes
# (`_ship_context`): the world, what its cards share, the Thought Makers that may change the Ship,
# and the Ship as placed for each choice of it (its attributes in WILD_KEYS order, None: open).
_ShipContext = tuple[_World, _Same, list[Match], dict[tuple[str | None, ...], Live]]

# What _points reads of one tally: the standing cards (as a set, and in order), the cards as they
# stand, those changed from their printing, and what each rule's relevant attributes read of them
# (filled in as the rules ask, `_projection`).
_Context = tuple[
    frozenset[str],
    list[str],
    dict[str, Live],
    tuple[str, ...],
    dict[Any, tuple[frozenset[str], ...]],
]
