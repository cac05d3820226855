"""SRA-9 and SRA-F2 on Ally abilities, engine and catalog data (no database):

* Scout and Viper have no Ally ability: the card data, the project's rule text (SRA-F2), the
  card's text and rulings, and a ruling all say the same thing (issue 11).
* The rulebook puts Imperial Frigate and Corvette in one faction (SRA-9.1): a ruling on that Ally
  rests on the rulebook and does not warn about the inferred faction; a ruling that does rest on
  an inferred (provisional) faction still warns.
"""

import json

import pytest

from games.star_realms_academy import card_rules as rules
from games.star_realms_academy.engine import check
from games.star_realms_academy.provisional import provisional_items
from tests.engines.test_star_realms_academy_engine import (
    CATALOG,
    card,
    position,
    use_ally,
)

DATA = json.loads(CATALOG.read_text(encoding="utf-8"))
CARDS = {c["name"]: c for c in DATA["cards"]}
RULES = {r["id"]: r for r in DATA["rule_sections"]}
LABELS = {
    a["key"]: {c["value"]: c["label"] for c in a["choices"] or []} for a in DATA["attributes"]
}
NAMES = set(CARDS)


def card_text(name: str) -> str:
    item = CARDS[name]
    return rules.render_rule(
        item.get("rule"), name=name, attributes=item["attributes"], labels=LABELS
    )


@pytest.mark.parametrize("name", ["Scout", "Viper"])
def test_sra_9_starting_ships_have_no_ally_ability_in_data_rule_text_and_ruling(name):
    item = CARDS[name]
    # The card: no Ally ability, provisional (an inference, like its faction), and said so.
    assert item["attributes"]["ally"] == {} and item["attributes"]["faction"] == "unaligned"
    assert item["field_provenance"]["ally"] == "provisional"
    assert "No Ally ability (provisional)" in item["provenance_note"]
    assert "Ally ability is unknown" not in item["provenance_note"]
    assert "No Ally ability." in card_text(name)
    assert any(r["rule"] == "SRA-9" and "has no Ally ability" in r["text"] for r in item["rulings"])
    # The rule text: the starting ships belong to no faction and have no Ally ability.
    assert "belong to no faction and so have no Ally ability" in RULES["SRA-F2"]["text"]
    # The ruling: no Ally ability, resting on that provisional value (so it warns).
    ruling = check(position(in_play=["Scout", "Viper"])).rule(use_ally(name))
    assert (ruling.verdict, ruling.code, ruling.rule) == ("illegal", "no_ally_ability", "SRA-9")
    assert ruling.reason == f"{name} has no Ally ability (SRA-9)."
    assert ruling.warnings == [
        f"Provisional (inferred, not yet transcribed from the printed card): {name}'s ally "
        f"ability (none). It is used here; an admin can correct it, and each card's page says "
        f"where its values come from."
    ]


def test_sra_9_1_the_catalog_states_frigate_and_corvette_share_a_faction():
    for name, other in (("Imperial Frigate", "Corvette"), ("Corvette", "Imperial Frigate")):
        item = CARDS[name]
        assert item["rule"] == {"same_faction_as": [other], "source": "SRA-9.1"}
        assert item["field_provenance"]["rule"] == "verified"
        assert item["field_provenance"]["faction"] == "provisional"  # its name stays inferred
        assert rules.validate_rule(item["rule"], vocabulary={}, card_names=NAMES) == []
        assert f"shares a faction with {other}" in item["provenance_note"] or (
            f"shares its faction with {other}" in item["provenance_note"]
        )
        assert any(r["rule"] == "SRA-9.1" for r in item["rulings"])
    assert "Corvette" in RULES["SRA-9.1"]["text"] and "Imperial Frigate" in RULES["SRA-9.1"]["text"]


def test_sra_9_1_an_ally_ruling_on_frigate_and_corvette_does_not_warn():
    frigate = card("Imperial Frigate", ally={"coin": 1})  # as an admin would transcribe it
    ruling = check(position(in_play=[frigate, "Corvette"])).rule(use_ally(frigate))
    assert (ruling.verdict, ruling.code) == ("legal", "ally_used")
    assert ruling.warnings == []
    assert any(
        c.rule == "SRA-9.1"
        and c.passed
        and "the rulebook puts it in Imperial Frigate's faction" in c.detail
        for c in ruling.checks
    )
    # The other way round too: Corvette's Ally, made ready by Imperial Frigate.
    corvette = card("Corvette", ally={"combat": 1})
    back = check(position(in_play=["Imperial Frigate", corvette])).rule(use_ally(corvette))
    assert (back.verdict, back.warnings) == ("legal", [])


def test_sra_9_1_the_frigates_unknown_ally_is_asked_for_without_a_faction_warning():
    ruling = check(position(in_play=["Imperial Frigate", "Corvette"])).rule(
        use_ally("Imperial Frigate")
    )
    assert ruling.verdict == "needs_information"
    assert [(m["card"], m["field"]) for m in ruling.missing] == [("Imperial Frigate", "ally")]
    assert ruling.warnings == []


def test_sra_f2_an_ally_ruling_on_inferred_factions_still_warns():
    frigate = card("Imperial Frigate", ally={"coin": 1})
    ready = check(position(in_play=[frigate, "Survey Ship"])).rule(use_ally(frigate))
    assert ready.verdict == "legal"
    assert len(ready.warnings) == 1  # said once, naming both (issue 23)
    assert sorted(provisional_items(ready.warnings)) == [
        "Imperial Frigate's faction (Star Empire)",
        "Survey Ship's faction (Star Empire)",
    ]
    # Not ready: the verdict rests on Ram's inferred faction (Blob) being another one.
    not_ready = check(position(in_play=[frigate, "Ram"])).rule(use_ally(frigate))
    assert not_ready.code == "ally_not_ready"
    assert "Ram's faction (Blob)" in provisional_items(not_ready.warnings)
    # Once both factions are transcribed, nothing is provisional: no warning.
    known_frigate = card("Imperial Frigate", ally={"coin": 1}, faction="star-empire")
    known = check(
        position(in_play=[known_frigate, card("Survey Ship", faction="star-empire")])
    ).rule(use_ally(known_frigate))
    assert (known.verdict, known.warnings) == ("legal", [])


def test_sra_9_1_the_rulebooks_pairing_holds_even_with_the_faction_unknown():
    # An admin cleared Imperial Frigate's faction: the rulebook still puts Corvette in it.
    frigate = card("Imperial Frigate", ally={"coin": 1}, faction=None)
    ruling = check(position(in_play=[frigate, "Corvette"])).rule(use_ally(frigate))
    assert (ruling.verdict, ruling.warnings) == ("legal", [])


def test_the_rule_language_reports_each_problem_by_path():
    assert rules.validate_rule([], vocabulary={}, card_names=NAMES)[0][0] == "rule"
    problems = dict(
        rules.validate_rule(
            {"same_faction_as": ["Corvette", "Nope", "Corvette"], "source": "", "x": 1},
            vocabulary={},
            card_names=NAMES,
        )
    )
    assert set(problems) == {
        "rule.x",
        "rule.same_faction_as[1]",
        "rule.same_faction_as[2]",
        "rule.source",
    }
    assert rules.validate_rule({"same_faction_as": []}, vocabulary={}, card_names=NAMES)
