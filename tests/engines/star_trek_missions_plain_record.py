"""The recorded plain-enumeration totals of the named hard hands (tests/engines/
test_star_trek_missions_choices_exact.py: the hunts' slowest hands, each 16,000 to 200,000
combinations, whose enumeration was three quarters of that file's CPU and an eighth of the
suite's) and of the search's own test file's hands over 16,000 combinations
(tests/engines/test_star_trek_missions_search.py: six adversarial hands, two seeded ones).

Each total is recorded under a fingerprint of everything plain enumeration reads: the source of
the reference (star_trek_missions_reference.py) and of the evaluation it calls (the game's
hand.py, bonuses.py, rules.py, language.py), numpy's version, the hand's card data, the
vocabulary and the fixed choices. A hand whose fingerprint is not recorded (any of those
changed, or a new hand) is enumerated live, as before: a record is never stale, only missing,
and the search is held to the same totals either way. What the record spares is enumerating again
what nothing has changed; the search itself runs on every hand on every run.

`make plain-totals` (TABLESIDE_PLAIN_RECORD=1 on both test files, in one process) enumerates
every such hand live and writes the record anew, with that run's hands only (a test file left
out of a recording run is enumerated live until one records it again). TABLESIDE_PLAIN_LIVE=1
ignores the record (`make test-postgres`, and so CI, runs so: every recorded total is
enumerated again there)."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from games.star_trek_missions.rules import CardSpec
from tests.engines.star_trek_missions_reference import plain_best, plain_space

ROOT = Path(__file__).resolve().parent.parent.parent
RECORD = Path(__file__).with_name("star_trek_missions_plain_totals.json")
# What plain enumeration reads: the reference and the one evaluation it calls (hand.Hand's
# evaluate, with the bonuses it settles and the compiled rules), never the search's modules.
SOURCES = [
    "tests/engines/star_trek_missions_reference.py",
    "games/star_trek_missions/hand.py",
    "games/star_trek_missions/bonuses.py",
    "games/star_trek_missions/rules.py",
    "games/star_trek_missions/language.py",
]
# Hands with fewer combinations are enumerated live (the seeded and generated hands: a few
# milliseconds each).
RECORDED_ABOVE = 16_000
RECORDING = bool(os.environ.get("TABLESIDE_PLAIN_RECORD"))
LIVE = RECORDING or bool(os.environ.get("TABLESIDE_PLAIN_LIVE"))
recorded_now: dict[str, int] = {}


@cache
def _sources_digest() -> str:
    digest = hashlib.sha256(np.__version__.encode())
    for source in SOURCES:
        digest.update((ROOT / source).read_bytes())
    return digest.hexdigest()


def fingerprint(
    hand: Sequence[CardSpec],
    vocabulary: Mapping[str, Sequence[str]],
    fixed: Mapping[str, Any] | None,
) -> str:
    data = json.dumps(
        [
            _sources_digest(),
            [repr(spec) for spec in hand],
            {key: list(values) for key, values in sorted(vocabulary.items())},
            fixed or {},
        ],
        sort_keys=True,
        default=repr,
    )
    return hashlib.sha256(data.encode()).hexdigest()


@cache
def _record() -> dict[str, int]:
    if LIVE or not RECORD.exists():
        return {}
    totals: dict[str, int] = json.loads(RECORD.read_text())["totals"]
    return totals


def recorded_total(key: str) -> int | None:
    return _record().get(key)


def remember(key: str, total: int) -> None:
    """Keeps a total enumerated live in a recording run (written by `write`)."""
    if RECORDING:
        recorded_now[key] = total


def write() -> None:
    RECORD.write_text(
        json.dumps(
            {
                "about": "tests/engines/star_trek_missions_plain_record.py",
                "totals": dict(sorted(recorded_now.items())),
            },
            indent=1,
        )
        + "\n"
    )


def plain_total(
    hand: Sequence[CardSpec],
    vocabulary: Mapping[str, Sequence[str]],
    fixed: Mapping[str, Any] | None = None,
) -> int:
    """The best total by plain enumeration: recorded for the hands over RECORDED_ABOVE
    combinations, under a fingerprint of everything the enumeration reads, enumerated live for
    every other hand and whenever that fingerprint is not recorded."""
    if plain_space(hand, vocabulary) <= RECORDED_ABOVE:
        return plain_best(hand, vocabulary, fixed).total
    key = fingerprint(hand, vocabulary, fixed)
    total = recorded_total(key)
    if total is None:
        total = plain_best(hand, vocabulary, fixed).total
        remember(key, total)
    return total


@pytest.fixture(scope="module", autouse=True)
def plain_record() -> Any:
    """A test module's: a recording run (TABLESIDE_PLAIN_RECORD=1) writes the totals enumerated
    so far at each module's end. It must run in one process: each pytest-xdist worker would
    write its own share of the hands over the others'."""
    if RECORDING and os.environ.get("PYTEST_XDIST_WORKER"):
        pytest.fail("TABLESIDE_PLAIN_RECORD=1 records in one process: add -p no:xdist")
    yield
    if RECORDING:
        write()
