"""A Star Realms Academy table (issue 25, API.md "Tables"): each `turn` event is the turn's score
body without what the table knows; the turn's `final` becomes the board with the roles swapped,
both Health totals carried from turn to turn, until one reaches 0. Each rule of the contract for
this game: the wrong seat, a stale version, an illegal or impossible turn refused or answered
with nothing changed, and undo restoring the board."""

import html
import json
import re

import pytest

from results.models import SavedResult
from tables.models import Table

pytestmark = pytest.mark.django_db

SCORE = "/api/games/star-realms-academy/score/"
SHOP = ["Freighter", "Corvette", "The Hive", "Barter World", "Survey Ship"]
# Ana's turn: Viper (1 Combat) and Imperial Frigate (2 Combat), all on Ben's Health.
ANA_HITS = {
    "active": {"hand": ["Viper", "Imperial Frigate", "Scout"]},
    "shop_row": SHOP,
    "actions": [
        {"action": "play", "card": "Viper"},
        {"action": "play", "card": "Imperial Frigate"},
        {"action": "attack", "target": "health", "amount": 3},
        {"action": "end_turn"},
    ],
}
# Ben's turn: two Scouts (2 Coins on top of the 1 he starts with), nothing else.
BEN_SCOUTS = {
    "active": {"hand": ["Scout", "Scout", "Scout"]},
    "actions": [
        {"action": "play", "card": "Scout"},
        {"action": "play", "card": "Scout"},
        {"action": "end_turn"},
    ],
}


def post(api, url, data, token=None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return api.post(url, data=json.dumps(data), content_type="application/json", **headers)


@pytest.fixture
def table(api):
    created = post(
        api, "/api/tables/", {"game": "star-realms-academy", "players": ["Ana", "Ben"]}
    ).json()
    code = created["code"]
    ana = post(api, f"/api/tables/{code}/seats/1/claim/", {}).json()["seat_token"]
    ben = post(api, f"/api/tables/{code}/seats/2/claim/", {}).json()["seat_token"]
    return {"code": code, "host": created["host_token"], "ana": ana, "ben": ben, "api": api}


def read(t) -> dict:
    return t["api"].get(f"/api/tables/{t['code']}/").json()


def turn(t, seat, body, token, version=None):
    version = read(t)["version"] if version is None else version
    return post(
        t["api"],
        f"/api/tables/{t['code']}/events/",
        {"kind": "turn", "seat": seat, "version": version, "body": body},
        token,
    )


def test_a_new_table_starts_both_players_at_15_health_and_the_second_with_a_coin(table):
    state = read(table)["state"]
    assert state["health"] == {"Ana": 15, "Ben": 15}
    assert state["board"]["active"] == {"name": "Ana", "health": 15, "coins": 0, "bases": []}
    assert state["board"]["opponent"] == {"name": "Ben", "health": 15, "coins": 1, "bases": []}
    assert state["winner"] is None and state["turn"] == 1


def test_a_turn_is_the_stateless_turn_score_and_its_final_is_the_next_board(table):
    api = table["api"]
    response = turn(table, 1, ANA_HITS, table["ana"])
    assert response.status_code == 201, response.json()
    payload = response.json()
    # The same turn through the stateless endpoint, with what the table filled in.
    stateless = post(
        api,
        SCORE,
        {
            "active": {
                "name": "Ana",
                "health": 15,
                "coins": 0,
                "bases": [],
                "in_play": [],
                "combat": 0,
                "used": [],
                "hand": ["Viper", "Imperial Frigate", "Scout"],
            },
            "opponent": {"name": "Ben", "health": 15, "coins": 1, "bases": []},
            "shop_row": SHOP,
            "actions": ANA_HITS["actions"],
        },
    ).json()
    result = payload["event"]["result"]
    assert {k: v for k, v in result.items() if k not in ("id", "url")} == {
        k: v for k, v in stateless.items() if k not in ("id", "url")
    }
    assert result["total"] == 3
    final = stateless["final"]
    state = payload["table"]["state"]
    # Roles swapped: Ben plays next, with his Health and Coin; Ana as his opponent.
    assert state["board"]["active"] == {"name": "Ben", "health": 12, "coins": 1, "bases": []}
    assert state["board"]["opponent"] == {
        "name": "Ana",
        "health": 15,
        "coins": final["active"]["coins"],
        "bases": [],
    }
    assert state["board"]["shop_row"] == final["shop_row"] == SHOP
    assert state["health"] == {"Ana": 15, "Ben": 12} and state["turn"] == 2
    # How many cards Ana kept is seen; which ones is hers alone (issue 29).
    assert state["kept"]["Ana"] == len(final["active"]["hand"]) and "sealed" not in state
    # Ben's turn carries on from there: the shop row is the table's when the body leaves it out.
    second = turn(table, 2, BEN_SCOUTS, table["ben"])
    assert second.status_code == 201, second.json()
    state = second.json()["table"]["state"]
    assert state["board"]["active"]["name"] == "Ana"
    assert state["board"]["opponent"] == {"name": "Ben", "health": 12, "coins": 3, "bases": []}
    assert second.json()["event"]["result"]["start"]["coins"] == 1


def test_only_the_active_players_seat_sends_the_turn(table):
    before = read(table)
    # Ben's token cannot act for Ana's seat: 403.
    assert turn(table, 1, ANA_HITS, table["ben"]).json()["code"] == "not_your_seat"
    # Ben's own seat, but it is Ana's turn: 400, nothing changed.
    wrong = turn(table, 2, ANA_HITS, table["ben"])
    assert wrong.status_code == 400 and wrong.json()["code"] == "not_your_turn"
    assert "Ana's turn" in wrong.json()["detail"]
    # No token at all: 401.
    assert turn(table, 1, ANA_HITS, None).status_code == 401
    after = read(table)
    assert after["version"] == before["version"] and after["state"] == before["state"]
    # The legal neighbour: the host may act for Ana's seat.
    assert turn(table, 1, ANA_HITS, table["host"]).status_code == 201


def test_a_stale_version_is_refused_with_the_current_table(table):
    version = read(table)["version"]
    assert turn(table, 1, ANA_HITS, table["ana"], version).status_code == 201
    stale = turn(table, 2, BEN_SCOUTS, table["ben"], version)
    assert stale.status_code == 409 and stale.json()["code"] == "version_conflict"
    assert stale.json()["table"]["state"]["board"]["active"]["name"] == "Ben"
    assert stale.json()["table"]["version"] == version + 1
    assert len(read(table)["events"]) == 1


def test_an_illegal_action_is_answered_and_the_board_does_not_move(table):
    before = read(table)["state"]
    too_much = {
        **ANA_HITS,
        "actions": [
            {"action": "play", "card": "Viper"},
            {"action": "attack", "target": "health", "amount": 3},
            {"action": "end_turn"},
        ],
    }
    response = turn(table, 1, too_much, table["ana"])
    assert response.status_code == 201
    result = response.json()["event"]["result"]
    assert result["stopped_at"] == 1 and result["ruling"]["verdict"] == "illegal"
    assert response.json()["table"]["state"] == before
    # Its legal neighbour (the Combat the pool holds) moves the board.
    enough = {
        **too_much,
        "actions": [
            {"action": "play", "card": "Viper"},
            {"action": "attack", "target": "health", "amount": 1},
            {"action": "end_turn"},
        ],
    }
    moved = turn(table, 1, enough, table["ana"]).json()["table"]["state"]
    assert moved["health"] == {"Ana": 15, "Ben": 14}


def test_an_impossible_turn_and_a_turn_that_does_not_end_change_nothing(table):
    before = read(table)
    saved = SavedResult.objects.count()
    # Three Vipers: each deck holds one (the game two): a position that cannot exist.
    impossible = turn(
        table, 1, {**ANA_HITS, "active": {"hand": ["Viper", "Viper", "Viper"]}}, table["ana"]
    )
    assert impossible.status_code == 400, impossible.json()
    assert impossible.json()["code"] == "impossible_position"
    unended = turn(table, 1, {**ANA_HITS, "actions": ANA_HITS["actions"][:-1]}, table["ana"])
    assert unended.status_code == 400 and unended.json()["code"] == "turn_not_over"
    after = read(table)
    assert after["version"] == before["version"] and after["state"] == before["state"]
    assert SavedResult.objects.count() == saved  # the refused turns' answers rolled back too


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({**ANA_HITS, "opponent": {"health": 15}}, "body.opponent"),
        ({**ANA_HITS, "active": {"hand": ["Viper"], "health": 15}}, "body.active.health"),
        ({**ANA_HITS, "active": {"hand": ["Viper"], "bases": []}}, "body.active.bases"),
    ],
)
def test_what_the_table_knows_is_not_given_again(table, body, path):
    response = turn(table, 1, body, table["ana"])
    assert response.status_code == 400
    assert response.json()["errors"][0] == {
        **response.json()["errors"][0],
        "path": path,
        "code": "table_knows",
    }


def test_undo_restores_the_board(table):
    before = read(table)["state"]
    assert turn(table, 1, ANA_HITS, table["ana"]).status_code == 201
    etag = table["api"].get(f"/api/tables/{table['code']}/")["ETag"]  # the undo names it
    undone = table["api"].delete(
        f"/api/tables/{table['code']}/events/last/",
        HTTP_AUTHORIZATION=f"Bearer {table['host']}",
        HTTP_IF_MATCH=etag,
    )
    assert undone.status_code == 200
    assert undone.json()["table"]["state"] == before
    # A seat cannot undo.
    assert (
        table["api"]
        .delete(
            f"/api/tables/{table['code']}/events/last/",
            HTTP_AUTHORIZATION=f"Bearer {table['ana']}",
            HTTP_IF_MATCH=etag,
        )
        .status_code
        == 403
    )


def test_played_to_zero_health_the_winner_is_kept_and_the_host_starts_again(table):
    frigates = {
        "active": {"hand": ["Viper", "Imperial Frigate", "Imperial Frigate"]},
        "shop_row": SHOP,
        "actions": [
            {"action": "play", "card": "Viper"},
            {"action": "play", "card": "Imperial Frigate"},
            {"action": "play", "card": "Imperial Frigate"},
            {"action": "attack", "target": "health", "amount": 5},
            {"action": "end_turn"},
        ],
    }
    for _ in range(2):
        assert turn(table, 1, frigates, table["ana"]).status_code == 201
        assert turn(table, 2, BEN_SCOUTS, table["ben"]).status_code == 201
    last = turn(table, 1, {**frigates, "actions": frigates["actions"][:-1]}, table["ana"])
    assert last.status_code == 201, last.json()
    state = last.json()["table"]["state"]
    assert state["winner"] == "Ana" and state["health"] == {"Ana": 15, "Ben": 0}
    assert state["tally"] == {"Ana": 1, "Ben": 0}
    over = turn(table, 2, BEN_SCOUTS, table["ben"])
    assert over.status_code == 400 and over.json()["code"] == "game_over"
    # Only the host starts the next game; the tally stays.
    version = read(table)["version"]
    assert (
        post(
            table["api"],
            f"/api/tables/{table['code']}/events/",
            {"kind": "new_game", "seat": None, "version": version},
            table["ana"],
        ).status_code
        == 403
    )
    again = post(
        table["api"],
        f"/api/tables/{table['code']}/events/",
        {"kind": "new_game", "seat": None, "version": version},
        table["host"],
    )
    assert again.status_code == 201
    state = again.json()["table"]["state"]
    assert state["health"] == {"Ana": 15, "Ben": 15} and state["winner"] is None
    assert state["tally"] == {"Ana": 1, "Ben": 0} and state["game_number"] == 2


def test_the_next_game_waits_for_a_winner(table):
    response = post(
        table["api"],
        f"/api/tables/{table['code']}/events/",
        {"kind": "new_game", "seat": None, "version": read(table)["version"]},
        table["host"],
    )
    assert response.status_code == 400 and response.json()["code"] == "game_not_finished"


def test_the_tables_page_shows_both_health_totals(table, client):
    assert turn(table, 1, ANA_HITS, table["ana"]).status_code == 201
    page = client.get(f"/t/{table['code']}").content.decode()
    assert "15 of 15" in page and "12 of 15" in page and 'Ben <span class="hint">(to play)' in page
    assert Table.objects.get(code=table["code"]).state["health"] == {"Ana": 15, "Ben": 12}


def test_the_history_words_each_turn(table, client):
    assert turn(table, 1, ANA_HITS, table["ana"]).status_code == 201
    illegal = {
        **BEN_SCOUTS,
        "actions": [{"action": "attack", "target": "health", "amount": 2}, {"action": "end_turn"}],
    }
    assert turn(table, 2, illegal, table["ben"]).status_code == 201
    page = html.unescape(client.get(f"/t/{table['code']}/live").content.decode())
    words = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))
    assert "Ana's turn: 3 Health off Ben (12 left)" in words
    assert "Ben's turn did not go as told: action 1 — " in words and "Nothing changed" in words


def test_deck_and_discard_pile_counts_once_given_carry_to_the_players_next_turn(table):
    """SRA-11: at the end of a turn the ships in play go to the discard pile and three cards are
    drawn from the deck (the discard pile shuffled in when it runs out). Counts given with a turn
    carry, from the turn's final, to that player's next turn, as Health does."""
    api = table["api"]
    # Ana starts with 6 cards, 3 in hand (SRA setup): 3 in the deck, none discarded.
    first = {**ANA_HITS, "active": {**ANA_HITS["active"], "deck": 3, "discard_pile": 0}}
    response = turn(table, 1, first, table["ana"])
    assert response.status_code == 201, response.json()
    final = response.json()["event"]["result"]["final"]
    # Two ships played go to the discard pile; three drawn empty the deck of 3.
    assert (final["active"]["deck"], final["active"]["discard_pile"]) == (0, 2)
    assert response.json()["table"]["state"]["counts"] == {
        "Ana": {"deck": 0, "discard_pile": 2},
        "Ben": {},
    }
    # Ben counts nothing; Ana's pile is his opponent's and stays as it is.
    assert turn(table, 2, BEN_SCOUTS, table["ben"]).status_code == 201
    state = read(table)["state"]
    assert state["counts"] == {"Ana": {"deck": 0, "discard_pile": 2}, "Ben": {}}
    # Ana's next turn, sent without counts, is scored with the table's: the same as the
    # stateless score given them.
    body = {
        "active": {"hand": ["Scout", "Scout", "Scout"]},
        "actions": [{"action": "play", "card": "Scout"}, {"action": "end_turn"}],
    }
    response = turn(table, 1, body, table["ana"])
    assert response.status_code == 201, response.json()
    board = state["board"]
    stateless = post(
        api,
        SCORE,
        {
            "active": {
                **board["active"],
                "in_play": [],
                "combat": 0,
                "used": [],
                "hand": body["active"]["hand"],
                "deck": 0,
                "discard_pile": 2,
            },
            "opponent": board["opponent"],
            "shop_row": board["shop_row"],
            "actions": body["actions"],
        },
    ).json()
    result = response.json()["event"]["result"]
    assert {k: v for k, v in result.items() if k not in ("id", "url")} == {
        k: v for k, v in stateless.items() if k not in ("id", "url")
    }
    # The deck was empty: the discard pile (2, and the Scout played: 3) became the deck, three
    # drawn from it.
    assert (result["final"]["active"]["deck"], result["final"]["active"]["discard_pile"]) == (0, 0)
    assert read(table)["state"]["counts"]["Ana"] == {"deck": 0, "discard_pile": 0}


def test_the_turn_page_at_the_table_opens_with_the_counts_the_table_carries(table):
    from games.star_realms_academy.table_state import job_request_body

    first = {**ANA_HITS, "active": {**ANA_HITS["active"], "deck": 3, "discard_pile": 0}}
    assert turn(table, 1, first, table["ana"]).status_code == 201
    assert turn(table, 2, BEN_SCOUTS, table["ben"]).status_code == 201
    state = read(table)["state"]
    body = job_request_body(state, ["Ana", "Ben"], "score")
    assert (body["active"]["deck"], body["active"]["discard_pile"]) == (0, 2)
    assert "deck" not in body["opponent"]


def test_the_tables_page_shows_the_counts_it_carries(table, client):
    first = {**ANA_HITS, "active": {**ANA_HITS["active"], "deck": 3, "discard_pile": 0}}
    assert turn(table, 1, first, table["ana"]).status_code == 201
    page = client.get(f"/t/{table['code']}")
    words = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page.content.decode())))
    assert "Ana: 0 cards in the deck, 2 in the discard pile." in words
    assert "Ben:" not in words.split("Shop row")[1].split("History")[0]  # nobody counted his


# --- Issue 32: the table states only what the position fixes (SRA-R9 to SRA-R11) ------------------

KEPT_ALL = ["Scout", "Scout", "Scout", "Scout", "Scout", "Viper"]  # every starting card in hand


def ana_ends_holding_every_card(table, **counts):
    body = {
        "active": {"hand": list(KEPT_ALL), **counts},
        "shop_row": SHOP,
        "actions": [{"action": "end_turn"}],
    }
    response = turn(table, 1, body, table["ana"])
    assert response.status_code == 201, response.json()
    return response.json()


def test_at_a_table_without_counts_the_end_of_turn_draws_up_to_three(table):
    payload = ana_ends_holding_every_card(table)
    result = payload["event"]["result"]
    assert result["stopped_at"] is None and result["turn_over"] is True
    ended = result["steps"][-1]
    assert ended["draws"] == {"at_least": 0, "at_most": 3}
    assert "Ana draws up to 3 cards" in ended["detail"]
    state = payload["table"]["state"]
    assert state["turn"] == 2 and state["counts"]["Ana"] == {}  # nothing counted to carry


def test_at_a_table_the_counts_once_carried_fix_the_draw(table):
    payload = ana_ends_holding_every_card(table, deck=0, discard_pile=0)
    assert payload["event"]["result"]["steps"][-1]["draws"] == 0
    assert payload["table"]["state"]["counts"]["Ana"] == {"deck": 0, "discard_pile": 0}
    assert turn(table, 2, BEN_SCOUTS, table["ben"]).status_code == 201
    # Ana's next turn gives no counts: the table's fix the draw (none).
    again = turn(
        table,
        1,
        {"active": {"hand": list(KEPT_ALL)}, "actions": [{"action": "end_turn"}]},
        table["ana"],
    )
    assert again.status_code == 201, again.json()
    step = again.json()["event"]["result"]["steps"][-1]
    assert step["draws"] == 0 and "Ana draws 0 cards" in step["detail"]


def test_at_a_table_a_second_buy_from_a_space_refilled_unnamed_changes_nothing(table):
    row = ["Recycling Station", "Federation Shuttle", "Trade Escort", "Ram", "Corvette"]
    before = read(table)

    def buys(first):
        return {
            "active": {"hand": ["Scout", "Scout", "Viper"]},
            "shop_row": row,
            "actions": [
                {"action": "play", "card": "Scout"},
                {"action": "play", "card": "Scout"},
                first,
                {"action": "buy", "card": "Ram"},
                {"action": "end_turn"},
            ],
        }

    unnamed = turn(table, 1, buys({"action": "buy", "card": "Ram"}), table["ana"])
    assert unnamed.status_code == 201, unnamed.json()
    result = unnamed.json()["event"]["result"]
    assert result["stopped_at"] == 3
    assert (result["ruling"]["verdict"], result["ruling"]["code"]) == (
        "needs_information",
        "refill_not_named",
    )
    assert [m["path"] for m in result["ruling"]["missing"]] == ["actions[2].refill"]
    assert unnamed.json()["table"]["state"]["board"] == before["state"]["board"]
    # Its neighbour: the refill named, the turn happens and the table carries it.
    named = turn(table, 1, buys({"action": "buy", "card": "Ram", "refill": "Ram"}), table["ana"])
    assert named.status_code == 201, named.json()
    state = named.json()["table"]["state"]
    assert state["turn"] == 2 and state["board"]["active"]["name"] == "Ben"
    assert state["board"]["shop_row"] == [
        "Recycling Station",
        "Federation Shuttle",
        "Trade Escort",
        "Corvette",
    ]


def test_at_a_table_combat_beyond_a_bases_defense_goes_on_to_health(table):
    assert (
        turn(
            table,
            1,
            {
                "active": {"hand": ["Scout", "Scout", "Scout"]},
                "shop_row": SHOP,
                "actions": [{"action": "end_turn"}],
            },
            table["ana"],
        ).status_code
        == 201
    )
    hive = turn(
        table,
        2,
        {
            "active": {"hand": ["The Hive", "Scout", "Scout"]},
            "actions": [{"action": "play", "card": "The Hive"}, {"action": "end_turn"}],
        },
        table["ben"],
    )
    assert hive.status_code == 201, hive.json()
    assert hive.json()["table"]["state"]["board"]["opponent"]["bases"] == [
        {"card": "The Hive", "damage": 0}
    ]
    attack = turn(
        table,
        1,
        {
            "active": {"hand": ["Viper", "Imperial Frigate", "Scout"]},
            "actions": [
                {"action": "play", "card": "Viper"},
                {"action": "play", "card": "Imperial Frigate"},
                {"action": "attack", "target": "The Hive", "amount": 2},
                {"action": "attack", "target": "health", "amount": 2},
                {"action": "end_turn"},
            ],
        },
        table["ana"],
    )
    assert attack.status_code == 201, attack.json()
    result = attack.json()["event"]["result"]
    assert result["stopped_at"] is None
    assert [s["combat"] for s in result["steps"][:4]] == [1, 3, 2, 0]
    assert any("SRA-R11" in w for w in result["steps"][2]["warnings"])
    state = attack.json()["table"]["state"]
    assert state["health"] == {"Ana": 15, "Ben": 13}
    assert state["board"]["active"]["bases"] == []  # The Hive fell, to Ben's discard pile
