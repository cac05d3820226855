"""Repeated reads of an unchanged table cost a lookup (issue 30): the API's read, the page and its
polled part are built once per table version and viewer (tables.read_cache). A cached read is the
uncached one (byte for byte; in the pages, but for the CSRF token and the entry key, which are
this request's), a change is never served stale, and one seat's view never reaches another seat,
the host or a phone holding no seat."""

import html
import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.test_tables_factions import ATTACK, SETUP, c, event, hands, post, read
from tests.test_tables_history import create, with_history

pytestmark = pytest.mark.django_db

PER_REQUEST = re.compile(r'(name="(?:csrfmiddlewaretoken|entry_key)" value=")[^"]*"')


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def history_queries(client, url: str, **headers):
    """The answer to a read of `url`, and the queries of it that read the history."""
    with CaptureQueriesContext(connection) as captured:
        answer = client.get(url, **headers)
    return answer, [q["sql"] for q in captured.captured_queries if "tables_event" in q["sql"]]


def per_request_blanked(response) -> str:
    return PER_REQUEST.sub(r'\1"', response.content.decode())


@pytest.mark.parametrize("path", ["/", "/events/", "/events/?before=31"])
def test_a_cached_api_read_is_the_uncached_one_byte_for_byte_and_reads_no_history(
    api, settings, path
):
    code = create(api)["code"]
    with_history(code, 50)
    url = f"/api/tables/{code}{path}"
    settings.TABLE_READ_CACHE_SECONDS = 0
    uncached = api.get(url)
    settings.TABLE_READ_CACHE_SECONDS = 60
    first, first_history = history_queries(api, url)
    again, again_history = history_queries(api, url)
    assert uncached.status_code == first.status_code == again.status_code == 200
    assert uncached.content == first.content == again.content
    assert uncached.get("ETag") == again.get("ETag")
    assert len(first_history) == 1 and again_history == []
    # Another page of the history is another answer, not the cached one.
    other = api.get(f"/api/tables/{code}/events/?before=11").json()
    assert [e["n"] for e in other["events"]] == list(range(1, 11))


@pytest.mark.parametrize("path", ["", "/live", "?before=31"])
def test_a_cached_page_is_the_uncached_one_but_for_its_own_tokens(settings, path):
    browser = Client()
    response = browser.post("/t/", {"game": "star-trek-missions", "players": "Ana\nBen"})
    code = response["Location"].rsplit("/", 1)[1]
    with_history(code, 50)
    settings.TABLE_READ_CACHE_SECONDS = 0
    uncached = browser.get(f"/t/{code}{path}")
    settings.TABLE_READ_CACHE_SECONDS = 60
    first, first_history = history_queries(browser, f"/t/{code}{path}")
    again, again_history = history_queries(browser, f"/t/{code}{path}")
    assert uncached.status_code == first.status_code == again.status_code == 200
    assert per_request_blanked(uncached) == per_request_blanked(first) == per_request_blanked(again)
    assert first_history and again_history == []
    if path != "/live":  # the seat's form (the polled part of this game has none)
        # Each drawing has an entry key of its own.
        keys = [
            re.findall(r'name="entry_key" value="([^"]+)"', r.content.decode())
            for r in (first, again)
        ]
        assert all(keys) and not set(keys[0]) & set(keys[1]), keys
    assert "placeholder" not in again.content.decode()


def test_a_cached_pages_csrf_token_is_the_readers_own():
    """Two browsers read the same cached page; each one's form posts with its own token."""
    host = Client()
    code = host.post("/t/", {"game": "star-trek-missions", "players": "Ana\nBen"})[
        "Location"
    ].rsplit("/", 1)[1]
    phones = [Client(enforce_csrf_checks=True) for _ in range(2)]
    pages = [phone.get(f"/t/{code}").content.decode() for phone in phones]
    tokens = [re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', p).group(1) for p in pages]
    for number, (phone, token) in enumerate(zip(phones, tokens, strict=True), start=1):
        claimed = phone.post(
            f"/t/{code}/claim", {"seat": str(number), "csrfmiddlewaretoken": token}
        )
        assert claimed.status_code == 302, claimed.content.decode()[:500]


def test_a_read_right_after_a_change_shows_the_change(api):
    created = create(api)
    code = created["code"]
    token = api.post(f"/api/tables/{code}/seats/1/claim/").json()["seat_token"]
    browser = Client()
    before = api.get(f"/api/tables/{code}/").json()
    assert api.get(f"/api/tables/{code}/events/").json()["events"] == []
    live_before = browser.get(f"/t/{code}/live")
    assert before["events"] == [] and browser.get(f"/t/{code}/live").status_code == 200
    entered = api.post(
        f"/api/tables/{code}/events/",
        data={
            "kind": "hand",
            "seat": 1,
            "version": before["version"],
            "body": {"hand": ["Holodeck 1"]},
        },
        format="json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert entered.status_code == 201, entered.json()
    after = api.get(f"/api/tables/{code}/").json()
    assert after["version"] == entered.json()["table"]["version"] > before["version"]
    assert [e["n"] for e in after["events"]] == [1]
    assert [e["n"] for e in api.get(f"/api/tables/{code}/events/").json()["events"]] == [1]
    live_after = browser.get(f"/t/{code}/live", HTTP_IF_NONE_MATCH=live_before["ETag"])
    assert live_after.status_code == 200 and '<li value="1">' in live_after.content.decode()
    assert '<li value="1">' in browser.get(f"/t/{code}").content.decode()
    # And the host's undo: the entry shows as undone at once.
    undone = api.delete(
        f"/api/tables/{code}/events/last/",
        data={"version": after["version"]},
        format="json",
        HTTP_AUTHORIZATION=f"Bearer {created['host_token']}",
    )
    assert undone.status_code == 200, undone.json()
    assert api.get(f"/api/tables/{code}/").json()["events"] == []
    assert api.get(f"/api/tables/{code}/events/").json()["events"] == []
    assert "table-history__undone" in browser.get(f"/t/{code}/live").content.decode()


def shown(client, url: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", client.get(url).content.decode()))


@pytest.fixture
def set_up(api):
    """A Factions table set up, both seats claimed (as tests/test_tables_factions.py's)."""
    created = post(api, "/api/tables/", {"game": "factions", "players": ["Ana", "Ben"]}).json()
    code = created["code"]
    t = {
        "code": code,
        "host": created["host_token"],
        "api": api,
        **{
            name: post(api, f"/api/tables/{code}/seats/{n}/claim/", {}).json()["seat_token"]
            for n, name in ((1, "ana"), (2, "ben"))
        },
    }
    assert event(t, "setup", 1, SETUP, t["ana"]).status_code == 201
    return t


@pytest.mark.parametrize("first", ["ben", "ana", "host", "nobody"])
def test_the_defenders_answer_form_reaches_the_defenders_phone_alone(set_up, first):
    """Ben's phone is offered his answers to Ana's attack (which name his DEFENCE cards); read in
    any order, cached, no other phone is: not Ana's, not the host's, not one holding no seat."""
    t = set_up
    assert (
        event(
            t,
            "move",
            1,
            {"position": hands([c("Attack", "amber-coast")]), "move": ATTACK},
            t["ana"],
        ).status_code
        == 201
    )
    code = t["code"]
    phones = {name: Client() for name in ("ben", "ana", "host", "nobody")}
    phones["ben"].cookies[f"seat_{code}"] = f"2:{t['ben']}"
    phones["ana"].cookies[f"seat_{code}"] = f"1:{t['ana']}"
    phones["host"].cookies[f"host_{code}"] = t["host"]
    order = [first] + [name for name in phones if name != first]
    for _ in range(2):  # the second time round, every read is the cache's
        for name in order:
            for path in ("", "/live"):
                page = shown(phones[name], f"/t/{code}{path}")
                offered = "Your answer: Ana attacks your Peak Sentinel" in page
                assert offered == (name == "ben"), (name, path)
                assert ("Block it with Defence" in page) == (name == "ben"), (name, path)
    assert read(t)["state"]["position"]["pending"] is not None
