"""A table has a bound (issue 30, finding 2): in events (TABLE_MAX_EVENTS), bytes of history
(TABLE_MAX_MB) and age from its start (TABLE_MAX_AGE_DAYS), counted with the saved results in the
store's one bound (STORE_MAX_MB); past one, an event is a 409 that tells the players to start a
new table (which carries the tally over), and nothing changes: never a silent drop. One address
starts at most TABLES_PER_ADDRESS_PER_DAY tables a day. An event stores its body as the game's
model read it, never as sent. Each bound is tested at it and just inside it."""

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from results.models import SavedResult
from results.services import results_prune
from tables.models import Event, Table
from tables.services import tables_remove_idle

pytestmark = pytest.mark.django_db

TOMALAK = [
    "Commander Tomalak",
    "Captain Jean-Luc Picard",
    "Commander William Riker",
    "Lieutenant Commander Data",
]  # 13
CONFRONTATION = ["Space Confrontation", "Daimon Bok", "Daimon Tog", "Vice Admiral Nakamura"]  # 12


def post(api, url, data, token=None, **headers):
    if token:
        headers["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    return api.post(url, data=json.dumps(data), content_type="application/json", **headers)


def create(api, players=("Ana", "Ben"), **more) -> dict:
    response = post(
        api, "/api/tables/", {"game": "star-trek-missions", "players": list(players), **more}
    )
    assert response.status_code == 201, response.json()
    return response.json()


def seated(api) -> tuple[str, str, list[str]]:
    created = create(api)
    code = created["code"]
    tokens = [
        post(api, f"/api/tables/{code}/seats/{seat}/claim/", {}).json()["seat_token"]
        for seat in (1, 2)
    ]
    return code, created["host_token"], tokens


def version(api, code) -> int:
    return api.get(f"/api/tables/{code}/").json()["version"]


def hand(api, code, token, seat, cards):
    return post(
        api,
        f"/api/tables/{code}/events/",
        {"kind": "hand", "seat": seat, "version": version(api, code), "body": {"hand": cards}},
        token,
    )


def new_game(api, code, host, body=None):
    return post(
        api,
        f"/api/tables/{code}/events/",
        {
            "kind": "new_game",
            "seat": None,
            "version": version(api, code),
            "body": body if body is not None else {},
        },
        host,
    )


def refused(response, status, code) -> dict:
    payload = response.json()
    assert (response.status_code, payload["code"]) == (status, code), payload
    return payload


def unchanged(api, code, before: dict, results: int) -> None:
    """Nothing changed: the same table (version, state, history) and no result saved."""
    now = api.get(f"/api/tables/{code}/").json()
    assert (now["version"], now["state"], now["events"]) == (
        before["version"],
        before["state"],
        before["events"],
    )
    assert SavedResult.objects.count() == results


# --- Events, bytes and age of one table -----------------------------------------------------


def test_a_table_takes_its_most_events_and_then_a_409_pointing_to_a_new_table(api, settings):
    settings.TABLE_MAX_EVENTS = 3
    code, host, (ana, ben) = seated(api)
    assert hand(api, code, ana, 1, TOMALAK).status_code == 201
    assert hand(api, code, ben, 2, CONFRONTATION).status_code == 201
    assert hand(api, code, ana, 1, TOMALAK).status_code == 201  # the third: at the bound
    before, results = api.get(f"/api/tables/{code}/").json(), SavedResult.objects.count()
    payload = refused(hand(api, code, ben, 2, CONFRONTATION), 409, "table_full")
    assert "Start a new table" in payload["detail"] and f'"from": "{code}"' in payload["detail"]
    assert payload["errors"][0]["carry_from"] == code
    unchanged(api, code, before, results)
    assert Event.objects.filter(table__code=code).count() == 3


def test_a_tables_history_is_bounded_in_bytes_and_counted_as_stored(api, settings):
    code, host, (ana, ben) = seated(api)
    assert hand(api, code, ana, 1, TOMALAK).status_code == 201
    table = Table.objects.get(code=code)
    sizes = list(Event.objects.filter(table=table).values_list("size", flat=True))
    assert table.stored_bytes == sum(sizes) > 1000  # the answer and the state before it count
    # Room for one more such event, not two.
    settings.TABLE_MAX_MB = (table.stored_bytes + sizes[0] * 1.5) / 1_000_000
    assert hand(api, code, ana, 1, TOMALAK).status_code == 201
    before, results = api.get(f"/api/tables/{code}/").json(), SavedResult.objects.count()
    refused(hand(api, code, ana, 1, TOMALAK), 409, "table_full")
    unchanged(api, code, before, results)
    table.refresh_from_db()
    assert table.stored_bytes == sum(
        Event.objects.filter(table=table).values_list("size", flat=True)
    )


def test_a_table_in_use_still_ends_at_its_most_age(api, settings):
    settings.TABLE_MAX_AGE_DAYS = 30
    code, host, (ana, ben) = seated(api)
    started = timezone.now() - timedelta(days=30) + timedelta(hours=1)
    Table.objects.filter(code=code).update(created_at=started)
    assert hand(api, code, ana, 1, TOMALAK).status_code == 201  # an hour inside its age
    Table.objects.filter(code=code).update(created_at=started - timedelta(hours=2))
    before, results = api.get(f"/api/tables/{code}/").json(), SavedResult.objects.count()
    payload = refused(hand(api, code, ben, 2, CONFRONTATION), 409, "table_closed")
    assert "30 days" in payload["detail"] and "new table" in payload["detail"]
    unchanged(api, code, before, results)
    # Still read (its history, its results) until it has been idle TABLE_IDLE_DAYS ...
    assert api.get(f"/api/tables/{code}/").status_code == 200


def test_a_table_kept_active_is_removed_once_older_than_its_age_and_idle_days(api, settings):
    settings.TABLE_MAX_AGE_DAYS, settings.TABLE_IDLE_DAYS = 30, 30
    old, young = create(api)["code"], create(api)["code"]
    now = timezone.now()
    # Both active an hour ago (a seat claimed now and then); one started 60 days and an hour ago.
    Table.objects.filter(code=old).update(created_at=now - timedelta(days=60, hours=1))
    Table.objects.filter(code=young).update(created_at=now - timedelta(days=59, hours=23))
    Table.objects.update(last_active_at=now - timedelta(hours=1))
    assert tables_remove_idle(now=now) == 1
    assert list(Table.objects.values_list("code", flat=True)) == [young]


# --- The store's one bound --------------------------------------------------------------------


def test_the_store_bound_counts_the_tables_histories_with_the_results(api, settings):
    code, host, (ana, ben) = seated(api)
    assert hand(api, code, ana, 1, TOMALAK).status_code == 201
    assert hand(api, code, ben, 2, CONFRONTATION).status_code == 201
    table_bytes = Table.objects.get(code=code).stored_bytes
    results = sum(SavedResult.objects.values_list("size", flat=True))
    # The results alone fit; with the table's history they do not: results go first.
    settings.STORE_MAX_MB = (results + table_bytes // 2) / 1_000_000
    pruned = results_prune()
    assert pruned.by_size >= 1
    assert pruned.remaining_bytes + table_bytes <= settings.STORE_MAX_MB * 1_000_000
    assert Event.objects.filter(table__code=code).count() == 2  # the history is never pruned


def test_a_full_store_refuses_a_tables_event_rather_than_drop_history(api, settings):
    code, host, (ana, ben) = seated(api)
    assert hand(api, code, ana, 1, TOMALAK).status_code == 201
    table_bytes = Table.objects.get(code=code).stored_bytes
    # Room for the table's history and about one more event once the results are pruned ...
    settings.STORE_MAX_MB = table_bytes * 2.5 / 1_000_000
    assert hand(api, code, ana, 1, TOMALAK).status_code == 201
    # ... and then none: the results are all pruned and the histories alone fill it.
    before, events = api.get(f"/api/tables/{code}/").json(), Event.objects.count()
    payload = refused(hand(api, code, ben, 2, CONFRONTATION), 409, "store_full")
    assert "STORE_MAX_MB" in payload["detail"]
    now = api.get(f"/api/tables/{code}/").json()
    assert (now["version"], now["state"]) == (before["version"], before["state"])
    assert Event.objects.count() == events


# --- Tables per address -----------------------------------------------------------------------


def test_one_address_starts_a_bounded_number_of_tables_a_day(api, settings):
    settings.TABLES_PER_ADDRESS_PER_DAY = 2
    first = post(
        api,
        "/api/tables/",
        {"game": "star-trek-missions", "players": ["Ana", "Ben"]},
        REMOTE_ADDR="203.0.113.5",
    )
    second = post(
        api,
        "/api/tables/",
        {"game": "star-trek-missions", "players": ["Ana", "Ben"]},
        REMOTE_ADDR="203.0.113.5",
    )
    assert first.status_code == second.status_code == 201
    third = post(
        api,
        "/api/tables/",
        {"game": "star-trek-missions", "players": ["Ana", "Ben"]},
        REMOTE_ADDR="203.0.113.5",
    )
    assert "24 hours" in refused(third, 429, "too_many_tables")["detail"]
    assert Table.objects.count() == 2
    other = post(
        api,
        "/api/tables/",
        {"game": "star-trek-missions", "players": ["Ana", "Ben"]},
        REMOTE_ADDR="203.0.113.6",
    )
    assert other.status_code == 201
    # A day later the first no longer counts; the address is kept only as a keyed hash.
    Table.objects.filter(code=first.json()["code"]).update(
        created_at=timezone.now() - timedelta(hours=24, minutes=1)
    )
    assert not Table.objects.filter(started_by__contains="203.0.113").exists()
    again = post(
        api,
        "/api/tables/",
        {"game": "star-trek-missions", "players": ["Ana", "Ben"]},
        REMOTE_ADDR="203.0.113.5",
    )
    assert again.status_code == 201


def test_the_start_page_says_when_an_address_started_too_many_tables(settings):
    settings.TABLES_PER_ADDRESS_PER_DAY = 1
    browser = Client(REMOTE_ADDR="203.0.113.7")
    assert (
        browser.post("/t/", {"game": "star-trek-missions", "players": "Ana\nBen"}).status_code
        == 302
    )
    page = browser.post("/t/", {"game": "star-trek-missions", "players": "Ana\nBen"})
    assert page.status_code == 429
    assert "tables in the last 24 hours" in page.content.decode()


# --- What an event stores ---------------------------------------------------------------------


def test_a_new_game_takes_no_body_and_stores_none(api):
    code, host, (ana, ben) = seated(api)
    assert hand(api, code, ana, 1, TOMALAK).status_code == 201
    assert hand(api, code, ben, 2, CONFRONTATION).status_code == 201
    before, results = api.get(f"/api/tables/{code}/").json(), SavedResult.objects.count()
    junk = {"junk": "x" * 60_000}
    payload = refused(new_game(api, code, host, junk), 400, "invalid_input")
    assert payload["errors"][0]["path"] == "body.junk"
    assert payload["errors"][0]["code"] == "unknown_field"
    unchanged(api, code, before, results)
    assert new_game(api, code, host).status_code == 201
    stored = Event.objects.get(table__code=code, kind="new_game")
    assert stored.body == {} and stored.size < 5000


def test_an_event_stores_its_body_as_the_games_model_read_it(api):
    code, host, (ana, ben) = seated(api)
    sent = [
        "  commander tomalak ",
        "CAPTAIN JEAN-LUC PICARD",
        "Commander William Riker",
        "Lieutenant Commander Data",
    ]
    response = post(
        api,
        f"/api/tables/{code}/events/",
        {
            "kind": "hand",
            "seat": 1,
            "version": version(api, code),
            "body": {"hand": sent, "choices": {}},
        },
        ana,
    )
    assert response.status_code == 201, response.json()
    stored = Event.objects.get(table__code=code, kind="hand").body
    assert stored["hand"] == TOMALAK and set(stored) <= {"hand", "choices"}
    # Refused by the game's model (a field no hand has): nothing stored.
    bad = post(
        api,
        f"/api/tables/{code}/events/",
        {
            "kind": "ruling",
            "seat": 2,
            "version": version(api, code),
            "body": {"turn": [], "junk": "x" * 1000},
        },
        ben,
    )
    assert bad.status_code == 400
    assert Event.objects.filter(table__code=code).count() == 1


# --- Carrying the tally over ------------------------------------------------------------------


def won_one(api) -> str:
    code, host, (ana, ben) = seated(api)
    assert hand(api, code, ana, 1, TOMALAK).status_code == 201
    assert hand(api, code, ben, 2, CONFRONTATION).status_code == 201
    assert new_game(api, code, host).status_code == 201
    assert api.get(f"/api/tables/{code}/").json()["state"]["tally"] == {"Ana": 1, "Ben": 0}
    return code


def test_a_new_table_carries_the_tally_over_from_another(api):
    code = won_one(api)
    carried = create(api, players=("Ana", "Ben", "Cy"), **{"from": code})
    assert carried["state"]["tally"] == {"Ana": 1, "Ben": 0, "Cy": 0}
    assert create(api)["state"]["tally"] == {"Ana": 0, "Ben": 0}
    unknown = post(
        api,
        "/api/tables/",
        {"game": "star-trek-missions", "players": ["Ana", "Ben"], "from": "nosuchtable"},
    )
    assert refused(unknown, 400, "invalid_input")["errors"][0]["path"] == "from"
    other = post(
        api, "/api/tables/", {"game": "academy-credits", "players": ["Ana", "Ben"], "from": code}
    )
    assert refused(other, 400, "invalid_input")["errors"][0]["code"] == "other_game"


def test_a_closed_tables_page_offers_a_new_table_with_the_tally(api):
    code = won_one(api)
    host = Client()
    page = host.get(f"/t/{code}").content.decode()
    assert "Start a new table with these players" not in page  # not full by its row
    Table.objects.filter(code=code).update(created_at=timezone.now() - timedelta(days=400))
    page = host.get(f"/t/{code}").content.decode()
    assert "Start a new table with these players" in page
    started = host.post("/t/", {"game": "star-trek-missions", "players": "Ana\nBen", "from": code})
    assert started.status_code == 302
    new_code = started["Location"].rsplit("/", 1)[1]
    assert Table.objects.get(code=new_code).state["tally"] == {"Ana": 1, "Ben": 0}
