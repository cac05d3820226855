"""Star Realms Academy turn breakdowns, engine only (no database): every action ruled in turn on
the state the ones before it left, the running numbers, and the stop at the first action that is
illegal or needs an unknown value."""

import pytest

from games.protocol import ImpossiblePosition
from games.star_realms_academy.engine import check
from tests.engines.test_star_realms_academy_engine import (
    attack,
    base,
    buy,
    card,
    end_turn,
    play,
    position,
    use_ally,
    use_base,
)


def test_the_rulebook_example_as_a_turn():
    board = check(position(hand=["Imperial Frigate"], opponent_bases=["The Hive"]))
    result = board.score(
        [play("Imperial Frigate"), attack("The Hive", 1), attack("health"), end_turn()]
    )
    assert [
        (s.code, s.combat, s.opponent_health, s.points, s.running_total) for s in result.steps
    ] == [
        ("ship_played", 2, 15, 0, 0),
        ("attack_made", 1, 15, 0, 0),
        ("attack_made", 0, 14, 1, 1),
        ("turn_ended", 0, 14, 0, 1),
    ]
    assert [len(s.bases) for s in result.steps] == [1, 0, 0, 0]
    assert result.total == 1 and result.winner is None and result.turn_over
    assert result.ruling is None and result.stopped_at is None
    assert result.start["combat"] == 0 and result.start["bases"][0]["card"] == "The Hive"
    assert result.final["opponent"]["bases"] == []
    assert [s.n for s in result.steps] == [1, 2, 3, 4]
    assert result.steps[1].card == "The Hive" and result.steps[3].card is None


def test_coins_draws_and_health_are_followed_step_by_step():
    fleet = card("Fleet HQ", primary={"health": 3, "draw": 1})
    result = check(
        position(
            hand=["Survey Ship", "Scout"],
            coins=5,
            health=14,
            bases=[base("Fleet HQ", primary={"health": 3, "draw": 1})],
        )
    ).score([play("Survey Ship"), play("Scout"), use_base(fleet), buy("Ram"), end_turn()])
    assert [(s.coins, s.draws, s.health) for s in result.steps] == [
        (7, 1, 14),
        (8, 1, 14),
        (8, 2, 15),
        (7, 2, 15),
        (7, 5, 15),
    ]
    assert any(w.startswith("2 Health beyond the cap of 15") for w in result.warnings)
    assert result.steps[2].warnings and not result.steps[3].warnings


def test_the_first_illegal_action_stops_the_breakdown():
    result = check(position(hand=["Viper"], coins=0)).score(
        [play("Viper"), buy("Ram"), attack("health")]
    )
    assert [s.verdict for s in result.steps] == ["legal", "illegal"]
    assert result.stopped_at == 1 and result.ruling.code == "not_enough_coins"
    assert result.ruling.alternatives  # the legal moves at that point
    assert result.final["active"]["combat"] == 1  # the state before the illegal action


def test_an_unknown_value_stops_the_breakdown_too():
    result = check(position(in_play=["Imperial Frigate", "Corvette"])).score(
        [use_ally("Imperial Frigate"), end_turn()]
    )
    assert result.stopped_at == 0 and result.ruling.verdict == "needs_information"
    assert result.ruling.missing[0]["field"] == "ally"


def test_winning_ends_the_turn_there():
    result = check(
        position(in_play=["Imperial Frigate", "Imperial Frigate"], combat=4, opponent_health=3)
    ).score([attack("health", 3), attack("health", 1)])
    assert result.winner == "Ana" and result.total == 3
    assert result.ruling.code == "game_over" and result.stopped_at == 1


def test_an_impossible_position_raises_with_score_paths():
    with pytest.raises(ImpossiblePosition) as raised:
        check(position(coins=9))
    assert raised.value.errors[0]["path"] == "active.coins"
