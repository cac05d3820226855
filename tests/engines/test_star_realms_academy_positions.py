"""Issue 21 in Star Realms Academy, engine only: a combat pool needs a source (SRA-R8), and an
answer never contradicts itself (a Draw with no card to draw, a reshuffle that ran short)."""

import pytest

from games.protocol import ImpossiblePosition
from games.star_realms_academy.engine import check
from tests.engines.test_star_realms_academy_engine import (
    attack,
    base,
    card,
    end_turn,
    play,
    position,
)


def impossible(pos):
    with pytest.raises(ImpossiblePosition) as raised:
        check(pos)
    return raised.value.errors


# --- SRA-R8: a combat pool has a source ------------------------------------------------------------


def test_sra_r8_a_combat_pool_with_nothing_in_play_and_no_ability_used_cannot_exist():
    assert impossible(position(combat=3)) == [
        {
            "path": "active.combat",
            "code": "combat_without_source",
            "detail": "Ana has 3 Combat in the pool, but nothing is in play and no base ability was "
            "used this turn: a Combat pool comes only from abilities used this turn, and "
            "the ships that gave it stay in play until the end of the turn (SRA-R8).",
        }
    ]
    # The legal neighbours: no pool; the pool of a ship in play.
    assert check(position(combat=0)).rule(end_turn()).verdict == "legal"
    frigate = check(position(in_play=["Imperial Frigate"], combat=2))
    assert frigate.rule(attack("health", 2)).verdict == "legal"


def test_sra_r8_a_pool_beyond_what_the_known_abilities_give_cannot_exist():
    [error] = impossible(position(in_play=["Imperial Frigate", "Viper", "Scout"], combat=4))
    assert (error["path"], error["code"]) == ("active.combat", "combat_without_source")
    assert error["detail"].startswith(
        "Ana has 4 Combat in the pool, but the abilities used this turn give at most 3 (Imperial "
        "Frigate's primary ability: 2 Combat, Viper's primary ability: 1 Combat and Scout's "
        "primary ability: no Combat): "
    )
    # Spent in part by an attack, the pool may be smaller than what was gained.
    assert (
        check(position(in_play=["Imperial Frigate", "Viper"], combat=1))
        .rule(attack("health", 1))
        .verdict
        == "legal"
    )


def test_sra_r8_a_pool_only_unknown_values_could_explain_needs_information():
    turn = check(position(in_play=["Corvette", "Viper"], combat=3))
    ruling = turn.rule(attack("health", 3))
    assert (ruling.verdict, ruling.code, ruling.rule) == (
        "needs_information",
        "card_value_unknown",
        "SRA-R8",
    )
    assert [(m["card"], m["field"]) for m in ruling.missing] == [("Corvette", "primary")]
    assert ruling.reason.startswith(
        "Ana has 3 Combat in the pool; the abilities of known value give 1 (Viper's primary "
        "ability: 1 Combat), and whether Corvette's primary ability explains the rest is not "
        "known"
    )
    # Every ruling on the position rests on it, so none is made.
    assert turn.rule(end_turn()).verdict == "needs_information"
    # A base's primary used this turn is a source too; one not used is not.
    hive = check(position(bases=[base("The Hive", used=["primary"])], combat=2))
    assert [(m["card"], m["field"]) for m in hive.rule(end_turn()).missing] == [
        ("The Hive", "primary")
    ]
    assert impossible(position(bases=["The Hive"], combat=2))[0]["code"] == "combat_without_source"
    # Transcribed, the value settles it either way.
    corvette = card("Corvette", primary={"combat": 2})
    assert (
        check(position(in_play=[corvette, "Viper"], combat=3)).rule(attack("health", 3)).verdict
        == "legal"
    )
    assert (
        impossible(position(in_play=[card("Corvette", primary={"coin": 1}), "Viper"], combat=3))[0][
            "code"
        ]
        == "combat_without_source"
    )


# --- An answer never contradicts itself --------------------------------------------------------


def test_sra_8_survey_ship_with_no_card_to_draw_does_not_claim_the_draw():
    ruling = check(position(hand=["Survey Ship"], deck=0, discard_pile=0)).rule(play("Survey Ship"))
    assert ruling.verdict == "legal"
    assert ruling.reason == (
        "Legal: Ana plays Survey Ship and gets 2 Coins (its 1 Draw draws "
        "no card: none is left to draw, SRA-11.4)."
    )
    assert (
        "Ana can draw only 0 cards of 1: the deck is empty and the discard pile is empty, so "
        "there was nothing to shuffle (SRA-11.4)." in ruling.warnings
    )
    assert ruling.outcome["gained"] == {"coin": 2, "draw": 0}
    # The neighbour with a card to draw gets both effects, as the rulebook says.
    drawn = check(position(hand=["Survey Ship"], deck=1)).rule(play("Survey Ship"))
    assert drawn.reason == "Legal: Ana plays Survey Ship and gets 2 Coins and 1 Draw."
    assert not any("draw only" in warning for warning in drawn.warnings)


def test_sra_11_4_a_reshuffle_that_drew_from_the_discard_pile_does_not_call_it_empty():
    turn = check(position(hand=["Survey Ship"], deck=0, discard_pile=1))
    assert turn.push(play("Survey Ship")).verdict == "legal"  # draws the discard pile's card
    ruling = turn.push(end_turn())  # Survey Ship to the pile, which is shuffled and drawn
    assert ruling.warnings == [
        "Ana can draw only 1 card of 3: the discard pile shuffled into a "
        "new deck held 1 card, all drawn (SRA-11.4)."
    ]
    assert not any(
        "both empty" in text
        for text in [ruling.reason, *ruling.warnings, *(c.detail for c in ruling.checks)]
    )
    assert (
        "then the discard pile (1 card) is shuffled into a new deck and 1 card more drawn"
        in ruling.checks[2].detail
    )
