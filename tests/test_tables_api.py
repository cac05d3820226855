"""The tables' API (issue 25, API.md "Tables"): a table is created with its players and a host
token, read by anyone (never a token) with an ETag and a 304 for an unchanged poll, a seat is
claimed once, and an event needs a token that can act for its seat and the version the client
read: a stale one is a 409 holding the current table and changes nothing. Star Trek: Missions:
each seat enters its own hand; once every seat has, the standings are exactly the whole-table
score's; a card in two hands across seats is refused naming both seats; the host's new_game adds
the winners to the tally; the host undoes the last event."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from results.models import SavedResult
from tables.models import Seat, Table
from tables.tokens import token_hash

pytestmark = pytest.mark.django_db

TOMALAK = [
    "Commander Tomalak",
    "Captain Jean-Luc Picard",
    "Commander William Riker",
    "Lieutenant Commander Data",
]  # 13
HOLODECK = ["Holodeck 1", "Leah Brahms"]  # 13
CONFRONTATION = ["Space Confrontation", "Daimon Bok", "Daimon Tog", "Vice Admiral Nakamura"]  # 12
ERROR_KEYS = {"status", "code", "detail", "errors"}


def post(api, url, data, token=None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return api.post(url, data=json.dumps(data), content_type="application/json", **headers)


def create(api, players=("Ana", "Ben", "Cy")) -> dict:
    response = post(api, "/api/tables/", {"game": "star-trek-missions", "players": list(players)})
    assert response.status_code == 201, response.json()
    return response.json()


def claim(api, code, seat) -> str:
    response = api.post(f"/api/tables/{code}/seats/{seat}/claim/")
    assert response.status_code == 201, response.json()
    return response.json()["seat_token"]


def read(api, code) -> dict:
    response = api.get(f"/api/tables/{code}/")
    assert response.status_code == 200
    return response.json()


def act(api, code, token, *, kind="hand", seat=1, version=None, body=None):
    if version is None:
        version = read(api, code)["version"]
    return post(
        api,
        f"/api/tables/{code}/events/",
        {"kind": kind, "seat": seat, "version": version, "body": body or {}},
        token,
    )


def hand(api, code, token, seat, cards, version=None):
    return act(api, code, token, seat=seat, version=version, body={"hand": cards})


def refused(response, status, code) -> dict:
    payload = response.json()
    assert response.status_code == status, payload
    assert ERROR_KEYS <= set(payload)
    assert (payload["status"], payload["code"]) == (status, code), payload
    assert payload["detail"]
    return payload


# --- Creating and reading -------------------------------------------------------------------------


def test_a_new_table_has_its_players_a_link_and_the_host_token_once(api):
    table = create(api)
    assert table["url"] == f"/t/{table['code']}"
    assert table["game"] == "star-trek-missions"
    assert table["players"] == [
        {"seat": 1, "name": "Ana", "claimed": False},
        {"seat": 2, "name": "Ben", "claimed": False},
        {"seat": 3, "name": "Cy", "claimed": False},
    ]
    assert table["events"] == []
    assert table["state"]["hands"] == [None, None, None]
    assert table["state"]["tally"] == {"Ana": 0, "Ben": 0, "Cy": 0}
    # 32 random bytes, stored only as a hash; a read never shows it.
    assert len(table["host_token"]) >= 43
    stored = Table.objects.get(code=table["code"])
    assert stored.host_token_hash == token_hash(table["host_token"])
    assert table["host_token"] not in json.dumps(read(api, table["code"]))
    assert "host_token" not in read(api, table["code"])


def test_two_tables_have_different_codes_and_tokens(api):
    first, second = create(api), create(api)
    assert first["code"] != second["code"]
    assert first["host_token"] != second["host_token"]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"game": "star-trek-missions", "players": ["Ana"]}, 400, "invalid_player_count"),
        ({"game": "star-trek-missions", "players": ["Ana", "ana"]}, 400, "invalid_input"),
        ({"game": "star-trek-missions", "players": ["Ana", ""]}, 400, "invalid_input"),
        ({"game": "star-trek-missions", "players": "Ana, Ben"}, 400, "invalid_input"),
        ({"game": "chess", "players": ["Ana", "Ben"]}, 400, "invalid_input"),
        (
            {"game": "star-realms-academy", "players": ["Ana", "Ben", "Cy"]},
            400,
            "invalid_player_count",
        ),
    ],
)
def test_a_table_that_cannot_be_started_is_refused_and_nothing_is_kept(api, body, status, code):
    refused(post(api, "/api/tables/", body), status, code)
    assert not Table.objects.exists()


def test_the_legal_neighbour_of_a_refused_table_starts(api):
    assert create(api, ["Ana", "Ben"])["players"][1]["name"] == "Ben"


def test_an_unknown_table_is_a_404(api):
    refused(api.get("/api/tables/nosuchtable/"), 404, "unknown_table")


def test_an_unchanged_poll_is_a_304_from_one_query(api):
    table = create(api)
    response = api.get(f"/api/tables/{table['code']}/")
    etag = response["ETag"]
    assert etag == '"v1"'
    with CaptureQueriesContext(connection) as queries:
        again = api.get(f"/api/tables/{table['code']}/", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert len(queries.captured_queries) == 1
    assert "code" in queries.captured_queries[0]["sql"]
    # Its neighbour: once the table changes, the old ETag gets the whole table again.
    claim(api, table["code"], 1)
    changed = api.get(f"/api/tables/{table['code']}/", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert changed["ETag"] == '"v2"'
    assert changed.json()["players"][0]["claimed"] is True


# --- Seats -----------------------------------------------------------------------------------------


def test_a_seat_is_claimed_once_and_the_host_may_release_it(api):
    table = create(api)
    code = table["code"]
    token = claim(api, code, 2)
    assert Seat.objects.get(table__code=code, number=2).token_hash == token_hash(token)
    refused(api.post(f"/api/tables/{code}/seats/2/claim/"), 409, "seat_claimed")
    refused(api.post(f"/api/tables/{code}/seats/4/claim/"), 404, "unknown_seat")
    # Only the host releases; then the seat is claimed anew and the old token no longer acts.
    refused(
        api.delete(f"/api/tables/{code}/seats/2/claim/", HTTP_AUTHORIZATION=f"Bearer {token}"),
        403,
        "host_only",
    )
    released = api.delete(
        f"/api/tables/{code}/seats/2/claim/", HTTP_AUTHORIZATION=f"Bearer {table['host_token']}"
    )
    assert released.status_code == 200
    new_token = claim(api, code, 2)
    refused(hand(api, code, token, 2, HOLODECK), 403, "not_your_seat")
    assert hand(api, code, new_token, 2, HOLODECK).status_code == 201


# --- Acting ----------------------------------------------------------------------------------------


def test_an_event_without_a_token_is_a_401_and_changes_nothing(api):
    table = create(api)
    refused(hand(api, table["code"], None, 1, TOMALAK), 401, "token_required")
    assert read(api, table["code"])["version"] == 1


def test_a_token_acts_for_its_own_seat_only(api):
    table = create(api)
    code = table["code"]
    ana = claim(api, code, 1)
    refused(hand(api, code, ana, 2, HOLODECK), 403, "not_your_seat")
    refused(hand(api, code, "not-a-token", 1, TOMALAK), 403, "not_your_seat")
    assert read(api, code)["state"]["hands"] == [None, None, None]
    assert hand(api, code, ana, 1, TOMALAK).status_code == 201


def test_the_host_acts_for_any_seat(api):
    table = create(api)
    response = hand(api, table["code"], table["host_token"], 3, CONFRONTATION)
    assert response.status_code == 201, response.json()
    assert response.json()["table"]["state"]["hands"] == [None, None, 12]
    assert response.json()["event"]["seat"] == 3


def test_another_seats_entry_since_the_version_read_does_not_conflict(api):
    table = create(api)
    code, host = table["code"], table["host_token"]
    version = read(api, code)["version"]
    assert hand(api, code, host, 1, TOMALAK, version=version).status_code == 201
    # Seat 2 read the table before seat 1's hand: its own hand is still recorded.
    second = hand(api, code, host, 2, HOLODECK, version=version)
    assert second.status_code == 201, second.json()
    assert second.json()["table"]["state"]["hands"] == [13, 13, None]
    # Applied to the version the table was at (one event per version, in the order applied).
    assert [e["version"] for e in read(api, code)["events"]] == [version, version + 1]


def test_the_same_seats_entry_changed_since_the_version_read_is_a_409_naming_it(api):
    table = create(api)
    code, host = table["code"], table["host_token"]
    version = read(api, code)["version"]
    first = hand(api, code, host, 1, TOMALAK, version=version)
    assert first.status_code == 201
    stale = hand(api, code, host, 1, HOLODECK, version=version)
    payload = refused(stale, 409, "version_conflict")
    assert payload["table"]["version"] == version + 1
    assert payload["table"]["state"]["hands"] == [13, None, None]
    assert [
        (e["path"], e["code"], e["event"], e["kind"], e["seat"], e["undone"])
        for e in payload["errors"]
    ] == [("version", "changed_since", 1, "hand", 1, False)]
    assert "Ana (seat 1) sent entry 1 (hand)" in payload["errors"][0]["detail"]
    assert read(api, code)["state"]["cards"][0] == [
        card["name"] for card in first.json()["event"]["result"]["cards"]
    ]
    # Its neighbour: the same entry on the version it now reads applies.
    again = hand(api, code, host, 1, HOLODECK, version=payload["table"]["version"])
    assert again.status_code == 201
    assert again.json()["table"]["state"]["hands"] == [13, None, None]
    assert again.json()["table"]["state"]["cards"][0] == ["Holodeck 1", "Leah Brahms"]


def test_a_seats_entry_without_a_version_goes_on_the_table_as_it_is(api):
    table = create(api)
    code, host = table["code"], table["host_token"]
    assert hand(api, code, host, 1, TOMALAK).status_code == 201
    response = post(
        api,
        f"/api/tables/{code}/events/",
        {"kind": "hand", "seat": 1, "body": {"hand": HOLODECK}},
        host,
    )
    assert response.status_code == 201, response.json()
    assert response.json()["table"]["state"]["cards"][0] == ["Holodeck 1", "Leah Brahms"]


def test_a_version_the_table_never_had_is_a_409(api):
    table = create(api)
    code, host = table["code"], table["host_token"]
    version = read(api, code)["version"]
    payload = refused(
        hand(api, code, host, 1, TOMALAK, version=version + 1), 409, "version_conflict"
    )
    assert payload["table"]["events"] == []
    assert hand(api, code, host, 1, TOMALAK, version=version).status_code == 201


def test_the_host_next_game_since_the_version_read_conflicts_with_a_hand(api):
    table = create(api, players=("Ana", "Ben"))
    code, host = table["code"], table["host_token"]
    assert hand(api, code, host, 1, TOMALAK).status_code == 201
    assert hand(api, code, host, 2, CONFRONTATION).status_code == 201
    read_before = read(api, code)["version"]
    assert act(api, code, host, kind="new_game", seat=None).status_code == 201
    payload = refused(
        hand(api, code, host, 2, HOLODECK, version=read_before), 409, "version_conflict"
    )
    assert [(e["kind"], e["seat"]) for e in payload["errors"]] == [("new_game", None)]
    assert payload["table"]["state"]["hands"] == [None, None]


def test_an_undo_since_the_version_read_conflicts_only_with_the_seat_it_took_back(api):
    table = create(api)
    code, host = table["code"], table["host_token"]
    assert hand(api, code, host, 1, TOMALAK).status_code == 201
    read_before = read(api, code)["version"]
    assert undo(api, code, host, version=read_before).status_code == 200  # seat 1's hand
    # Seat 2's entry decided before the undo: the undo took back no entry of seat 2's.
    assert hand(api, code, host, 2, HOLODECK, version=read_before).status_code == 201
    # Seat 1's, decided on the hand the undo took back: refused, naming the undo.
    payload = refused(
        hand(api, code, host, 1, CONFRONTATION, version=read_before), 409, "version_conflict"
    )
    assert [(e["event"], e["seat"], e["undone"]) for e in payload["errors"]] == [(1, 1, True)]
    assert "the host undid entry 1 (hand, Ana (seat 1))" in payload["errors"][0]["detail"]


def test_a_whole_table_event_is_not_refused_for_a_seat_claimed_since(api):
    table = create(api, players=("Ana", "Ben"))
    code, host = table["code"], table["host_token"]
    assert hand(api, code, host, 1, TOMALAK).status_code == 201
    assert hand(api, code, host, 2, CONFRONTATION).status_code == 201
    read_before = read(api, code)["version"]
    claim(api, code, 2)  # the version moves on; the game's state does not
    response = act(api, code, host, kind="new_game", seat=None, version=read_before)
    assert response.status_code == 201, response.json()
    # Its neighbour: a hand entered since the version read does conflict with the next game.
    assert hand(api, code, host, 1, HOLODECK).status_code == 201
    refused(
        act(api, code, host, kind="new_game", seat=None, version=read_before),
        409,
        "version_conflict",
    )


def test_an_entry_sent_again_with_its_key_is_recorded_once(api):
    table = create(api)
    code, host = table["code"], table["host_token"]
    event = {"kind": "hand", "seat": 2, "body": {"hand": HOLODECK}}

    def send(data):
        return api.post(
            f"/api/tables/{code}/events/",
            data=json.dumps(data),
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {host}",
            HTTP_IDEMPOTENCY_KEY="b7c1e0d2-entry",
        )

    first = send(event)
    assert first.status_code == 201 and "Idempotent-Replayed" not in first
    assert hand(api, code, host, 1, TOMALAK).status_code == 201
    again = send(event)
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert again.json()["event"] == first.json()["event"]
    assert [e["seat"] for e in read(api, code)["events"]] == [2, 1]
    # The same key with another entry is refused, never recorded.
    other = send({**event, "body": {"hand": CONFRONTATION}})
    payload = refused(other, 422, "idempotency_key_reused")
    assert payload["errors"][0]["event"] == 1
    assert len(read(api, code)["events"]) == 2


@pytest.mark.parametrize("key", ["x" * 101, "two words", "caf\u00e9"])
def test_a_malformed_entry_key_is_a_400(api, key):
    table = create(api)
    response = api.post(
        f"/api/tables/{table['code']}/events/",
        content_type="application/json",
        data=json.dumps({"kind": "hand", "seat": 1, "body": {"hand": TOMALAK}}),
        HTTP_AUTHORIZATION=f"Bearer {table['host_token']}",
        HTTP_IDEMPOTENCY_KEY=key,
    )
    assert refused(response, 400, "invalid_input")["errors"][0]["path"] == "Idempotency-Key"
    assert read(api, table["code"])["events"] == []


def test_a_whole_table_event_without_a_version_is_refused(api):
    table = create(api, players=("Ana", "Ben"))
    response = post(
        api,
        f"/api/tables/{table['code']}/events/",
        {"kind": "new_game", "seat": None, "body": {}},
        table["host_token"],
    )
    assert refused(response, 400, "invalid_input")["errors"][0]["path"] == "version"


def test_an_unknown_kind_is_refused_with_the_kinds(api):
    table = create(api)
    payload = refused(
        act(api, table["code"], table["host_token"], kind="turn"), 400, "invalid_input"
    )
    assert payload["errors"][0]["suggestions"] == ["hand", "new_game", "ruling"]


# --- Star Trek: Missions ---------------------------------------------------------------------------


def test_each_seat_enters_its_hand_and_the_standings_are_the_whole_table_score(api):
    table = create(api)
    code = table["code"]
    tokens = [claim(api, code, seat) for seat in (1, 2, 3)]
    entered = []
    for seat, cards in zip((1, 2, 3), (TOMALAK, HOLODECK, CONFRONTATION), strict=True):
        state = read(api, code)["state"]
        assert state["standings"] == [] and state["winners"] == []
        response = hand(api, code, tokens[seat - 1], seat, cards)
        assert response.status_code == 201, response.json()
        event = response.json()["event"]
        # The event's result is the game's own answer to that hand, saved with its permalink.
        assert event["result"]["total"] == [13, 13, 12][seat - 1]
        assert SavedResult.objects.filter(pk=event["result"]["id"]).exists()
        entered.append(event)
    state = read(api, code)["state"]
    assert state["hands"] == [13, 13, 12]
    whole = api.post(
        "/api/games/star-trek-missions/score/",
        data=json.dumps(
            {
                "players": [
                    {"name": "Ana", "hand": TOMALAK},
                    {"name": "Ben", "hand": HOLODECK},
                    {"name": "Cy", "hand": CONFRONTATION},
                ]
            }
        ),
        content_type="application/json",
    ).json()
    assert state["standings"] == whole["standings"]
    assert state["winners"] == whole["winners"] == ["Ana", "Ben"]
    assert state["table_result"]["url"] == f"/r/{state['table_result']['id']}"
    history = read(api, code)["events"]
    assert [(e["n"], e["kind"], e["seat"]) for e in history] == [
        (1, "hand", 1),
        (2, "hand", 2),
        (3, "hand", 3),
    ]


def test_a_card_in_another_seats_hand_is_refused_naming_both_seats(api):
    table = create(api)
    code, host = table["code"], table["host_token"]
    assert hand(api, code, host, 1, TOMALAK).status_code == 201
    results_before = SavedResult.objects.count()
    payload = refused(
        hand(api, code, host, 2, ["Leah Brahms", "Commander William Riker"]),
        400,
        "card_in_two_hands",
    )
    entry = payload["errors"][0]
    assert entry["card"] == "Commander William Riker"
    assert entry["seats"] == [1, 2] and entry["players"] == ["Ana", "Ben"]
    assert "Ana" in entry["detail"] and "Ben" in entry["detail"]
    # Nothing changed: no hand, no version, no saved result.
    after = read(api, code)
    assert after["state"]["hands"] == [13, None, None] and after["version"] == 2
    assert SavedResult.objects.count() == results_before
    # The same card again in the same seat is that seat correcting its own hand.
    assert hand(api, code, host, 1, TOMALAK).status_code == 201


def test_an_illegal_hand_is_the_score_services_400_and_changes_nothing(api):
    table = create(api)
    code, host = table["code"], table["host_token"]
    response = hand(api, code, host, 1, ["No Such Card"])
    assert response.status_code == 400
    assert read(api, code)["version"] == 1


def test_new_game_adds_the_winners_to_the_tally_and_is_the_hosts(api):
    table = create(api)
    code, host = table["code"], table["host_token"]
    ana = claim(api, code, 1)
    refused(act(api, code, host, kind="new_game", seat=None), 400, "game_not_finished")
    for seat, cards in zip((1, 2, 3), (TOMALAK, HOLODECK, CONFRONTATION), strict=True):
        assert hand(api, code, host, seat, cards).status_code == 201
    refused(act(api, code, ana, kind="new_game", seat=None), 403, "host_only")
    response = act(api, code, host, kind="new_game", seat=None)
    assert response.status_code == 201, response.json()
    state = response.json()["table"]["state"]
    assert state["tally"] == {"Ana": 1, "Ben": 1, "Cy": 0}
    assert state["game_number"] == 2
    assert state["hands"] == [None, None, None] and state["standings"] == []


def undo(api, code, token, version=None, **headers):
    if token:
        headers["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    if version is None:
        return api.delete(f"/api/tables/{code}/events/last/", **headers)
    return api.delete(
        f"/api/tables/{code}/events/last/",
        data=json.dumps({"version": version}),
        content_type="application/json",
        **headers,
    )


def test_the_host_undoes_the_last_event(api):
    table = create(api)
    code, host = table["code"], table["host_token"]
    ana = claim(api, code, 1)
    assert hand(api, code, host, 1, TOMALAK).status_code == 201
    assert hand(api, code, host, 2, HOLODECK).status_code == 201
    before = read(api, code)
    refused(undo(api, code, None, before["version"]), 401, "token_required")
    refused(undo(api, code, ana, before["version"]), 403, "host_only")
    response = undo(api, code, host, before["version"])
    assert response.status_code == 200
    after = response.json()["table"]
    assert after["state"]["hands"] == [13, None, None]
    assert [e["n"] for e in after["events"]] == [1]
    assert after["version"] == before["version"] + 1
    assert response["ETag"] == f'"v{after["version"]}"'
    # Ben's cards are free again: the hand undone no longer holds them.
    assert hand(api, code, host, 3, HOLODECK).status_code == 201
    assert undo(api, code, host, read(api, code)["version"]).status_code == 200
    # If-Match with the table's ETag names the version as well as the body does.
    etag = api.get(f"/api/tables/{code}/")["ETag"]
    assert undo(api, code, host, HTTP_IF_MATCH=etag).status_code == 200
    assert read(api, code)["state"]["hands"] == [None, None, None]
    refused(undo(api, code, host, read(api, code)["version"]), 409, "nothing_to_undo")


def test_an_undo_names_the_version_it_read(api):
    """The host's undo is decided on the history it saw: naming a version the table has left
    (another phone entered a hand meanwhile) is a 409 with the current table, and the entry the
    host never saw stays; no version at all is a 400."""
    table = create(api)
    code, host = table["code"], table["host_token"]
    assert hand(api, code, host, 1, TOMALAK).status_code == 201
    seen = read(api, code)["version"]
    assert hand(api, code, host, 2, HOLODECK).status_code == 201
    for response in (
        undo(api, code, host, seen),
        undo(api, code, host, HTTP_IF_MATCH=f'"v{seen}"'),
    ):
        refused(response, 409, "version_conflict")
        assert response.json()["table"]["state"]["hands"] == [13, 13, None]
        assert response.json()["table"]["version"] == seen + 1
    assert read(api, code)["state"]["hands"] == [13, 13, None]
    refused(undo(api, code, host), 400, "invalid_input")
    refused(undo(api, code, host, "7"), 400, "invalid_input")
    refused(undo(api, code, host, HTTP_IF_MATCH="*"), 400, "invalid_input")
    refused(undo(api, code, host, seen + 1, HTTP_IF_MATCH=f'"v{seen}"'), 400, "invalid_input")
    assert read(api, code)["version"] == seen + 1
    assert undo(api, code, host, seen + 1).status_code == 200
    assert read(api, code)["state"]["hands"] == [13, None, None]


def test_the_answers_a_table_links_are_kept_as_shared_results(api):
    """Issue 22's bound removes results nobody opened first: a table's history links its answers
    (each hand's, and the whole table's score), so they are marked opened when the event is."""
    table = create(api, players=("Ana", "Ben"))
    code = table["code"]
    tokens = [claim(api, code, seat) for seat in (1, 2)]
    first = hand(api, code, tokens[0], 1, TOMALAK).json()["event"]["result"]["id"]
    assert SavedResult.objects.get(pk=first).last_opened_at is not None
    hand(api, code, tokens[1], 2, HOLODECK)
    whole = read(api, code)["state"]["table_result"]["id"]
    assert SavedResult.objects.get(pk=whole).last_opened_at is not None
    # The neighbour: the same hand scored outside any table is saved but not marked opened.
    alone = api.post(
        "/api/games/star-trek-missions/score/",
        data=json.dumps({"hand": CONFRONTATION}),
        content_type="application/json",
    ).json()["id"]
    assert SavedResult.objects.get(pk=alone).last_opened_at is None
