"""The shipped Academy Credits cards as plain engine specs, read from the catalog file (no
database), and what the engines take from them: the 22-card deck (AC-R2), the placeholder cards
of values 2 and 3 (AC-R3) and the options (AC-R1, AC-R7). The helpers here serve the other
Academy Credits engine tests."""

import json
from functools import cache
from pathlib import Path

from games.academy_credits import engine as ac
from games.academy_credits.engine import Cadet, CardSpec, Move, Position

CATALOG = Path(__file__).resolve().parents[2] / "games" / "academy_credits" / "catalog.json"


@cache
def catalog_data() -> dict:
    return json.loads(CATALOG.read_text(encoding="utf-8"))


@cache
def cards() -> tuple[CardSpec, ...]:
    return tuple(
        CardSpec(c["name"], c["attributes"]["value"], c["attributes"]["effect"], c["copies"])
        for c in catalog_data()["cards"]
    )


def card(name_or_value) -> CardSpec:
    for spec in cards():
        if spec.name == name_or_value or spec.value == name_or_value:
            return spec
    raise KeyError(name_or_value)


def option(key):
    return next(o["value"] for o in catalog_data()["options"] if o["key"] == key)


VANCE, LURA, LOOK, COMPARE, KRAAG, DAREM, DOCTOR, JETT, CALEB, NAHLA, TARIMA = (
    card(v) for v in range(11)
)


def cadet(name, *discards, hand=None, **flags) -> Cadet:
    return Cadet(
        name=name,
        discards=[card(d) if not isinstance(d, CardSpec) else d for d in discards],
        hand=card(hand) if hand is not None and not isinstance(hand, CardSpec) else hand,
        **flags,
    )


def position(players, hand, deck_count=None, turn=None, **kwargs) -> Position:
    """A position; without deck_count, the deck holds every card not shown (so 22 add up)."""
    players = [p if isinstance(p, Cadet) else cadet(p) for p in players]
    hand = [card(h) if not isinstance(h, CardSpec) else h for h in hand]
    turn = turn or players[0].name
    if deck_count is None:
        shown = (
            len(hand)
            + sum(1 for p in players if p.in_round and p.name != turn)
            + sum(len(p.discards) for p in players)
        )
        deck_count = 22 - ac.SET_ASIDE - shown
    return Position(
        players=players, turn=turn, hand=hand, deck_count=deck_count, cards=list(cards()), **kwargs
    )


def move(play, target=None, guess=None, confirm=False) -> Move:
    return Move(card(play), target, card(guess) if guess is not None else None, confirm)


# --- The catalog the engines rely on -------------------------------------------------------------


def test_the_deck_has_22_cards_with_the_copies_of_ac_r2():
    copies = {spec.value: spec.copies for spec in cards()}
    assert copies == {0: 2, 1: 6, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 7: 1, 8: 1, 9: 1, 10: 1}
    assert sum(copies.values()) == 22
    # The counts are inferred, so the catalog marks them provisional (AC-R2).
    assert all(c["field_provenance"]["copies"] == "provisional" for c in catalog_data()["cards"])


def test_every_card_has_a_known_effect_kind_of_the_engine():
    assert {spec.effect for spec in cards()} == set(ac.EFFECTS)
    assert ac.TARGETS_OTHER | ac.TARGETS_ANY | ac.NO_TARGET == set(ac.EFFECTS)


def test_values_2_and_3_are_placeholders_with_the_family_effects_ac_r3():
    assert (LOOK.effect, COMPARE.effect) == ("look_at_hand", "compare_hands")
    by_value = {c["attributes"]["value"]: c for c in catalog_data()["cards"]}
    for value in (2, 3):
        assert by_value[value]["field_provenance"]["effect"] == "provisional"
        assert "Placeholder" in by_value[value]["provenance_note"]
    # A placeholder name that carries its value is not labelled twice.
    assert LOOK.label == "Unnamed card (2)" and JETT.label == "Jett Reno (7)"


def test_the_options_defaults_are_those_of_the_rules_file():
    assert option("credits_target") == {"2": 4, "3": 5, "4": 6}  # AC-R1
    assert option("charles_vance_bonus") == "literal"  # AC-R7


def test_a_fresh_two_player_round_adds_up_to_22_with_one_set_aside_card_ac_r9():
    # 22 cards: 1 set aside face down, 1 dealt to each of 2 cadets, the first draw: 18 left.
    start = position(["Ana", "Ben"], [LURA, JETT])
    assert start.deck_count == 18
    assert ac.check(start).warnings == []


def test_every_rule_id_the_engines_cite_is_a_section_of_the_catalog():
    import re

    from games.academy_credits import scorer as scoring_engine

    sections = {section["id"] for section in catalog_data()["rule_sections"]}
    cited = set()
    for module in (ac, scoring_engine):
        source = Path(module.__file__).read_text(encoding="utf-8")
        cited |= set(re.findall(r"\"(AC-[0-9R][0-9.]*)\"", source))
    cited |= set(ac.EFFECT_RULE.values())
    assert cited and cited <= sections, cited - sections
    # Every numbered ruling is applied by one engine or the other (AC-R2 through the copies).
    rulings = {s for s in sections if s.startswith("AC-R")}
    assert rulings - cited <= {"AC-R2", "AC-R9"}


def test_the_readings_of_issue_11_are_written_where_the_rule_lives():
    # AC-R6 for the marked player and AC-5.1's end of protection are on the cards' pages.
    rulings = {c["slug"]: c["rulings"] for c in catalog_data()["cards"]}
    assert any(
        r["rule"] == "AC-R6" and "must aim it at yourself" in r["text"]
        for r in rulings["darem-reymi"]
    )
    assert any(
        r["rule"] == "AC-R6" and "its target is free" in r["text"] for r in rulings["caleb-mir"]
    )
    assert any(
        r["rule"] == "AC-5.1" and "never protected on their own turn" in r["text"]
        for r in rulings["jay-den-kraag"]
    )
