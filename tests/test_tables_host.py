"""The host role handed to a seat (POST /api/tables/{code}/host/, the host's form on /t/<code>),
and the host's seat picker on a game's page asked at the table (/t/<code>/ask/…).

Handover: only the host's token hands the role over, to a claimed seat, naming the version it
read (stale: 409 with the current table, nothing changed); the seat's own token is the host's from
then on, the old host token acts no more; it is in the history and the undo passes over it; the
seat holding the role cannot be released. Seat picker: the host's page offers every seat (by
default the seat the game says acts now), a seat's phone none; the posted seat is checked as the
API checks it (a seat's phone naming another seat is refused, nothing changed). On SQLite here;
the same tests run on PostgreSQL (scripts/with-postgres)."""

import html as html_lib
import json
import re

import pytest
from django.http import QueryDict
from django.test import Client

from games.star_trek_missions.turn_pages import turn_link_pairs
from tables.models import Table

pytestmark = pytest.mark.django_db

ERROR_KEYS = {"status", "code", "detail", "errors"}
HAND = [
    "Commander Tomalak",
    "Captain Jean-Luc Picard",
    "Commander William Riker",
    "Lieutenant Commander Data",
]


def post(api, url, data, token=None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return api.post(url, data=json.dumps(data), content_type="application/json", **headers)


def read(api, code) -> dict:
    response = api.get(f"/api/tables/{code}/")
    assert response.status_code == 200
    return response.json()


def refused(response, status, code) -> dict:
    payload = response.json()
    assert response.status_code == status, payload
    assert ERROR_KEYS <= set(payload)
    assert (payload["status"], payload["code"]) == (status, code), payload
    assert payload["detail"]
    return payload


@pytest.fixture
def table(api):
    """A Star Trek: Missions table of three, seats 1 and 2 claimed: (code, host token, seat
    tokens by seat)."""
    made = post(
        api, "/api/tables/", {"game": "star-trek-missions", "players": ["Ana", "Ben", "Cy"]}
    ).json()
    tokens = {
        seat: api.post(f"/api/tables/{made['code']}/seats/{seat}/claim/").json()["seat_token"]
        for seat in (1, 2)
    }
    return made["code"], made["host_token"], tokens


def handover(api, code, token, seat, version=None):
    if version is None:
        version = read(api, code)["version"]
    return post(api, f"/api/tables/{code}/host/", {"seat": seat, "version": version}, token)


def unchanged(api, code, before: dict) -> None:
    after = read(api, code)
    assert (after["version"], after["host_seat"], after["events"]) == (
        before["version"],
        before["host_seat"],
        before["events"],
    )


# --- The API ---------------------------------------------------------------------------------------


def test_the_host_hands_the_role_to_a_seat_whose_token_is_the_hosts_from_then_on(api, table):
    code, host, seats = table
    before = read(api, code)
    assert before["host_seat"] is None
    response = handover(api, code, host, 2)
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["event"] == {"n": 1, "kind": "handover", "seat": 2, "result": None}
    assert response["ETag"] == f'"v{before["version"] + 1}"'
    assert body["table"]["host_seat"] == 2 and body["table"]["version"] == before["version"] + 1
    assert [(e["kind"], e["seat"], e["by_host"]) for e in body["table"]["events"]] == [
        ("handover", 2, True)
    ]
    assert "host_token" not in body["table"] and "token" not in json.dumps(body["table"])

    # The old host token acts no more: not for the whole table, not for a seat.
    version = body["table"]["version"]
    refused(
        post(
            api,
            f"/api/tables/{code}/events/",
            {"kind": "hand", "seat": 3, "version": version, "body": {"hand": HAND}},
            host,
        ),
        403,
        "not_your_seat",
    )
    refused(
        api.delete(f"/api/tables/{code}/seats/1/claim/", HTTP_AUTHORIZATION=f"Bearer {host}"),
        403,
        "host_only",
    )
    # Seat 2's token acts for any seat as the host, and for its own seat as that seat.
    for_cy = post(
        api,
        f"/api/tables/{code}/events/",
        {"kind": "hand", "seat": 3, "version": version, "body": {"hand": HAND}},
        seats[2],
    )
    assert for_cy.status_code == 201, for_cy.json()
    own = post(
        api,
        f"/api/tables/{code}/events/",
        {
            "kind": "hand",
            "seat": 2,
            "version": version + 1,
            "body": {"hand": ["Holodeck 1", "Leah Brahms"]},
        },
        seats[2],
    )
    assert own.status_code == 201, own.json()
    assert [(e["kind"], e["seat"], e["by_host"]) for e in own.json()["table"]["events"]] == [
        ("handover", 2, True),
        ("hand", 3, True),
        ("hand", 2, False),
    ]
    # The other seats still act for their own seats, and only theirs.
    ana = post(
        api,
        f"/api/tables/{code}/events/",
        {
            "kind": "hand",
            "seat": 1,
            "version": version + 2,
            "body": {"hand": ["Space Confrontation", "Daimon Bok"]},
        },
        seats[1],
    )
    assert ana.status_code == 201, ana.json()
    # The new host releases a seat; and hands the role on: then it is an ordinary seat again.
    released = api.delete(
        f"/api/tables/{code}/seats/1/claim/", HTTP_AUTHORIZATION=f"Bearer {seats[2]}"
    )
    assert released.status_code == 200 and released.json()["players"][0]["claimed"] is False
    cy = api.post(f"/api/tables/{code}/seats/3/claim/").json()["seat_token"]
    assert handover(api, code, seats[2], 3).status_code == 201
    assert read(api, code)["host_seat"] == 3
    refused(handover(api, code, seats[2], 2), 403, "host_only")
    assert handover(api, code, cy, 2).status_code == 201


def test_a_wrong_token_or_none_hands_nothing_over(api, table):
    code, host, seats = table
    before = read(api, code)
    refused(handover(api, code, "not-a-token-of-this-table", 2), 403, "host_only")
    refused(handover(api, code, host + "x", 2), 403, "host_only")
    refused(handover(api, code, None, 2), 401, "token_required")
    unchanged(api, code, before)


def test_a_seat_is_not_the_host(api, table):
    code, host, seats = table
    before = read(api, code)
    # Seat 2's phone cannot take the role, nor give it to another seat.
    refused(handover(api, code, seats[2], 2), 403, "host_only")
    refused(handover(api, code, seats[1], 2), 403, "host_only")
    unchanged(api, code, before)
    # Its legal neighbour: the host's token, the same request.
    assert handover(api, code, host, 2).status_code == 201


def test_a_stale_version_is_refused_with_the_current_table(api, table):
    code, host, seats = table
    read_version = read(api, code)["version"]
    # Another phone acts in between: the host decided on a table that has moved on.
    assert (
        post(
            api,
            f"/api/tables/{code}/events/",
            {"kind": "hand", "seat": 1, "version": read_version, "body": {"hand": HAND}},
            seats[1],
        ).status_code
        == 201
    )
    before = read(api, code)
    payload = refused(handover(api, code, host, 2, version=read_version), 409, "version_conflict")
    assert payload["table"]["version"] == before["version"] == read_version + 1
    assert payload["table"]["host_seat"] is None
    unchanged(api, code, before)
    # The version it names now: done.
    assert handover(api, code, host, 2, version=before["version"]).status_code == 201


def test_an_unknown_or_unclaimed_seat_and_a_missing_field_are_refused(api, table):
    code, host, seats = table
    before = read(api, code)
    payload = refused(handover(api, code, host, 7), 404, "unknown_seat")
    assert payload["errors"][0]["path"] == "seat"
    refused(handover(api, code, host, 3), 409, "seat_not_claimed")  # Cy has no phone yet
    refused(
        post(api, f"/api/tables/{code}/host/", {"version": before["version"]}, host),
        400,
        "invalid_input",
    )
    refused(
        post(api, f"/api/tables/{code}/host/", {"seat": "2", "version": before["version"]}, host),
        400,
        "invalid_input",
    )
    refused(post(api, f"/api/tables/{code}/host/", {"seat": 2}, host), 400, "invalid_input")
    refused(
        post(api, "/api/tables/nosuchtable/host/", {"seat": 2, "version": 1}, host),
        404,
        "unknown_table",
    )
    unchanged(api, code, before)


def test_the_undo_passes_over_a_handover_and_the_hosts_seat_is_not_released(api, table):
    code, host, seats = table
    first = post(
        api,
        f"/api/tables/{code}/events/",
        {"kind": "hand", "seat": 1, "version": read(api, code)["version"], "body": {"hand": HAND}},
        seats[1],
    )
    assert first.status_code == 201
    assert handover(api, code, host, 2).status_code == 201
    version = read(api, code)["version"]
    undone = api.delete(
        f"/api/tables/{code}/events/last/",
        data=json.dumps({"version": version}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {seats[2]}",
    )
    assert undone.status_code == 200, undone.json()
    body = undone.json()
    assert body["undone"] == {"n": 1, "kind": "hand", "seat": 1}
    assert body["table"]["state"]["hands"] == [None, None, None]
    # The handover stays: in the history, and the role with seat 2.
    assert [(e["kind"], e["seat"]) for e in body["table"]["events"]] == [("handover", 2)]
    assert body["table"]["host_seat"] == 2
    # Only the handover left: nothing to undo.
    refused(
        api.delete(
            f"/api/tables/{code}/events/last/",
            data=json.dumps({"version": body["table"]["version"]}),
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {seats[2]}",
        ),
        409,
        "nothing_to_undo",
    )
    # The seat holding the role is not released (the table would have no host); another is.
    before = read(api, code)
    refused(
        api.delete(f"/api/tables/{code}/seats/2/claim/", HTTP_AUTHORIZATION=f"Bearer {seats[2]}"),
        409,
        "host_seat",
    )
    unchanged(api, code, before)
    assert (
        api.delete(
            f"/api/tables/{code}/seats/1/claim/", HTTP_AUTHORIZATION=f"Bearer {seats[2]}"
        ).status_code
        == 200
    )


# --- The pages -------------------------------------------------------------------------------------


def text(response) -> str:
    html = response.content.decode()
    html = re.sub(r"<(script|style|svg)\b.*?</\1>", " ", html, flags=re.S)
    return html_lib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def page_table(game="star-trek-missions", players="Ana\nBen\nCy") -> tuple[str, Client, Client]:
    """A table started on /t/ (the host's browser), seat 2 claimed by Ben's phone."""
    host = Client()
    response = host.post("/t/", {"game": game, "players": players})
    assert response.status_code == 302
    code = response["Location"].rsplit("/", 1)[1]
    ben = Client()
    assert ben.post(f"/t/{code}/claim", {"seat": "2"}).status_code == 302
    return code, host, ben


def test_the_host_hands_over_on_the_tables_page_and_bens_phone_then_holds_the_controls():
    code, host, ben = page_table()
    assert "You hold the host role" in text(host.get(f"/t/{code}"))
    assert "You hold the host role" not in text(ben.get(f"/t/{code}"))
    page = host.get(f"/t/{code}").content.decode()
    offered = re.search(r'<select id="handover-seat" name="seat">(.*?)</select>', page).group(1)
    assert re.findall(r'<option value="(\d+)">', offered) == ["2"]  # claimed seats only
    assert '<label for="handover-seat">' in page

    version = Table.objects.get(code=code).version
    done = host.post(
        f"/t/{code}/host", {"action": "handover", "seat": "2", "version": str(version)}
    )
    assert done.status_code == 302
    table = Table.objects.get(code=code)
    assert table.host_seat == 2 and table.version == version + 1
    words = text(ben.get(f"/t/{code}"))
    assert "You hold the host role" in words and "The host is Ben's phone (seat 2)" in words
    # Within a poll: the live part Ben's phone polls shows the controls too.
    assert "You hold the host role" in text(ben.get(f"/t/{code}/live"))
    words = text(host.get(f"/t/{code}"))
    assert "You hold the host role" not in words and "Claim your seat" in words
    assert "The host handed the host role to Ben (seat 2)" in words
    # The old host's browser acts no more: its cookie holds no token that acts, so its handover
    # back is refused.
    again = host.post(
        f"/t/{code}/host", {"action": "handover", "seat": "2", "version": str(table.version)}
    )
    assert again.status_code == 401 and Table.objects.get(code=code).version == table.version


def test_a_stale_handover_on_the_page_asks_again():
    code, host, ben = page_table()
    version = Table.objects.get(code=code).version
    Client().post(f"/t/{code}/claim", {"seat": "3"})  # another phone: the table moves on
    stale = host.post(
        f"/t/{code}/host", {"action": "handover", "seat": "2", "version": str(version)}
    )
    assert stale.status_code == 409
    assert "The table changed just now" in text(stale)
    assert Table.objects.get(code=code).host_seat is None


STAR_TREK_MISSIONS_HAND = [
    "Captain Jean-Luc Picard",
    "Commander William Riker",
    "Lieutenant Worf",
    "Photon Torpedoes",
    "Bridge",
    "Away Team",
    "Borg Cube",
]
TURN = {
    "position": {
        "hand": STAR_TREK_MISSIONS_HAND,
        "discard_area": ["Tricorder", "Time Distortion"],
        "galaxy_deck": 30,
        "mission_deck": 14,
    },
    "move": {"action": "take_discard", "take": "Tricorder", "discard": ["Bridge"]},
}


def turn_data(**extra) -> str:
    data = QueryDict(mutable=True)
    for name, value in turn_link_pairs(None, TURN):
        data.appendlist(name, value)
    for name, value in extra.items():
        data[name] = value
    return data.urlencode()


def picker(html: str) -> list[tuple[str, bool]]:
    """The seat picker's options: (value, selected); [] when the page has none."""
    found = re.search(r'<select id="asked-seat" name="seat">(.*?)</select>', html, flags=re.S)
    if found is None:
        return []
    return [
        (value, bool(selected))
        for value, selected in re.findall(r'<option value="(\d+)"( selected)?>', found.group(1))
    ]


def test_the_host_picks_the_seat_on_a_games_page_at_the_table():
    code, host, ben = page_table()
    url = f"/t/{code}/ask/ruling/{Table.objects.get(code=code).version}"
    page = host.get(url).content.decode()
    assert picker(page) == [("1", True), ("2", False), ("3", False)]  # no acting seat: seat 1
    assert '<label for="asked-seat">Act for the seat</label>' in page
    # Inside the form the page posts (no script needed).
    form = re.search(r'<form class="turn-form" id="turn-form".*?</form>', page, flags=re.S)
    assert form and 'id="asked-seat"' in form.group(0)
    # A seat's phone has none: it acts for its own seat.
    assert picker(ben.get(url).content.decode()) == []

    answer = host.post(url, turn_data(seat="2"), content_type="application/x-www-form-urlencoded")
    assert answer.status_code == 200, text(answer)[:800]
    event = Table.objects.get(code=code).events.get()
    assert (event.kind, event.seat, event.by_host) == ("ruling", 2, True)


def test_a_seats_phone_naming_another_seat_is_refused_and_nothing_changes():
    code, host, ben = page_table()
    version = Table.objects.get(code=code).version
    url = f"/t/{code}/ask/ruling/{version}"
    wrong = ben.post(url, turn_data(seat="1"), content_type="application/x-www-form-urlencoded")
    assert wrong.status_code == 400
    assert "This token cannot act for seat 1 (Ana)" in text(wrong)
    table = Table.objects.get(code=code)
    assert table.version == version and not table.events.exists()
    not_a_seat = host.post(
        url, turn_data(seat="9"), content_type="application/x-www-form-urlencoded"
    )
    assert not_a_seat.status_code in (400, 404) and "there is no seat 9" in text(not_a_seat)
    assert not Table.objects.get(code=code).events.exists()
    # Its legal neighbour: its own seat.
    own = ben.post(url, turn_data(seat="2"), content_type="application/x-www-form-urlencoded")
    assert own.status_code == 200, text(own)[:800]
    event = Table.objects.get(code=code).events.get()
    assert (event.seat, event.by_host) == (2, False)


def test_the_picker_starts_at_the_seat_the_game_says_acts_now():
    """Star Realms Academy: the active player's seat (seat 2 once the roles have swapped)."""
    code, host, ben = page_table("star-realms-academy", "Ana\nBen")
    table = Table.objects.get(code=code)
    state = table.state
    board = state["board"]
    assert board["active"]["name"] == "Ana"
    url = f"/t/{code}/ask/score/{table.version}"
    assert picker(host.get(url).content.decode()) == [("1", True), ("2", False)]
    # After a turn the roles swap: Ben is to play (set here as the table's state would be).
    board["active"], board["opponent"] = board["opponent"], board["active"]
    Table.objects.filter(pk=table.pk).update(state=state)
    assert picker(host.get(url).content.decode()) == [("1", False), ("2", True)]


def test_the_tables_own_form_shares_the_picker_and_its_check():
    code, host, ben = page_table()
    page = host.get(f"/t/{code}").content.decode()
    assert re.search(r'<label for="hand-seat">Act for the seat</label>', page)
    assert 'id="hand-seat"' not in ben.get(f"/t/{code}").content.decode()
    version = Table.objects.get(code=code).version
    wrong = ben.post(
        f"/t/{code}/form", {"seat": "1", "hand": "\n".join(HAND), "version": str(version)}
    )
    assert wrong.status_code == 403 and "cannot act for seat 1" in text(wrong)
    assert not Table.objects.get(code=code).events.exists()
    done = host.post(
        f"/t/{code}/form", {"seat": "3", "hand": "\n".join(HAND), "version": str(version)}
    )
    assert done.status_code == 302
    event = Table.objects.get(code=code).events.get()
    assert (event.kind, event.seat, event.by_host) == ("hand", 3, True)


def test_a_table_whose_host_phone_is_lost_plays_on_from_its_seats(api, table):
    """The choice API.md documents: without the host's phone (never handed over), the seats
    still enter their own hands and the standings come; only what is the host's alone (undo,
    release, the next game) cannot be done."""
    code, host, seats = table
    cy = api.post(f"/api/tables/{code}/seats/3/claim/").json()["seat_token"]
    hands = {
        1: HAND,
        2: ["Holodeck 1", "Leah Brahms"],
        3: ["Space Confrontation", "Daimon Bok", "Daimon Tog", "Vice Admiral Nakamura"],
    }
    for seat, token in ((1, seats[1]), (2, seats[2]), (3, cy)):
        entered = post(
            api,
            f"/api/tables/{code}/events/",
            {
                "kind": "hand",
                "seat": seat,
                "version": read(api, code)["version"],
                "body": {"hand": hands[seat]},
            },
            token,
        )
        assert entered.status_code == 201, entered.json()
    state = read(api, code)["state"]
    assert state["hands"] == [13, 13, 12] and state["winners"] == ["Ana", "Ben"]
    version = read(api, code)["version"]
    refused(
        post(
            api,
            f"/api/tables/{code}/events/",
            {"kind": "new_game", "seat": None, "version": version, "body": {}},
            seats[1],
        ),
        403,
        "host_only",
    )
    refused(
        api.delete(
            f"/api/tables/{code}/events/last/",
            data=json.dumps({"version": version}),
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {cy}",
        ),
        403,
        "host_only",
    )
