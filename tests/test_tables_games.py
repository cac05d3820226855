"""Per-game table state lives in the game (issue 25 with issue 24's "nothing outside games/ names a
game"): each game's package names its table-state module (GamePackage.table_state), the tables
app finds it through GAMES, and each module's job_request_body(state, players, kind) gives the
body of the game's own job request filled in from the table, which the game's endpoint accepts
and answers as the table did."""

import json
import re
from pathlib import Path

import pytest

from cards.models import Game
from common.api_errors import ApiError
from common.games import game_package, table_slugs
from games.registry import GAMES
from games.table_state import TableGame
from tables.models import Table
from tests.test_fifth_game import registered  # noqa: F401 - the fifth game, a package without tables

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent


def post(api, url, data, token=None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return api.post(url, data=json.dumps(data), content_type="application/json", **headers)


def start(api, game, players=("Ana", "Ben")):
    table = post(api, "/api/tables/", {"game": game, "players": list(players)}).json()
    return table["code"], table["host_token"]


def send(api, code, host, kind, seat, body):
    version = api.get(f"/api/tables/{code}/").json()["version"]
    response = post(
        api,
        f"/api/tables/{code}/events/",
        {"kind": kind, "seat": seat, "version": version, "body": body},
        host,
    )
    assert response.status_code == 201, response.json()
    return response.json()


def request_body(game, state, players, kind, seat=None):
    # As the seat's own phone asks (its hidden cards are its own to see).
    return game_package(game).table.request_body(state, players, kind, seat, seat is not None)


def test_every_game_names_its_table_state_and_the_tables_app_names_none():
    for package in (package for package in GAMES if package.table is not None):
        assert isinstance(package.table.carries, TableGame)
        assert callable(package.table.request_body)
    assert table_slugs() == [package.slug for package in GAMES if package.table is not None]
    assert len(table_slugs()) >= 4  # the shipped games
    names = [
        word for package in GAMES for word in (package.slug, package.package.rsplit(".", 1)[1])
    ]
    for path in [*(ROOT / "tables").rglob("*.py"), *(ROOT / "templates" / "tables").glob("*")]:
        if "migrations" in path.parts:
            continue
        text = path.read_text()
        for name in names:
            assert not re.search(rf"\b{re.escape(name)}\b", text), (path, name)


def test_a_game_whose_package_keeps_no_tables_is_not_available(api, registered):  # noqa: F811
    response = post(api, "/api/tables/", {"game": "ascent", "players": ["Ana", "Ben"]})
    assert response.status_code == 400 and response.json()["code"] == "not_available"
    assert "ascent" not in table_slugs()


def test_star_trek_missions_form_opens_with_the_tables_hands(api):
    code, host = start(api, "star-trek-missions")
    hands = [
        ["Holodeck 1", "Leah Brahms"],
        ["Space Confrontation", "Daimon Bok", "Daimon Tog", "Vice Admiral Nakamura"],
    ]
    for seat, held in enumerate(hands, start=1):
        state = send(api, code, host, "hand", seat, {"hand": held})["table"]["state"]
    body = request_body("star-trek-missions", state, ["Ana", "Ben"], "score")
    assert [player["hand"] for player in body["players"]] == hands
    answer = post(api, "/api/games/star-trek-missions/score/", body).json()
    assert answer["standings"] == state["standings"]
    assert request_body("star-trek-missions", state, ["Ana", "Ben"], "ruling") is None


def test_academy_credits_form_opens_with_the_credits_and_the_starter(api):
    code, host = start(api, "academy-credits")
    round_body = {
        "players": [
            {"name": "Ana", "discards": [1, 4]},
            {"name": "Ben", "in_round": False, "discards": ["Lura Thok"]},
        ],
        "deck_count": 7,
    }
    state = send(api, code, host, "round", 1, round_body)["table"]["state"]
    body = request_body("academy-credits", state, ["Ana", "Ben"], "score")
    assert body["players"] == [
        {"name": "Ana", "credits": state["credits"]["Ana"]},
        {"name": "Ben", "credits": state["credits"]["Ben"]},
    ]
    assert body["starter"] == state["starter"]
    # The rest of the round is the players' to enter: with it, the game answers as the table.
    filled = {
        **round_body,
        "starter": body["starter"],
        "players": [
            {**given, **known}
            for given, known in zip(round_body["players"], body["players"], strict=True)
        ],
    }
    answer = post(api, "/api/games/academy-credits/score/", filled).json()
    table_answer = send(api, code, host, "round", 1, round_body)["event"]["result"]
    assert answer["standings"] == table_answer["standings"]
    ruling = request_body("academy-credits", state, ["Ana", "Ben"], "ruling")
    assert ruling == {"position": {"players": body["players"]}}


def test_star_realms_academy_form_opens_at_the_start_of_the_turn_to_play(api):
    code, host = start(api, "star-realms-academy")
    turn = {
        "active": {"hand": ["Viper", "Scout", "Scout"]},
        "shop_row": ["Ram", "Corvette", "The Hive", "Barter World", "Survey Ship"],
        "actions": [
            {"action": "play", "card": "Viper"},
            {"action": "attack", "target": "health", "amount": 1},
            {"action": "end_turn"},
        ],
    }
    state = send(api, code, host, "turn", 1, turn)["table"]["state"]
    body = request_body("star-realms-academy", state, ["Ana", "Ben"], "score")
    assert body["active"]["name"] == "Ben" and body["active"]["health"] == 14
    assert body["opponent"]["name"] == "Ana" and body["shop_row"] == turn["shop_row"]
    assert body["actions"] == []
    # Ben's hand added, the game's own endpoint takes the body as the table would.
    ben = {"hand": ["Scout", "Scout", "Scout"]}
    actions = [{"action": "play", "card": "Scout"}, {"action": "end_turn"}]
    answer = post(
        api,
        "/api/games/star-realms-academy/score/",
        {**body, "active": {**body["active"], **ben}, "actions": actions},
    ).json()
    table_answer = send(api, code, host, "turn", 2, {"active": ben, "actions": actions})["event"][
        "result"
    ]
    assert answer["final"] == table_answer["final"]
    # Ana's form, next, holds the Scouts she kept; only hers (issue 29): another seat's form,
    # and the state every phone reads, do not.
    state = Table.objects.get(code=code).state
    again = request_body("star-realms-academy", state, ["Ana", "Ben"], "ruling", seat=1)
    assert again["position"]["active"]["hand"] == ["Scout", "Scout"]
    other = request_body("star-realms-academy", state, ["Ana", "Ben"], "ruling", seat=2)
    assert other["position"]["active"]["hand"] == []
    assert "Scout" not in json.dumps(api.get(f"/api/tables/{code}/").json()["state"])


def test_factions_form_opens_with_the_tables_position(api):
    code, host = start(api, "factions")
    assert request_body(
        "factions", api.get(f"/api/tables/{code}/").json()["state"], ["Ana", "Ben"], "score"
    )["players"] == [{"name": "Ana", "hand": []}, {"name": "Ben", "hand": []}]
    units = {
        "amber-coast": [
            "Harbour Captain",
            "Tide Archer",
            "Dune Rider",
            "Net Caster",
            "Lighthouse Keeper",
        ],
        "ashen-peaks": [
            "Peak Sentinel",
            "Ember Smith",
            "Cliff Runner",
            "Ash Seer",
            "Stone Drummer",
        ],
    }
    setup = {
        "factions": [
            {
                "name": faction,
                "controller": player,
                "units": [{"name": n, "alive": True} for n in names],
            }
            for (faction, names), player in zip(units.items(), ["Ana", "Ben"], strict=True)
        ],
        "turn": "Ben",
    }
    state = send(api, code, host, "setup", 1, setup)["table"]["state"]
    body = request_body("factions", state, ["Ana", "Ben"], "score")
    assert body["turn"] == "Ben" and [p["hand"] for p in body["players"]] == [[], []]
    assert post(api, "/api/games/factions/score/", body).json()["standings"] == state["standings"]
    ruling = request_body("factions", state, ["Ana", "Ben"], "ruling")
    answer = post(
        api, "/api/games/factions/rulings/", {**ruling, "move": {"action": "end_turn"}}
    ).json()
    assert answer["verdict"] == "legal" and answer["outcome"]["next_turn"]["player"] == "Ana"


def job_event(game, state, players, kind, body):
    return game_package(game).table.event(state, players, kind, body)


@pytest.mark.parametrize("slug", [package.slug for package in GAMES if package.table is not None])
def test_each_games_filled_body_opens_its_own_form(api, slug):
    """The body filled in from a new table turns into the game's page fields (its link_pairs,
    as "Check again" does) for each job it fills."""
    game = Game.objects.get(slug=slug)
    code, _ = start(api, slug)
    state = api.get(f"/api/tables/{code}/").json()["state"]
    package = game_package(slug)
    for kind in ("score", "ruling"):
        body = request_body(slug, state, ["Ana", "Ben"], kind)
        if body is not None:
            assert isinstance(package.job(kind).pairs(game, body), list)


def test_a_turn_broken_down_from_the_table_is_its_turn_event(api):
    code, host = start(api, "star-realms-academy")
    state = api.get(f"/api/tables/{code}/").json()["state"]
    body = request_body("star-realms-academy", state, ["Ana", "Ben"], "score")
    body = {
        **body,
        "active": {**body["active"], "hand": ["Viper", "Scout", "Scout"]},
        "shop_row": ["Ram", "Corvette", "The Hive", "Barter World", "Survey Ship"],
        "actions": [
            {"action": "play", "card": "Viper"},
            {"action": "attack", "target": "health", "amount": 1},
            {"action": "end_turn"},
        ],
    }
    kind, event = job_event("star-realms-academy", state, ["Ana", "Ben"], "score", body)
    assert kind == "turn" and set(event) == {"active", "shop_row", "actions"}
    result = send(api, code, host, kind, 1, event)
    assert result["table"]["state"]["health"] == {"Ana": 15, "Ben": 14}
    # A body that says otherwise than the table of what it keeps is refused, never replaced.
    state = result["table"]["state"]
    wrong = request_body("star-realms-academy", state, ["Ana", "Ben"], "score")
    wrong["active"]["health"] = 15  # Ben is at 14
    with pytest.raises(ApiError) as refused:
        job_event("star-realms-academy", state, ["Ana", "Ben"], "score", wrong)
    assert refused.value.errors[0]["path"] == "active.health"
    assert refused.value.errors[0]["code"] == "table_knows"
    assert job_event("star-realms-academy", state, ["Ana", "Ben"], "ruling", {"x": 1}) == (
        "ruling",
        {"x": 1},
    )


def test_a_move_checked_from_the_table_is_its_move_event(api):
    code, host = start(api, "factions")
    amber = ["Harbour Captain", "Tide Archer", "Dune Rider", "Net Caster", "Lighthouse Keeper"]
    ashen = ["Peak Sentinel", "Ember Smith", "Cliff Runner", "Ash Seer", "Stone Drummer"]
    standings = {
        "factions": [
            {
                "name": "amber-coast",
                "controller": "Ana",
                "units": [{"name": n, "alive": True} for n in amber],
            },
            {
                "name": "ashen-peaks",
                "controller": "Ben",
                "units": [{"name": n, "alive": n == "Peak Sentinel"} for n in ashen],
            },
        ],
        "players": [{"name": "Ana", "hand": []}, {"name": "Ben", "hand": []}],
        "turn": "Ana",
    }
    state = api.get(f"/api/tables/{code}/").json()["state"]
    kind, setup = job_event("factions", state, ["Ana", "Ben"], "score", standings)
    assert kind == "setup" and setup["players"] == [{"name": "Ana"}, {"name": "Ben"}]
    state = send(api, code, host, kind, 1, setup)["table"]["state"]
    body = request_body("factions", state, ["Ana", "Ben"], "ruling")
    body["position"]["players"][0]["hand"] = [{"card": "Ambush", "faction": "amber-coast"}]
    body["move"] = {
        "action": "play",
        "card": {"card": "Ambush", "faction": "amber-coast"},
        "target_unit": {"faction": "ashen-peaks", "unit": "Peak Sentinel"},
    }
    kind, event = job_event("factions", state, ["Ana", "Ben"], "ruling", body)
    assert kind == "move"
    assert send(api, code, host, kind, 1, event)["table"]["state"]["winner"] == "Ana"
    # The table's units are the table's: a form saying Peak Sentinel is defeated is refused.
    wrong = request_body("factions", state, ["Ana", "Ben"], "ruling")
    wrong["position"]["factions"][1]["units"][0]["alive"] = False
    with pytest.raises(ApiError) as refused:
        job_event("factions", state, ["Ana", "Ben"], "ruling", wrong)
    assert refused.value.errors[0]["code"] == "table_knows"


def test_academy_credits_and_star_trek_missions_job_events(api):
    state = {"credits": {"Ana": 2, "Ben": 1}, "round": 3, "starter": "Ben"}
    kind, event = job_event(
        "academy-credits",
        state,
        ["Ana", "Ben"],
        "score",
        {
            "players": [{"name": "Ana", "credits": 2}, {"name": "Ben", "credits": 1}],
            "starter": "Ben",
            "deck_count": 3,
        },
    )
    assert (kind, event) == (
        "round",
        {"players": [{"name": "Ana"}, {"name": "Ben"}], "deck_count": 3},
    )
    with pytest.raises(ApiError):
        job_event(
            "academy-credits",
            state,
            ["Ana", "Ben"],
            "score",
            {"players": [{"name": "Ana", "credits": 5}, {"name": "Ben"}]},
        )
    assert job_event(
        "star-trek-missions", {}, ["Ana", "Ben"], "score", {"hand": ["Holodeck 1"], "choices": {}}
    ) == ("hand", {"hand": ["Holodeck 1"], "choices": {}})


def test_the_seat_that_acts_now_is_the_movers(api):
    code, host = start(api, "star-realms-academy")
    state = api.get(f"/api/tables/{code}/").json()["state"]
    module = game_package("star-realms-academy").table
    assert module.acting_seat(state, ["Ana", "Ben"]) == 1
    state = send(
        api,
        code,
        host,
        "turn",
        1,
        {"active": {"hand": ["Scout", "Scout", "Scout"]}, "actions": [{"action": "end_turn"}]},
    )["table"]["state"]
    assert module.acting_seat(state, ["Ana", "Ben"]) == 2
    factions = game_package("factions").table
    assert factions.acting_seat({"position": None}, ["Ana", "Ben"]) is None
    pending = {
        "position": {
            "turn": "Ana",
            "pending": {"target_unit": {"faction": "b"}},
            "factions": [{"name": "a", "controller": "Ana"}, {"name": "b", "controller": "Ben"}],
        }
    }
    assert factions.acting_seat(pending, ["Ana", "Ben"]) == 2
    for slug in ("star-trek-missions", "academy-credits"):
        assert game_package(slug).table.acting_seat({}, ["Ana", "Ben"]) is None
