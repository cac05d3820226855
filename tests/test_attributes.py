"""Attribute validation, provenance and text rendering: plain Python, no database."""

import pytest

from cards.attributes import (
    AttributeSpec,
    card_provenance,
    index_values,
    validate_attributes,
    validate_field_provenance,
)
from cards.rendering import render_card_text

VALUE = AttributeSpec(
    key="value", label="Value", kind="integer", required=True, min_value=0, max_value=10
)
FACTION = AttributeSpec(
    key="faction",
    label="Faction",
    kind="choice",
    choices=(("blob", "Blob"), ("star-empire", "Star Empire")),
)
SPECIALTY = AttributeSpec(
    key="specialty",
    label="Specialty",
    kind="multi_choice",
    choices=(("command", "Command"), ("science", "Science")),
)
PRIMARY = AttributeSpec(key="primary", label="Primary", kind="abilities", filterable=False)
SPECS = [VALUE, FACTION, SPECIALTY, PRIMARY]


def test_valid_attributes_have_no_errors():
    assert (
        validate_attributes(
            SPECS,
            {
                "value": 7,
                "faction": "blob",
                "specialty": ["command"],
                "primary": {"coin": 2, "draw": 1},
            },
        )
        == {}
    )


def test_unknown_values_may_be_null_unless_required():
    assert validate_attributes(SPECS, {"value": 3, "faction": None, "primary": None}) == {}
    assert validate_attributes(SPECS, {"value": None}) == {"value": "Value is required."}


@pytest.mark.parametrize(
    "attributes, key, fragment",
    [
        ({"value": 11}, "value", "at most 10; got 11"),
        ({"value": -1}, "value", "at least 0; got -1"),
        ({"value": "7"}, "value", "whole number"),
        ({"value": True}, "value", "whole number"),
        ({"value": 1, "faction": "purple"}, "faction", "one of: blob, star-empire; got 'purple'"),
        ({"value": 1, "specialty": "command"}, "specialty", "must be a list"),
        ({"value": 1, "specialty": ["command", "cooking"]}, "specialty", "cooking"),
        ({"value": 1, "specialty": ["command", "command"]}, "specialty", "twice"),
        ({"value": 1, "primary": {"mana": 2}}, "primary", "'mana' is not an effect"),
        ({"value": 1, "primary": {"coin": 0}}, "primary", "at least 1"),
        ({"value": 1, "primary": 2}, "primary", "must be an object"),
        ({"value": 1, "colour": "red"}, "colour", "not an attribute of this game"),
    ],
)
def test_each_bad_field_gets_its_own_message(attributes, key, fragment):
    errors = validate_attributes(SPECS, attributes)
    assert fragment in errors[key]


def test_field_provenance_checks():
    attributes = {"value": 7, "faction": None}
    assert (
        validate_field_provenance(
            SPECS, attributes, {"copies": "provisional", "value": "verified", "faction": "unknown"}
        )
        == {}
    )
    errors = validate_field_provenance(
        SPECS, attributes, {"value": "unknown", "cost": "verified", "faction": "guessed"}
    )
    assert "holds a value" in errors["value"]
    assert "not a field" in errors["cost"]
    assert "guessed" in errors["faction"]


@pytest.mark.parametrize(
    "field_provenance, expected",
    [
        ({"copies": "verified", "value": "verified"}, "verified"),
        ({"copies": "provisional", "value": "verified"}, "provisional"),
        ({"copies": "provisional", "cost": "unknown"}, "incomplete"),
        ({}, "verified"),
    ],
)
def test_card_provenance_is_derived_from_fields(field_provenance, expected):
    assert card_provenance(field_provenance) == expected


def test_index_values_cover_every_filterable_value():
    pairs = index_values(
        SPECS,
        {"value": 7, "faction": None, "specialty": ["command", "science"], "primary": {"coin": 1}},
    )
    assert sorted(pairs) == [("specialty", "command"), ("specialty", "science"), ("value", "7")]


def test_star_realms_text_says_what_is_unknown():
    specs = [
        FACTION,
        AttributeSpec(
            key="kind", label="Kind", kind="choice", choices=(("ship", "Ship"), ("base", "Base"))
        ),
        PRIMARY,
        AttributeSpec(key="ally", label="Ally", kind="abilities"),
        AttributeSpec(key="defense", label="Defense", kind="integer"),
    ]
    text = render_card_text(
        "star-realms-academy",
        specs,
        {
            "faction": "star-empire",
            "kind": "ship",
            "primary": {"combat": 2},
            "ally": None,
            "defense": None,
        },
    )
    assert text == (
        "Ship. Primary: 2 Combat. Ally (with another Star Empire card in play): "
        "unknown (not yet transcribed from the card)."
    )
    base = render_card_text(
        "star-realms-academy",
        specs,
        {
            "faction": "blob",
            "kind": "base",
            "primary": {"coin": 2, "draw": 1},
            "ally": None,
            "defense": 1,
        },
    )
    # Effects are listed in the fixed order Draw, Health, Coin, Combat.
    assert base.startswith("Base, defense 1. Primary: 1 Draw and 2 Coin.")


def test_academy_credits_text_comes_from_the_effect_kind():
    specs = [
        VALUE,
        AttributeSpec(
            key="effect", label="Effect", kind="choice", choices=(("trade_hands", "Trade hands"),)
        ),
    ]
    assert render_card_text("academy-credits", specs, {"value": 7, "effect": "trade_hands"}) == (
        "Choose another cadet and trade hands with them."
    )


def test_factions_text_names_the_enemy_discard_consequence():
    specs = [
        AttributeSpec(key="kind", label="Kind", kind="choice", choices=(("action", "Action"),)),
        AttributeSpec(key="action", label="Action", kind="choice", choices=(("spy", "Spy"),)),
    ]
    text = render_card_text("factions", specs, {"kind": "action", "action": "spy"})
    assert text.startswith("Look at an opponent's hand.")
    assert "you show your whole hand" in text


def test_a_game_without_a_renderer_has_no_text():
    assert render_card_text("star-trek-missions", [], {"number": "G01"}) == ""


def test_copies_can_be_inferred_but_never_unknown():
    errors = validate_field_provenance(SPECS, {"value": 1}, {"copies": "unknown"})
    assert "holds a value" in errors["copies"]
