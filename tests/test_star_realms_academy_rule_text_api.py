"""A needs-information ruling quotes SRA-F2 as players read it (issue 15)."""

import json

import pytest

pytestmark = pytest.mark.django_db


def test_sra_f2_is_quoted_in_players_words(api, catalog):
    position = {
        "active": {"name": "Ana", "health": 15, "coins": 5, "hand": []},
        "opponent": {"name": "Ben", "health": 15},
        "shop_row": ["Corvette"],
    }
    response = api.post(
        "/api/games/star-realms-academy/rulings/",
        data=json.dumps({"position": position, "move": {"action": "buy", "card": "Corvette"}}),
        content_type="application/json",
    )
    body = response.json()
    assert (body["verdict"], body["rule"]["id"]) == ("needs_information", "SRA-F2")
    assert body["rule"]["title"] == "Card values printed only on the cards"
    text = body["rule"]["text"]
    assert "Tableside does not guess" in text
    assert "needs_information" not in text and "`" not in text and "null" not in text
