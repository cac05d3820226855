"""Hands built where random sampling rarely goes (issue 21): two or three choice cards, the other
cards mostly without the attributes the choices set, so two choices must agree on a value no
printed card carries. Each hand comes with a vocabulary cut down to a few values per attribute
(every value its cards print, a few its rules name, one or two nobody names, and often the
Lifeforms Mysterious Plague may not name), so plain enumeration of every allowed value stays
small enough to run thousands of times while every kind of value (printed, named, unnamed,
excluded) is still there to choose."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.star_trek_missions.rules import CardSpec

CHOICE_CARDS = (
    "Unidentified Ship",
    "Thought Maker",
    "Borg Cube",
    "Mysterious Plague",
    "Ensign Wesley Crusher",
)
CHOSEN = ("lifeform", "affiliation", "specialty")  # what the choices set or name


def _strings(rule: Any) -> set[str]:
    if isinstance(rule, str):
        return {rule}
    if isinstance(rule, Mapping):
        return set().union(*(_strings(v) for v in rule.values())) if rule else set()
    if isinstance(rule, list):
        return set().union(*(_strings(v) for v in rule)) if rule else set()
    return set()


def _bareness(spec: CardSpec) -> int:
    """How few of the chosen attributes a card prints (3: none of them)."""
    return sum(1 for key in CHOSEN if not spec.attributes.get(key))


def hard_hand(
    rng: random.Random, specs: Mapping[str, CardSpec], *, others: tuple[int, int] = (1, 3)
) -> list[str]:
    choosers = rng.sample(CHOICE_CARDS, rng.choice((2, 2, 3)))
    if "Unidentified Ship" not in choosers and rng.random() < 0.6:
        choosers[0] = "Unidentified Ship"  # the Ship is the usual partner of a wrong agreement
    pool = [n for n, s in specs.items() if n not in CHOICE_CARDS and n != "Meddlesome Q"]
    missions = sum(1 for n in choosers if specs[n].deck == "mission")
    chosen: list[str] = []
    for _ in range(rng.randint(*others)):
        candidates = [
            n for n in pool if n not in chosen and (specs[n].deck == "galaxy" or missions < 2)
        ]
        # Bare cards (no Lifeform, Affiliation or Specialty printed) three times as often.
        weights = [1 + _bareness(specs[n]) for n in candidates]
        name = rng.choices(candidates, weights)[0]
        chosen.append(name)
        missions += specs[name].deck == "mission"
    hand = list(dict.fromkeys(choosers + chosen))
    rng.shuffle(hand)
    return hand


def small_vocabulary(
    rng: random.Random, hand: Sequence[CardSpec], full: Mapping[str, Sequence[str]]
) -> dict[str, list[str]]:
    """A few values per attribute, in the full vocabulary's order (see the module docstring)."""
    named = set().union(*(_strings(spec.rule) for spec in hand))
    vocabulary: dict[str, list[str]] = {"type": list(full["type"])}
    for key in CHOSEN:
        printed = {v for spec in hand for v in spec.attributes.get(key, ())}
        literals = sorted(v for v in full[key] if v in named and v not in printed)
        rest = [v for v in full[key] if v not in named and v not in printed]
        keep = printed | set(rng.sample(literals, min(len(literals), rng.randint(0, 2))))
        keep |= set(rng.sample(rest, min(len(rest), rng.randint(1, 2))))
        if key == "lifeform":
            keep |= {v for v in ("android", "hologram") if rng.random() < 0.5}
        vocabulary[key] = [v for v in full[key] if v in keep]
    return vocabulary


def named_values(hand: Sequence[CardSpec]) -> set[str]:
    return set().union(*(_strings(spec.rule) for spec in hand))


def dumps(hand: Sequence[str], vocabulary: Mapping[str, Sequence[str]]) -> str:
    return json.dumps({"hand": list(hand), "vocabulary": vocabulary})


# The slowest hands of a 16-seed hunt (issue 30), before the scoring passes were made cheaper:
# seeds 11 (27.3 ms of CPU), 13 (26.1), 12 (21.8) and 21 (21.8). The hunt times them again
# (bench/stm_hunt.FOUND), the plain-enumeration test holds their totals and the search test
# their side-by-side scoring, all from this one list.
SIXTEEN_SEED_SLOWEST = [
    [
        "Ensign Wesley Crusher",
        "Photon Torpedoes",
        "The Lure of Profit",
        "Commander Bruce Maddox",
        "Lursa and B'Etor",
        "Chancellor Gowron",
        "Thought Maker",
        "Meddlesome Q",
        "Unidentified Ship",
    ],
    [
        "Spock",
        "Unidentified Ship",
        "Thought Maker",
        "Crystal Entity",
        "Mysterious Plague",
        "Bat'leth",
        "Hand Phaser",
        "Meddlesome Q",
        "Daimon Tog",
    ],
    [
        "Meddlesome Q",
        "Unidentified Ship",
        "Thought Maker",
        "Leah Brahms",
        "Commander Tomalak",
        "Computer",
        "Borg Cube",
        "Ambassador Sarek",
        "Vash",
    ],
    [
        "Ambassador Sarek",
        "Unidentified Ship",
        "Lieutenant Worf",
        "Daimon Bok",
        "Commander Tomalak",
        "Mysterious Plague",
        "Thought Maker",
        "Meddlesome Q",
        "James Moriarty",
    ],
]


# The slowest hands of the hunts after the sibling-set work (docs/MEASUREMENTS.md, "Fewer cache
# misses, siblings placed once"): Borg Cube with a copy (Ensign Wesley Crusher), Thought Maker and
# the Ship; seed 2's on the quiet run (25.31 ms), seeds 6 and 1's on the busy one. The hunt times
# them again (bench/stm_hunt.found_hands, where the docs call them FOUND[21] to FOUND[23]), the
# plain-enumeration test holds their totals and the search test its clipped bounds.
BORG_CUBE_WITH_A_COPY = [
    [
        "Ensign Wesley Crusher",
        "Stone of Gol",
        "Unidentified Ship",
        "Meddlesome Q",
        "Hand Phaser",
        "Borg Cube",
        "Bat'leth",
        "Lursa and B'Etor",
        "Thought Maker",
    ],
    [
        "Thought Maker",
        "Stone of Gol",
        "Unidentified Ship",
        "Meddlesome Q",
        "Hand Phaser",
        "Ensign Wesley Crusher",
        "Borg Cube",
        "Quarters",
        "Photon Torpedoes",
    ],
    [
        "Thought Maker",
        "Vash",
        "Borg Cube",
        "Vice Admiral Nakamura",
        "Commander Tomalak",
        "Unidentified Ship",
        "Sickbay",
        "Meddlesome Q",
        "Ensign Wesley Crusher",
    ],
]

# The hunt after the Borg Cube skips (docs/MEASUREMENTS.md, "Borg Cube branches skipped on clipped
# bounds"), seed 11: Ensign Wesley Crusher and Leah Brahms with Thought Maker and the Ship, no
# Borg Cube (45.07 ms; 274 M instructions before and after that work). FOUND[24] in the docs.
THOUGHT_MAKER_PAIRS = [
    "Ensign Wesley Crusher",
    "Quarters",
    "Leah Brahms",
    "Unidentified Ship",
    "Space Confrontation",
    "Meddlesome Q",
    "Lursa and B'Etor",
    "Thought Maker",
    "Chancellor Gowron",
]
