"""A seeded hunt for the slowest Star Trek: Missions hand (issue 21): mutates legal final hands,
Meddlesome Q's nine cards included, towards the longest engine time, so the benchmark's worst is
not only the worst of the hands it happened to draw.

A hill climb over a small population: each round takes one of the slowest hands found so far,
changes one to three cards (a card for another of the same deck, often a choice card; a Mission
for a Galaxy card or back; into or out of Meddlesome Q's nine), keeps the hand legal (seven
distinct cards with one or two Missions, or Meddlesome Q, one other Mission and seven Galaxy
cards: STM-R6, STM-R8) and times it; the population keeps the slowest. Times are CPU time
(time.process_time), which other work on the machine disturbs less than wall clock; the slowest
hands are timed again at the end (best of three) so that one unlucky measurement does not stand
as the worst.

`hunt_many` runs that climb from many seeds, each from its own starting points (random hands
rich in choice cards drawn with its seed, and its share of the caller's), within a time bound, and
times the slowest of each best of seven: a climb ends near the hand it started from, so one seed
finds one family of slow hands (issue 30: another seed than the one measured before found a hand 1.5 times
its worst).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

CHOICE_NAMES = (
    "Unidentified Ship",
    "Thought Maker",
    "Borg Cube",
    "Mysterious Plague",
    "Ensign Wesley Crusher",
)
MEDDLESOME_Q = "Meddlesome Q"
# The hand issue 21 reported at 130-250 ms: one of the hunt's starting points.
REPORTED = [
    "Meddlesome Q",
    "Enemies to Friends",
    "Unidentified Ship",
    "Thought Maker",
    "Leah Brahms",
    "Tractor Beam",
    "Transporter",
    "Ambassador Sarek",
    "Lieutenant Commander Data",
]
# The hand issue 30 reported at 32 ms of CPU (another seed than the one measured before): a starting point too.
REPORTED_30 = [
    "Thought Maker",
    "Unidentified Ship",
    "Chancellor Gowron",
    "Lursa and B'Etor",
    "Hand Phaser",
    "Space Confrontation",
    "Blossoming Romance",
]
# The slowest hands earlier hunts found (issue 21's seed 21, issue 30's seeds 9, 21, 8, 7, 13, 6, 3,
# then 9 and 3 again, then 13, 42 and 57, then 3, 57, 77 and 21), and hands a tried order was slow
# on, so that each run times them again: a climb may not find its way back. The later hunts'
# slowest follow them in `found_hands()` from the tests that hold them to plain enumeration:
# docs/MEASUREMENTS.md calls them FOUND[21] to FOUND[23] (BORG_CUBE_WITH_A_COPY) and FOUND[24]
# (THOUGHT_MAKER_PAIRS).
FOUND = [
    [
        "Commander Bruce Maddox",
        "Commander Tomalak",
        "Enemies to Friends",
        "Meddlesome Q",
        "Unidentified Ship",
        "Vash",
        "Lursa and B'Etor",
        "Thought Maker",
        "Chancellor Gowron",
    ],
    [
        "Quarters",
        "Meddlesome Q",
        "Unidentified Ship",
        "Computer",
        "Thought Maker",
        "Chancellor Gowron",
        "Borg Cube",
        "Ensign Wesley Crusher",
        "Spock",
    ],
    [
        "Thought Maker",
        "Hand Phaser",
        "Lursa and B'Etor",
        "Unidentified Ship",
        "Blossoming Romance",
        "Enemies to Friends",
        "Chancellor Gowron",
    ],
    [
        "Holodeck 2",
        "Meddlesome Q",
        "Mysterious Plague",
        "Lieutenant Worf",
        "Ensign Wesley Crusher",
        "Tox Uthat",
        "Commander Sela",
        "Thought Maker",
        "Unidentified Ship",
    ],
    # The hunt after issue 30's speed-up: seeds 7 and 13.
    [
        "Mysterious Plague",
        "Lieutenant Worf",
        "Thought Maker",
        "Lursa and B'Etor",
        "Daimon Tog",
        "Unidentified Ship",
        "Commander Tomalak",
        "Vash",
        "Meddlesome Q",
    ],
    [
        "Chancellor Gowron",
        "Unidentified Ship",
        "Mysterious Plague",
        "Daimon Tog",
        "Meddlesome Q",
        "Lursa and B'Etor",
        "Thought Maker",
        "Crystal Entity",
        "Vice Admiral Nakamura",
    ],
    # The hunt after the Ship's bounds were lowered per card: seeds 6 and 3.
    [
        "Meddlesome Q",
        "Mysterious Plague",
        "Hand Phaser",
        "Thought Maker",
        "Shields",
        "Ensign Wesley Crusher",
        "Leah Brahms",
        "Tolian Soran",
        "Unidentified Ship",
    ],
    [
        "Enemies to Friends",
        "Commander Bruce Maddox",
        "Hand Phaser",
        "Counselor Deanna Troi",
        "Shields",
        "Thought Maker",
        "Meddlesome Q",
        "Unidentified Ship",
        "Ensign Wesley Crusher",
    ],
    # The hunt after that: seeds 9 (35.92 ms) and 3.
    [
        "Counselor Deanna Troi",
        "Commander Sela",
        "Lursa and B'Etor",
        "Meddlesome Q",
        "Unidentified Ship",
        "Quarters",
        "Thought Maker",
        "Lieutenant Worf",
        "Mysterious Plague",
    ],
    [
        "Lieutenant Worf",
        "Mysterious Plague",
        "Ambassador Sarek",
        "Hand Phaser",
        "Daimon Tog",
        "Meddlesome Q",
        "Unidentified Ship",
        "Commander Tomalak",
        "Thought Maker",
    ],
    # The hunt after the chooser's values were scored inline: seeds 13, 42 and 57 (each 23 to 26
    # ms of CPU under load).
    [
        "Meddlesome Q",
        "Lieutenant Worf",
        "Ambassador Sarek",
        "Unidentified Ship",
        "Thought Maker",
        "Commander Tomalak",
        "Lwaxana Troi",
        "Mysterious Plague",
        "Hand Phaser",
    ],
    [
        "Leah Brahms",
        "Ensign Wesley Crusher",
        "Unidentified Ship",
        "Spock",
        "Thought Maker",
        "Meddlesome Q",
        "Hand Phaser",
        "Tractor Beam",
        "Enemies to Friends",
    ],
    [
        "Commander Bruce Maddox",
        "Daimon Tog",
        "Mysterious Plague",
        "Lieutenant Worf",
        "Thought Maker",
        "Unidentified Ship",
        "Vice Admiral Nakamura",
        "Lursa and B'Etor",
        "Meddlesome Q",
    ],
    # The hunt after that, old and new engines side by side: seeds 3, 57 and 77.
    [
        "Mysterious Plague",
        "Meddlesome Q",
        "Unidentified Ship",
        "James Moriarty",
        "Minuet",
        "Commander Tomalak",
        "Ambassador Sarek",
        "Thought Maker",
        "Lieutenant Worf",
    ],
    [
        "Commander Tomalak",
        "Unidentified Ship",
        "Meddlesome Q",
        "Mysterious Plague",
        "James Moriarty",
        "Lieutenant Worf",
        "Ambassador Sarek",
        "Thought Maker",
        "Lore",
    ],
    [
        "Ambassador Sarek",
        "Daimon Tog",
        "Thought Maker",
        "Meddlesome Q",
        "Unidentified Ship",
        "Mysterious Plague",
        "Holodeck 2",
        "Lieutenant Worf",
        "Commander Tomalak",
    ],
    # The last hunt's slowest (seed 21, 23.4 ms of CPU after BLANKED UNLESS was cached).
    [
        "Mysterious Plague",
        "Thought Maker",
        "Meddlesome Q",
        "James Moriarty",
        "Lwaxana Troi",
        "Lieutenant Worf",
        "Ambassador Sarek",
        "Unidentified Ship",
        "Commander Tomalak",
    ],
    # The 16-seed hunt's four slowest before the scoring passes were made cheaper are added where
    # they are used (found_hands): they live in tests/engines/star_trek_missions_hard_hands.py.
    # A 30 s hunt after that (seed 21, 34.4 ms of CPU under load; 27 ms in an earlier order of
    # the same cards above, timed side by side: the search is the same, 582 bounds and 600
    # totals, so the time, not the work, moves with the order).
    [
        "Lwaxana Troi",
        "Unidentified Ship",
        "Lieutenant Worf",
        "Ambassador Sarek",
        "Meddlesome Q",
        "Thought Maker",
        "James Moriarty",
        "Mysterious Plague",
        "Commander Tomalak",
    ],
    # Order traps: hands a hunt found against a tried search order (the Ship's attribute that
    # stays loosest while open placed last), 5 to 10 times its bounds and totals there, quick
    # under the shipped order; a new order should be timed on them too.
    [
        "Thought Maker",
        "Transporter",
        "Meddlesome Q",
        "Commander Bruce Maddox",
        "Unidentified Ship",
        "Shields",
        "Ensign Wesley Crusher",
        "Hand Phaser",
        "Enemies to Friends",
    ],
    [
        "Ensign Wesley Crusher",
        "Lursa and B'Etor",
        "Daimon Tog",
        "Commander Sela",
        "Lieutenant Worf",
        "Thought Maker",
        "Meddlesome Q",
        "Unidentified Ship",
        "Mysterious Plague",
    ],
    [
        "Thought Maker",
        "Leah Brahms",
        "Unidentified Ship",
        "Meddlesome Q",
        "Ensign Wesley Crusher",
        "Shields",
        "Quarters",
        "Hand Phaser",
        "Enemies to Friends",
    ],
]


def _legal(hand: Sequence[Any]) -> bool:
    names = [s.name for s in hand]
    if len(set(names)) != len(names):
        return False
    missions = [s for s in hand if s.deck == "mission"]
    if MEDDLESOME_Q in names:
        return len(hand) == 9 and len(missions) == 2
    return len(hand) == 7 and 1 <= len(missions) <= 2


def _mutate(
    hand: list[Any],
    rng: random.Random,
    galaxy: list[Any],
    missions: list[Any],
    q: Any,
    choice: list[Any],
) -> list[Any]:
    hand = list(hand)
    for _ in range(rng.choice((1, 1, 2, 3))):
        move = rng.random()
        if move < 0.1 and q is not None:  # into or out of Meddlesome Q's nine
            if q in hand:
                hand.remove(q)
                g = [s for s in hand if s.deck == "galaxy"]
                hand = rng.sample(g, 6) + [s for s in hand if s.deck == "mission"]
            else:
                other = [s for s in hand if s.deck == "mission"][:1]
                g = [s for s in hand if s.deck == "galaxy"]
                g += rng.sample([s for s in galaxy if s not in g], 7 - len(g))
                hand = g[:7] + other + [q]
        elif move < 0.2 and q not in hand:  # a Mission for a Galaxy card, or back
            m = [s for s in hand if s.deck == "mission"]
            if len(m) == 2:
                hand.remove(rng.choice(m))
                hand.append(rng.choice([s for s in galaxy if s not in hand]))
            else:
                hand.remove(rng.choice([s for s in hand if s.deck == "galaxy"]))
                hand.append(rng.choice([s for s in missions if s not in hand]))
        else:  # one card for another of its deck, a choice card a third of the time
            out = rng.choice([s for s in hand if s is not q])
            pool = galaxy if out.deck == "galaxy" else missions
            wanted = [s for s in choice if s.deck == out.deck and s not in hand]
            fresh = [s for s in pool if s not in hand]
            new = rng.choice(wanted) if wanted and rng.random() < 0.33 else rng.choice(fresh)
            hand[hand.index(out)] = new
    rng.shuffle(hand)
    return hand


def found_hands() -> list[list[str]]:
    """FOUND, then the later hunts' slowest and the 16-seed hunt's, kept once with the tests that
    hold them to plain enumeration (imported here, once harness.start() has put the project on
    sys.path)."""
    from tests.engines.star_trek_missions_hard_hands import (
        BORG_CUBE_WITH_A_COPY,
        SIXTEEN_SEED_SLOWEST,
        THOUGHT_MAKER_PAIRS,
    )

    return [*FOUND, *BORG_CUBE_WITH_A_COPY, THOUGHT_MAKER_PAIRS, *SIXTEEN_SEED_SLOWEST]


def cpu_ms(run: Callable[[list[Any]], Any], hand: list[Any], repeats: int = 1) -> float:
    """The CPU milliseconds of `run(hand)`, the best of `repeats`."""
    best = float("inf")
    for _ in range(repeats):
        started = time.process_time()
        run(hand)
        best = min(best, (time.process_time() - started) * 1000)
    return best


def hunt(
    specs: Sequence[Any],
    seeds: Sequence[Sequence[Any]],
    run: Callable[[list[Any]], Any],
    *,
    rounds: int,
    seed: int = 21,
    population: int = 8,
    deadline: float | None = None,
    known: bool = True,
) -> tuple[list[Any], float, int]:
    """The slowest hand found (its specs), its CPU milliseconds (best of three) and how many
    hands were timed. `seeds` are the starting points (with the hands issues 21 and 30 reported
    and the slowest earlier hunts found, unless `known` is False); no new round starts after `deadline` (time.perf_counter)."""
    rng = random.Random(seed)
    by_name = {s.name: s for s in specs}
    q = by_name.get(MEDDLESOME_Q)
    galaxy = [s for s in specs if s.deck == "galaxy"]
    missions = [s for s in specs if s.deck == "mission" and s is not q]
    choice = [by_name[n] for n in CHOICE_NAMES if n in by_name]

    def timed(hand: list[Any]) -> float:
        return cpu_ms(run, hand)

    pool: list[tuple[float, list[Any]]] = []
    starts = [list(h) for h in seeds if _legal(h)]
    for reported in (REPORTED, REPORTED_30, *found_hands()) if known else ():
        if all(n in by_name for n in reported):
            starts.append([by_name[n] for n in reported])
    for hand in starts:
        pool.append((timed(hand), hand))
    pool.sort(key=lambda p: -p[0])
    pool = pool[:population]
    tried = len(starts)
    for _ in range(rounds):
        if deadline is not None and time.perf_counter() > deadline:
            break
        _, parent = rng.choice(pool)
        child = _mutate(parent, rng, galaxy, missions, q, choice)
        if not _legal(child):
            continue
        tried += 1
        pool.append((timed(child), child))
        pool.sort(key=lambda p: -p[0])
        pool = pool[:population]
    retimed = [(min(timed(hand) for _ in range(3)), hand) for _, hand in pool]
    worst_ms, worst = max(retimed, key=lambda p: p[0])
    return worst, worst_ms, tried


def choice_rich_hands(specs: Sequence[Any], rng: random.Random, count: int) -> list[list[Any]]:
    """Legal final hands holding two or three of the choice cards (half of them Meddlesome Q's
    nine): where the slow hands are, drawn at random."""
    by_name = {s.name: s for s in specs}
    q = by_name.get(MEDDLESOME_Q)
    galaxy = [s for s in specs if s.deck == "galaxy"]
    missions = [s for s in specs if s.deck == "mission" and s is not q]
    choice = [by_name[n] for n in CHOICE_NAMES if n in by_name]
    hands: list[list[Any]] = []
    while len(hands) < count:
        picked = rng.sample(choice, min(len(choice), rng.choice((2, 3))))
        nine = q is not None and rng.random() < 0.5
        size, wanted_missions = (9, 2) if nine else (7, rng.choice((1, 2)))
        hand = list(picked) + ([q] if nine else [])
        while sum(s.deck == "mission" for s in hand) < wanted_missions:
            hand.append(rng.choice([s for s in missions if s not in hand]))
        while len(hand) < size:
            hand.append(rng.choice([s for s in galaxy if s not in hand]))
        if _legal(hand):
            rng.shuffle(hand)
            hands.append(hand)
    return hands


@dataclass(frozen=True)
class Climb:
    seed: int
    hand: list[Any]
    cpu_ms: float  # best of seven
    timed: int  # legal final hands timed by this climb


def hunt_many(
    specs: Sequence[Any],
    starts: Sequence[Sequence[Any]],
    run: Callable[[list[Any]], Any],
    *,
    seeds: Sequence[int],
    rounds: int,
    seconds: float,
    own_starts: int = 8,
) -> list[Climb]:
    """One climb (`hunt`) per seed, each from `own_starts` choice-rich hands drawn with its seed
    and its share of `starts` (every len(seeds)-th; the hands issues 21 and 30 reported go to the
    first climb), all within `seconds`: each climb gets an equal share of what is left. The
    slowest hand of each climb is timed again, best of seven."""
    climbs: list[Climb] = []
    started = time.perf_counter()
    for index, seed in enumerate(seeds):
        left = seconds - (time.perf_counter() - started)
        if left <= 0:
            break
        deadline = time.perf_counter() + left / (len(seeds) - index)
        mine = [list(h) for h in starts[index :: len(seeds)]]
        mine += choice_rich_hands(specs, random.Random(seed * 7919), own_starts)
        hand, _, timed = hunt(
            specs, mine, run, rounds=rounds, seed=seed, deadline=deadline, known=index == 0
        )
        climbs.append(Climb(seed, hand, cpu_ms(run, hand, repeats=7), timed))
    return climbs
