"""POST /api/games/factions/score/: the standings of a table, API.md's score body with
`standings`, `eliminated` and `winner`; errors with paths from the body."""

from __future__ import annotations

import json

import pytest

from tests.test_factions_rulings_api import AMBER, ASHEN, c, table, units

pytestmark = pytest.mark.django_db

URL = "/api/games/factions/score/"
SCORE_KEYS = {
    "game",
    "total",
    "steps",
    "warnings",
    "standings",
    "eliminated",
    "winner",
    "id",
    "url",
}


def post(api, data):
    return api.post(URL, data=json.dumps(data), content_type="application/json")


def test_standings_of_a_game_in_progress(api, catalog):
    position = table([c("Attack", "amber-coast")], dead_ashen=ASHEN[:3])
    position["players"][0]["faction"] = "Amber Coast"
    position["players"][1]["faction"] = "ashen-peaks"
    response = post(api, position)
    body = response.json()
    assert response.status_code == 200, body
    assert set(body) == SCORE_KEYS
    assert (body["game"], body["total"], body["winner"], body["eliminated"]) == (
        "factions",
        None,
        None,
        [],
    )
    ana, ben = body["standings"]
    assert ana["factions"][0]["own"] is True and ana["surviving_units"] == 5
    assert ben["surviving_units"] == 2 and ben["defeated_units"] == 3
    assert ben["factions"][0]["defeated"] == ASHEN[:3]
    for step in body["steps"]:
        assert set(step) == {
            "n",
            "rule",
            "player",
            "faction",
            "card",
            "detail",
            "points",
            "running_total",
        }
    assert body["steps"][-1]["detail"] == (
        "2 players still control a surviving unit (Ana and Ben): no winner yet (FAC-18)."
    )
    assert api.get(f"/api/results/{body['id']}/").json() == body


def test_standings_of_a_finished_game(api, catalog):
    position = table(dead_ashen=ASHEN)
    del position["turn"]
    for player in position["players"]:
        del player["hand"]  # hands are optional for the standings
    body = post(api, position).json()
    assert body["winner"] == "Ana" and body["eliminated"] == ["Ben"]
    assert body["steps"][-1]["rule"] == "FAC-18"


def test_errors_name_paths_in_the_body(api, catalog):
    position = table()
    position["factions"][0]["name"] = "Amber Cost"
    body = post(api, position).json()
    assert body["code"] == "invalid_input"
    assert [(e["path"], e["code"]) for e in body["errors"]] == [
        ("factions[0].name", "unknown_faction")
    ]


def test_an_impossible_table(api, catalog):
    position = table()
    position["factions"][1]["units"].append({"name": "Harbour Captain", "alive": False})
    response = post(api, position)
    body = response.json()
    assert response.status_code == 400 and body["code"] == "impossible_position"
    assert [(e["path"], e["code"]) for e in body["errors"]] == [
        ("factions[1].units[5]", "unit_in_two_factions")
    ]
    position = table(dead_ashen=ASHEN)
    position["factions"][0]["units"] = units(AMBER, dead=AMBER)
    body = post(api, position).json()
    assert [(e["path"], e["code"]) for e in body["errors"]] == [("factions", "no_player_left")]


def test_a_list_is_not_a_table(api, catalog):
    response = post(api, [])
    assert response.status_code == 400 and response.json()["errors"][0]["path"] == "body"
