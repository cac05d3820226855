"""The published examples and the rulebook's own scoring example, scored by the engine (no
database). STM-R14: every hand of tests/data/star-trek-missions-examples.json holds."""

import json
from pathlib import Path

import pytest

from tests.engines.star_trek_missions_catalog import points, score

EXAMPLES_FILE = Path(__file__).resolve().parents[1] / "data" / "star-trek-missions-examples.json"


def load_examples() -> list[dict]:
    """The 11 published examples: each a name, a hand (card names) and its total."""
    return json.loads(EXAMPLES_FILE.read_text(encoding="utf-8"))["examples"]


EXAMPLES = load_examples()

RULEBOOK_HAND = [
    "Lieutenant Worf",
    "Commander Kurn",
    "Ambassador K'Ehleyr",
    "Commander Sela",
    "Diplomatic Conference",
    "Photon Torpedoes",
    "Bridge",
]


def test_the_examples_file_holds_the_eleven_published_hands():
    assert len(EXAMPLES) == 11
    assert len({example["name"] for example in EXAMPLES}) == 11


@pytest.mark.parametrize("example", EXAMPLES, ids=[example["name"] for example in EXAMPLES])
def test_stm_r14_published_example_holds(example):
    result = score(example["hand"])
    assert result.total == example["total"], {c.name: c.points for c in result.cards}


def test_rulebook_scoring_example_totals_66():
    result = score(RULEBOOK_HAND)
    assert result.total == 66
    assert points(RULEBOOK_HAND) == {
        "Lieutenant Worf": 8,  # Photon Torpedoes and Bridge are other Combat cards
        "Commander Kurn": 10,
        "Ambassador K'Ehleyr": 10,
        "Commander Sela": 4,  # Kurn is Klingon Empire
        "Diplomatic Conference": 15,  # two affiliations among Captains, one Ambassador
        "Photon Torpedoes": 10,  # a non-Federation Captain, and Worf and Bridge
        "Bridge": 9,  # Worf and K'Ehleyr are Federation Personnel; Photon Torpedoes a System
    }


def test_steps_add_up_from_zero_and_name_the_giving_cards():
    result = score(RULEBOOK_HAND)
    running = 0
    for n, step in enumerate(result.steps, start=1):
        running += step.points
        assert (step.n, step.running_total) == (n, running)
    assert running == 66
    worf = [s for s in result.steps if s.card == "Lieutenant Worf"]
    assert [s.detail for s in worf] == ["4 for Photon Torpedoes (Combat)", "4 for Bridge (Combat)"]
    assert {s.rule for s in worf} == {"STM-7.2"}
    kurn = next(s for s in result.steps if s.card == "Commander Kurn")
    assert (kurn.giving, kurn.rule, kurn.points) == (["Lieutenant Worf"], "STM-7.1", 10)


def test_multiple_bonuses_away_team_with_data_scores_5():
    # Data has four Specialties but is one card: one bonus (STM-R1, STM-R2).
    assert points(["Away Team", "Lieutenant Commander Data"])["Away Team"] == 5
