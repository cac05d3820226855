"""Once an admin enters a card value that was missing, the same ruling changes from
needs_information to a verdict: through the admin's change form, and through a model save as an
admin edit or an import makes (the services' per-process card cache sees the change)."""

import json

import pytest

from cards.models import Card
from tests.test_admin import change_url, form_data, form_errors

pytestmark = pytest.mark.django_db

RULINGS = "/api/games/star-realms-academy/rulings/"
SCORE = "/api/games/star-realms-academy/score/"


def buy_corvette(coins):
    return {
        "position": {
            "active": {"name": "Ana", "health": 15, "coins": coins, "hand": ["Scout"]},
            "opponent": {"name": "Ben", "health": 15, "bases": []},
            "shop_row": ["Corvette", "Ram"],
        },
        "move": {"action": "buy", "card": "Corvette"},
    }


def rule(api, data):
    response = api.post(RULINGS, data=json.dumps(data), content_type="application/json")
    assert response.status_code == 200, response.json()
    return response.json()


def corvette():
    return Card.objects.get(game__slug="star-realms-academy", slug="corvette")


def test_entering_corvettes_cost_in_the_admin_turns_the_ruling_into_a_verdict(
    api, admin_client, catalog
):
    before = rule(api, buy_corvette(coins=4))
    assert (before["verdict"], before["code"]) == ("needs_information", "card_value_unknown")
    assert [(m["card"], m["field"]) for m in before["missing"]] == [("Corvette", "cost")]
    admin_page = before["missing"][0]["admin_url"]
    assert admin_page == change_url(corvette())

    # The admin opens the link from the ruling and transcribes the cost from the card.
    data = form_data(admin_client.get(admin_page))
    data["attr__cost"] = ["3"]
    response = admin_client.post(admin_page, data)
    assert response.status_code == 302, form_errors(response)
    card = corvette()
    assert card.attributes["cost"] == 3 and card.field_provenance["cost"] == "verified"

    after = rule(api, buy_corvette(coins=4))
    assert (after["verdict"], after["code"]) == ("legal", "card_bought")
    assert after["missing"] == [] and after["outcome"]["coins"] == 1
    assert not any("cost" in w for w in after["warnings"])  # a transcribed value is verified
    short = rule(api, buy_corvette(coins=2))
    assert (short["verdict"], short["code"]) == ("illegal", "not_enough_coins")
    assert short["reason"] == "Corvette costs 3 Coins; Ana has 2 Coins (SRA-10)."


def test_a_saved_value_is_seen_by_the_next_ruling_and_turn(api, catalog):
    turn = {
        **buy_corvette(coins=5)["position"],
        "actions": [
            {"action": "play", "card": "Scout"},
            {"action": "buy", "card": "Corvette"},
            {"action": "end_turn"},
        ],
    }
    first = api.post(SCORE, data=json.dumps(turn), content_type="application/json").json()
    assert first["stopped_at"] == 1 and first["ruling"]["verdict"] == "needs_information"
    assert rule(api, buy_corvette(coins=5))["verdict"] == "needs_information"

    card = corvette()  # as an admin edit or an import saves it
    card.attributes = {**card.attributes, "cost": 2}
    card.field_provenance = {**card.field_provenance, "cost": "provisional"}
    card.save()

    ruling = rule(api, buy_corvette(coins=5))
    assert (ruling["verdict"], ruling["outcome"]["coins"]) == ("legal", 3)
    # A provisional value is used, and the ruling says so.
    assert any(
        w.startswith("Provisional (inferred") and "Corvette's cost (2)" in w
        for w in ruling["warnings"]
    )
    second = api.post(SCORE, data=json.dumps(turn), content_type="application/json").json()
    assert second["stopped_at"] is None and second["turn_over"] is True
    assert [s["coins"] for s in second["steps"]] == [6, 4, 4]


def test_clearing_a_value_makes_it_unknown_again(api, admin_client, catalog):
    ram = Card.objects.get(game__slug="star-realms-academy", slug="ram")
    data = {
        "position": {
            "active": {"health": 15, "coins": 3, "hand": []},
            "opponent": {"health": 15},
            "shop_row": ["Ram"],
        },
        "move": {"action": "buy", "card": "Ram"},
    }
    assert rule(api, data)["verdict"] == "legal"
    form = form_data(admin_client.get(change_url(ram)))
    form["attr__cost"] = [""]
    assert admin_client.post(change_url(ram), form).status_code == 302
    again = rule(api, data)
    assert again["verdict"] == "needs_information"
    assert again["missing"][0]["field"] == "cost"
