"""A table's state after a series of events equals what the stateless endpoints give for the same
inputs (issue 25), for Academy Credits, Star Realms Academy and Factions (Star Trek: Missions:
tests/test_tables_replay.py). hypothesis draws random series of events, including refused ones
and host undos; each is sent to a table and worked out beside it from a plain history (a stack
of states, popped on undo) and the stateless endpoints, and after every event the table's state
is compared with that reference. Bounded to a few examples each (a few seconds)."""

import json

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from cards.models import Game
from common.requests import read_body
from games.factions import engine as factions_engine
from games.factions.rulings import RulingRequest, move_for_engine, reading

pytestmark = pytest.mark.django_db

SETTINGS = settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
PLAYERS = ["Ana", "Ben"]


def post(api, url, data, token=None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return api.post(url, data=json.dumps(data), content_type="application/json", **headers)


def new_table(api, game):
    table = post(api, "/api/tables/", {"game": game, "players": PLAYERS}).json()
    return table["code"], table["host_token"]


def send(api, code, host, kind, seat, body):
    version = api.get(f"/api/tables/{code}/").json()["version"]
    return post(
        api,
        f"/api/tables/{code}/events/",
        {"kind": kind, "seat": seat, "version": version, "body": body},
        host,
    )


def undo(api, code, host):
    # The undo names the version it read (its ETag in If-Match), like an event.
    etag = api.get(f"/api/tables/{code}/")["ETag"]
    return api.delete(
        f"/api/tables/{code}/events/last/", HTTP_AUTHORIZATION=f"Bearer {host}", HTTP_IF_MATCH=etag
    )


def state_of(api, code):
    return api.get(f"/api/tables/{code}/").json()["state"]


def without_link(body):
    return {key: value for key, value in body.items() if key not in ("id", "url")}


# --- Academy Credits ----------------------------------------------------------------------------

# Round ends (without credits: the table fills them): the last cadet standing, or a showdown.
ROUNDS = [
    {
        "players": [
            {"name": "Ana", "discards": [1, 4]},
            {"name": "Ben", "in_round": False, "discards": ["Lura Thok"]},
        ],
        "deck_count": 7,
    },
    {
        "players": [
            {"name": "Ana", "in_round": False, "discards": ["Lura Thok"]},
            {"name": "Ben", "discards": [1, 4]},
        ],
        "deck_count": 7,
    },
    {
        "players": [
            {"name": "Ana", "discards": ["Charles Vance", 1], "hand": 7},
            {"name": "Ben", "discards": [2], "hand": 5},
        ],
        "deck_count": 0,
    },
    {
        "players": [
            {"name": "Ana", "discards": [3], "hand": 6},
            {"name": "Ben", "discards": [1, "Charles Vance"], "hand": 8},
        ],
        "deck_count": 0,
    },
]
AC_EVENTS = st.lists(
    st.one_of(
        st.tuples(st.just("round"), st.integers(0, len(ROUNDS) - 1)),
        st.tuples(st.just("undo"), st.none()),
        st.tuples(st.just("new_match"), st.none()),
    ),
    min_size=1,
    max_size=10,
)


@SETTINGS
@given(series=AC_EVENTS)
def test_academy_credits_series_equal_the_stateless_round_scores(api, series):
    code, host = new_table(api, "academy-credits")
    start = {
        "credits": {"Ana": 0, "Ben": 0},
        "starter": None,
        "round": 0,
        "target": None,
        "match_winners": [],
    }
    history, now = [], start
    for kind, which in series:
        if kind == "undo":
            response = undo(api, code, host)
            assert response.status_code == (200 if history else 409)
            now = history.pop() if history else now
        elif kind == "new_match":
            assert send(api, code, host, "new_match", None, {}).status_code == 201
            history.append(now)
            now = start
        else:
            body = ROUNDS[which]
            response = send(api, code, host, "round", 1, body)
            if now["match_winners"]:
                assert response.status_code == 400 and response.json()["code"] == "match_over"
                continue
            stateless = post(
                api,
                "/api/games/academy-credits/score/",
                {
                    **body,
                    "players": [
                        {**player, "credits": now["credits"][player["name"]]}
                        for player in body["players"]
                    ],
                    **({"starter": now["starter"]} if now["starter"] else {}),
                },
            )
            event(f"round: {stateless.status_code}")
            if stateless.status_code != 200:
                assert response.status_code == stateless.status_code, response.json()
                continue
            assert response.status_code == 201, response.json()
            answer = stateless.json()
            assert without_link(response.json()["event"]["result"]) == without_link(answer)
            history.append(now)
            now = {
                "credits": {row["player"]: row["credits"] for row in answer["standings"]},
                "starter": answer["next_starter"],
                "round": now["round"] + 1,
                "target": answer["target"],
                "match_winners": answer["match_winners"],
            }
        state = state_of(api, code)
        assert {key: state[key] for key in now} == now


# --- Star Realms Academy ------------------------------------------------------------------------

# Cards whose values the rulebook gives (The Hive's primary is not known: needs information).
CARDS = [
    "Scout",
    "Scout",
    "Viper",
    "Imperial Frigate",
    "Imperial Frigate",
    "Survey Ship",
    "The Hive",
]
SHOP = ["Ram", "Corvette", "The Hive", "Barter World", "Survey Ship"]
turns = st.tuples(
    st.lists(st.sampled_from(CARDS), min_size=1, max_size=3),  # the hand
    st.permutations([0, 1, 2]),  # the order the cards of the hand are played in
    st.integers(0, 5),  # Combat on Health (0: no attack; 4 and 5: all the ships played give)
    st.integers(0, 3),  # 0: buy Ram
    st.integers(0, 9),  # 0: the turn does not end
)
SRA_EVENTS = st.lists(
    st.one_of(st.tuples(st.just("turn"), turns), st.tuples(st.just("undo"), st.none())),
    min_size=1,
    max_size=8,
)


def side(player):
    """A player as a board carries them from turn to turn (the reference's own reading)."""
    return {
        "name": player["name"],
        "health": player["health"],
        "coins": player["coins"],
        "bases": [{"card": base["card"], "damage": base["damage"]} for base in player["bases"]],
    }


@SETTINGS
@given(series=SRA_EVENTS)
def test_star_realms_academy_series_equal_the_stateless_turn_scores(api, series):
    code, host = new_table(api, "star-realms-academy")
    start = {
        "board": {
            "active": {"name": "Ana", "health": 15, "coins": 0, "bases": []},
            "opponent": {"name": "Ben", "health": 15, "coins": 1, "bases": []},
            "shop_row": [],
        },
        "winner": None,
    }
    history, now = [], start
    for kind, drawn in series:
        if kind == "undo":
            response = undo(api, code, host)
            assert response.status_code == (200 if history else 409)
            now = history.pop() if history else now
            continue
        hand, plays, combat, buy, ends = drawn
        actions = [{"action": "play", "card": hand[i]} for i in plays if i < len(hand)]
        if combat >= 4:
            combat = sum(
                {"Viper": 1, "Imperial Frigate": 2}.get(play["card"], 0) for play in actions
            )
        if combat:
            actions.append({"action": "attack", "target": "health", "amount": combat})
        if not buy:
            actions.append({"action": "buy", "card": "Ram"})
        if ends:
            actions.append({"action": "end_turn"})
        board = now["board"]
        shop = SHOP if not board["shop_row"] else board["shop_row"]
        body = {"active": {"hand": hand}, "shop_row": shop, "actions": actions}
        seat = PLAYERS.index(board["active"]["name"]) + 1
        response = send(api, code, host, "turn", seat, body)
        if now["winner"]:
            assert response.status_code == 400 and response.json()["code"] == "game_over"
            continue
        stateless = post(
            api,
            "/api/games/star-realms-academy/score/",
            {
                "active": {
                    **board["active"],
                    "bases": [{**b, "used": []} for b in board["active"]["bases"]],
                    "hand": hand,
                    "in_play": [],
                    "combat": 0,
                    "used": [],
                },
                "opponent": board["opponent"],
                "shop_row": shop,
                "actions": actions,
            },
        )
        if stateless.status_code != 200:
            event(f"turn refused: {stateless.json()['code']}")
            assert response.status_code == stateless.status_code
            continue
        answer = stateless.json()
        event(
            "turn: a winner"
            if answer["winner"]
            else f"turn: stopped ({answer['ruling']['code']})"
            if answer["stopped_at"] is not None
            else "turn: ends"
            if answer["turn_over"]
            else "turn: not over"
        )
        final = answer["final"]
        if answer["winner"]:
            after = {
                "board": {
                    "active": side(final["active"]),
                    "opponent": side(final["opponent"]),
                    "shop_row": final["shop_row"],
                },
                "winner": answer["winner"],
            }
        elif answer["stopped_at"] is not None:
            after = now  # answered, nothing changes
        elif not answer["turn_over"]:
            assert response.status_code == 400
            assert response.json()["code"] == "turn_not_over"
            continue
        else:
            after = {
                "board": {
                    "active": side(final["opponent"]),
                    "opponent": side(final["active"]),
                    "shop_row": final["shop_row"],
                },
                "winner": None,
            }
        assert response.status_code == 201, response.json()
        assert without_link(response.json()["event"]["result"]) == without_link(answer)
        history.append(now)
        now = after
        state = state_of(api, code)
        assert {"board": state["board"], "winner": state["winner"]} == now
        health = {
            now["board"]["active"]["name"]: now["board"]["active"]["health"],
            now["board"]["opponent"]["name"]: now["board"]["opponent"]["health"],
        }
        assert state["health"] == health


# --- Factions -----------------------------------------------------------------------------------

AMBER = ["Harbour Captain", "Tide Archer", "Dune Rider", "Net Caster", "Lighthouse Keeper"]
ASHEN = ["Peak Sentinel", "Ember Smith", "Cliff Runner", "Ash Seer", "Stone Drummer"]
FACTION_OF = {"Ana": "amber-coast", "Ben": "ashen-peaks"}
SETUP = {
    "factions": [
        {
            "name": "amber-coast",
            "controller": "Ana",
            "units": [{"name": n, "alive": n != "Dune Rider"} for n in AMBER],
        },
        {
            "name": "ashen-peaks",
            "controller": "Ben",
            "units": [{"name": n, "alive": n in ("Peak Sentinel", "Ember Smith")} for n in ASHEN],
        },
    ],
    "players": [
        {"name": "Ana", "faction": "amber-coast"},
        {"name": "Ben", "faction": "ashen-peaks"},
    ],
    "turn": "Ana",
}
ACTIONS = ["Attack", "Defence", "Doctor", "Sabotage", "Spy", "Ambush"]
UNITS = [("amber-coast", n) for n in AMBER] + [("ashen-peaks", n) for n in ASHEN]
moves = st.tuples(
    st.lists(st.sampled_from(ACTIONS), unique=True, max_size=3),  # Ana's hand (her own cards)
    st.lists(st.sampled_from(ACTIONS), unique=True, max_size=3),  # Ben's hand
    st.sampled_from(["play", "play", "play", "defend", "discard", "pass", "end_turn"]),
    st.integers(0, 2),  # the card the move names: the mover's first, second or third
    st.sampled_from(UNITS),  # its target unit (ATTACK, AMBUSH, DOCTOR)
)
FACTIONS_EVENTS = st.lists(
    st.one_of(st.tuples(st.just("move"), moves), st.tuples(st.just("undo"), st.none())),
    min_size=1,
    max_size=8,
)


def comparable(position):
    """What a table carries of a position, in a form that ignores list order and hands."""
    return {
        "factions": {
            f["name"]: (f["controller"], {u["name"]: u["alive"] for u in f["units"]})
            for f in position["factions"]
        },
        "lost_turns": {p["name"]: p.get("lost_turns") or 0 for p in position["players"]},
        "turn": position["turn"],
        "turn_lost": bool(position.get("turn_lost")),
        "pending": position.get("pending"),
    }


@SETTINGS
@given(series=FACTIONS_EVENTS)
def test_factions_series_equal_the_stateless_rulings_and_standings(api, series):
    game = Game.objects.get(slug="factions")
    code, host = new_table(api, "factions")
    assert send(api, code, host, "setup", 1, SETUP).status_code == 201
    position = state_of(api, code)["position"]
    history, now = [], (position, None)
    for kind, drawn in series:
        if kind == "undo":
            response = undo(api, code, host)
            if history:
                assert response.status_code == 200
                now = history.pop()
            else:  # the setup is undone: the table has no position; set it up again
                assert response.status_code == 200
                assert state_of(api, code)["position"] is None
                assert send(api, code, host, "setup", 1, SETUP).status_code == 201
            continue
        position, winner = now
        ana, ben, action, which, (faction, unit) = drawn
        hands = {
            "Ana": [{"card": c, "faction": "amber-coast"} for c in ana],
            "Ben": [{"card": c, "faction": "ashen-peaks"} for c in ben],
        }
        pending = position.get("pending")
        mover = position["turn"]
        if pending:
            mover = next(
                f["controller"]
                for f in position["factions"]
                if f["name"] == pending["target_unit"]["faction"]
            )
        held = [held["card"] for held in hands[mover]] or ["Attack"]
        card = held[which % len(held)]
        move = {"action": action}
        if action in ("play", "defend", "discard"):
            move["card"] = {"card": card, "faction": FACTION_OF[mover]}
        if action == "play" and card in ("Attack", "Ambush", "Doctor"):
            move["target_unit"] = {"faction": faction, "unit": unit}
        if action == "play" and card in ("Sabotage", "Spy"):
            move["target_player"] = "Ben" if mover == "Ana" else "Ana"
        body = {
            "position": {"players": [{"name": n, "hand": hands[n]} for n in PLAYERS]},
            "move": move,
        }
        response = send(api, code, host, "move", PLAYERS.index(mover) + 1, body)
        if winner:
            assert response.status_code == 400 and response.json()["code"] == "game_over"
            continue
        ruling_body = {
            "position": {
                "factions": position["factions"],
                "turn": position["turn"],
                # At the table only the mover's hand is given: every other is another phone's
                # (hand_complete false, FAC-R4's defender answering for itself).
                "players": [
                    {**p, "hand": hands[p["name"]], "hand_complete": True}
                    if p["name"] == mover
                    else {**p, "hand": [], "hand_complete": False}
                    for p in position["players"]
                ],
                **({"turn_lost": True} if position.get("turn_lost") else {}),
                **({"pending": pending} if pending else {}),
            },
            "move": move,
        }
        stateless = post(api, "/api/games/factions/rulings/", ruling_body)
        assert response.status_code == (
            201 if stateless.status_code == 200 else stateless.status_code
        ), response.json()
        if stateless.status_code != 200:
            event(f"move refused: {stateless.json()['code']}")
            continue
        answer = stateless.json()
        event(f"move: {answer['verdict']} {answer['code']}")
        assert without_link(response.json()["event"]["result"]) == without_link(answer)
        history.append(now)
        if answer["verdict"] == "legal":
            # The position after the move, from the engine itself (not from the outcome the
            # table applies): the same request read, the move played out.
            context = reading(game)
            request = read_body(RulingRequest, ruling_body, context=context)
            catalog = context["catalog"]
            applied = factions_engine.apply_move(
                catalog, request.position.for_engine(catalog), move_for_engine(request.move)
            )
            assert applied.position is not None
            after = factions_engine.position_body(applied.position)
            standings = post(
                api,
                "/api/games/factions/score/",
                {
                    "factions": after["factions"],
                    "turn": after.get("turn"),
                    "players": [{**p, "hand": []} for p in after["players"]],
                },
            ).json()
            now = (
                {
                    **after,
                    "turn_lost": after.get("turn_lost", False),
                    "pending": after.get("pending"),
                },
                standings["winner"],
            )
        state = state_of(api, code)
        assert comparable(state["position"]) == comparable(now[0])
        assert state["winner"] == now[1]
        if answer["verdict"] == "legal":
            assert state["standings"] == standings["standings"]
            assert state["eliminated"] == standings["eliminated"]
