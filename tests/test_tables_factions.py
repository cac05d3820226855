"""A Factions table (issue 25, API.md "Tables"): a `setup` event gives the starting position (the
standings body without hands); each `move` event is the ruling body without what the table
knows (only the hands are given); a legal move's outcome is applied to the table's position
(units, controllers, conquests, lost turns, eliminations) and the standings are the game's own;
an illegal one is answered and changes nothing. Each rule of the contract for this game: the
wrong seat, a stale version, illegal and impossible moves with nothing changed, undo."""

import html
import json
import re

import pytest

from results.models import SavedResult

pytestmark = pytest.mark.django_db

RULINGS = "/api/games/factions/rulings/"
STANDINGS = "/api/games/factions/score/"
AMBER = ["Harbour Captain", "Tide Archer", "Dune Rider", "Net Caster", "Lighthouse Keeper"]
ASHEN = ["Peak Sentinel", "Ember Smith", "Cliff Runner", "Ash Seer", "Stone Drummer"]


def c(name, faction):
    return {"card": name, "faction": faction}


def units(names, dead=()):
    return [{"name": n, "alive": n not in dead} for n in names]


SETUP = {
    "factions": [
        {"name": "amber-coast", "controller": "Ana", "units": units(AMBER)},
        {"name": "ashen-peaks", "controller": "Ben", "units": units(ASHEN, dead=ASHEN[1:])},
    ],
    "players": [
        {"name": "Ana", "faction": "amber-coast"},
        {"name": "Ben", "faction": "ashen-peaks"},
    ],
    "turn": "Ana",
}
PEAK = {"faction": "ashen-peaks", "unit": "Peak Sentinel"}
ATTACK = {"action": "play", "card": c("Attack", "amber-coast"), "target_unit": PEAK}
AMBUSH = {"action": "play", "card": c("Ambush", "amber-coast"), "target_unit": PEAK}


def hands(ana=(), ben=()):
    return {"players": [{"name": "Ana", "hand": list(ana)}, {"name": "Ben", "hand": list(ben)}]}


def post(api, url, data, token=None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return api.post(url, data=json.dumps(data), content_type="application/json", **headers)


@pytest.fixture
def table(api):
    created = post(api, "/api/tables/", {"game": "factions", "players": ["Ana", "Ben"]}).json()
    code = created["code"]
    ana = post(api, f"/api/tables/{code}/seats/1/claim/", {}).json()["seat_token"]
    ben = post(api, f"/api/tables/{code}/seats/2/claim/", {}).json()["seat_token"]
    return {"code": code, "host": created["host_token"], "ana": ana, "ben": ben, "api": api}


def read(t):
    return t["api"].get(f"/api/tables/{t['code']}/").json()


def event(t, kind, seat, body, token, version=None):
    version = read(t)["version"] if version is None else version
    return post(
        t["api"],
        f"/api/tables/{t['code']}/events/",
        {"kind": kind, "seat": seat, "version": version, "body": body},
        token,
    )


@pytest.fixture
def set_up(table):
    response = event(table, "setup", 1, SETUP, table["ana"])
    assert response.status_code == 201, response.json()
    return table


def test_the_setup_is_the_games_standings_and_becomes_the_position(table):
    assert (
        event(
            table, "move", 1, {"position": hands(), "move": {"action": "pass"}}, table["ana"]
        ).json()["code"]
        == "not_set_up"
    )
    response = event(table, "setup", 1, SETUP, table["ana"])
    assert response.status_code == 201
    stateless = post(
        table["api"], STANDINGS, {**SETUP, "players": [{**p, "hand": []} for p in SETUP["players"]]}
    ).json()
    state = response.json()["table"]["state"]
    assert state["standings"] == stateless["standings"] and state["winner"] is None
    position = state["position"]
    assert position["turn"] == "Ana" and position["pending"] is None
    assert [(f["name"], f["controller"]) for f in position["factions"]] == [
        ("amber-coast", "Ana"),
        ("ashen-peaks", "Ben"),
    ]
    assert {u["name"]: u["alive"] for u in position["factions"][1]["units"]} == {
        name: name == "Peak Sentinel" for name in ASHEN
    }
    assert [p["faction"] for p in position["players"]] == ["amber-coast", "ashen-peaks"]


def test_a_setup_that_leaves_a_units_state_unknown_is_refused(table):
    partial = {
        **SETUP,
        "factions": [SETUP["factions"][0], {**SETUP["factions"][1], "units": units(ASHEN[:1])}],
    }
    response = event(table, "setup", 1, partial, table["ana"])
    assert response.status_code == 400 and response.json()["errors"][0]["code"] == "units_unlisted"
    assert read(table)["state"]["position"] is None


def test_an_attack_waits_for_the_defender_whose_seat_answers(set_up):
    t = set_up
    waiting = event(
        t,
        "move",
        1,
        {
            "position": hands([c("Attack", "amber-coast")], [c("Defence", "ashen-peaks")]),
            "move": ATTACK,
        },
        t["ana"],
    )
    assert waiting.status_code == 201, waiting.json()
    state = waiting.json()["table"]["state"]
    assert state["position"]["pending"] == {
        "card": c("Attack", "amber-coast"),
        "by": "Ana",
        "target_unit": PEAK,
    }
    # Ben answers, not Ana.
    ana_again = event(
        t,
        "move",
        1,
        {"position": hands([], [c("Defence", "ashen-peaks")]), "move": {"action": "pass"}},
        t["ana"],
    )
    assert ana_again.status_code == 400 and ana_again.json()["code"] == "not_your_turn"
    blocked = event(
        t,
        "move",
        2,
        {
            "position": hands([], [c("Defence", "ashen-peaks")]),
            "move": {"action": "defend", "card": c("Defence", "ashen-peaks")},
        },
        t["ben"],
    )
    assert blocked.status_code == 201, blocked.json()
    state = blocked.json()["table"]["state"]
    assert state["position"]["pending"] is None
    assert state["position"]["factions"][1]["units"][0] == {"name": "Peak Sentinel", "alive": True}
    assert state["moves"] == 2 and state["winner"] is None


def test_an_attack_waits_for_the_defender_whose_hand_the_attackers_phone_does_not_know(set_up):
    """Ana's phone does not know Ben's cards: the table does not rule "Ben holds no DEFENCE"
    from ignorance. The ATTACK waits for Ben's answer, and Ben's DEFENCE is taken."""
    t = set_up
    attack = event(
        t, "move", 1, {"position": hands([c("Attack", "amber-coast")]), "move": ATTACK}, t["ana"]
    )
    assert attack.status_code == 201, attack.json()
    result = attack.json()["event"]["result"]
    assert result["verdict"] == "legal" and result["outcome"]["pending"]["defender"] == "Ben"
    assert "Ben's hand is Ben's own to show" in result["reason"]
    assert "holds no DEFENCE" not in result["reason"]
    assert "Ben" not in result["outcome"]["hand_sizes"]
    state = attack.json()["table"]["state"]
    assert state["position"]["pending"]["target_unit"] == PEAK
    assert state["position"]["factions"][1]["units"][0]["alive"] is True
    defended = event(
        t,
        "move",
        2,
        {
            "position": {
                "players": [
                    {"name": "Ana", "hand": []},
                    {"name": "Ben", "hand": [c("Defence", "ashen-peaks")], "hand_complete": False},
                ]
            },
            "move": {"action": "defend", "card": c("Defence", "ashen-peaks")},
        },
        t["ben"],
    )
    assert defended.status_code == 201, defended.json()
    assert defended.json()["event"]["result"]["code"] == "legal_defence"
    state = defended.json()["table"]["state"]
    assert state["position"]["pending"] is None and state["position"]["turn"] == "Ana"
    assert state["position"]["factions"][1]["units"][0] == {"name": "Peak Sentinel", "alive": True}


def test_a_defender_who_lets_the_attack_through_loses_the_unit(set_up):
    t = set_up
    event(t, "move", 1, {"position": hands([c("Attack", "amber-coast")]), "move": ATTACK}, t["ana"])
    through = event(
        t,
        "move",
        2,
        {
            "position": {
                "players": [
                    {"name": "Ana", "hand": []},
                    {"name": "Ben", "hand": [], "hand_complete": False},
                ]
            },
            "move": {"action": "pass"},
        },
        t["ben"],
    )
    assert through.status_code == 201, through.json()
    assert through.json()["event"]["result"]["code"] == "legal_let_through"
    state = through.json()["table"]["state"]
    # Peak Sentinel was Ben's last unit: Ana conquers Ashen Peaks and Ben is out.
    assert state["winner"] == "Ana" and state["eliminated"] == ["Ben"]


def test_a_defence_ben_does_not_claim_to_hold_whole_is_not_ruled_absent(set_up):
    """The defender's answer lists only the card played: a DEFENCE not listed of a hand not
    given whole needs information; the same DEFENCE missing from a hand given whole is
    illegal (its neighbour)."""
    t = set_up
    event(t, "move", 1, {"position": hands([c("Attack", "amber-coast")]), "move": ATTACK}, t["ana"])
    defend = {"action": "defend", "card": c("Defence", "ashen-peaks")}
    unknown = event(
        t,
        "move",
        2,
        {
            "position": {
                "players": [
                    {"name": "Ana", "hand": []},
                    {"name": "Ben", "hand": [], "hand_complete": False},
                ]
            },
            "move": defend,
        },
        t["ben"],
    ).json()["event"]["result"]
    assert (unknown["verdict"], unknown["code"]) == ("needs_information", "hand_not_given")
    known = event(t, "move", 2, {"position": hands([], []), "move": defend}, t["ben"]).json()[
        "event"
    ]["result"]
    assert (known["verdict"], known["code"]) == ("illegal", "defence_not_in_defender_hand")


def test_the_defenders_phone_answers_from_the_tables_page(set_up, client):
    """On the table's page every phone sees whom the table waits for; the defender's phone
    offers exactly its answers (a DEFENCE of each faction in play, or let it through), and
    its answer is the table's move."""
    t = set_up
    event(t, "move", 1, {"position": hands([c("Attack", "amber-coast")]), "move": ATTACK}, t["ana"])
    code = t["code"]
    client.cookies[f"seat_{code}"] = f"1:{t['ana']}"
    ana_page = html.unescape(re.sub(r"<[^>]+>", " ", client.get(f"/t/{code}").content.decode()))
    assert "Waiting for Ben (seat 2) to answer Ana's attack on Peak Sentinel" in ana_page
    assert "Block it with" not in ana_page
    # The host's phone answers only for a seat no phone holds: Ben's hand is Ben's to know.
    del client.cookies[f"seat_{code}"]
    client.cookies[f"host_{code}"] = t["host"]
    assert "Block it with" not in client.get(f"/t/{code}").content.decode()
    released = t["api"].delete(
        f"/api/tables/{code}/seats/2/claim/", HTTP_AUTHORIZATION=f"Bearer {t['host']}"
    )
    assert released.status_code == 200
    lost_phone = html.unescape(re.sub(r"<[^>]+>", " ", client.get(f"/t/{code}").content.decode()))
    assert "No phone holds Ben's seat: as the host, you answer for Ben." in lost_phone
    assert "Block it with Defence (Ashen Peaks)" in lost_phone
    del client.cookies[f"host_{code}"]
    t["ben"] = t["api"].post(f"/api/tables/{code}/seats/2/claim/").json()["seat_token"]
    client.cookies[f"seat_{code}"] = f"2:{t['ben']}"
    ben_html = client.get(f"/t/{code}").content.decode()
    ben_page = html.unescape(re.sub(r"<[^>]+>", " ", ben_html))
    assert "Your answer: Ana attacks your Peak Sentinel" in ben_page
    buttons = re.findall(r'name="answer" value="([^"]+)">([^<]+)<', ben_html)
    assert [html.unescape(label) for _, label in buttons] == [
        "Block it with Defence (Amber Coast)",
        "Block it with Defence (Ashen Peaks)",
        "Let it through: Peak Sentinel is defeated",
    ]
    version = read(t)["version"]
    answer = dict(buttons)
    value = next(v for v, label in answer.items() if "Ashen Peaks" in label)
    response = client.post(
        f"/t/{code}/form",
        {"answer": html.unescape(value), "seat": "2", "defender": "Ben", "version": str(version)},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    state = read(t)["state"]
    assert state["position"]["pending"] is None and state["moves"] == 2
    assert state["position"]["factions"][1]["units"][0]["alive"] is True


def test_the_last_unit_falls_conquest_elimination_winner_and_tally(set_up):
    t = set_up
    move = {
        "position": hands([c("Ambush", "amber-coast")], [c("Defence", "ashen-peaks")]),
        "move": AMBUSH,
    }
    response = event(t, "move", 1, move, t["ana"])
    assert response.status_code == 201, response.json()
    # The table's answer is the stateless ruling on the same position.
    stateless = post(
        t["api"],
        RULINGS,
        {
            # Ben's hand is his phone's: the table rules nothing from it (what Ana's phone says of
            # it is not taken).
            "position": {
                "factions": SETUP["factions"],
                "turn": "Ana",
                "players": [
                    {
                        "name": "Ana",
                        "hand": [c("Ambush", "amber-coast")],
                        "lost_turns": 0,
                        "faction": "amber-coast",
                        "hand_complete": True,
                    },
                    {
                        "name": "Ben",
                        "hand": [],
                        "lost_turns": 0,
                        "faction": "ashen-peaks",
                        "hand_complete": False,
                    },
                ],
            },
            "move": AMBUSH,
        },
    ).json()
    result = response.json()["event"]["result"]
    assert {k: v for k, v in result.items() if k not in ("id", "url")} == {
        k: v for k, v in stateless.items() if k not in ("id", "url")
    }
    state = response.json()["table"]["state"]
    assert [(f["name"], f["controller"]) for f in state["position"]["factions"]] == [
        ("amber-coast", "Ana"),
        ("ashen-peaks", "Ana"),
    ]
    assert state["conquests"] == [
        {"faction": "ashen-peaks", "name": "Ashen Peaks", "from": "Ben", "to": "Ana", "move": 1}
    ]
    assert state["eliminated"] == ["Ben"] and state["winner"] == "Ana"
    assert state["tally"] == {"Ana": 1, "Ben": 0}
    over = event(t, "move", 2, {"position": hands(), "move": {"action": "pass"}}, t["ben"])
    assert over.status_code == 400 and over.json()["code"] == "game_over"
    again = event(t, "new_game", None, {}, t["host"])
    assert again.status_code == 201
    state = again.json()["table"]["state"]
    assert state["position"] is None and state["tally"] == {"Ana": 1, "Ben": 0}


def test_sabotage_carries_the_lost_turn_to_the_next_turn(set_up):
    t = set_up
    sabotage = {"action": "play", "card": c("Sabotage", "amber-coast"), "target_player": "Ben"}
    assert (
        event(
            t,
            "move",
            1,
            {"position": hands([c("Sabotage", "amber-coast")]), "move": sabotage},
            t["ana"],
        ).status_code
        == 201
    )
    assert read(t)["state"]["position"]["players"][1]["lost_turns"] == 1
    ended = event(t, "move", 1, {"position": hands(), "move": {"action": "end_turn"}}, t["ana"])
    position = ended.json()["table"]["state"]["position"]
    assert position["turn"] == "Ben" and position["turn_lost"] is True
    assert position["players"][1]["lost_turns"] == 0
    # Ben's lost turn: a play is illegal (answered, nothing changes); passing lets it go by.
    before = read(t)["state"]
    illegal = event(
        t,
        "move",
        2,
        {
            "position": hands([], [c("Attack", "ashen-peaks")]),
            "move": {
                "action": "play",
                "card": c("Attack", "ashen-peaks"),
                "target_unit": {"faction": "amber-coast", "unit": "Tide Archer"},
            },
        },
        t["ben"],
    )
    assert illegal.status_code == 201
    assert illegal.json()["event"]["result"]["verdict"] == "illegal"
    assert illegal.json()["event"]["result"]["code"] == "turn_lost"
    assert illegal.json()["table"]["state"] == before
    passed = event(
        t,
        "move",
        2,
        {"position": hands([], [c("Attack", "ashen-peaks")]), "move": {"action": "pass"}},
        t["ben"],
    )
    position = passed.json()["table"]["state"]["position"]
    assert position["turn"] == "Ana" and position["turn_lost"] is False


def test_wrong_seat_stale_version_and_impossible_moves_change_nothing(set_up):
    t = set_up
    before = read(t)
    move = {"position": hands([c("Attack", "amber-coast")]), "move": ATTACK}
    assert event(t, "move", 1, move, t["ben"]).status_code == 403  # not Ben's seat
    assert event(t, "move", 2, move, t["ben"]).json()["code"] == "not_your_turn"
    stale = event(t, "move", 1, move, t["ana"], version=before["version"] - 1)
    assert stale.status_code == 409 and stale.json()["table"]["version"] == before["version"]
    saved = SavedResult.objects.count()
    # Six Attacks of one faction: it has five: a position that cannot exist.
    impossible = event(
        t,
        "move",
        1,
        {"position": hands([c("Attack", "amber-coast")] * 6), "move": ATTACK},
        t["ana"],
    )
    assert impossible.status_code == 400 and impossible.json()["code"] == "impossible_position"
    # What the table knows is not given again.
    known = event(t, "move", 1, {"position": {**hands(), "turn": "Ana"}, "move": ATTACK}, t["ana"])
    assert known.status_code == 400
    assert known.json()["errors"][0]["path"] == "body.position.turn"
    assert known.json()["errors"][0]["code"] == "table_knows"
    lost = {"players": [{"name": "Ana", "hand": [], "lost_turns": 0}, {"name": "Ben", "hand": []}]}
    assert (
        event(t, "move", 1, {"position": lost, "move": ATTACK}, t["ana"]).json()["errors"][0][
            "path"
        ]
        == "body.position.players[0].lost_turns"
    )
    after = read(t)
    assert after["version"] == before["version"] and after["state"] == before["state"]
    assert SavedResult.objects.count() == saved
    # The legal neighbour applies.
    assert event(t, "move", 1, move, t["ana"]).status_code == 201


def test_undo_restores_the_position_and_the_setup_waits_for_no_move(set_up):
    t = set_up
    before = read(t)["state"]
    assert (
        event(
            t,
            "move",
            1,
            {"position": hands([c("Ambush", "amber-coast")]), "move": AMBUSH},
            t["ana"],
        ).status_code
        == 201
    )
    assert event(t, "setup", 1, SETUP, t["ana"]).json()["code"] == "game_started"
    etag = t["api"].get(f"/api/tables/{t['code']}/")["ETag"]  # the undo names it
    undone = t["api"].delete(
        f"/api/tables/{t['code']}/events/last/",
        HTTP_AUTHORIZATION=f"Bearer {t['host']}",
        HTTP_IF_MATCH=etag,
    )
    assert undone.status_code == 200 and undone.json()["table"]["state"] == before


def test_the_tables_page_shows_the_standings(set_up, client):
    assert (
        event(
            set_up,
            "move",
            1,
            {"position": hands([c("Ambush", "amber-coast")]), "move": AMBUSH},
            set_up["ana"],
        ).status_code
        == 201
    )
    page = client.get(f"/t/{set_up['code']}").content.decode()
    words = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.unescape(page)))
    # Per player: factions, surviving units, lost turns, games won.
    assert "1 Ana Claimed Amber Coast, Ashen Peaks 5 0 1" in words
    assert "2 Ben (eliminated) Claimed none 0 0 0" in words
    assert "Ana wins." in words and "Ana took Ashen Peaks from Ben (move 1)" in words


def test_the_history_words_each_move(set_up, client):
    assert (
        event(
            set_up,
            "move",
            1,
            {"position": hands([c("Attack", "amber-coast")]), "move": AMBUSH},
            set_up["ana"],
        ).status_code
        == 201
    )
    assert (
        event(
            set_up,
            "move",
            1,
            {"position": hands([c("Ambush", "amber-coast")]), "move": AMBUSH},
            set_up["ana"],
        ).status_code
        == 201
    )
    page = html.unescape(client.get(f"/t/{set_up['code']}/live").content.decode())
    words = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))
    assert "The table was set up" in words
    assert "Ana's move: Illegal — " in words and "Nothing changed" in words
    assert "Ana's move: Legal. Ana ambushes" in words


def test_the_hosts_page_offers_the_next_game_once_there_is_a_winner(api, client):
    started = client.post("/t/", {"game": "factions", "players": "Ana\nBen"})
    code = started["Location"].rstrip("/").rsplit("/", 1)[1]
    t = {"code": code, "host": client.cookies[f"host_{code}"].value, "api": api}
    assert event(t, "setup", 1, SETUP, t["host"]).status_code == 201
    assert "Start the next game" not in client.get(f"/t/{code}").content.decode()
    assert (
        event(
            t,
            "move",
            1,
            {"position": hands([c("Ambush", "amber-coast")]), "move": AMBUSH},
            t["host"],
        ).status_code
        == 201
    )
    assert "Start the next game" in client.get(f"/t/{code}").content.decode()
    client.post(f"/t/{code}/host", {"action": "new_game"})
    state = read(t)["state"]
    assert state["position"] is None and state["tally"] == {"Ana": 1, "Ben": 0}
