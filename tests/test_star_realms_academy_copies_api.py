"""SRA-2 through the API: a refill naming a card whose copies are all accounted for is illegal, in
a ruling and in a whole turn (issue 11: a fifth Ram was accepted, and six after two buys)."""

import json

import pytest

pytestmark = pytest.mark.django_db

RULINGS = "/api/games/star-realms-academy/rulings/"
SCORE = "/api/games/star-realms-academy/score/"


def active(**changes):
    side = {
        "name": "Ana",
        "health": 15,
        "coins": 0,
        "hand": [],
        "in_play": [],
        "bases": [],
        "combat": 0,
        "used": [],
    }
    side.update(changes)
    return side


OPPONENT = {"name": "Ben", "health": 15, "coins": 1, "bases": []}
BUY_RAM = {"action": "buy", "card": "Ram", "refill": "Ram"}


def post(api, url, data):
    response = api.post(url, data=json.dumps(data), content_type="application/json")
    assert response.status_code == 200, response.json()
    return response.json()


def test_sra_2_a_ruling_refuses_a_fifth_ram_as_the_refill(api, catalog):
    position = {
        "active": active(coins=1, hand=["Ram", "Ram", "Ram"]),
        "opponent": OPPONENT,
        "shop_row": ["Ram", "Freighter", "Corvette"],
    }
    body = post(api, RULINGS, {"position": position, "move": BUY_RAM})
    assert (body["verdict"], body["code"], body["rule"]["id"]) == (
        "illegal",
        "too_many_copies",
        "SRA-2",
    )
    assert "all 4 copies" in body["reason"]
    assert {"action": "buy", "card": "Ram"} in body["alternatives"]
    # With one Ram fewer in the hand, the refill is the fourth: legal.
    position["active"]["hand"] = ["Ram", "Ram"]
    assert post(api, RULINGS, {"position": position, "move": BUY_RAM})["verdict"] == "legal"


def test_sra_2_a_whole_turn_never_holds_more_rams_than_the_card_list(api, catalog):
    body = post(
        api,
        SCORE,
        {
            "active": active(coins=8),
            "opponent": OPPONENT,
            "shop_row": ["Ram"],
            "actions": [BUY_RAM] * 6,
        },
    )
    assert [s["verdict"] for s in body["steps"]] == ["legal", "legal", "legal", "illegal"]
    assert body["stopped_at"] == 3
    assert (body["ruling"]["code"], body["ruling"]["rule"]["id"]) == ("too_many_copies", "SRA-2")
    assert body["final"]["shop_row"] == ["Ram"] and body["steps"][-1]["coins"] == 5
