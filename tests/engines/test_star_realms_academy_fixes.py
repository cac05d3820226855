"""Issue 32 in Star Realms Academy, engine only: state only what the position fixes.

SRA-R9: a draw is a number only where the counts, or the cards the position names, fix it; else
the move stays legal and draws "up to" what the counts decide. SRA-R10: a card that a space
refilled unnamed may hold is "needs information", not illegal. SRA-R11: Combat a base does not
need stays in the pool. Each position that does not fix the answer is tested with its neighbour
that does.
"""

from games.star_realms_academy import engine
from games.star_realms_academy.engine import check

from .test_star_realms_academy_engine import attack, buy, card, end_turn, play, position

KEPT_ALL = ["Scout"] * 5 + ["Viper"]  # every starting card of Ana's in her hand (SRA-3.3)
ROW = ["Recycling Station", "Federation Shuttle", "Trade Escort", "Ram", "Corvette"]
UP_TO_THREE = {"at_least": 0, "at_most": 3}


def rules_of(ruling) -> list[str]:
    return [c.rule for c in ruling.checks]


# --- SRA-R9: the draw at the end of the turn ----------------------------------------------------


def test_a_player_who_kept_every_card_draws_up_to_three_without_the_counts():
    ruling = check(position(hand=KEPT_ALL)).rule(end_turn())
    assert (ruling.verdict, ruling.code, ruling.rule) == ("legal", "turn_ended", "SRA-11")
    assert ruling.outcome["drawn"] == UP_TO_THREE
    assert ruling.outcome["draws"] == UP_TO_THREE
    assert ruling.outcome["position"]["active"]["drawn"] == UP_TO_THREE
    assert (
        "Ana draws up to 3 cards (give the deck and discard pile counts to know how many)"
        in ruling.reason
    )
    assert "draws 3" not in ruling.reason
    r9 = [c for c in ruling.checks if c.rule == "SRA-R9"]
    assert len(r9) == 1 and r9[0].passed
    assert "a player who kept every card may have both empty" in r9[0].detail
    assert any("SRA-R9" in w and "deck and discard pile counts" in w for w in ruling.warnings)


def test_with_the_counts_the_same_end_of_turn_draws_the_number_they_fix():
    empty = check(position(hand=KEPT_ALL, deck=0, discard_pile=0)).rule(end_turn())
    assert empty.verdict == "legal" and empty.outcome["drawn"] == 0
    assert "Ana draws 0 cards" in empty.reason and "SRA-R9" not in rules_of(empty)
    two = check(position(hand=KEPT_ALL, deck=0, discard_pile=2)).rule(end_turn())
    assert two.outcome["drawn"] == 2
    full = check(position(hand=KEPT_ALL, deck=5, discard_pile=0)).rule(end_turn())
    assert full.outcome["drawn"] == 3 and "SRA-R9" not in rules_of(full)


def test_starting_cards_the_position_does_not_show_fix_the_draw():
    """Three of Ana's six starting cards are not in her hand: they are in her deck or her discard
    pile (never bought nor lost), so three cards can be drawn whatever the counts."""
    ruling = check(position(hand=["Scout", "Scout", "Viper"])).rule(end_turn())
    assert ruling.outcome["drawn"] == 3 and ruling.outcome["draws"] == 3
    assert "Ana draws 3 cards;" in ruling.reason and "SRA-R9" not in rules_of(ruling)
    assert not any("SRA-R9" in w for w in ruling.warnings)
    # Two unseen starting cards fix two of the three; the third is the counts' to decide.
    two = check(position(hand=["Scout"] * 4)).rule(end_turn())
    assert two.outcome["drawn"] == {"at_least": 2, "at_most": 3}
    assert "Ana draws 2 to 3 cards" in two.reason
    # An unnamed drawn card in the hand may be one of those starting cards.
    drawn = check(position(hand=["Scout"] * 4, drawn=1)).rule(end_turn())
    assert drawn.outcome["drawn"] == {"at_least": 1, "at_most": 3}


def test_ships_discarded_and_cards_bought_this_turn_can_be_drawn():
    # The ships in play go to the discard pile first: three of them fix the draw.
    ships = check(position(hand=["Scout", "Scout", "Viper"], in_play=["Scout"] * 3)).rule(
        end_turn()
    )
    assert ships.outcome["drawn"] == 3
    # One ship: one card for certain, the rest the counts decide.
    one = check(position(hand=["Scout"] * 4 + ["Viper"], in_play=["Scout"])).rule(end_turn())
    assert one.outcome["drawn"] == {"at_least": 1, "at_most": 3}
    # A card bought this turn is in the discard pile.
    turn = check(position(hand=KEPT_ALL, coins=1, shop_row=ROW))
    assert turn.push(buy("Ram", refill="Freighter")).verdict == "legal"
    assert turn.push(end_turn()).outcome["drawn"] == {"at_least": 1, "at_most": 3}


def test_a_deck_count_without_the_discard_pile_fixes_only_the_deck():
    ruling = check(position(hand=KEPT_ALL, deck=1)).rule(end_turn())
    assert ruling.outcome["drawn"] == {"at_least": 1, "at_most": 3}
    assert "give the discard pile's count to know how many" in ruling.reason
    assert "deck" not in ruling.outcome["position"]["active"]  # a new deck of unknown size
    # A deck that holds the three: the discard pile does not matter.
    enough = check(position(hand=KEPT_ALL, deck=3)).rule(end_turn())
    assert enough.outcome["drawn"] == 3 and enough.outcome["position"]["active"]["deck"] == 0


def test_a_discard_pile_count_without_the_deck_is_not_kept_after_a_draw():
    """The deck's size unknown, it may have run out and taken the discard pile: the pile's
    count is no longer fixed, and the answer does not state it."""
    ruling = check(position(hand=KEPT_ALL, discard_pile=1)).rule(end_turn())
    assert ruling.outcome["drawn"] == {"at_least": 1, "at_most": 3}
    assert "discard_pile" not in ruling.outcome["position"]["active"]


# --- SRA-R9: every draw an ability causes ---------------------------------------------------------


def test_survey_ships_draw_is_stated_as_the_counts_decide():
    ruling = check(position(hand=[*KEPT_ALL, "Survey Ship"], coins=3)).rule(play("Survey Ship"))
    assert (ruling.verdict, ruling.code) == ("legal", "ship_played")
    assert ruling.outcome["gained"] == {"coin": 2, "draw": {"at_least": 0, "at_most": 1}}
    assert ruling.outcome["draws"] == {"at_least": 0, "at_most": 1}
    assert ruling.outcome["coins"] == 5
    assert (
        "gets 2 Coins (its 1 Draw draws up to 1 card: give the deck and discard pile counts "
        "to know how many, SRA-R9)"
    ) in ruling.reason
    assert "SRA-R9" in rules_of(ruling)


def test_survey_ships_draw_with_the_counts_or_an_unseen_starting_card_is_a_number():
    counted = check(position(hand=[*KEPT_ALL, "Survey Ship"], deck=0, discard_pile=0)).rule(
        play("Survey Ship")
    )
    assert counted.outcome["gained"] == {"coin": 2, "draw": 0}
    assert "its 1 Draw draws no card" in counted.reason
    unseen = check(position(hand=["Scout"] * 5 + ["Survey Ship"])).rule(play("Survey Ship"))
    assert unseen.outcome["gained"] == {"coin": 2, "draw": 1}
    assert "gets 2 Coins and 1 Draw." in unseen.reason and "SRA-R9" not in rules_of(unseen)


def test_an_ability_draw_leaves_less_for_the_end_of_the_turn():
    """One unseen starting card: Survey Ship draws it for certain, the end of turn then draws up
    to 3 (the counts decide)."""
    turn = check(position(hand=["Scout"] * 5 + ["Survey Ship"]))
    assert turn.push(play("Survey Ship")).outcome["gained"]["draw"] == 1
    ended = turn.push(end_turn())
    # Survey Ship itself goes to the discard pile: one card for certain.
    assert ended.outcome["drawn"] == {"at_least": 1, "at_most": 3}
    assert ended.outcome["draws"] == {"at_least": 2, "at_most": 4}


def test_a_bases_draw_and_an_ally_draw_follow_the_same_ruling():
    """Values an admin would transcribe (the catalog does not know them): a base whose primary
    draws a card, a ship whose Ally ability draws one."""
    fleet = card("Fleet HQ", primary={"draw": 1})
    frigate = card("Imperial Frigate", ally={"draw": 1})
    for move, where in (
        (engine.Move(engine.USE_BASE, card=fleet), {"bases": [fleet]}),
        (
            engine.Move(engine.USE_ALLY, card=frigate),
            {"in_play": [frigate, "Corvette"], "combat": 2},
        ),
    ):
        open_draw = check(position(hand=KEPT_ALL, **where)).rule(move)
        assert open_draw.verdict == "legal", open_draw.reason
        assert open_draw.outcome["gained"] == {"draw": {"at_least": 0, "at_most": 1}}
        assert "draws up to 1 card" in open_draw.reason and "SRA-R9" in rules_of(open_draw)
        counted = check(position(hand=KEPT_ALL, deck=1, discard_pile=0, **where)).rule(move)
        assert counted.outcome["gained"] == {"draw": 1} and "SRA-R9" not in rules_of(counted)


def test_a_card_played_as_drawn_when_none_may_have_been_drawn_needs_the_counts():
    turn = check(position(hand=[*KEPT_ALL, "Survey Ship"]))
    turn.push(play("Survey Ship"))
    ruling = turn.rule(play("Ram"))
    assert (ruling.verdict, ruling.code, ruling.rule) == (
        "needs_information",
        "deck_count_required",
        "SRA-R9",
    )
    assert [m["path"] for m in ruling.missing] == ["active.deck", "active.discard_pile"]
    assert "draws took up to 1 card" in ruling.reason
    assert [c for c in ruling.checks if not c.passed][0].rule == "SRA-R9"
    # A card the game has no copy left of is illegal whatever was drawn.
    full = check(
        position(hand=[*KEPT_ALL, "Survey Ship"], in_play=["Ram", "Ram"], shop_row=["Ram", "Ram"])
    )
    full.push(play("Survey Ship"))
    assert (full.rule(play("Ram")).verdict, full.rule(play("Ram")).code) == (
        "illegal",
        "too_many_copies",
    )


def test_a_card_played_as_drawn_after_a_draw_the_counts_fix_is_legal():
    ram = card("Ram", kind="ship", primary={"combat": 1})  # as an admin would transcribe it
    turn = check(position(hand=[*KEPT_ALL, "Survey Ship"], deck=2, discard_pile=0))
    turn.push(play("Survey Ship"))
    ruling = turn.rule(play(ram))
    assert (ruling.verdict, ruling.code) == ("legal", "ship_played")
    assert any("taken as one of the 1 card drawn" in c.detail for c in ruling.checks)
    # Without the counts, an unseen starting card fixes Survey Ship's draw.
    unseen = check(position(hand=["Scout"] * 5 + ["Survey Ship"]))
    unseen.push(play("Survey Ship"))
    assert unseen.rule(play("Viper")).verdict == "legal"


# --- SRA-R10: a refill not named ------------------------------------------------------------------


def test_the_issues_turn_buying_again_from_a_space_refilled_unnamed_needs_information():
    turn = check(position(coins=2, shop_row=ROW))
    first = turn.push(buy("Ram"))
    assert (first.verdict, first.code) == ("legal", "card_bought")
    second = turn.push(buy("Ram"))
    assert (second.verdict, second.code, second.rule) == (
        "needs_information",
        "refill_not_named",
        "SRA-R10",
    )
    assert second.missing == [
        {
            "path": "actions[0].refill",
            "field": "refill",
            "label": "refill",
            "detail": "Which card refilled the shop row after Ram was bought (action 1)?",
        }
    ]
    assert "may hold Ram (SRA-R10)" in second.reason
    assert [c for c in second.checks if not c.passed][0].rule == "SRA-R10"


def test_a_refill_named_decides_the_second_buy():
    named_ram = check(position(coins=2, shop_row=ROW))
    named_ram.push(buy("Ram", refill="Ram"))
    assert named_ram.push(buy("Ram")).code == "card_bought"
    named_other = check(position(coins=2, shop_row=ROW))
    named_other.push(buy("Ram", refill="Freighter"))
    other = named_other.push(buy("Ram"))
    assert (other.verdict, other.code) == ("illegal", "not_in_shop_row")


def test_a_buy_the_unknown_space_cannot_make_legal_stays_illegal():
    # One Coin left after the first Ram: not enough for another, whatever the space holds.
    poor = check(position(coins=1, shop_row=ROW))
    poor.push(buy("Ram"))
    assert (poor.rule(buy("Ram")).verdict, poor.rule(buy("Ram")).code) == (
        "illegal",
        "not_enough_coins",
    )
    # Every copy of Ram is seen: two in play, two in the shop row (one is bought first).
    rams = check(position(coins=3, in_play=["Ram", "Ram"], shop_row=ROW[:3] + ["Ram", "Ram"]))
    rams.push(buy("Ram"))
    # Four Freighters, none seen: the space may hold one, and its cost (not transcribed) is
    # asked first, as for any buy; once known, the refill is.
    assert rams.rule(buy("Freighter")).code == "card_value_unknown"
    assert rams.rule(buy(card("Freighter", cost=1))).code == "refill_not_named"
    rams.push(buy("Ram", refill="Freighter"))
    gone = rams.rule(buy("Ram"))
    assert (gone.verdict, gone.code) == ("illegal", "not_in_shop_row")
    assert "all 4 copies are accounted for" in gone.reason
    # A starting card is never in the shop row.
    start = check(position(coins=2, shop_row=ROW))
    start.push(buy("Ram"))
    assert start.rule(buy("Scout")).code == "not_in_shop_row"


def test_a_whole_turn_stops_at_the_buy_that_needs_the_refill():
    breakdown = check(position(coins=2, shop_row=ROW)).score([buy("Ram"), buy("Ram"), end_turn()])
    assert [s.more["code"] for s in breakdown.steps] == ["card_bought", "refill_not_named"]
    assert breakdown.stopped_at == 1 and breakdown.ruling is not None
    assert breakdown.ruling.verdict == "needs_information"


# --- SRA-R11: Combat beyond a base's defense --------------------------------------------------------


def test_combat_beyond_a_bases_defense_stays_in_the_pool_citing_the_ruling():
    ruling = check(
        position(in_play=["Imperial Frigate"], combat=2, opponent_bases=["The Hive"])
    ).rule(attack("The Hive", 2))
    assert (ruling.verdict, ruling.code) == ("legal", "attack_made")
    assert ruling.outcome["combat"] == 1 and ruling.outcome["spent"] == {"combat": 1}
    assert ruling.outcome["destroyed"] == ["The Hive"]
    r11 = [c for c in ruling.checks if c.rule == engine.BEYOND_DEFENSE_RULE]
    assert len(r11) == 1 and "the other 1 stays in the pool" in r11[0].detail
    assert any("stays in the pool (SRA-R11)" in w for w in ruling.warnings)


def test_combat_a_base_needs_exactly_cites_no_extra():
    ruling = check(
        position(in_play=["Imperial Frigate"], combat=2, opponent_bases=["The Hive"])
    ).rule(attack("The Hive", 1))
    assert ruling.outcome["combat"] == 1
    assert "SRA-R11" not in rules_of(ruling)
    assert not any("SRA-R11" in w for w in ruling.warnings)
