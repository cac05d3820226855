"""SRA-9.1 and SRA-9 through the database and the API: the catalog load gives Imperial Frigate and
Corvette the rulebook's same-faction rule (also to a database loaded before it existed), the
rulings on that Ally do not warn about the inferred faction, and Scout has no Ally ability."""

import json

import pytest

from cards.models import Card
from cards.services import catalog_load

pytestmark = pytest.mark.django_db

URL = "/api/games/star-realms-academy/rulings/"


def rule_on(api, in_play, card):
    position = {
        "active": {"name": "Ana", "health": 15, "coins": 0, "hand": [], "in_play": in_play},
        "opponent": {"name": "Ben", "health": 15},
        "shop_row": [],
    }
    response = api.post(
        URL,
        data=json.dumps({"position": position, "move": {"action": "use_ally", "card": card}}),
        content_type="application/json",
    )
    assert response.status_code == 200, response.json()
    return response.json()


def sra(name):
    return Card.objects.get(game__slug="star-realms-academy", name=name)


def test_sra_9_1_the_load_gives_the_pair_their_rule_and_text(catalog):
    frigate = sra("Imperial Frigate")
    assert frigate.rule == {"same_faction_as": ["Corvette"], "source": "SRA-9.1"}
    assert frigate.field_provenance["rule"] == "verified"
    # A database loaded before the rule existed gets it on the next load (never replacing an
    # admin's rule).
    Card.objects.filter(pk=frigate.pk).update(rule=None)
    catalog_load()
    assert sra("Imperial Frigate").rule == frigate.rule
    assert sra("Scout").text.endswith("No Ally ability.")


def test_sra_9_1_rulings_on_frigate_and_corvette_carry_no_provisional_warning(api, catalog):
    asked = rule_on(api, ["Imperial Frigate", "Corvette"], "Imperial Frigate")
    assert asked["verdict"] == "needs_information"  # the Frigate's Ally value is not given
    assert [m["field"] for m in asked["missing"]] == ["ally"]
    assert asked["warnings"] == []
    frigate = sra("Imperial Frigate")
    frigate.attributes = {**frigate.attributes, "ally": {"coin": 1}}
    frigate.field_provenance = {**frigate.field_provenance, "ally": "verified"}
    frigate.save()
    ruled = rule_on(api, ["Imperial Frigate", "Corvette"], "Imperial Frigate")
    assert (ruled["verdict"], ruled["warnings"]) == ("legal", [])
    # With Survey Ship only the inferred factions match: that ruling does warn.
    inferred = rule_on(api, ["Imperial Frigate", "Survey Ship"], "Imperial Frigate")
    assert inferred["verdict"] == "legal"
    assert any(
        w.startswith("Provisional (inferred") and "Survey Ship's faction (Star Empire)" in w
        for w in inferred["warnings"]
    )


def test_sra_9_scout_has_no_ally_ability_in_a_ruling(api, catalog):
    body = rule_on(api, ["Scout", "Viper"], "Scout")
    assert (body["verdict"], body["code"]) == ("illegal", "no_ally_ability")
    assert body["reason"] == "Scout has no Ally ability (SRA-9)."
