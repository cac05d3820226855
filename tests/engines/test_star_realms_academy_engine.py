"""Star Realms Academy rulings, engine only (no database): every rule of the issue, the
rulebook's own examples, and cards whose values nobody has transcribed yet.

The cards come from the shipped catalog file, exactly as the service would build them (unknown
values stay None); a test that needs a value the catalog does not know says so and sets it.
"""

import dataclasses
import json
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.protocol import ImpossiblePosition
from games.star_realms_academy import engine
from games.star_realms_academy.card_rules import same_faction_as
from games.star_realms_academy.engine import (
    BaseIn,
    CardSpec,
    Move,
    Position,
    Side,
    check,
)
from games.star_realms_academy.provisional import provisional_items

CATALOG = Path(__file__).resolve().parents[2] / "games" / "star_realms_academy" / "catalog.json"
ROW = ["Freighter", "Corvette", "Ram", "Barter World", "Survey Ship"]


@cache
def _catalog() -> dict[str, CardSpec]:
    data = json.loads(CATALOG.read_text(encoding="utf-8"))
    labels = {
        c["value"]: c["label"]
        for a in data["attributes"]
        if a["key"] == "faction"
        for c in a["choices"]
    }
    specs = {}
    for number, card in enumerate(data["cards"], start=1):
        attributes = card["attributes"]
        stated, source = (
            same_faction_as(card.get("rule"))
            if card["field_provenance"].get("rule") == "verified"
            else ((), "")
        )
        specs[card["name"]] = CardSpec(
            name=card["name"],
            copies=card["copies"],
            faction=attributes["faction"],
            kind=attributes["kind"],
            cost=attributes["cost"],
            primary=attributes["primary"],
            ally=attributes["ally"],
            defense=attributes["defense"],
            provenance=dict(card["field_provenance"]),
            faction_label=labels.get(attributes["faction"], ""),
            admin_url=f"/admin/cards/card/{number}/change/",
            card_url=f"/games/star-realms-academy/cards/{card['slug']}/",
            same_faction_as=stated,
            same_faction_source=source,
        )
    return specs


def card(name: str, **known) -> CardSpec:
    """A catalog card; keyword values stand for what an admin would transcribe (verified)."""
    spec = _catalog()[name]
    if known:
        provenance = {**spec.provenance, **{key: "verified" for key in known}}
        spec = dataclasses.replace(spec, provenance=provenance, **known)
    return spec


def base(name: str, damage: int = 0, used=(), **known) -> BaseIn:
    return BaseIn(card=card(name, **known), damage=damage, used=tuple(used))


def position(
    *,
    hand=(),
    in_play=(),
    bases=(),
    coins=0,
    combat=0,
    health=15,
    used=(),
    opponent_bases=(),
    opponent_health=15,
    shop_row=ROW,
    deck=None,
    discard_pile=None,
    drawn=0,
    opponent_coins=0,
) -> Position:
    def spec(item):
        return item if isinstance(item, CardSpec) else card(item)

    def as_base(item):
        return item if isinstance(item, BaseIn) else BaseIn(card=spec(item))

    return Position(
        active=Side(
            name="Ana",
            health=health,
            coins=coins,
            hand=[spec(c) for c in hand],
            in_play=[spec(c) for c in in_play],
            bases=[as_base(b) for b in bases],
            combat=combat,
            used=[(spec(c), a) for c, a in used],
            deck=deck,
            discard_pile=discard_pile,
            drawn=drawn,
        ),
        opponent=Side(
            name="Ben",
            health=opponent_health,
            coins=opponent_coins,
            bases=[as_base(b) for b in opponent_bases],
        ),
        shop_row=[spec(c) for c in shop_row],
    )


def play(name_or_card) -> Move:
    return Move(engine.PLAY, card=_spec(name_or_card))


def use_base(name_or_card) -> Move:
    return Move(engine.USE_BASE, card=_spec(name_or_card))


def use_ally(name_or_card) -> Move:
    return Move(engine.USE_ALLY, card=_spec(name_or_card))


def buy(name_or_card, refill=None) -> Move:
    return Move(engine.BUY, card=_spec(name_or_card), refill=_spec(refill) if refill else None)


def attack(target, amount=None) -> Move:
    if target == "health":
        return Move(engine.ATTACK, target_health=True, amount=amount)
    return Move(engine.ATTACK, target=_spec(target), amount=amount)


def end_turn() -> Move:
    return Move(engine.END_TURN)


def _spec(item):
    return item if isinstance(item, CardSpec) else card(item)


def failed_check(ruling):
    failed = [c for c in ruling.checks if not c.passed]
    assert len(failed) == 1, ruling.checks
    return failed[0]


# --- The rulebook's own examples ------------------------------------------------------------------


def test_imperial_frigate_against_the_hive_the_base_falls_and_one_health_is_lost():
    """SRA-7.1: 2 Combat; 1 on The Hive (defense 1) destroys it; the other 1 hits Health."""
    turn = check(position(hand=["Imperial Frigate"], opponent_bases=["The Hive"]))
    played = turn.push(play("Imperial Frigate"))
    assert (played.verdict, played.code, played.rule) == ("legal", "ship_played", "SRA-6")
    assert played.outcome["combat"] == 2
    assert "2 Combat" in played.reason

    on_base = turn.push(attack("The Hive", 1))
    assert (on_base.verdict, on_base.code, on_base.rule) == ("legal", "attack_made", "SRA-7")
    assert on_base.outcome["destroyed"] == ["The Hive"]
    assert on_base.outcome["to_opponent_discard_pile"] == ["The Hive"]
    assert on_base.outcome["combat"] == 1
    assert on_base.outcome["position"]["opponent"]["bases"] == []
    assert "destroys it" in on_base.reason

    on_health = turn.push(attack("health"))
    assert (on_health.verdict, on_health.code) == ("legal", "attack_made")
    assert on_health.outcome["opponent_health"] == 14
    assert on_health.outcome["health_lost"] == 1
    assert on_health.outcome["combat"] == 0
    assert "15 → 14" in on_health.reason


def test_the_hive_takes_only_the_combat_it_needs_and_the_rest_stays_in_the_pool():
    ruling = check(
        position(in_play=["Imperial Frigate"], combat=2, opponent_bases=["The Hive"])
    ).rule(attack("The Hive", 2))
    assert ruling.verdict == "legal" and ruling.outcome["destroyed"] == ["The Hive"]
    assert ruling.outcome["combat"] == 1
    assert ruling.outcome["spent"] == {"combat": 1}
    assert any("needed only 1 Combat" in w and "other 1 stays" in w for w in ruling.warnings)


def test_buying_ram_for_one_coin():
    """SRA-10.1: pay 1 Coin, Ram goes to the discard pile."""
    ruling = check(position(coins=1, discard_pile=4)).rule(buy("Ram"))
    assert (ruling.verdict, ruling.code, ruling.rule) == ("legal", "card_bought", "SRA-10")
    assert ruling.outcome["coins"] == 0
    assert ruling.outcome["spent"] == {"coins": 1}
    assert ruling.outcome["to_discard_pile"] == ["Ram"]
    after = ruling.outcome["position"]
    assert after["active"]["discard_pile"] == 5
    assert "Ram" not in after["shop_row"] and len(after["shop_row"]) == 4
    assert ruling.outcome["shop_row_unknown"] == 1
    assert "pays 1 Coin for Ram" in ruling.reason
    # Ram's cost is verified: no warning about it.
    assert not any("cost" in w for w in ruling.warnings)


def test_survey_ship_gives_two_coins_and_one_draw():
    """SRA-8: both effects of the primary."""
    ruling = check(position(hand=["Survey Ship"], coins=3)).rule(play("Survey Ship"))
    assert (ruling.verdict, ruling.code) == ("legal", "ship_played")
    assert ruling.outcome["gained"] == {"coin": 2, "draw": 1}
    assert ruling.outcome["coins"] == 5 and ruling.outcome["draws"] == 1
    assert ruling.outcome["position"]["active"]["drawn"] == 1
    assert "2 Coins and 1 Draw" in ruling.reason
    # Its kind (Ship) is inferred from the name: the ruling says it uses a provisional value.
    assert "Survey Ship's kind (Ship)" in provisional_items(ruling.warnings)


def test_frigate_and_corvette_make_the_frigate_ally_ready_in_any_order():
    """SRA-9.1: with both in play the Frigate's Ally is ready; its value is not known yet."""
    for in_play in (["Imperial Frigate", "Corvette"], ["Corvette", "Imperial Frigate"]):
        ruling = check(position(in_play=in_play)).rule(use_ally("Imperial Frigate"))
        assert (ruling.verdict, ruling.code) == ("needs_information", "card_value_unknown")
        assert any(c.passed and "Ally ability is ready" in c.detail for c in ruling.checks)
        assert [(m["card"], m["field"]) for m in ruling.missing] == [("Imperial Frigate", "ally")]


# --- Playing cards --------------------------------------------------------------------------------


def test_a_card_not_in_the_hand_cannot_be_played():
    ruling = check(position(hand=["Scout", "Viper"])).rule(play("Ram"))
    assert (ruling.verdict, ruling.code, ruling.rule) == ("illegal", "not_in_hand", "SRA-5.1")
    assert "Scout and Viper" in ruling.reason
    assert failed_check(ruling).rule == "SRA-5.1"
    assert {"action": "play", "card": "Scout"} in ruling.alternatives
    assert {"action": "play", "card": "Viper"} in ruling.alternatives
    assert {"action": "end_turn"} in ruling.alternatives


def test_a_drawn_card_may_be_played_by_naming_it():
    ruling = check(position(hand=[], drawn=1)).rule(play("Viper"))
    assert ruling.verdict == "legal"
    assert any("taken as one of the 1 card drawn" in c.detail for c in ruling.checks)
    assert ruling.outcome["position"]["active"]["drawn"] == 0


def test_a_drawn_card_cannot_be_a_copy_the_game_does_not_have():
    # Two Rams in play and two in the shop row: the game has four, so no drawn card is a Ram.
    turn = check(position(in_play=["Ram", "Ram"], shop_row=["Ram", "Ram"], drawn=2))
    ruling = turn.push(play("Ram"))
    assert (ruling.verdict, ruling.code, ruling.rule) == ("illegal", "too_many_copies", "SRA-2")
    # A starting card: Ana's own deck holds one Viper, already in play.
    viper = check(position(in_play=["Viper"], drawn=2, shop_row=[])).rule(play("Viper"))
    assert (viper.code, viper.rule) == ("too_many_copies", "SRA-3.3")
    assert "each starting deck holds 1" in viper.reason
    assert check(position(drawn=1)).rule(play("Viper")).verdict == "legal"


def test_playing_a_base_puts_it_among_the_bases_with_its_primary_unused():
    hive = card("The Hive")
    ruling = check(position(hand=[hive])).rule(play(hive))
    assert (ruling.verdict, ruling.code, ruling.rule) == ("legal", "base_played", "SRA-7")
    assert ruling.outcome["position"]["active"]["bases"] == [
        {"card": "The Hive", "damage": 0, "used": []}
    ]
    assert ruling.outcome["position"]["active"]["in_play"] == []


def test_combat_forms_a_pool():
    # 1 Combat left of a Frigate played before (SRA-R8: the pool has a source in play).
    turn = check(
        position(hand=["Viper", "Imperial Frigate"], in_play=["Imperial Frigate"], combat=1)
    )
    turn.push(play("Viper"))
    ruling = turn.push(play("Imperial Frigate"))
    assert ruling.outcome["combat"] == 4
    assert any(c.rule == "SRA-R3" and "2 + 2 = 4" in c.detail for c in ruling.checks)


# --- Caps -----------------------------------------------------------------------------------------


def test_coins_beyond_eight_are_lost_with_a_warning_naming_how_many():
    ruling = check(position(hand=["Survey Ship"], coins=7)).rule(play("Survey Ship"))
    assert ruling.verdict == "legal"
    assert ruling.outcome["coins"] == 8
    assert ruling.outcome["gained"]["coin"] == 1 and ruling.outcome["gained"]["coins_lost"] == 1
    assert any(w.startswith("1 Coin beyond the cap of 8 is lost") for w in ruling.warnings)
    assert any(
        c.rule == "SRA-R1" and "7 + 2 = 9, capped at 8: 1 lost" in c.detail for c in ruling.checks
    )
    at_cap = check(position(hand=["Survey Ship"], coins=8)).rule(play("Survey Ship"))
    assert any(w.startswith("2 Coins beyond the cap of 8 are lost") for w in at_cap.warnings)
    assert "2 Coins lost to the cap of 8" in at_cap.reason


def test_health_never_goes_above_fifteen():
    medic = card("Trade Escort", primary={"health": 4})  # a value an admin would transcribe
    ruling = check(position(hand=[medic], health=13)).rule(play(medic))
    assert ruling.outcome["health"] == 15
    assert ruling.outcome["gained"] == {"health": 2, "health_not_gained": 2}
    assert any(w.startswith("2 Health beyond the cap of 15 is not gained") for w in ruling.warnings)
    below = check(position(hand=[medic], health=5)).rule(play(medic))
    assert below.outcome["health"] == 9 and not any("cap" in w for w in below.warnings)


# --- Bases: primary once per turn -----------------------------------------------------------------


def test_a_base_primary_once_per_turn():
    fleet = card("Fleet HQ", primary={"coin": 1})
    turn = check(position(bases=[BaseIn(fleet)]))
    first = turn.push(use_base(fleet))
    assert (first.verdict, first.code, first.rule) == ("legal", "base_used", "SRA-R4")
    assert first.outcome["coins"] == 1
    assert first.outcome["position"]["active"]["bases"][0]["used"] == ["primary"]
    second = turn.push(use_base(fleet))
    assert (second.verdict, second.code, second.rule) == ("illegal", "already_used", "SRA-R4")
    # The position can say so too.
    used = check(position(bases=[BaseIn(fleet, used=("primary",))])).rule(use_base(fleet))
    assert used.code == "already_used"


def test_two_copies_of_a_base_each_use_their_primary():
    fleet = card("Fleet HQ", primary={"combat": 1})
    turn = check(position(bases=[BaseIn(fleet), BaseIn(fleet)]))
    assert turn.push(use_base(fleet)).verdict == "legal"
    assert turn.push(use_base(fleet)).outcome["combat"] == 2
    third = turn.push(use_base(fleet))
    assert third.code == "already_used" and "each of the 2 copies" in third.reason


def test_use_base_needs_a_base_of_ones_own_in_play():
    in_hand = check(position(hand=["The Hive"])).rule(use_base("The Hive"))
    assert (in_hand.verdict, in_hand.code) == ("illegal", "not_your_base")
    assert "play it first" in in_hand.reason
    theirs = check(position(opponent_bases=["The Hive"])).rule(use_base("The Hive"))
    assert theirs.code == "not_your_base" and "Ben's base" in theirs.reason
    ship = check(position(in_play=["Viper"])).rule(use_base("Viper"))
    assert ship.code == "not_your_base" and "ship in play" in ship.reason


def test_a_base_primary_that_is_unknown_needs_information():
    ruling = check(position(bases=["Fleet HQ"])).rule(use_base("Fleet HQ"))
    assert (ruling.verdict, ruling.code, ruling.rule) == (
        "needs_information",
        "card_value_unknown",
        "SRA-F2",
    )
    assert ruling.missing == [
        {
            "card": "Fleet HQ",
            "field": "primary",
            "label": "primary ability",
            "detail": "Fleet HQ's primary ability is not known yet. An admin can enter it at "
            "/admin/cards/card/15/change/.",
            "admin_url": "/admin/cards/card/15/change/",
            "card_url": "/games/star-realms-academy/cards/fleet-hq/",
        }
    ]
    assert ruling.alternatives == [] and ruling.outcome is None


# --- Ally abilities -------------------------------------------------------------------------------


def test_an_ally_is_ready_only_with_another_card_of_the_same_faction_in_play():
    frigate = card("Imperial Frigate", ally={"coin": 1})
    alone = check(position(in_play=[frigate, "Viper"])).rule(use_ally(frigate))
    assert (alone.verdict, alone.code, alone.rule) == ("illegal", "ally_not_ready", "SRA-9")
    assert "No other Star Empire card is in play (also in play: Viper)" in alone.reason

    with_corvette = check(position(in_play=[frigate, "Corvette"], coins=2)).rule(use_ally(frigate))
    assert (with_corvette.verdict, with_corvette.code) == ("legal", "ally_used")
    assert with_corvette.outcome["coins"] == 3
    assert with_corvette.outcome["position"]["active"]["used"] == ["Imperial Frigate"]
    # The rulebook puts the two in one faction (SRA-9.1): nothing provisional to warn about.
    assert with_corvette.warnings == []
    # With Survey Ship, only the inferred factions match: the ruling says so.
    with_survey = check(position(in_play=[frigate, "Survey Ship"])).rule(use_ally(frigate))
    assert with_survey.verdict == "legal"
    assert "Imperial Frigate's faction (Star Empire)" in provisional_items(with_survey.warnings)
    assert "Survey Ship's faction (Star Empire)" in provisional_items(with_survey.warnings)


def test_a_base_counts_as_an_ally_and_two_copies_ally_each_other():
    frigate = card("Imperial Frigate", ally={"combat": 1})
    with_base = check(position(in_play=[frigate], bases=["Fleet HQ"])).rule(use_ally(frigate))
    assert with_base.verdict == "legal"
    pair = check(position(in_play=[frigate, frigate]))
    assert pair.push(use_ally(frigate)).verdict == "legal"
    assert pair.push(use_ally(frigate)).verdict == "legal"
    third = pair.push(use_ally(frigate))
    assert (third.code, third.rule) == ("already_used", "SRA-R4")


def test_an_ally_once_per_turn_also_from_the_position():
    frigate = card("Imperial Frigate", ally={"coin": 1})
    ruling = check(position(in_play=[frigate, "Corvette"], used=[(frigate, "ally")])).rule(
        use_ally(frigate)
    )
    assert ruling.code == "already_used"


def test_an_ally_must_be_in_play_and_exist():
    in_hand = check(position(hand=["Imperial Frigate"])).rule(use_ally("Imperial Frigate"))
    assert (in_hand.code, in_hand.rule) == ("not_in_play", "SRA-9")
    assert "play it first" in in_hand.reason
    none = card("Corvette", ally={})  # transcribed: the card has no Ally ability
    ruling = check(position(in_play=[none, "Imperial Frigate"])).rule(use_ally(none))
    assert ruling.code == "no_ally_ability"


def test_unaligned_cards_have_no_faction_to_ally_with():
    # Scout has no Ally ability (the catalog's reading, SRA-F2); were an admin to give an
    # unaligned card one, no card could make it ready either.
    scout = card("Scout", ally={"coin": 1})
    ruling = check(position(in_play=[scout, "Viper"])).rule(use_ally(scout))
    assert (ruling.verdict, ruling.code) == ("illegal", "ally_not_ready")
    assert "unaligned" in ruling.reason


def test_an_unknown_faction_among_the_others_needs_information():
    frigate = card("Imperial Frigate", ally={"coin": 1})
    mystery = dataclasses.replace(
        card("Survey Ship"),
        faction=None,
        provenance={**card("Survey Ship").provenance, "faction": "unknown"},
    )
    ruling = check(position(in_play=[frigate, mystery])).rule(use_ally(frigate))
    assert ruling.verdict == "needs_information"
    assert [(m["card"], m["field"]) for m in ruling.missing] == [("Survey Ship", "faction")]


def test_an_ally_checks_readiness_before_its_unknown_value():
    # Survey Ship's ally is unknown, but no other Star Empire card is in play: illegal whatever
    # the value.
    ruling = check(position(in_play=["Survey Ship", "Ram"])).rule(use_ally("Survey Ship"))
    assert (ruling.verdict, ruling.code) == ("illegal", "ally_not_ready")


# --- Buying ---------------------------------------------------------------------------------------


def test_buying_needs_enough_coins():
    ruling = check(position(coins=0)).rule(buy("Ram"))
    assert (ruling.verdict, ruling.code, ruling.rule) == ("illegal", "not_enough_coins", "SRA-10")
    assert ruling.reason == "Ram costs 1 Coin; Ana has 0 Coins (SRA-10)."
    assert {"action": "end_turn"} in ruling.alternatives


def test_buying_needs_the_card_in_the_shop_row():
    ruling = check(position(coins=5, shop_row=["Ram", "Freighter"])).rule(buy("Trade Pod"))
    assert (ruling.verdict, ruling.code) == ("illegal", "not_in_shop_row")
    assert "Ram and Freighter" in ruling.reason and "refill" in ruling.reason
    assert {"action": "buy", "card": "Ram"} in ruling.alternatives


def test_an_unknown_cost_needs_information_with_the_admin_link():
    ruling = check(position(coins=8)).rule(buy("Corvette"))
    assert (ruling.verdict, ruling.code) == ("needs_information", "card_value_unknown")
    assert ruling.missing[0]["card"] == "Corvette" and ruling.missing[0]["field"] == "cost"
    assert ruling.missing[0]["admin_url"] == "/admin/cards/card/11/change/"
    assert ruling.reason.startswith(
        "Corvette's cost is not known yet (printed on the card, not "
        "transcribed): buying Corvette cannot be ruled on without it."
    )
    assert ruling.checks[-1].rule == "SRA-F2" and not ruling.checks[-1].passed
    # Once transcribed, the same move gets a verdict.
    known = check(position(coins=8, shop_row=[card("Corvette", cost=2)])).rule(
        buy(card("Corvette", cost=2))
    )
    assert (known.verdict, known.outcome["coins"]) == ("legal", 6)


def test_buying_refills_the_shop_row_with_the_named_card():
    ruling = check(position(coins=1)).rule(buy("Ram", refill="Trade Pod"))
    assert ruling.outcome["position"]["shop_row"] == [
        "Freighter",
        "Corvette",
        "Trade Pod",
        "Barter World",
        "Survey Ship",
    ]
    assert ruling.outcome["shop_row_unknown"] == 0
    assert "Trade Pod refills the shop row" in ruling.reason
    scout = check(position(coins=1)).rule(buy("Ram", refill="Scout"))
    assert scout.code == "not_a_shop_card"
    rams = check(position(coins=1, hand=["Ram", "Ram"])).rule(buy("Ram", refill="Ram"))
    assert rams.verdict == "legal"  # two in the hand, the one bought and the refill: four
    fifth = check(position(coins=1, hand=["Ram", "Ram", "Ram"])).rule(buy("Ram", refill="Ram"))
    assert fifth.code == "too_many_copies"  # the bought Ram is still one of the four (SRA-2)
    full = check(position(coins=1, hand=["Imperial Frigate"] * 4, shop_row=["Ram"])).rule(
        buy("Ram", refill="Imperial Frigate")
    )
    assert (full.code, full.rule) == ("too_many_copies", "SRA-2")


# --- Attacks --------------------------------------------------------------------------------------


def test_bases_shield_health():
    ruling = check(
        position(in_play=["Imperial Frigate", "Viper"], combat=3, opponent_bases=["The Hive"])
    ).rule(attack("health", 3))
    assert (ruling.verdict, ruling.code, ruling.rule) == ("illegal", "base_shields_health", "SRA-7")
    assert "Ben has The Hive in play" in ruling.reason
    assert ruling.alternatives[0] == {"action": "attack", "target": "The Hive", "amount": 1}


def test_combat_can_be_split_and_tokens_stay_until_the_base_falls():
    fortress = card("Blob World", defense=5)
    turn = check(
        position(
            in_play=["Imperial Frigate", "Imperial Frigate"],
            combat=4,
            opponent_bases=[BaseIn(fortress, damage=1), "The Hive"],
        )
    )
    first = turn.push(attack(fortress, 2))
    assert first.verdict == "legal" and first.outcome["destroyed"] == []
    assert "3 of its defense 5, so it stands" in first.reason
    assert turn.push(attack("The Hive")).outcome["destroyed"] == ["The Hive"]
    last = turn.push(attack(fortress))
    assert last.outcome["combat"] == 0
    assert [b["damage"] for b in last.outcome["bases"]] == [4]


def test_never_more_than_the_combat_pool():
    ruling = check(position(in_play=["Imperial Frigate"], combat=2)).rule(attack("health", 3))
    assert (ruling.verdict, ruling.code) == ("illegal", "not_enough_combat")
    assert ruling.reason == "The attack uses 3 Combat; the pool holds 2 (SRA-R3)."
    assert ruling.alternatives[0] == {"action": "attack", "target": "health", "amount": 2}
    empty = check(position(combat=0)).rule(attack("health"))
    assert (empty.code, empty.rule) == ("no_combat", "SRA-8.4")


def test_only_the_opponents_bases_can_be_attacked():
    missing = check(position(in_play=["Viper"], combat=1, opponent_bases=["The Hive"])).rule(
        attack("Fleet HQ")
    )
    assert missing.code == "no_such_base" and "their bases: The Hive" in missing.reason
    own = check(position(in_play=["Viper"], combat=1, bases=["The Hive"])).rule(attack("The Hive"))
    assert own.code == "no_such_base" and "Ana's own base" in own.reason


def test_a_base_with_an_unknown_defense_needs_information():
    ruling = check(
        position(in_play=["Imperial Frigate", "Viper"], combat=3, opponent_bases=["Blob World"])
    ).rule(attack("Blob World"))
    assert ruling.verdict == "needs_information"
    assert [(m["card"], m["field"]) for m in ruling.missing] == [("Blob World", "defense")]


def test_bringing_health_to_zero_wins_and_nothing_follows():
    turn = check(
        position(
            in_play=["Imperial Frigate", "Imperial Frigate", "Viper"], combat=5, opponent_health=3
        )
    )
    ruling = turn.push(attack("health", 5))
    assert (ruling.verdict, ruling.code, ruling.rule) == ("legal", "opponent_defeated", "SRA-12")
    assert ruling.outcome["winner"] == "Ana" and ruling.outcome["opponent_health"] == 0
    assert "Ana wins the game" in ruling.reason
    after = turn.push(end_turn())
    assert (after.verdict, after.code, after.rule) == ("illegal", "game_over", "SRA-12")
    assert after.alternatives == []


# --- End of turn ----------------------------------------------------------------------------------


def test_end_of_turn_discards_ships_loses_combat_and_draws_three():
    ruling = check(
        position(hand=["Scout"], in_play=["Viper", "Scout"], bases=["The Hive"], combat=1)
    ).rule(end_turn())
    assert (ruling.verdict, ruling.code, ruling.rule) == ("legal", "turn_ended", "SRA-11")
    assert ruling.outcome["to_discard_pile"] == ["Viper", "Scout"]
    assert ruling.outcome["combat_lost"] == 1 and ruling.outcome["drawn"] == 3
    after = ruling.outcome["position"]["active"]
    assert after["in_play"] == [] and after["bases"][0]["card"] == "The Hive"
    assert after["hand"] == ["Scout"] and after["drawn"] == 3
    assert ruling.outcome["turn_over"] is True
    assert any("1 Combat left in the pool is lost" in w for w in ruling.warnings)
    assert [c.rule for c in ruling.checks][:3] == ["SRA-11.1", "SRA-R3", "SRA-11.2"]


def test_end_of_turn_reshuffles_when_the_deck_runs_out():
    """SRA-11.4: one card left; draw it, shuffle the discard pile, draw two more."""
    ruling = check(position(in_play=["Viper"], deck=1, discard_pile=3)).rule(end_turn())
    after = ruling.outcome["position"]["active"]
    # Viper joined the discard pile first (4 cards), which became the new deck: 4 - 2 = 2 left.
    assert (after["deck"], after["discard_pile"]) == (2, 0)
    assert any(
        "1 card from the deck, then the discard pile (4 cards) is shuffled" in c.detail
        for c in ruling.checks
    )
    short = check(position(deck=0, discard_pile=1)).rule(end_turn())
    assert short.outcome["drawn"] == 1
    assert any("can draw only 1 card of 3" in w for w in short.warnings)


def test_nothing_follows_the_end_of_the_turn():
    turn = check(position(hand=["Viper"]))
    turn.push(end_turn())
    ruling = turn.push(play("Viper"))
    assert (ruling.verdict, ruling.code) == ("illegal", "turn_over")


def test_a_bases_primary_is_unused_again_next_turn():
    fleet = card("Fleet HQ", primary={"coin": 1})
    turn = check(position(bases=[BaseIn(fleet, used=("primary",))]))
    ruling = turn.push(end_turn())
    assert ruling.outcome["position"]["active"]["bases"][0]["used"] == []


# --- Unknown and provisional values ---------------------------------------------------------------


def test_playing_a_card_with_an_unknown_primary_needs_information():
    ruling = check(position(hand=["Corvette"])).rule(play("Corvette"))
    assert (ruling.verdict, ruling.code) == ("needs_information", "card_value_unknown")
    assert [(m["card"], m["field"]) for m in ruling.missing] == [("Corvette", "primary")]
    assert ruling.checks[0].passed and ruling.checks[0].rule == "SRA-5.1"


def test_an_unknown_kind_is_asked_for_with_the_primary():
    mystery = dataclasses.replace(
        card("Corvette"), kind=None, provenance={**card("Corvette").provenance, "kind": "unknown"}
    )
    ruling = check(position(hand=[mystery])).rule(play(mystery))
    assert [m["field"] for m in ruling.missing] == ["kind", "primary"]


def test_a_base_of_provisional_kind_is_played_with_a_warning():
    ruling = check(position(hand=["Barter World"])).rule(play("Barter World"))
    assert (ruling.verdict, ruling.code) == ("legal", "base_played")
    assert "Barter World's kind (Base)" in provisional_items(ruling.warnings)


def test_a_provisional_primary_is_used_with_a_warning():
    ruling = check(position(hand=["Scout"])).rule(play("Scout"))
    assert ruling.verdict == "legal" and ruling.outcome["coins"] == 1
    assert "Scout's primary ability (1 Coin)" in provisional_items(ruling.warnings)
    verified = check(position(hand=["Imperial Frigate"])).rule(play("Imperial Frigate"))
    assert not any("primary" in w for w in verified.warnings)


def test_every_check_names_a_rule_of_the_catalog():
    data = json.loads(CATALOG.read_text(encoding="utf-8"))
    ids = {section["id"] for section in data["rule_sections"]}
    rulings = [
        check(position(hand=["Survey Ship"], coins=7)).rule(play("Survey Ship")),
        check(position(coins=1)).rule(buy("Ram")),
        check(position(in_play=["Imperial Frigate"], combat=2, opponent_bases=["The Hive"])).rule(
            attack("The Hive", 2)
        ),
        check(position(in_play=["Viper"], deck=1, discard_pile=3)).rule(end_turn()),
        check(position(in_play=["Imperial Frigate", "Corvette"])).rule(
            use_ally("Imperial Frigate")
        ),
        check(
            position(
                in_play=["Imperial Frigate", "Imperial Frigate", "Viper"],
                combat=5,
                opponent_health=3,
            )
        ).rule(attack("health")),
        check(position(in_play=["Corvette"], combat=1)).rule(end_turn()),  # SRA-R8
    ]
    for ruling in rulings:
        assert ruling.rule in ids
        assert all(check.rule in ids for check in ruling.checks)
    codes = set(engine.LEGAL_CODES) | set(engine.ILLEGAL_CODES) | {engine.NEEDS_INFORMATION_CODE}
    assert all(ruling.code in codes for ruling in rulings)


# --- Positions that cannot exist ------------------------------------------------------------------


def impossible(pos) -> list[dict]:
    with pytest.raises(ImpossiblePosition) as raised:
        check(pos)
    return raised.value.errors


def test_health_above_fifteen_or_at_zero_is_impossible():
    errors = impossible(position(health=16, opponent_health=0))
    assert [(e["path"], e["code"]) for e in errors] == [
        ("active.health", "health_above_cap"),
        ("opponent.health", "game_over"),
    ]
    assert "16 Health" in errors[0]["detail"]


def test_coins_above_eight_are_impossible():
    errors = impossible(position(coins=9, opponent_coins=12))
    assert [(e["path"], e["code"]) for e in errors] == [
        ("active.coins", "coins_above_cap"),
        ("opponent.coins", "coins_above_cap"),
    ]


def test_more_copies_than_the_game_has_are_impossible():
    errors = impossible(position(hand=["Ram", "Ram", "Ram"], shop_row=["Ram", "Ram"]))
    assert [(e["path"], e["code"]) for e in errors] == [("shop_row[1]", "too_many_copies")]
    assert errors[0]["detail"] == (
        "The position holds 5 copies of Ram (3 in Ana's hand, 2 in the "
        "shop row); the game has 4 (SRA-2)."
    )


def test_more_starting_cards_than_one_players_deck_are_impossible():
    errors = impossible(position(hand=["Scout"] * 4, in_play=["Scout"] * 2))
    assert [(e["path"], e["code"]) for e in errors] == [("active.in_play[1]", "too_many_copies")]
    assert "each player's starting deck holds 5 of the 10" in errors[0]["detail"]


def test_damage_at_or_past_a_known_defense_is_impossible():
    errors = impossible(position(opponent_bases=[base("The Hive", damage=1)]))
    assert [(e["path"], e["code"]) for e in errors] == [
        ("opponent.bases[0].damage", "base_destroyed")
    ]
    # With an unknown defense there is nothing to contradict.
    assert check(position(opponent_bases=[base("Blob World", damage=7)]))


def test_the_shop_row_holds_five_shop_cards():
    errors = impossible(
        position(shop_row=["Ram", "Freighter", "Corvette", "Trade Pod", "Mothership", "Scout"])
    )
    assert {(e["path"], e["code"]) for e in errors} == {
        ("shop_row", "shop_row_size"),
        ("shop_row[5]", "not_a_shop_card"),
    }


def test_ships_and_bases_in_their_places():
    errors = impossible(position(in_play=["The Hive"], bases=["Viper"]))
    assert {(e["path"], e["code"]) for e in errors} == {
        ("active.bases[0].card", "not_a_base"),
        ("active.in_play[0]", "not_a_ship"),
    }
    assert "provisional" in next(e for e in errors if e["code"] == "not_a_base")["detail"]


def test_abilities_used_must_belong_to_cards_in_play():
    errors = impossible(
        position(
            in_play=["Imperial Frigate"],
            used=[("Imperial Frigate", "ally"), ("Imperial Frigate", "ally"), ("Corvette", "ally")],
        )
    )
    assert [(e["path"], e["code"]) for e in errors] == [
        ("active.used[1]", "used_not_in_play"),
        ("active.used[2]", "used_not_in_play"),
    ]
    none = card("Corvette", ally={})
    errors = impossible(position(in_play=[none], used=[(none, "ally")]))
    assert errors[0]["code"] == "no_such_ability"


def test_a_score_path_prefix():
    with pytest.raises(ImpossiblePosition) as raised:
        check(position(health=20))
    assert raised.value.errors[0]["path"] == "active.health"


# --- Properties -----------------------------------------------------------------------------------

KNOWN = [
    card("Scout"),
    card("Viper"),
    card("Imperial Frigate", ally={"coin": 3}),
    card("Survey Ship"),
    card("Corvette", primary={"coin": 3, "health": 2}, ally={"health": 5}),
    card("Trade Escort", primary={"health": 6, "combat": 1}),
    card("Freighter", primary={"coin": 4}),
]


# The pool's source in play (SRA-R8): a ship whose primary gave 6 Combat (none of KNOWN).
SOURCE = card("Trade Pod", primary={"combat": 6}, ally={})


@settings(max_examples=150, deadline=None)
@given(
    coins=st.integers(0, 8),
    health=st.integers(1, 15),
    combat=st.integers(0, 6),
    hand=st.lists(st.sampled_from(range(len(KNOWN))), max_size=6),
    actions=st.lists(
        st.tuples(st.sampled_from(["play", "ally", "health", "hive"]), st.integers(0, 5)),
        max_size=10,
    ),
)
def test_caps_hold_after_any_sequence_of_actions(coins, health, combat, hand, actions):
    cards = list({KNOWN[i].name: KNOWN[i] for i in hand}.values())  # one copy of each
    turn = check(
        position(
            hand=cards,
            coins=coins,
            health=health,
            combat=combat,
            in_play=[SOURCE],
            opponent_bases=["The Hive"],
            shop_row=[],
        )
    )
    for kind, index in actions:
        if kind == "play" and turn.active.hand:
            move = play(turn.active.hand[index % len(turn.active.hand)])
        elif kind == "ally" and turn.active.ships:
            move = use_ally(turn.active.ships[index % len(turn.active.ships)].card)
        elif kind == "health":
            move = attack("health", index or None)
        else:
            move = attack("The Hive", index or None)
        ruling = turn.push(move)
        assert ruling.verdict in ("legal", "illegal", "needs_information")
        assert 0 <= turn.active.coins <= engine.COIN_CAP
        assert 0 < turn.active.health <= engine.HEALTH_CAP
        assert turn.active.combat >= 0 and 0 <= turn.opponent.health <= engine.HEALTH_CAP
        if ruling.verdict == "illegal":
            assert ruling.alternatives or turn.winner
            assert all(
                turn.rule(_move(turn, alt)).verdict == "legal" for alt in ruling.alternatives
            )


def _move(turn, alternative: dict) -> Move:
    by_name = {c.name: c for c in KNOWN} | {"The Hive": card("The Hive")}
    action = alternative["action"]
    if action == "attack":
        if alternative["target"] == "health":
            return attack("health", alternative["amount"])
        return attack(by_name[alternative["target"]], alternative["amount"])
    if action == "end_turn":
        return end_turn()
    return Move(action, card=by_name.get(alternative["card"]) or card(alternative["card"]))
