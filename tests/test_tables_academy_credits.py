"""An Academy Credits table (issue 25): each round's end is an event whose body is the round's
score body without credits; the table fills each cadet's credits and, after the first round, who
started, and carries the credits, the next starter, the round count and the match winners from
the game's own round score. Played to a match winner, the state equals the stateless endpoint's
answers chained by hand."""

import json

import pytest

pytestmark = pytest.mark.django_db

SCORE = "/api/games/academy-credits/score/"
# Ana is the last cadet standing each time: 1 credit a round (Ben, out, discarded no Charles Vance).
ROUND = {
    "players": [
        {"name": "Ana", "discards": [1, 4]},
        {"name": "Ben", "in_round": False, "discards": ["Lura Thok"]},
    ],
    "deck_count": 7,
}


def post(api, url, data, token=None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return api.post(url, data=json.dumps(data), content_type="application/json", **headers)


def test_rounds_carry_credits_starter_and_count_to_the_match_winner(api):
    table = post(api, "/api/tables/", {"game": "academy-credits", "players": ["Ana", "Ben"]}).json()
    code, host = table["code"], table["host_token"]
    assert table["state"]["credits"] == {"Ana": 0, "Ben": 0}
    ben = post(api, f"/api/tables/{code}/seats/2/claim/", {}).json()["seat_token"]
    version, credits, starter = table["version"] + 1, {"Ana": 0, "Ben": 0}, None
    for number in range(1, 10):
        response = post(
            api,
            f"/api/tables/{code}/events/",
            {"kind": "round", "seat": 2, "version": version, "body": ROUND},
            ben,
        )
        assert response.status_code == 201, response.json()
        payload = response.json()
        # The same round through the stateless endpoint, with the credits the table carried.
        stateless = post(
            api,
            SCORE,
            {
                **ROUND,
                "players": [
                    {**player, "credits": credits[player["name"]]} for player in ROUND["players"]
                ],
                **({"starter": starter} if starter else {}),
            },
        ).json()
        result = payload["event"]["result"]
        assert {k: v for k, v in result.items() if k not in ("id", "url")} == {
            k: v for k, v in stateless.items() if k not in ("id", "url")
        }
        state = payload["table"]["state"]
        credits = {row["player"]: row["credits"] for row in stateless["standings"]}
        starter = stateless["next_starter"]
        assert state["credits"] == credits and state["starter"] == starter
        assert state["round"] == number
        version = payload["table"]["version"]
        if state["match_winners"]:
            break
    assert state["match_winners"] == ["Ana"] and state["credits"]["Ana"] == state["target"] == 4
    assert number == 4
    # The match is over: another round is refused; the host's new match starts from zero.
    refused = post(
        api,
        f"/api/tables/{code}/events/",
        {"kind": "round", "seat": 2, "version": version, "body": ROUND},
        ben,
    )
    assert refused.status_code == 400 and refused.json()["code"] == "match_over"
    again = post(
        api,
        f"/api/tables/{code}/events/",
        {"kind": "new_match", "seat": None, "version": version, "body": {}},
        host,
    )
    assert again.status_code == 201
    assert again.json()["table"]["state"]["credits"] == {"Ana": 0, "Ben": 0}


def test_a_round_that_gives_credits_or_other_players_is_refused(api):
    table = post(api, "/api/tables/", {"game": "academy-credits", "players": ["Ana", "Ben"]}).json()
    code, host = table["code"], table["host_token"]

    def send(body):
        return post(
            api,
            f"/api/tables/{code}/events/",
            {"kind": "round", "seat": 1, "version": 1, "body": body},
            host,
        )

    with_credits = {
        **ROUND,
        "players": [{**ROUND["players"][0], "credits": 3}, ROUND["players"][1]],
    }
    assert send(with_credits).json()["errors"][0]["code"] == "table_knows"
    others = {**ROUND, "players": [{**ROUND["players"][0], "name": "Cy"}, ROUND["players"][1]]}
    assert send(others).json()["errors"][0]["code"] == "players_differ"
    assert api.get(f"/api/tables/{code}/").json()["version"] == 1
    assert send(ROUND).status_code == 201


def test_a_ruling_at_the_table_gets_the_tables_credits_and_changes_no_state(api):
    table = post(api, "/api/tables/", {"game": "academy-credits", "players": ["Ana", "Ben"]}).json()
    code, host = table["code"], table["host_token"]
    assert (
        post(
            api,
            f"/api/tables/{code}/events/",
            {"kind": "round", "seat": 1, "version": 1, "body": ROUND},
            host,
        ).status_code
        == 201
    )
    position = {
        "players": [{"name": "Ana"}, {"name": "Ben"}],
        "turn": "Ana",
        "hand": ["Nahla Ake", "Jett Reno"],
        "deck_count": 18,
    }
    move = {"play": "Jett Reno", "target": "Ben", "guess": None, "confirm": False}
    before = api.get(f"/api/tables/{code}/").json()
    response = post(
        api,
        f"/api/tables/{code}/events/",
        {
            "kind": "ruling",
            "seat": 1,
            "version": before["version"],
            "body": {"position": position, "move": move},
        },
        host,
    )
    assert response.status_code == 201, response.json()
    ruling = response.json()["event"]["result"]
    # The same as the stateless endpoint with the credits the table carries (Ana 1, Ben 0).
    stateless = post(
        api,
        "/api/games/academy-credits/rulings/",
        {
            "position": {
                **position,
                "players": [{"name": "Ana", "credits": 1}, {"name": "Ben", "credits": 0}],
            },
            "move": move,
        },
    ).json()
    assert (ruling["verdict"], ruling["code"]) == ("illegal", "must_play_nahla_ake")
    assert {k: v for k, v in ruling.items() if k not in ("id", "url")} == {
        k: v for k, v in stateless.items() if k not in ("id", "url")
    }
    assert response.json()["table"]["state"] == before["state"]
    assert response.json()["table"]["events"][-1]["kind"] == "ruling"
