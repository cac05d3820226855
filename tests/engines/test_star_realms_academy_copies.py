"""SRA-2 (the Card List's copies) wherever a card enters the position: at the start (the position
as given), on a refill of the shop row, on a draw (a drawn card played by name) and on a buy (the
bought card is still one of the game's copies, in the discard pile). Engine only, no database."""

from games.star_realms_academy.engine import check
from tests.engines.test_star_realms_academy_engine import (
    attack,
    buy,
    card,
    play,
    position,
)


def test_sra_2_a_fifth_ram_cannot_refill_the_shop_row():
    # Three Rams in the hand, one in the shop row: all four are accounted for. Buying the Ram
    # puts it in the discard pile (still one of the four), so the refill cannot be a fifth.
    ruling = check(
        position(coins=1, hand=["Ram", "Ram", "Ram"], shop_row=["Ram", "Freighter"])
    ).rule(buy("Ram", refill="Ram"))
    assert (ruling.verdict, ruling.code, ruling.rule) == ("illegal", "too_many_copies", "SRA-2")
    assert "all 4 copies" in ruling.reason and "discard pile" in ruling.reason
    assert {"action": "buy", "card": "Ram"} in ruling.alternatives  # an unnamed refill is fine


def test_sra_2_a_refill_may_be_the_last_copy():
    # Two Rams in the hand and one in the row: the bought one and the refill make four.
    ruling = check(position(coins=1, hand=["Ram", "Ram"], shop_row=["Ram"])).rule(
        buy("Ram", refill="Ram")
    )
    assert ruling.verdict == "legal"
    assert ruling.outcome["position"]["shop_row"] == ["Ram"]


def test_sra_2_buying_twice_in_a_row_never_gives_more_rams_than_the_card_list():
    # One Ram in the row and two in the hand: buy it (refill Ram: the fourth), then buy that
    # one (a refill Ram would be a fifth).
    turn = check(position(coins=3, hand=["Ram", "Ram"], shop_row=["Ram"]))
    assert turn.push(buy("Ram", refill="Ram")).verdict == "legal"
    second = turn.push(buy("Ram", refill="Ram"))
    assert (second.verdict, second.code, second.rule) == ("illegal", "too_many_copies", "SRA-2")


def test_sra_2_the_whole_turn_stops_at_the_refill_that_would_be_a_fifth_ram():
    # The case: from a position with one Ram, buying Ram with a Ram refill over and over.
    actions = [buy("Ram", refill="Ram")] * 6
    result = check(position(coins=8, shop_row=["Ram"])).score(actions)
    assert [s.verdict for s in result.steps] == ["legal", "legal", "legal", "illegal"]
    assert result.stopped_at == 3
    assert (result.ruling.code, result.ruling.rule) == ("too_many_copies", "SRA-2")
    assert result.steps[-1].coins == 5  # three Rams bought, for 1 Coin each


def test_sra_2_a_drawn_card_cannot_be_a_copy_already_bought_this_turn():
    # Three Rams bought into the discard pile and one in the row: a drawn card is no Ram.
    turn = check(position(coins=3, hand=["Survey Ship"], shop_row=["Ram"], deck=5))
    for _ in range(3):
        assert turn.push(buy("Ram", refill="Ram")).verdict == "legal"
    assert turn.push(play(card("Survey Ship"))).verdict == "legal"  # draws 1 from the deck
    ruling = turn.push(play("Ram"))
    assert (ruling.verdict, ruling.code, ruling.rule) == ("illegal", "too_many_copies", "SRA-2")


def test_sra_2_a_card_shuffled_back_into_the_deck_may_be_drawn_again():
    # Three Rams in the hand, the fourth bought into the empty discard pile. The deck is empty:
    # Survey Ship's draw shuffles the discard pile into a new deck, so the card drawn is that
    # Ram, which may be played: it is the fourth copy, not a fifth.
    # (A guard for the fix: counting the bought Ram, it must not be counted twice.)
    ram = card("Ram", primary={"combat": 1})  # as an admin would transcribe it
    turn = check(
        position(
            coins=1, hand=[ram, ram, ram, "Survey Ship"], shop_row=[ram], deck=0, discard_pile=0
        )
    )
    assert turn.push(buy(ram)).verdict == "legal"  # the refill is not named
    assert turn.push(play("Survey Ship")).verdict == "legal"
    assert turn.active.drawn == 1
    for _ in range(3):
        assert turn.push(play(ram)).verdict == "legal"  # the named Rams of the hand
    drawn = turn.push(play(ram))  # the drawn card: the bought Ram, shuffled back
    assert drawn.verdict == "legal", drawn.reason
    assert turn.active.drawn == 0


def test_sra_2_a_destroyed_base_in_its_owners_discard_pile_still_counts():
    # Ben's The Hive is destroyed into his discard pile: with two more in the row and in Ana's
    # hand the game's three are accounted for, so no drawn card of Ana's is a The Hive.
    turn = check(
        position(
            in_play=["Viper"],
            combat=1,
            hand=["The Hive"],
            shop_row=["The Hive"],
            drawn=1,
            opponent_bases=["The Hive"],
        )
    )
    assert turn.push(attack("The Hive", 1)).verdict == "legal"
    ruling = turn.push(play("The Hive"))
    assert ruling.verdict == "legal"  # the named one in the hand
    ruling = turn.push(play("The Hive"))
    assert (ruling.verdict, ruling.code, ruling.rule) == ("illegal", "too_many_copies", "SRA-2")
