"""The Star Trek: Missions turn engine on plain card specs (no database), through the board of
each position (engine.check): every rule of a turn, every illegal code, the alternatives, the end
of the game, Time Distortion's extra turn and the positions that cannot exist."""

import pytest

from games.protocol import ImpossiblePosition
from games.star_trek_missions import engine
from games.star_trek_missions.engine import CardSpec, Move, Position


def galaxy(name):
    return CardSpec(name, "galaxy")


def mission(name, *effects):
    return CardSpec(name, "mission", frozenset(effects))


PICARD, RIKER, WORF, DATA, TROI, SPOCK, VASH = (
    galaxy(n) for n in ("Picard", "Riker", "Worf", "Data", "Troi", "Spock", "Vash")
)
BRIDGE, SHIELDS, TRICORDER = galaxy("Bridge"), galaxy("Shields"), galaxy("Tricorder")
AWAY, BORG, VIRUS, PLAGUE = (mission(n) for n in ("Away Team", "Borg Cube", "Virus", "Plague"))
TIME = mission("Time Distortion", engine.EXTRA_TURN_EFFECT)
Q = mission("Meddlesome Q", engine.HAND_SIZE_EFFECT)


def hand_of(*missions):
    """Seven cards: five (or six) Galaxy cards and the Missions given."""
    galaxies = [PICARD, RIKER, WORF, DATA, TROI, SPOCK][: 7 - len(missions)]
    return galaxies + list(missions)


def position(hand=None, discard_area=(), galaxy_deck=30, mission_deck=15, **kwargs):
    return Position(
        hand=list(hand if hand is not None else hand_of(AWAY, BORG)),
        discard_area=list(discard_area),
        galaxy_deck=galaxy_deck,
        mission_deck=mission_deck,
        **kwargs,
    )


def take(card, discard, **kwargs):
    return Move(engine.TAKE_DISCARD, take=card, discard=list(discard), **kwargs)


def draw_galaxy(card, discard, **kwargs):
    return Move(engine.DRAW_GALAXY, draw=[card], discard=list(discard), **kwargs)


def draw_missions(cards, discard, **kwargs):
    return Move(engine.DRAW_MISSIONS, draw=list(cards), discard=list(discard), **kwargs)


def rule(pos, move):
    return engine.check(pos).rule(move)


def assert_illegal(ruling, code, rule):
    assert ruling.verdict == "illegal", ruling.reason
    assert ruling.code == code
    assert ruling.rule == rule
    assert ruling.outcome is None
    assert ruling.checks[-1].passed is False
    assert all(check.passed for check in ruling.checks[:-1])
    assert ruling.reason == ruling.checks[-1].detail
    assert code in engine.ILLEGAL_CODES
    return ruling


# --- Legal turns ----------------------------------------------------------------------------------


def test_take_from_the_discard_area_is_legal_with_its_outcome():
    ruling = rule(position(discard_area=[BRIDGE, VIRUS]), take(BRIDGE, [PICARD]))
    assert (ruling.verdict, ruling.code, ruling.rule) == ("legal", "legal_turn", "STM-R9")
    assert all(check.passed for check in ruling.checks)
    assert [c.rule for c in ruling.checks] == [
        "STM-6.1",
        "STM-6.1",
        "STM-6.1",
        "STM-6.1",
        "STM-6.1",
        "STM-6.3",
        "STM-5",
    ]
    assert ruling.alternatives == []
    outcome = ruling.outcome
    assert outcome["hand"] == ["Riker", "Worf", "Data", "Troi", "Away Team", "Borg Cube", "Bridge"]
    assert outcome["discard_area"] == ["Virus", "Picard"]
    assert (outcome["galaxy_deck"], outcome["mission_deck"]) == (30, 15)
    assert outcome["discard_counts"] == {"galaxy": 1, "mission": 1}
    assert outcome["game_ends"] is False
    assert "1 Galaxy card and 1 Mission card" in outcome["game_ends_reason"]
    assert outcome["extra_turn"] is False and outcome["extra_turn_reason"] is None
    assert "Bridge taken from the discard area and Picard discarded" in ruling.reason


def test_draw_galaxy_may_discard_the_drawn_card():
    ruling = rule(position(), draw_galaxy(VASH, [VASH]))
    assert ruling.verdict == "legal"
    assert ruling.outcome["hand"] == [c.name for c in hand_of(AWAY, BORG)]
    assert ruling.outcome["discard_area"] == ["Vash"]
    assert ruling.outcome["galaxy_deck"] == 29


def test_draw_missions_discarding_two_keeps_one_or_two_missions():
    ruling = rule(position(hand=hand_of(AWAY)), draw_missions([VIRUS, PLAGUE], [AWAY, PICARD]))
    assert ruling.verdict == "legal", ruling.reason
    assert ruling.outcome["hand"] == ["Riker", "Worf", "Data", "Troi", "Spock", "Virus", "Plague"]
    assert ruling.outcome["mission_deck"] == 13
    assert ruling.outcome["discard_counts"] == {"galaxy": 1, "mission": 1}


def test_a_turn_may_swap_a_mission_for_a_galaxy_card():
    # One Mission before, take a Mission, discard the other one: still one.
    ruling = rule(position(hand=hand_of(AWAY), discard_area=[VIRUS]), take(VIRUS, [AWAY]))
    assert ruling.verdict == "legal"


# --- Illegal turns: every code ---------------------------------------------------------------------


def test_one_option_only():
    ruling = rule(position(discard_area=[BRIDGE]), take(BRIDGE, [PICARD], other_fields=["draw"]))
    assert_illegal(ruling, "one_option_only", "STM-6.1")
    assert "move.draw" in ruling.reason
    assert len(ruling.checks) == 1


def test_draw_count():
    ruling = rule(position(), draw_missions([VIRUS], [PICARD, RIKER]))
    assert_illegal(ruling, "draw_count", "STM-6.1")
    assert "draws 1 card" in ruling.reason


@pytest.mark.parametrize(
    "move",
    [
        take(BRIDGE, []),
        take(BRIDGE, [PICARD, RIKER]),
        draw_galaxy(VASH, [PICARD, RIKER]),
        draw_missions([VIRUS, PLAGUE], [PICARD]),
    ],
)
def test_discard_count(move):
    ruling = rule(position(discard_area=[BRIDGE]), move)
    assert_illegal(ruling, "discard_count", "STM-6.1")
    assert f"discards {len(move.discard)} card" in ruling.reason


def test_duplicate_card_in_draws_or_discards():
    assert_illegal(
        rule(position(), draw_missions([VIRUS, VIRUS], [PICARD, RIKER])),
        "duplicate_card",
        "STM-6.1",
    )
    ruling = rule(position(), draw_missions([VIRUS, PLAGUE], [PICARD, PICARD]))
    assert_illegal(ruling, "duplicate_card", "STM-6.1")
    assert "discards Picard twice" in ruling.reason


def test_not_in_discard_area():
    ruling = rule(position(discard_area=[BRIDGE, SHIELDS]), take(VASH, [PICARD]))
    assert_illegal(ruling, "not_in_discard_area", "STM-6.1")
    assert ruling.reason == (
        "Vash is not in the discard area, so it cannot be taken from it. "
        "The discard area holds Bridge and Shields."
    )
    ruling = rule(position(discard_area=[BRIDGE]), take(PICARD, [RIKER]))
    assert "(it is in the hand)" in ruling.reason


def test_galaxy_deck_empty():
    ruling = rule(position(galaxy_deck=0), draw_galaxy(VASH, [PICARD]))
    assert_illegal(ruling, "galaxy_deck_empty", "STM-6.1")
    assert "The Galaxy deck is empty (0 cards)" in ruling.reason


# --- The deck counts are optional (issue 23) ------------------------------------------------------


def test_a_take_from_the_discard_area_needs_no_deck_count():
    ruling = rule(
        position(discard_area=[BRIDGE], galaxy_deck=None, mission_deck=None), take(BRIDGE, [PICARD])
    )
    assert (ruling.verdict, ruling.code) == ("legal", "legal_turn")
    assert ruling.outcome["galaxy_deck"] is None and ruling.outcome["mission_deck"] is None


@pytest.mark.parametrize(
    "move, key, deck",
    [
        (draw_galaxy(VASH, [PICARD]), "galaxy_deck", "Galaxy"),
        (draw_missions([VIRUS, PLAGUE], [AWAY, BORG]), "mission_deck", "Mission"),
    ],
)
def test_a_draw_without_its_decks_count_needs_information(move, key, deck):
    ruling = rule(position(**{key: None}), move)
    assert (ruling.verdict, ruling.code, ruling.rule) == (
        "needs_information",
        "deck_count_required",
        "STM-6.1",
    )
    assert ruling.missing == [
        {"path": f"position.{key}", "detail": f"The number of cards left in the {deck} deck."}
    ]
    assert f"How many cards the {deck} deck holds was not given" in ruling.reason
    assert ruling.alternatives == [] and ruling.outcome is None
    # The neighbour: the same draw with the count given is ruled.
    assert rule(position(), move).verdict == "legal"


def test_a_draw_needs_only_its_own_decks_count():
    ruling = rule(position(mission_deck=None), draw_galaxy(VASH, [PICARD]))
    assert ruling.verdict == "legal" and ruling.outcome["mission_deck"] is None
    assert ruling.outcome["galaxy_deck"] == 29


def test_an_illegal_take_lists_no_draw_it_cannot_rule():
    ruling = rule(
        position(discard_area=[BRIDGE], galaxy_deck=None, mission_deck=None), take(BRIDGE, [BRIDGE])
    )
    assert ruling.verdict == "illegal"
    assert ruling.alternatives and all(m["action"] == "take_discard" for m in ruling.alternatives)


def test_too_many_cards_without_a_deck_count_counts_the_hand_and_discard_area():
    many = [galaxy(f"G{i}") for i in range(50)]
    with pytest.raises(ImpossiblePosition) as raised:
        engine.check(position(discard_area=many, galaxy_deck=None))
    entry = next(e for e in raised.value.errors if e["code"] == "too_many_cards")
    assert entry["path"] == "discard_area"
    assert "Galaxy deck" not in entry["detail"]


def test_mission_deck_too_small():
    ruling = rule(position(mission_deck=1), draw_missions([VIRUS, PLAGUE], [AWAY, BORG]))
    assert_illegal(ruling, "mission_deck_too_small", "STM-6.1")
    assert "holds 1 card" in ruling.reason


def test_not_a_galaxy_card():
    ruling = rule(position(), draw_galaxy(VIRUS, [PICARD]))
    assert_illegal(ruling, "not_a_galaxy_card", "STM-4.1")
    assert "Virus is a Mission card" in ruling.reason


def test_not_a_mission_card():
    ruling = rule(position(), draw_missions([VIRUS, VASH], [PICARD, RIKER]))
    assert_illegal(ruling, "not_a_mission_card", "STM-4.1")
    assert "Vash is a Galaxy card" in ruling.reason


def test_card_not_in_deck():
    ruling = rule(position(discard_area=[BRIDGE]), draw_galaxy(BRIDGE, [PICARD]))
    assert_illegal(ruling, "card_not_in_deck", "STM-6.1")
    assert "already in the discard area" in ruling.reason
    ruling = rule(position(), draw_missions([AWAY, VIRUS], [PICARD, RIKER]))
    assert_illegal(ruling, "card_not_in_deck", "STM-6.1")
    assert "Away Team is already in the hand" in ruling.reason


def test_discard_not_in_hand():
    ruling = rule(position(discard_area=[BRIDGE, SHIELDS]), take(BRIDGE, [SHIELDS]))
    assert_illegal(ruling, "discard_not_in_hand", "STM-6.1")
    assert "Shields is not in the hand after taking" in ruling.reason
    ruling = rule(position(), draw_galaxy(VASH, [SPOCK]))
    assert_illegal(ruling, "discard_not_in_hand", "STM-6.1")


def test_same_card():
    ruling = rule(position(discard_area=[BRIDGE]), take(BRIDGE, [BRIDGE]))
    assert_illegal(ruling, "same_card", "STM-6.1")
    assert "takes Bridge and discards it again" in ruling.reason


def test_mission_count_zero():
    ruling = rule(position(hand=hand_of(AWAY)), draw_galaxy(VASH, [AWAY]))
    assert_illegal(ruling, "mission_count", "STM-6.3")
    assert "would hold 0 Mission cards" in ruling.reason


def test_mission_count_three():
    ruling = rule(position(discard_area=[VIRUS]), take(VIRUS, [PICARD]))
    assert_illegal(ruling, "mission_count", "STM-6.3")
    assert "3 Mission cards (Away Team, Borg Cube and Virus)" in ruling.reason
    ruling = rule(position(), draw_missions([VIRUS, PLAGUE], [PICARD, RIKER]))
    assert_illegal(ruling, "mission_count", "STM-6.3")
    assert "4 Mission cards" in ruling.reason


def test_every_illegal_code_is_documented():
    for code in engine.ILLEGAL_CODES + engine.IMPOSSIBLE_CODES:
        assert f"``{code}``" in engine.__doc__


# --- Alternatives ---------------------------------------------------------------------------------


def test_alternatives_list_every_legal_take_in_order():
    # Two Missions in hand: taking Virus needs a Mission discarded; Bridge allows any discard.
    ruling = rule(position(discard_area=[BRIDGE, VIRUS]), take(SHIELDS, [PICARD]))
    assert ruling.code == "not_in_discard_area"
    takes_bridge = [
        {"action": "take_discard", "take": "Bridge", "discard": [c.name]}
        for c in hand_of(AWAY, BORG)
    ]
    takes_virus = [
        {"action": "take_discard", "take": "Virus", "discard": [name]}
        for name in ("Away Team", "Borg Cube")
    ]
    assert ruling.alternatives == takes_bridge + takes_virus


def test_alternatives_of_a_draw_are_the_legal_discards_given_that_draw_then_takes():
    ruling = rule(position(hand=hand_of(AWAY), discard_area=[BRIDGE]), draw_galaxy(VASH, [AWAY]))
    assert ruling.code == "mission_count"
    draws = [
        {"action": "draw_galaxy", "draw": "Vash", "discard": [name]}
        for name in ("Picard", "Riker", "Worf", "Data", "Troi", "Spock", "Vash")
    ]
    takes = [
        {"action": "take_discard", "take": "Bridge", "discard": [name]}
        for name in ("Picard", "Riker", "Worf", "Data", "Troi", "Spock")
    ]
    assert ruling.alternatives == draws + takes


def test_alternatives_of_drawing_missions_are_every_legal_pair():
    ruling = rule(position(), draw_missions([VIRUS, PLAGUE], [PICARD, RIKER]))
    pairs = [
        tuple(move["discard"]) for move in ruling.alternatives if move["action"] == "draw_missions"
    ]
    # Four Missions after drawing: the two discards must hold at least two of them.
    missions = ["Away Team", "Borg Cube", "Virus", "Plague"]
    assert pairs == [(a, b) for i, a in enumerate(missions) for b in missions[i + 1 :]]
    assert all(move["draw"] == ["Virus", "Plague"] for move in ruling.alternatives)


def test_every_alternative_is_itself_legal():
    pos = position(hand=hand_of(AWAY), discard_area=[BRIDGE, VIRUS, TIME])
    ruling = rule(pos, draw_galaxy(VASH, [AWAY]))
    assert ruling.alternatives
    specs = {c.name: c for c in [*pos.hand, *pos.discard_area, VASH]}
    for alternative in ruling.alternatives:
        move = Move(
            alternative["action"],
            take=specs.get(alternative.get("take")),
            draw=[specs[alternative["draw"]]] if alternative["action"] == "draw_galaxy" else [],
            discard=[specs[name] for name in alternative["discard"]],
        )
        assert rule(pos, move).verdict == "legal"


def test_no_draw_alternatives_when_the_draw_itself_is_wrong():
    ruling = rule(position(discard_area=[BRIDGE], galaxy_deck=0), draw_galaxy(VASH, [PICARD]))
    assert ruling.code == "galaxy_deck_empty"
    assert {move["action"] for move in ruling.alternatives} == {"take_discard"}


def test_a_legal_ruling_has_no_alternatives_and_no_needs_information():
    ruling = rule(position(discard_area=[BRIDGE]), take(BRIDGE, [PICARD]))
    assert ruling.alternatives == [] and ruling.missing == []


# --- The end of the game ---------------------------------------------------------------------------


SEVEN_GALAXY = [BRIDGE, SHIELDS, TRICORDER, *(galaxy(f"G{i}") for i in range(4))]
ELEVEN_MISSIONS = [mission(f"M{i}") for i in range(11)]


def test_the_game_ends_at_eight_galaxy_cards():
    ruling = rule(position(discard_area=SEVEN_GALAXY), draw_galaxy(VASH, [PICARD]))
    assert ruling.verdict == "legal"
    assert ruling.outcome["game_ends"] is True
    assert ruling.outcome["discard_counts"] == {"galaxy": 8, "mission": 0}
    assert "reached 8 Galaxy cards" in ruling.outcome["game_ends_reason"]
    assert "The game ends" in ruling.reason


def test_the_game_ends_at_twelve_missions_after_both_discards():
    discard_area = [*ELEVEN_MISSIONS[:10], BRIDGE]
    ruling = rule(
        position(discard_area=discard_area, mission_deck=10),
        draw_missions([VIRUS, PLAGUE], [AWAY, BORG]),
    )
    assert ruling.verdict == "legal"
    assert ruling.outcome["discard_counts"] == {"galaxy": 1, "mission": 12}
    assert ruling.outcome["game_ends"] is True
    assert "reached 12 Mission cards" in ruling.outcome["game_ends_reason"]


def test_taking_a_card_back_can_keep_the_game_going():
    # Seven Galaxy cards in the discard area: take one and discard a Galaxy card, still seven.
    ruling = rule(position(discard_area=SEVEN_GALAXY), take(BRIDGE, [PICARD]))
    assert ruling.outcome["discard_counts"]["galaxy"] == 7
    assert ruling.outcome["game_ends"] is False


def test_meddlesome_q_is_a_warning_when_the_game_ends():
    ruling = rule(
        position(hand=hand_of(AWAY, Q), discard_area=SEVEN_GALAXY), draw_galaxy(VASH, [PICARD])
    )
    assert ruling.outcome["game_ends"] is True
    assert len(ruling.warnings) == 1 and "Meddlesome Q" in ruling.warnings[0]
    # During the game it changes nothing: the turn still ends with seven cards.
    ruling = rule(position(hand=hand_of(AWAY, Q)), draw_galaxy(VASH, [PICARD]))
    assert ruling.warnings == [] and len(ruling.outcome["hand"]) == 7


# --- Time Distortion (STM-R7) -----------------------------------------------------------------------


def test_time_distortion_taken_from_the_discard_area_grants_an_extra_turn():
    ruling = rule(position(hand=hand_of(AWAY), discard_area=[TIME]), take(TIME, [PICARD]))
    assert ruling.verdict == "legal"
    assert ruling.outcome["extra_turn"] is True
    assert "STM-R7" in ruling.outcome["extra_turn_reason"]
    assert "even though" not in ruling.outcome["extra_turn_reason"]


def test_time_distortion_extra_turn_even_when_the_turn_ends_the_game():
    ruling = rule(
        position(hand=hand_of(AWAY), discard_area=[*SEVEN_GALAXY, TIME]), take(TIME, [PICARD])
    )
    assert ruling.outcome["game_ends"] is True
    assert ruling.outcome["extra_turn"] is True
    assert "even though this turn ends the game" in ruling.outcome["extra_turn_reason"]
    assert "extra turn" in ruling.reason


def test_time_distortion_drawn_from_the_deck_grants_nothing():
    ruling = rule(position(hand=hand_of(AWAY)), draw_missions([TIME, VIRUS], [TIME, PICARD]))
    assert ruling.verdict == "legal" and ruling.outcome["extra_turn"] is False


def test_the_extra_turn_may_follow_the_end_trigger_and_then_the_game_ends():
    discard_area = [*SEVEN_GALAXY, VASH]  # eight Galaxy cards: the trigger was reached
    pos = position(hand=hand_of(AWAY, TIME), discard_area=discard_area, extra_turn=True)
    ruling = rule(pos, take(VASH, [PICARD]))
    assert ruling.verdict == "legal"
    assert ruling.outcome["game_ends"] is True
    assert "extra turn Time Distortion granted" in ruling.outcome["game_ends_reason"]


# --- Impossible positions -------------------------------------------------------------------------


def impossible(pos):
    with pytest.raises(ImpossiblePosition) as caught:
        engine.check(pos)
    for error in caught.value.errors:
        assert set(error) == {"path", "code", "detail"}
        assert error["code"] in engine.IMPOSSIBLE_CODES
    return caught.value.errors


def test_a_card_twice_in_the_hand():
    hand = [PICARD, PICARD, WORF, DATA, TROI, AWAY, BORG]
    [error] = impossible(position(hand=hand))
    assert error == {
        "path": "hand[1]",
        "code": "duplicate_card",
        "detail": "Picard is in the hand twice (position.hand[0] and position.hand[1]); every "
        "card exists once.",
    }


def test_a_card_twice_in_the_discard_area():
    [error] = impossible(position(discard_area=[BRIDGE, BRIDGE]))
    assert (error["path"], error["code"]) == ("discard_area[1]", "duplicate_card")


def test_a_card_in_the_hand_and_the_discard_area():
    [error] = impossible(position(discard_area=[BRIDGE, PICARD]))
    assert (error["path"], error["code"]) == ("discard_area[1]", "card_in_two_places")
    assert "Picard is both in the hand and in the discard area" in error["detail"]


def test_a_hand_of_other_than_seven_cards():
    [error] = impossible(position(hand=hand_of(AWAY, BORG)[:6]))
    assert (error["path"], error["code"]) == ("hand", "hand_size")
    assert "The hand holds 6 cards" in error["detail"]


@pytest.mark.parametrize("missions", [(), (AWAY, BORG, VIRUS)])
def test_a_hand_with_no_or_three_missions(missions):
    hand = [PICARD, RIKER, WORF, DATA, TROI, SPOCK, VASH][: 7 - len(missions)] + list(missions)
    [error] = impossible(position(hand=hand))
    assert (error["path"], error["code"]) == ("hand", "mission_count")
    assert f"holds {len(missions)} Mission card" in error["detail"]


def test_more_cards_than_the_game_has():
    errors = impossible(position(galaxy_deck=46, mission_deck=23))
    assert [(e["path"], e["code"]) for e in errors] == [
        ("galaxy_deck", "too_many_cards"),
        ("mission_deck", "too_many_cards"),
    ]
    assert errors[0]["detail"] == (
        "The position accounts for 51 Galaxy cards (5 in the hand, 0 in the discard area, 46 in "
        "the Galaxy deck), but the game has 50."
    )


def test_stm_r16_a_turn_leaves_five_galaxy_cards_for_another_player():
    # 5 Galaxy cards in the hand and 41 in the deck leave 4 for the others: no other hand.
    [error] = impossible(position(galaxy_deck=41))
    assert error == {
        "path": "galaxy_deck",
        "code": "no_other_hand",
        "detail": "The position leaves 4 of the 50 Galaxy cards for the other players (5 in the "
        "hand, 0 in the discard area, 41 in the Galaxy deck), but the game has at least "
        "one other player, whose hand holds at least 5 Galaxy cards (STM-R16).",
    }
    # The legal neighbour: 40 in the deck leave exactly five.
    assert rule(position(galaxy_deck=40), draw_galaxy(VASH, [PICARD])).verdict == "legal"


def test_stm_r16_a_turn_leaves_one_mission_for_another_player():
    # 2 Missions in the hand, 3 in the discard area and 19 in the deck: none for the others.
    [error] = impossible(position(discard_area=[VIRUS, PLAGUE, TIME], mission_deck=19))
    assert error == {
        "path": "mission_deck",
        "code": "no_other_hand",
        "detail": "The position leaves 0 of the 24 Mission cards for the other players (2 in the "
        "hand, 3 in the discard area, 19 in the Mission deck), but the game has at "
        "least one other player, whose hand holds at least 1 Mission card (STM-R16).",
    }
    neighbour = position(discard_area=[VIRUS, PLAGUE, TIME], mission_deck=18)
    assert rule(neighbour, take(VIRUS, [AWAY])).verdict == "legal"


@pytest.mark.parametrize("discard_area", [SEVEN_GALAXY + [VASH], ELEVEN_MISSIONS + [VIRUS]])
def test_a_discard_area_already_at_the_end_trigger(discard_area):
    [error] = impossible(position(discard_area=discard_area, mission_deck=5))
    assert (error["path"], error["code"]) == ("discard_area", "game_over")
    assert "the game ended" in error["detail"]


def test_an_extra_turn_needs_time_distortion_in_hand():
    [error] = impossible(position(extra_turn=True))
    assert (error["path"], error["code"]) == ("extra_turn", "no_extra_turn")


def test_every_contradiction_is_named_at_once():
    hand = [PICARD, PICARD, WORF, DATA, TROI, SPOCK]
    errors = impossible(position(hand=hand, discard_area=[WORF]))
    assert {e["code"] for e in errors} == {
        "duplicate_card",
        "card_in_two_places",
        "hand_size",
        "mission_count",
    }


def test_the_engine_imports_no_django():
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(engine))
    modules = [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    modules += [
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    ]
    assert not [m for m in modules if m.startswith("django")]


@pytest.mark.parametrize("players", [9, 10])
def test_stm_r16_a_final_table_of_nine_or_more_never_finished(players):
    error = engine.table_contradiction(players)
    assert error is not None and (error["path"], error["code"]) == ("players", "game_cannot_end")
    assert "(STM-R16). A finished game has at most 8 players." in error["detail"]


def test_stm_r16_the_numbers_of_the_ruling_and_eight_players_finish():
    # The ruling's own figures for nine: at least 45 of the 50 Galaxy cards, 13 of the 24 Missions.
    assert (
        "at least 45 of the 50 Galaxy cards and at least 13 of the 24 Missions"
        in engine.table_contradiction(9)["detail"]
    )
    assert [engine.table_contradiction(n) for n in range(2, 9)] == [None] * 7
