"""What makes a legal final hand (STM-R8, STM-R6 Meddlesome Q), checked without a database."""

import pytest

from games.protocol import ImpossiblePosition
from games.star_trek_missions import engine
from tests.engines.star_trek_missions_catalog import card, catalog, score

SEVEN = [
    "Lieutenant Worf",
    "Commander Kurn",
    "Ambassador K'Ehleyr",
    "Commander Sela",
    "Diplomatic Conference",
    "Photon Torpedoes",
    "Bridge",
]
GALAXY_SEVEN = [
    "Lieutenant Worf",
    "Commander Kurn",
    "Ambassador K'Ehleyr",
    "Commander Sela",
    "Photon Torpedoes",
    "Bridge",
    "Tricorder",
]


def check(names):
    """(errors, warnings): the contradictions check_hand names, or its board's warnings."""
    try:
        board = engine.check(engine.HandPosition([card(n) for n in names], vocabulary=catalog()[1]))
    except ImpossiblePosition as illegal:
        return illegal.errors, []
    return [], board.warnings


def codes(names):
    return [error["code"] for error in check(names)[0]]


def test_seven_cards_with_one_or_two_missions_are_legal():
    assert check(SEVEN) == ([], [])
    assert check(SEVEN[:6] + ["Away Team"]) == ([], [])  # six Galaxy, ... and two Missions
    assert check(["Away Team", "Borg Cube"] + GALAXY_SEVEN[:5]) == ([], [])


def test_meddlesome_q_hand_is_nine_cards_with_exactly_one_other_mission():
    assert check(["Meddlesome Q", "Away Team"] + GALAXY_SEVEN) == ([], [])
    assert score(["Meddlesome Q", "Away Team"] + GALAXY_SEVEN).total > 0


@pytest.mark.parametrize(
    "names, code",
    [
        (SEVEN + ["Tricorder"], "too_many_cards"),  # eight cards without Meddlesome Q
        (SEVEN[:4] + ["Diplomatic Conference", "Away Team", "Borg Cube"], "too_many_missions"),
        (SEVEN[:6] + ["Lieutenant Worf"], "duplicate_card"),
        (GALAXY_SEVEN, "too_few_missions"),  # a full hand with no Mission
        (["Meddlesome Q"] + GALAXY_SEVEN + ["Sickbay"], "too_few_missions"),  # no other Mission
        (["Meddlesome Q", "Away Team", "Borg Cube"] + GALAXY_SEVEN[:6], "too_many_missions"),
        (["Meddlesome Q", "Away Team"] + GALAXY_SEVEN + ["Sickbay"], "too_many_cards"),
    ],
)
def test_illegal_final_hands_name_the_problem(names, code):
    assert code in codes(names)


def test_every_problem_names_the_hand_shape():
    errors, _ = check(SEVEN + ["Tricorder"])
    assert errors[0]["detail"] == (
        "The hand has 8 cards; a final hand holds 7 cards with one or two Missions."
    )
    errors, _ = check(["Meddlesome Q", "Away Team", "Borg Cube"] + GALAXY_SEVEN[:6])
    assert "Meddlesome Q, exactly 1 other Mission and 7 Galaxy cards" in errors[0]["detail"]


def test_a_partial_hand_is_scored_with_a_warning():
    errors, warnings = check(SEVEN[:4])
    assert errors == []
    assert warnings == [
        "Partial hand: 4 of 7 cards (7 cards with one or two Missions); scored as it stands."
    ]
    assert score(SEVEN[:4]).total == 24  # Kurn and K'Ehleyr 10 each with Worf, Sela 4 for Kurn
