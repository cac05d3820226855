"""Scores a final hand of Star Trek: Missions at its best choices (plain Python, no Django import):
`HandScorer`, and its search over the choices nobody fixed.

Order (STM-R3): the players' choices, then blanking (Borg Cube's, then BLANKED UNLESS in card-number
order against the cards not blanked), then attribute changes (counts as …), then every card that is
not blanked scores. A card never counts towards its own bonus, and a giving card grants one bonus
at most to each receiving card (STM-7.3, STM-R1): each receiving card's bonuses are settled by an
exact maximum-weight assignment of the giving cards, never greedily. "Different" counts are the
largest number of values that can be assigned one per card (STM-R2). Choices nobody fixed are the
ones that give the highest total (STM-R4).

The scorer is built in layers, one module each, every module importing only those listed before
it (import-linter's "stm-scorer" contract in pyproject.toml holds it):

- language.py: the rule language (what a card's rule may say, and its card text);
- rules.py: a card of the hand (`CardSpec`, `Live`) and its rule compiled into the tests the
  scorer runs (`compile_rule`);
- bonuses.py: one receiving card's bonuses settled from the giving cards (`settle`);
- hand.py: one hand with every choice decided, evaluated in the order above (`Hand.evaluate`);
- choices.py: a choice the player fixed checked (`ChoiceError`, STM-R15), and the values worth
  trying for the others (`HandChoices.candidates`);
- bounds.py: fast totals for the search, exact or upper bounds, cached on what each rule reads
  (`HandBounds.score_points`);
- this module: the search (`HandScorer.best`);
- explain.py: the best evaluation as the response (per-card lines, steps that add up), and
  `score_hand`, the entry point engine.HandBoard.score calls.

The choices are found by an exact depth-first branch-and-bound search (`HandScorer.best`,
`_Search`), not by trying every combination: values no card of the hand can tell apart are tried
once (choices.py); a branch is skipped when an optimistic scoring of the hand with its open
choices (bounds.py, `score_points`) cannot beat the best total found; the most telling choice is
searched first (`_order_dims`). The winner is then evaluated once more in full for its explanation
(hand.py, `evaluate`). The tests and bench/stm.py hold it to plain enumeration of every allowed
value of every choice (tests/engines/star_trek_missions_reference.py), which shares none of this
code but the evaluation of one fully fixed assignment (hand.Hand: `evaluate`, and bonuses.settle).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from .bounds import HandBounds
from .hand import Evaluation
from .language import ATTRIBUTES
from .rules import WILD_KEYS, CardSpec, Choice, WildSet

FEW_LEAVES = 16  # fewer combinations than this are simply all tried: bounds would cost more
# A table of pairs of the Ship's attributes (`_Search._branch_table`) is made only for branches
# holding at least this many times as many combinations as it costs sibling scores.
PAIR_TABLE_SHARE = 5

# One open choice of the search: (card, part of its choice or None, the values to try; for Thought
# Maker's affiliation, the values for each target).
Dim = tuple[str, str | None, list[Any] | dict[str | None, list[Any]]]
# A branch of the search: the index of its value at each level, from the first (the dive and the
# search build the same branch from the same path, so its bound is remembered on it: a path is
# quicker to hash than the choices it leads to).
Path = tuple[int, ...]


class HandScorer(HandBounds):
    """Scores one hand at its best choices (`best`): the hand (hand.Hand), its choices
    (choices.HandChoices) and their fast scoring (bounds.HandBounds), searched."""

    def __init__(self, hand: Sequence[CardSpec], vocabulary: Mapping[str, Sequence[str]]) -> None:
        super().__init__(hand, vocabulary)
        # Cards whose choice only their own rule reads ("choose": Mysterious Plague).
        self.choosers_of = {
            spec.name for spec, effect in self._choice_cards if effect["kind"] == "choose"
        }
        self.searched: dict[str, int] = {}  # what the last search did (bounds, evaluations)
        # Each open choice's children at the search's root, scored (`sibling_scores`) while
        # `_order_dims` judges them: (card, part) -> [(total, points)], in its values' order.
        self.root_scores: dict[tuple[str, str | None], list[tuple[int, dict[str, int]]]] = {}

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
        enumeration of every allowed value of every choice
        (tests/engines/star_trek_missions_reference.py), which shares none of this code."""
        # A value a fixed choice names is told apart from the others (Mysterious Plague fixed
        # on Klingon with no Klingon in the hand: the Ship may be the Klingon it counts).
        self.fixed_values = {}
        self.root_scores = {}
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
            if (
                key is not None
                and key != "target"
                and isinstance(values, list)
                and len(values) == 1
                and name in self.wilds
            ):
                decided[name] = {**decided.get(name, {}), key: values[0]}
        dims = [
            d
            for d in dims
            if not (d[0] in self.wilds and isinstance(d[2], list) and len(d[2]) == 1)
        ]
        if not dims:
            self.searched = {"bounds": 0, "evaluations": 1, "pruned": 0}
            best = self.evaluate(decided, fixed_copies)
            if last:
                best = self.evaluate(
                    self._choose_last(best.choices, last, fixed_copies), fixed_copies
                )
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

    def _choose_last(
        self, decided: Mapping[str, Choice], last: list[Dim], fixed_copies: dict[str, str | None]
    ) -> dict[str, Choice]:
        """The choices only their own card reads, each at its first best value (they do not
        touch one another)."""
        combination = {
            name: choice
            for name, choice in decided.items()
            if "copies" not in choice or name in fixed_copies
        }
        for name, _, values in last:
            totals = [
                self.evaluate({**combination, name: value}, fixed_copies).total
                for value in cast(list[Choice], values)
            ]
            combination[name] = cast(list[Choice], values)[totals.index(max(totals))]
        return combination

    def _search_space(
        self, fixed: Mapping[str, Choice]
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

    def _order_dims(
        self, dims: list[Dim], decided: dict[str, Choice], fixed_copies: dict[str, str | None]
    ) -> list[Dim]:
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

        def child(
            partial: dict[str, Choice], name: str, key: str | None, value: Any
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
            if (
                dim[1] == "affiliation"
                and units
                and units[-1][0][0] == dim[0]
                and units[-1][0][1] == "target"
            ):
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
                # (Siblings: scored together, as the search scores them, `sibling_totals`.)
                scores = self.sibling_scores(children, name, key, fixed_copies)
                if not order:  # at the root: kept for the search's clip tables (`_clip_tables`)
                    self.root_scores[(name, key)] = scores
                bounds = [total for total, _ in scores]
                telling = root - sum(bounds) / len(bounds)
                # The path goes on with the most promising value, but not one in which Borg
                # Cube blanks a card whose choice is still to be placed: that card's choice
                # would then tell nothing on the path and be placed last, where under every
                # other blanking it tells the most.
                later = {units[j][0][0] for j in remaining if j != i}
                keeps = [
                    k
                    for k, c in enumerate(children)
                    if name != self.assimilator or not later & set(c[name]["blank"])
                ] or list(range(len(children)))
                top = max(keeps, key=lambda k: (bounds[k], -k))
                judged.append((-telling, sizes[i], i, bounds[top], children[top]))
            _, _, pick, root, partial = min(judged, key=lambda j: j[:3])
            order.append(pick)
            remaining.remove(pick)
        order += remaining
        return [dim for i in order for dim in units[i]]


def _least_lost(points: dict[str, int], cards: list[str], ceilings: list[list[int]]) -> int:
    """The least, over the rows of `ceilings` (one per value of an open choice), a branch's
    total loses when each of `cards` scores at most its ceiling there."""
    kept = [points.get(card, 0) for card in cards]
    return min(
        sum(p - c for p, c in zip(kept, ceiling, strict=True) if p > c) for ceiling in ceilings
    )


def _either_pairs(hand: Sequence[CardSpec]) -> set[tuple[str, str]]:
    """The pairs of attributes the hand's rules read as alternatives (two items of one "any",
    one reading each: "a Romulan Lifeform or Affiliation"). One attribute's table cannot lower a
    bound through such a rule (`_branch_table`)."""

    def reads(node: Any) -> set[str]:
        if isinstance(node, dict):
            found = {key for key in node if key in WILD_KEYS}
            for value in node.values():
                found |= reads(value)
            return found
        if isinstance(node, list):
            return set().union(*(reads(item) for item in node))
        return set()

    found: set[tuple[str, str]] = set()

    def pairs(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("any"), list):
                items = [reads(item) for item in node["any"]]
                for i, one in enumerate(items):
                    for other in items[i + 1 :]:
                        found.update((a, b) for a in one for b in other if a != b)
            for value in node.values():
                pairs(value)
        elif isinstance(node, list):
            for item in node:
                pairs(item)

    for spec in hand:
        pairs(spec.rule)
    return found


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

    def __init__(
        self,
        scorer: HandScorer,
        dims: list[Dim],
        fixed_copies: dict[str, str | None],
        bounded: bool = True,
    ):
        self.bounded = bounded
        self.scorer = scorer
        self.dims = dims
        self.fixed_copies = fixed_copies
        self.best_total: int | None = None
        self.best_combination: dict[str, Choice] | None = None
        self.bounds: dict[Path, int] = {}
        # With Borg Cube in the hand, the bounds above are not clipped (the branches are
        # entered in their order, as before); a branch is skipped on its clipped bound, made
        # only when the bound above would not skip it (`_skipped`).
        self.tight: dict[Path, int] = {}
        # Each clip table with a blanking decided (`_blanked_table`): (level, blanked cards).
        self.blanked_tables: dict[
            tuple[int, tuple[str, ...]], tuple[list[str], list[list[int]]]
        ] = {}
        self.last_wild = False  # whether `_last_table` is made (`run`)
        self.last_made = 0  # the tables `_last_table` made
        self.last_skips = 0  # the branches they skipped
        self.clip_root: dict[str, int] = {}  # each card's points at the root (`_clip_tables`)
        # With Borg Cube in the hand and the last choice one of the Ship's attributes: per
        # branch three levels above the last, each card's points with that attribute set to
        # each of its values (`_last_table`).
        self.last_tables: dict[Path, tuple[list[str], list[list[int]]] | None] = {}
        # Each bounded branch's cards' points, for its children's sibling sets (`sibling_scores`).
        self.points: dict[Path, dict[str, int]] = {}
        self.scored: set[Path] = set()  # the parents of the sibling sets scored
        self.counts = {"bounds": 0, "evaluations": 0, "pruned": 0, "clipped": 0}
        # Per level of an Unidentified Ship's attribute: the cards its values may cost points,
        # and each value's ceiling on their points (`_clip_tables`).
        self.clips: dict[int, tuple[list[str], list[list[int]]]] = {}
        # Without Borg Cube: the first level from which every choice is one of the Ship's
        # attributes, when others come before it (None: no such level or no table made), and
        # per branch at that level its table of pairs (`_branch_table`).
        self.ship_from: int | None = None
        self.root: dict[str, Choice] = {}  # the root's partial combination (`run`)
        self.branch_tables: dict[Path, tuple[list[str], list[list[int]], int]] = {}
        self.tables_made = 0  # the tables of pairs made (`_branch_clipped`)
        self.table_skips = 0  # the branches they skipped
        self.pair = (0, 0)  # the levels of the two attributes of those tables (`_ship_from`)
        # Each bound before the root's clip tables lowered it, while `ship_from` is set.
        self.totals: dict[Path, int] = {}

    def run(self, decided: dict[str, Choice]) -> Evaluation:
        self.root = decided
        if self.bounded:
            self.clips = self._clip_tables(decided)
            name, key, values = self.dims[-1]
            self.last_wild = (
                self.scorer.assimilator is not None
                and name in self.scorer.wilds
                and key in WILD_KEYS
                and isinstance(values, list)
                and len(values) > 1
                and len(self.dims) > 3
                # (The level between one of the Ship's attributes too: Thought Maker's few
                # affiliations per target are bounded for about what a table costs, and the
                # tables that skipped them added a thirtieth to FOUND[22]'s instructions.)
                and self.dims[-2][0] in self.scorer.wilds
            )
            if self.scorer.assimilator is None and not self.clips:
                # (Only where the root's tables lower nothing: where they do, the tables below
                # cost more than they saved on the hunts' slowest hands, 0.5-0.9 times.)
                self.ship_from = self._ship_from()
        # (Its first descent, the branch with the highest bound at each level, is a greedy dive:
        # a good total found first, below which every branch is skipped.)
        if self.bounded and len(self.dims) > 2:
            # A dive down each first-level branch, the most promising first, before the full
            # search: a good total found in every branch early prunes the others' subtrees
            # sooner (their bounds are kept for the search).
            children = [self._child(decided, 0, value) for value in self._values(0, decided)]
            bounds = self._child_bounds(0, children, ())
            for i in sorted(range(len(children)), key=lambda i: -bounds[i]):
                if not self._skipped(0, children[i], (i,)):
                    self._dive(1, children[i], (i,))
        self._visit(0, decided, ())
        assert self.best_combination is not None
        # The winner's explanation: one full evaluation (an Unidentified Ship's choice in its
        # usual order: type, lifeform, affiliation, specialty).
        best = {
            name: (
                {key: choice[key] for key in WILD_KEYS}
                if name in self.scorer.wilds and len(choice) == len(WILD_KEYS)
                else choice
            )
            for name, choice in self.best_combination.items()
        }
        return self.scorer.evaluate(best, self.fixed_copies)

    def _values(self, level: int, partial: dict[str, Choice]) -> list[Any]:
        name, _, values = self.dims[level]
        scorer = self.scorer
        if scorer.assimilator in partial and name in partial[scorer.assimilator]["blank"]:
            # Blanked, its choice changes nothing (STM-R13): the first value stands for all.
            return (
                values[partial[name].get("target")][:1] if isinstance(values, dict) else values[:1]
            )
        # A Thought Maker's affiliations depend on its target.
        return values[partial[name].get("target")] if isinstance(values, dict) else values

    def _children(self, level: int, partial: dict[str, Choice]) -> list[dict[str, Choice]]:
        """`_child` of each value of `level` worth trying under `partial`, in order (inlined:
        the search makes thousands)."""
        name, key, _ = self.dims[level]
        children = []
        if key is None:
            for value in self._values(level, partial):
                child = dict(partial)
                child[name] = value
                children.append(child)
            return children
        before = partial.get(name, {})
        for value in self._values(level, partial):
            child = dict(partial)
            if value is not None:
                choice = dict(before)
                choice[key] = value
                child[name] = choice
            else:
                child[name] = {}  # Thought Maker changes nothing
            children.append(child)
        return children

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

    def _beaten(self, bound: int) -> bool:
        """Whether a branch bounded by `bound` cannot hold a new best: it cannot beat the best
        total found."""
        self.counts["bounds"] += 1
        if self.best_total is not None and bound <= self.best_total:
            self.counts["pruned"] += 1
            return True
        return False

    def _skipped(self, level: int, child: dict[str, Choice], path: Path) -> bool:
        """Whether the branch `child` (at `level`, on `path`) cannot hold a new best
        (`_beaten`). With Borg Cube in the hand its bound is not clipped (`_child_bounds`):
        where that bound alone does not skip it, with Borg Cube's blanking decided, it is
        clipped here by the Ship's attributes still open (`_clipped`, `_clip_tables`), and
        two levels or one above the last by the last one's values when it is one of the Ship's
        attributes (`_last_table`), and skipped on that.

        Why the reported choices stay the same: the branches are entered in the order of the
        unclipped bounds, as before, and a branch skipped only on its clipped bound holds no
        total above the best found before it, so it would have changed nothing: the best totals
        are found in the same order. Clipping every bound was as costly as what it saved on
        some of the 16-seed hunt's Borg Cube hands; only a bound that would not prune is
        clipped."""
        bound = self.bounds[path]
        borg = self.scorer.assimilator
        if borg is None:
            if (
                self.ship_from is not None
                and level >= self.ship_from
                and self.best_total is not None
                and bound > self.best_total
            ):
                tight = self.tight.get(path)
                if tight is None:
                    tight = self.tight[path] = self._branch_clipped(level, bound, path)
                    if tight <= self.best_total:
                        self.table_skips += 1
                bound = tight
            return self._beaten(bound)
        if (
            borg is not None
            and self.best_total is not None
            and bound > self.best_total
            and borg in child
        ):
            tight = self.tight.get(path)
            if tight is None:
                points = self.points[path]
                tight = bound
                if self.clips:
                    blanked = tuple(child[borg]["blank"])
                    tight = self._clipped(level, bound, points, blanked)
                last = len(self.dims) - 1
                if tight > self.best_total and last - 3 < level < last and self.last_wild:
                    table = None
                    if level == last - 1:
                        table = self.last_tables.get(path[:-1])
                    elif self.last_made < 4 or 4 * self.last_skips >= self.last_made:
                        # (Made while at least one in four skips its branch or one of its
                        # children: where they skip none, they only add to the search.)
                        table = self._last_table(child, path)
                    if table is not None:
                        tight = min(tight, bound - _least_lost(points, *table))
                        if tight <= self.best_total:
                            self.last_skips += 1
                self.tight[path] = tight
            bound = tight
        return self._beaten(bound)

    def _ship_from(self) -> int | None:
        """The first level from which every open choice is one of the Unidentified Ship's
        attributes, when another choice (Thought Maker's) comes first and three of them at
        least follow (with two, a branch's table of pairs would cost what its combinations
        do), and two of them, decided after the first, a rule reads as alternatives
        (`_either_pairs`; the levels of the pair decided last are kept in `pair`); else None."""
        scorer = self.scorer
        level = len(self.dims)
        while level > 0:
            name, key, values = self.dims[level - 1]
            if name not in scorer.wilds or key not in WILD_KEYS or not isinstance(values, list):
                break
            level -= 1
        if level == 0 or len(self.dims) - level < 3:
            return None
        keys = {cast(str, self.dims[at][1]): at for at in range(level, len(self.dims))}
        # The pair decided last: every branch above it is clipped by the whole table, and a
        # pair whose first attribute is decided first (`level`) lowers little more than the
        # bounds do (Maddox's hand, FOUND[0], with its Affiliation and Lifeform: 0.88 times
        # the instructions).
        pairs = sorted(
            (
                sorted((keys[a], keys[b]))
                for a, b in _either_pairs(scorer.hand)
                if a in keys and b in keys
            ),
            reverse=True,
        )
        if not pairs or pairs[0][0] == level:
            return None
        first, second = pairs[0]
        # A table costs a sibling score per value of the first attribute and per pair; where
        # a branch holds fewer than PAIR_TABLE_SHARE times as many combinations, the bounds
        # alone cut it about as well (Maddox's hand, FOUND[0], 90 against 24: 0.89 times the
        # instructions; the 45 ms hand 300 against 30).
        combinations = 1
        for _, _, values in self.dims[level:]:
            combinations *= len(values)
        cost = len(self.dims[first][2]) * (1 + len(self.dims[second][2]))
        if combinations < PAIR_TABLE_SHARE * cost:
            return None
        self.pair = (first, second)
        return level

    def _branch_clipped(self, level: int, bound: int, path: Path) -> int:
        """A branch's bound (`bound`, at `level` on `path`) lowered by the table of the branch
        above it from which only the Ship's attributes are open (`_branch_table`): the most,
        over the pairs of values of the two attributes (`pair`) the branch may still take, of
        its cards' points each held to that pair's ceiling."""
        node = path[: cast(int, self.ship_from)]
        table = self.branch_tables.get(node)
        if table is None:
            # (Made while at least one in four skips a branch: where they skip none, they only
            # add to the search, a table costing a few dozen sibling scores.)
            if self.tables_made >= 4 and 4 * self.table_skips < self.tables_made:
                return bound
            table = self._branch_table(node)
        cards, rows, width = table
        if not cards:
            return bound
        first, second = self.pair
        if first <= level:  # decided in the branch: only its row of pairs
            start = path[first] * width
            rows = rows[start : start + width]
        if second <= level:  # (and so the first): only the pair decided
            rows = [rows[path[second]]]
        # (From the bound before the root's tables lowered it: the losses they count are
        # counted again here.)
        tight = min(bound, self.totals[path] - _least_lost(self.points[path], cards, rows))
        if tight < bound:
            self.counts["clipped"] += 1
        return tight

    def _partial(self, path: Path) -> dict[str, Choice]:
        """The partial combination of the branch on `path`, made again from the root's."""
        partial = self.root
        for level, i in enumerate(path):
            partial = self._children(level, partial)[i]
        return partial

    def _branch_table(self, node: Path) -> tuple[list[str], list[list[int]], int]:
        """For a branch at the level from which only the Ship's attributes are open
        (`ship_from`): each card's points with two of them (`pair`, two a rule reads as
        alternatives) set to each pair of their values, the others left open, for the cards
        some pair lowers below their points in the branch; the rows in the order of the pairs,
        the second attribute's values the faster (`width` of them); remembered on its path.

        Why: the root's tables (`_clip_tables`) are taken with every other choice open, and an
        open Thought Maker lets every Affiliation of the Ship score alike there: they are empty
        where Thought Maker is searched first. On the 16-seed hunt's 45 ms hand (Quarters,
        Lursa and B'Etor, Chancellor Gowron with the Ship and Thought Maker) the bounds stayed 3
        to 5 points above the best total down to the last choice and 815 combinations were
        scored: with its Lifeform and Affiliation open the Ship is Federation for Quarters,
        Romulan for Lursa and B'Etor ("a Romulan Lifeform or Affiliation") and Klingon for
        Gowron at once, and no one attribute's table sees it (each card still has its way
        through the other attribute): a pair's does. Below this branch a card's points only
        fall as choices are decided, so where the two attributes take the values (u, v) a card
        scores at most its points in its branch and at most its points here with (u, v) set:
        the root's argument, with this branch's choices made and two attributes at once."""
        scorer = self.scorer
        partial = self._partial(node)
        here = self.points[node]
        first_level, second_level = self.pair
        name, first_key, _ = self.dims[first_level]
        _, second_key, _ = self.dims[second_level]
        firsts = [
            self._child(partial, first_level, value) for value in self._values(first_level, partial)
        ]
        scores = scorer.sibling_scores(firsts, name, first_key, self.fixed_copies, here)
        first_points = [points for _, points in scores]
        ceilings: list[dict[str, int]] = []
        width = 0
        for first, points in zip(firsts, first_points, strict=True):
            pairs = [
                self._child(first, second_level, value)
                for value in self._values(second_level, first)
            ]
            width = len(pairs)
            scores = scorer.sibling_scores(pairs, name, second_key, self.fixed_copies, points)
            ceilings += [pair_points for _, pair_points in scores]
        self.tables_made += 1
        lowered = [
            card
            for card, most in here.items()
            if any(points.get(card, 0) < most for points in ceilings)
        ]
        table = self.branch_tables[node] = (
            lowered,
            [[points.get(card, 0) for card in lowered] for points in ceilings],
            width,
        )
        return table

    def _last_table(
        self, partial: dict[str, Choice], path: Path
    ) -> tuple[list[str], list[list[int]]] | None:
        """For a branch two levels above the last, the last choice being one of the Ship's
        attributes: each card's points with that attribute set to each of its values (the
        other open choices left open), remembered on its path.

        Why: below the branch, a combination with the attribute at value v scores each card at
        most its points in the branch and at most its points here with v (a card's points only
        fall as choices are decided, Borg Cube's blanking decided: a blanked card scores Borg
        Cube's points, here too). The root's tables (`_clip_tables`) are taken where every other
        choice is open: on the 16-seed hunt's slowest Borg Cube hands an open Thought Maker
        makes every affiliation of the Ship score alike there, and they lowered nothing, while
        the search scored most of the hand's combinations in branches within a few points of
        the best total."""
        if path in self.last_tables:
            return self.last_tables[path]
        last = len(self.dims) - 1
        name, key, _ = self.dims[last]
        scorer = self.scorer
        if key == "affiliation" and any(
            changer not in partial or partial[changer].get("target") == name
            for changer in scorer.change_target
        ):
            # A Thought Maker that may still change the Ship leaves it any affiliation: every
            # value would score alike, each sibling placed in full (`sibling_scores`).
            self.last_tables[path] = None
            return None
        children = [self._child(partial, last, value) for value in self._values(last, partial)]
        scores = scorer.sibling_scores(children, name, key, self.fixed_copies, self.points[path])
        cards = list(self.points[path])
        self.last_made += 1
        table = self.last_tables[path] = (
            cards,
            [[points.get(card, 0) for card in cards] for _, points in scores],
        )
        return table

    def _child_bounds(self, level: int, children: list[dict[str, Choice]], path: Path) -> list[int]:
        """The bounds of sibling branches, computed together (`sibling_scores`), each lowered
        by the Ship's attributes still open in it (`_clipped`; with Borg Cube in the hand, only
        where they would not prune: `_skipped`), remembered on their paths (`Path`)."""
        keys = [(*path, i) for i in range(len(children))]
        missing = [i for i, key in enumerate(keys) if key not in self.bounds]
        if missing:
            name, key, _ = self.dims[level]
            # The first level's children are the very siblings `_order_dims` scored at the
            # root (every other choice open, the values in the same order): their scores are
            # taken, not computed again (with Borg Cube's 29 blankings scored one by one, they
            # were a quarter of the time of the 16-seed hunt's slowest Borg Cube hand).
            scores = self.scorer.root_scores.get((name, key)) if not path else None
            if scores is None or len(scores) != len(children) or len(missing) != len(children):
                scores = self.scorer.sibling_scores(
                    [children[i] for i in missing],
                    name,
                    key,
                    self.fixed_copies,
                    self.points.get(path),
                )
            clipped = self.scorer.assimilator is None
            for i, (total, points) in zip(missing, scores, strict=True):
                self.bounds[keys[i]] = self._clipped(level, total, points) if clipped else total
                self.points[keys[i]] = points
                if self.ship_from is not None:
                    self.totals[keys[i]] = total
        return [self.bounds[key] for key in keys]

    def _clip_tables(
        self, decided: dict[str, Choice]
    ) -> dict[int, tuple[list[str], list[list[int]]]]:
        """For each level that decides one of the Unidentified Ship's attributes: the cards
        whose points some value of it lowers, and for each value their points with only that
        attribute decided (`score_points`' per-card points at the search's root with it set).

        Why: a bound made with an attribute open lets the Ship be every value at once, one
        card counting it as a Klingon and another as a Romulan, so it stays above the best
        total although no one value reaches it: the hunt's slowest hands computed hundreds of
        such bounds that did not prune (issue 30). Each card's points only fall as choices are
        decided (`score_points`), so below any branch where the attribute is still open, with
        value v, a card scores at most its points in the branch and at most its points at the
        root with v: the branch's total is at most the most, over v, of those minima summed
        (`_clipped`). With Borg Cube in the hand, only below its blanking: a card it blanks
        scores Borg Cube's points, more than its own, so its ceiling is Borg Cube's
        (`_blanked_table`; the tables then hold every card); while the blanking is open the
        bound adds Borg Cube's best gains, which these tables do not bound."""
        scorer = self.scorer
        _, root = scorer.score_points(decided, self.fixed_copies)
        self.clip_root = root
        tables: dict[int, tuple[list[str], list[list[int]]]] = {}
        for level, (name, key, values) in enumerate(self.dims):
            if (
                name not in scorer.wilds
                or key not in WILD_KEYS
                or not isinstance(values, list)
                or len(values) < 2
            ):
                continue
            scores = scorer.root_scores.get((name, key))
            if scores is None or len(scores) != len(values):
                children = [self._child(decided, level, value) for value in values]
                scores = scorer.sibling_scores(children, name, key, self.fixed_copies)
            ceilings = [points for _, points in scores]
            lowered = [
                card
                for card, most in root.items()
                if any(points.get(card, 0) < most for points in ceilings)
            ]
            if scorer.assimilator is not None and lowered:
                lowered = list(root)  # (a blanked card's ceiling is Borg Cube's)
            # A value under which no card scores less than at the root lowers no bound: then
            # neither does the attribute, and it is not kept (its check would only cost time).
            if lowered and all(
                any(points.get(card, 0) < root[card] for card in lowered) for points in ceilings
            ):
                tables[level] = (
                    lowered,
                    [[points.get(card, 0) for card in lowered] for points in ceilings],
                )
        return tables

    def _clipped(
        self,
        level: int,
        total: int,
        points: dict[str, int],
        blanked: tuple[str, ...] | None = None,
    ) -> int:
        """A branch's bound (`total`, its cards' `points`) at `level`, lowered by each of the
        Ship's attributes still open below it (`_clip_tables`): the least, over the open
        attributes, of the most, over their values, the total can keep. `blanked`: the cards
        Borg Cube blanks in the branch, with Borg Cube in the hand (`_blanked_table`)."""
        lowest = total
        for open_level, table in self.clips.items():
            if open_level <= level:
                continue
            cards, ceilings = table if blanked is None else self._blanked_table(open_level, blanked)
            if not cards:
                continue
            kept = [points.get(card, 0) for card in cards]
            least_lost = min(
                sum(p - c for p, c in zip(kept, ceiling, strict=True) if p > c)
                for ceiling in ceilings
            )
            lowest = min(lowest, total - least_lost)
        if lowest < total:
            self.counts["clipped"] += 1
        return lowest

    def _blanked_table(
        self, level: int, blanked: tuple[str, ...]
    ) -> tuple[list[str], list[list[int]]]:
        """The clip table of `level` (`_clip_tables`) below a Borg Cube blanking `blanked`:
        a blanked card scores Borg Cube's points, so its ceilings are Borg Cube's; only the
        cards some value lowers below their points at the root are kept."""
        table = self.blanked_tables.get((level, blanked))
        if table is None:
            cards, ceilings = self.clips[level]
            root = self.clip_root
            borg = cast(str, self.scorer.assimilator)
            column = {card: j for j, card in enumerate(cards)}
            if borg not in column:  # (Borg Cube does not stand: nothing is blanked)
                table = (cards, ceilings)
            else:
                columns = [column[borg] if card in blanked else j for j, card in enumerate(cards)]
                most = [root.get(borg if card in blanked else card, 0) for card in cards]
                kept = [
                    k
                    for k, j in enumerate(columns)
                    if any(ceiling[j] < most[k] for ceiling in ceilings)
                ]
                table = (
                    [cards[k] for k in kept],
                    [[ceiling[columns[k]] for k in kept] for ceiling in ceilings],
                )
            self.blanked_tables[(level, blanked)] = table
        return table

    def _visit(self, level: int, partial: dict[str, Choice], path: Path) -> None:
        children = self._children(level, partial)
        if level + 1 == len(self.dims):
            self._leaves(level, children, path)
            return
        if not self.bounded:
            for i, child in enumerate(children):
                self._visit(level + 1, child, (*path, i))
            return
        # The most promising branch first (the highest bound; equal ones in order): a high
        # total found early cuts more of the rest.
        bounds = self._child_bounds(level, children, path)
        # (Without Borg Cube the bounds are clipped already: `_skipped` would only call
        # `_beaten`, a call per bound on the hands that make the most.)
        clipped = self.scorer.assimilator is None and (
            self.ship_from is None or level < self.ship_from
        )
        for i in sorted(range(len(children)), key=lambda i: -bounds[i]):
            if not (
                self._beaten(bounds[i])
                if clipped
                else self._skipped(level, children[i], (*path, i))
            ):
                self._visit(level + 1, children[i], (*path, i))

    def _dive(self, level: int, partial: dict[str, Choice], path: Path) -> None:
        """Down the branch with the highest bound at each level, to one set of sibling
        combinations (`_leaves`), unless its bound cannot beat the best total found."""
        children = self._children(level, partial)
        if level + 1 == len(self.dims):
            self._leaves(level, children, path)
            return
        bounds = self._child_bounds(level, children, path)
        top = max(range(len(children)), key=lambda i: (bounds[i], -i))
        if not self._skipped(level, children[top], (*path, top)):
            self._dive(level + 1, children[top], (*path, top))

    def _leaves(self, level: int, children: list[dict[str, Choice]], path: Path) -> None:
        """Sibling combinations with every choice decided, in order: the first best one wins.
        Each set of siblings is scored once (a dive may have scored it before the search)."""
        if path in self.scored:
            return
        self.scored.add(path)
        name, key, _ = self.dims[level]
        self.counts["evaluations"] += len(children)
        totals = self.scorer.sibling_totals(
            children, name, key, self.fixed_copies, self.points.get(path)
        )
        for total, child in zip(totals, children, strict=True):
            if self.best_total is None or total > self.best_total:
                self.best_total, self.best_combination = total, child
