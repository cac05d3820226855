"""A long history does not stall the site (issue 30, finding 3): reading a table costs the same at
event 2,000 as at event 2. The state is read without the history; the API's read, the page, its
polled part, an event's answer and a 409 carry the newest page of the history only, with a cursor
for the page before (`GET /api/tables/<code>/events/?before=<n>`, the page's "Show earlier
entries"); the number of queries is the same at 2 and at 2,000 events (cost by count, not by
time); and reads are throttled (their own counter, TableReadThrottle), as the POSTs are."""

import json
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from common import throttling
from tables.models import Event, Table

HISTORY_PAGE = 20  # tables.selectors.HISTORY_PAGE: a page of the history

pytestmark = pytest.mark.django_db

ANSWER = {
    "game": "star-trek-missions",
    "total": 13,
    "steps": [{"rule": "STM-1", "reason": "x" * 200}] * 5,
    "warnings": [],
}


def create(api, players=("Ana", "Ben")) -> dict:
    response = api.post(
        "/api/tables/",
        data=json.dumps({"game": "star-trek-missions", "players": list(players)}),
        content_type="application/json",
    )
    assert response.status_code == 201, response.json()
    return response.json()


def with_history(code: str, count: int) -> Table:
    """`count` hand events in the table's history, as the events API would have stored them
    (each with the game's answer and the state before it); the version moves on with them."""
    table = Table.objects.get(code=code)
    Event.objects.bulk_create(
        Event(
            table=table,
            n=n,
            kind="hand",
            seat=1 + n % 2,
            version=n,
            body={"hand": ["Q"]},
            state_before=table.state,
            result={**ANSWER, "total": n},
        )
        for n in range(1, count + 1)
    )
    Table.objects.filter(pk=table.pk).update(version=count + 1)
    return table


def queries(client, url: str):
    """How many queries the read of `url` makes, and its answer."""
    with CaptureQueriesContext(connection) as captured:
        answer = client.get(url)
    return len(captured.captured_queries), answer


@pytest.mark.parametrize("count", [2, 2000])
def test_the_api_read_carries_the_newest_page_and_a_cursor(api, count):
    code = create(api)["code"]
    with_history(code, count)
    table = api.get(f"/api/tables/{code}/").json()
    shown = min(count, HISTORY_PAGE)
    assert [e["n"] for e in table["events"]] == list(range(count - shown + 1, count + 1))
    if count > HISTORY_PAGE:
        assert table["events_before"] == count - shown + 1
        assert table["events_url"] == f"/api/tables/{code}/events/?before={count - shown + 1}"
    else:
        assert table["events_before"] is None and table["events_url"] is None


def test_the_cursor_pages_through_the_whole_history_once(api):
    code = create(api)["code"]
    with_history(code, 45)
    Event.objects.filter(table__code=code, n=30).update(undone=True)  # undone: left out
    seen: list[int] = []
    url = f"/api/tables/{code}/"
    while url:
        page = api.get(url).json()
        seen = [e["n"] for e in page["events"]] + seen
        url = page["events_url"]
    assert seen == [n for n in range(1, 46) if n != 30]


def test_a_cursor_that_is_not_a_number_is_a_400(api):
    code = create(api)["code"]
    response = api.get(f"/api/tables/{code}/events/?before=x1")
    assert response.status_code == 400
    assert response.json()["errors"][0]["path"] == "query.before"
    assert api.get(f"/api/tables/{code}/events/?before=3").status_code == 200
    assert api.get("/api/tables/nosuchtable/events/?before=3").status_code == 404


def test_reading_costs_the_same_queries_and_bytes_at_2_and_2000_events(api, monkeypatch):
    """The API's read, the page and its polled part: equal query counts, and an answer no longer
    at 2,000 events than at 30 (the page is full from 20 on)."""
    # The throttle's counters are pruned by chance (one request in a hundred): not in this count.
    monkeypatch.setattr(throttling, "PRUNE_CHANCE", 0.0)
    costs = {}
    for count in (0, 2, 30, 2000):  # 0: a first read warms the process's caches (the deck)
        code = create(api)["code"]
        with_history(code, count)
        browser = Client()
        api_queries, read = queries(api, f"/api/tables/{code}/")
        page_queries, page = queries(browser, f"/t/{code}")
        live_queries, live = queries(browser, f"/t/{code}/live")
        assert read.status_code == page.status_code == live.status_code == 200
        costs[count] = {
            "queries": (api_queries, page_queries, live_queries),
            "bytes": (len(read.content), len(page.content), len(live.content)),
        }
    assert costs[2]["queries"] == costs[2000]["queries"], costs
    # The answers grow with the numbers written in them (n, the version), not with the history.
    for small, large in zip(costs[30]["bytes"], costs[2000]["bytes"], strict=True):
        assert large < small * 1.1, costs


def test_the_history_query_reads_one_page_without_the_states_kept_for_the_undo(api):
    code = create(api)["code"]
    with_history(code, 300)
    with CaptureQueriesContext(connection) as captured:
        api.get(f"/api/tables/{code}/")
    history = [q["sql"] for q in captured.captured_queries if "tables_event" in q["sql"]]
    assert len(history) == 1, history
    assert re.search(rf"LIMIT\s+{HISTORY_PAGE + 1}\b", history[0]), history[0]
    assert "state_before" not in history[0]


def test_an_event_answer_and_a_409_carry_one_page(api):
    created = create(api)
    code, host = created["code"], created["host_token"]
    with_history(code, 100)
    # The host's new_game before every hand is in: the game's 400, so read a conflict instead.
    stale = api.post(
        f"/api/tables/{code}/events/",
        data=json.dumps({"kind": "new_game", "seat": None, "version": 1, "body": {}}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {host}",
    )
    assert stale.status_code == 409
    assert len(stale.json()["table"]["events"]) == HISTORY_PAGE
    assert stale.json()["table"]["events_before"] == 100 - HISTORY_PAGE + 1
    token = api.post(f"/api/tables/{code}/seats/1/claim/").json()["seat_token"]
    entered = api.post(
        f"/api/tables/{code}/events/",
        data=json.dumps(
            {"kind": "hand", "seat": 1, "version": 102, "body": {"hand": ["Holodeck 1"]}}
        ),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert entered.status_code == 201, entered.json()
    events = entered.json()["table"]["events"]
    assert len(events) == HISTORY_PAGE and events[-1]["n"] == 101


def test_the_page_shows_the_newest_entries_and_a_link_to_earlier_ones():
    browser = Client()
    response = browser.post("/t/", {"game": "star-trek-missions", "players": "Ana\nBen"})
    code = response["Location"].rsplit("/", 1)[1]
    with_history(code, 50)
    html = browser.get(f"/t/{code}").content.decode()
    shown = [int(n) for n in re.findall(r'<li value="(\d+)">', html)]
    assert shown == list(range(31, 51))
    assert f'href="/t/{code}?before=31#history-heading">Show earlier entries' in html
    assert "Undo entry 50" in html
    earlier = browser.get(f"/t/{code}?before=31").content.decode()
    assert [int(n) for n in re.findall(r'<li value="(\d+)">', earlier)] == list(range(11, 31))
    assert "Show the newest entries" in earlier and "?before=11" in earlier
    # The polled part of an earlier page keeps to that page; the undo is on the newest only.
    assert f'hx-get="/t/{code}/live?before=31"' in earlier and "Undo entry" not in earlier
    live = browser.get(f"/t/{code}/live?before=11").content.decode()
    assert [int(n) for n in re.findall(r'<li value="(\d+)">', live)] == list(range(1, 11))
    assert "Show earlier entries" not in live


def test_reads_of_a_table_are_throttled_per_address(api, monkeypatch):
    code = create(api)["code"]
    monkeypatch.setattr(throttling.TableReadThrottle, "THROTTLE_RATES", {"table_reads": "4/minute"})
    # The refused addresses this process remembers: this test's own (never another test's).
    monkeypatch.setattr(throttling.TableReadThrottle, "refused_until", {})
    browser = Client()
    answers = [
        api.get(f"/api/tables/{code}/").status_code,
        browser.get(f"/t/{code}").status_code,
        browser.get(f"/t/{code}/live").status_code,
        api.get(f"/api/tables/{code}/events/").status_code,
    ]
    assert answers == [200, 200, 200, 200]
    refused = api.get(f"/api/tables/{code}/")
    assert refused.status_code == 429 and refused.json()["code"] == "throttled"
    assert int(refused["Retry-After"]) >= 1
    page = browser.get(f"/t/{code}")
    assert page.status_code == 429 and page["Retry-After"]
    assert browser.get(f"/t/{code}/live").status_code == 429
    # An unchanged poll is not counted (one indexed query, as cheap as its refusal would be).
    version = Table.objects.get(code=code).version
    assert api.get(f"/api/tables/{code}/", HTTP_IF_NONE_MATCH=f'"v{version}"').status_code == 304
    assert browser.get(f"/t/{code}/live", HTTP_IF_NONE_MATCH=f'"p{version}"').status_code == 304
    # Refused from memory while the wait lasts: the counter is neither read nor written.
    with CaptureQueriesContext(connection) as captured:
        again = api.get(f"/api/tables/{code}/")
    assert again.status_code == 429 and int(again["Retry-After"]) >= 1
    assert not [q for q in captured.captured_queries if "throttlecounter" in q["sql"].lower()]
    # Once the wait is over, the database's counter decides again.
    key = "throttle_table_reads_127.0.0.1"
    assert key in throttling.TableReadThrottle.refused_until
    throttling.TableReadThrottle.refused_until[key] = 0.0
    throttling.forget_refusals()  # and the refusals every throttle of this process remembers
    with CaptureQueriesContext(connection) as captured:
        assert api.get(f"/api/tables/{code}/").status_code == 429
    assert [q for q in captured.captured_queries if "throttlecounter" in q["sql"].lower()]
    # Another address reads on; the scores' and rulings' limit is a counter of its own.
    assert api.get(f"/api/tables/{code}/", REMOTE_ADDR="198.51.100.20").status_code == 200
    assert api.get("/api/games/").status_code == 200
