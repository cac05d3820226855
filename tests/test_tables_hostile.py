"""Issue 30: no input to a table is a 5xx. Hypothesis drives every table endpoint and every page
form of a table with hostile values in each place a client chooses: the path (the table code, the
seat, the asked kind and version), the query (`?seat=`, `?game=`), the form fields (seat, version,
action, the hand, the players), the JSON body (game, players, kind, seat, version, body), the
cookies (a seat's, the host's) and the headers (`If-Match`, `If-None-Match`, `Authorization`).
Every answer must be below 500. In-process through Django's test client (fast); on SQLite here and
on PostgreSQL under scripts/with-postgres, where a NUL reaching a query was a 500.

The hostile values: text that str.isdigit() takes for a number and int() does not ("²", "①"),
digits int() reads but are no ASCII ("٣", "１"), numbers past every column and past Python's
4,300-digit limit, negative and fractional numbers, NUL, invalid UTF-8 (a lone surrogate's bytes,
0xFF, Latin-1 "²"), escaped lone surrogates in JSON, empty text, and random text and integers.

Examples: EXAMPLES (12) per test, 13 tests: 156 examples, about 250 requests, some seconds in all.
The probe of issue 30 found its 25 failures among 173 bad inputs; here the known-bad values come
first and are about half the draws (every one of those 500s is also an explicit test in
tests/test_tables_bad_numbers.py), and more examples would slow the suite, which is kept fast,
without reaching other code."""

import json
from urllib.parse import quote, quote_from_bytes

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

EXAMPLES = 12
HAND = (
    "Commander Tomalak\nCaptain Jean-Luc Picard\nCommander William Riker\nLieutenant Commander Data"
)
BIG = "1" * 5000  # past Python's limit on int()
KNOWN_BAD = [
    "\u00b2",
    "\u2460",
    "\u0663",
    "\uff11",
    "1\u00b2",
    BIG,
    "9" * 19,
    "2147483648",
    "-1",
    "-0",
    "+1",
    "1.5",
    "1e3",
    "0x1f",
    " 1 ",
    "1_0",
    "",
    " ",
    "\x00",
    "1\x00",
    "a\x00b",
    "\u202e1",
    "null",
    "NaN",
    "0",
    "1",
    "2",
    "3",
    "v1",
    '"v1"',
    'W/"v1"',
    '"v' + BIG + '"',
    '"v\u00b2"',
]
BAD_BYTES = [b"\xed\xa0\x80", b"\xff", b"\xb2", b"1\xed\xa0\x80", b"%", b"\x00"]

# Known-bad values first (hypothesis starts from a strategy's first branch and first element):
# half the draws are known-bad text or bytes, half random text and integers.
texts = st.one_of(
    st.sampled_from(KNOWN_BAD), st.text(max_size=24), st.integers(-(2**70), 2**70).map(str)
)
raw = st.one_of(
    st.sampled_from(KNOWN_BAD).map(str.encode),
    st.sampled_from(BAD_BYTES),
    st.text(max_size=24).map(str.encode),
    st.integers(-(2**70), 2**70).map(lambda number: str(number).encode()),
)
json_leaf = st.one_of(
    texts,
    st.integers(-(2**70), 2**70),
    st.floats(),
    st.booleans(),
    st.none(),
    st.sampled_from(["\ud800", "__BIG__"]),
)
json_values = st.recursive(
    json_leaf,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(texts, children, max_size=3),
    max_leaves=6,
)
# Where a number is read (a seat, a version, a page size): numbers int() or isdigit() misread
# first, then any hostile value; where an ETag is read: tags holding such numbers first.
NUMBERISH = [
    "\u00b2",
    "\u2460",
    BIG,
    "\u0663",
    "\uff11",
    "-1",
    "1.5",
    "9" * 19,
    "2147483648",
    "1\x00",
]
numbers = st.one_of(st.sampled_from(NUMBERISH).map(str.encode), raw)
etags = st.one_of(st.sampled_from([f'"v{number}"' for number in NUMBERISH]).map(str.encode), raw)

# derandomize: the same examples on every run and machine, so a failure is reproduced by running
# the test again (the known-bad values above are where the probe found its 500s).
hostile_settings = settings(
    max_examples=EXAMPLES, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)


def as_header(value: bytes) -> str:
    """A header or cookie value as a server hands it to Django (WSGI): its bytes as Latin-1."""
    return value.replace(b"\r", b"").replace(b"\n", b"").decode("latin-1")


def as_json(value) -> str:
    """The body as JSON text; "__BIG__" is a number of 5,000 digits (json.dumps would not write
    one: Python's limit)."""
    return json.dumps(value).replace('"__BIG__"', BIG)


def form(**fields: bytes) -> str:
    """An urlencoded form whose values are raw bytes (invalid UTF-8 included)."""
    return "&".join(
        f"{quote(name)}={quote_from_bytes(value, safe='')}" for name, value in fields.items()
    )


def segment(value: bytes) -> str:
    return quote_from_bytes(value, safe="")


@pytest.fixture
def table():
    """A Star Trek: Missions table of three, seat 2 claimed: (code, host token, seat 2's
    token)."""
    api = APIClient()
    made = api.post(
        "/api/tables/",
        {"game": "star-trek-missions", "players": ["Ana", "Ben", "Cy"]},
        format="json",
    ).json()
    seat = api.post(f"/api/tables/{made['code']}/seats/2/claim/").json()["seat_token"]
    return made["code"], made["host_token"], seat


# The table's own code most often (the other values then reach the view), else hostile text.
codes = st.one_of(
    st.just("CODE"),
    st.just("CODE"),
    raw.map(segment),
    raw.map(lambda value: "CODE" + segment(value)),
)


def path_code(drawn: str, code: str) -> str:
    return drawn.replace("CODE", code)


def token_of(data, table) -> str:
    _, host, seat = table
    return data.draw(st.one_of(st.just(host), st.just(seat), raw.map(as_header)), label="token")


def check(response) -> None:
    assert response.status_code < 500, (response.status_code, response.content[:500])


def post_form(client, path: str, **fields: bytes):
    return client.post(path, form(**fields), content_type="application/x-www-form-urlencoded")


def host_client(table) -> Client:
    code, host, _ = table
    client = Client()
    client.cookies[f"host_{code}"] = host
    return client


# --- The API --------------------------------------------------------------------------------------


@hostile_settings
@given(data=st.data())
def test_api_create(data):
    body = {
        "game": data.draw(st.one_of(json_values, st.just("star-trek-missions"))),
        "players": data.draw(st.one_of(json_values, st.lists(json_values, max_size=5))),
    }
    check(APIClient().post("/api/tables/", as_json(body), content_type="application/json"))


@hostile_settings
@given(data=st.data())
def test_api_read(table, data):
    code = path_code(data.draw(codes), table[0])
    held = as_header(data.draw(etags))
    check(APIClient().get(f"/api/tables/{code}/", HTTP_IF_NONE_MATCH=held))


@hostile_settings
@given(data=st.data())
def test_api_claim_and_release(table, data):
    code = path_code(data.draw(codes), table[0])
    seat = segment(data.draw(numbers))
    api = APIClient()
    check(api.post(f"/api/tables/{code}/seats/{seat}/claim/"))
    check(
        api.delete(
            f"/api/tables/{code}/seats/{seat}/claim/",
            HTTP_AUTHORIZATION=f"Bearer {token_of(data, table)}",
        )
    )


@hostile_settings
@given(data=st.data())
def test_api_event(table, data):
    code = path_code(data.draw(codes), table[0])
    body = {
        "kind": data.draw(st.one_of(st.sampled_from(["hand", "new_game", "ruling"]), json_values)),
        "seat": data.draw(json_values),
        "version": data.draw(json_values),
        "body": data.draw(st.one_of(st.just({"hand": HAND.split("\n")}), json_values)),
    }
    check(
        APIClient().post(
            f"/api/tables/{code}/events/",
            as_json(body),
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {token_of(data, table)}",
        )
    )


@hostile_settings
@given(data=st.data())
def test_api_undo(table, data):
    code = path_code(data.draw(codes), table[0])
    body = data.draw(st.one_of(st.none(), st.builds(lambda v: {"version": v}, json_values)))
    headers = {
        "HTTP_AUTHORIZATION": f"Bearer {token_of(data, table)}",
        "HTTP_IF_MATCH": as_header(data.draw(etags)),
    }
    check(
        APIClient().delete(
            f"/api/tables/{code}/events/last/",
            as_json(body) if body is not None else "",
            content_type="application/json",
            **headers,
        )
    )


@hostile_settings
@given(data=st.data())
def test_api_handover(table, data):
    code = path_code(data.draw(codes), table[0])
    body = {"seat": data.draw(json_values), "version": data.draw(json_values)}
    check(
        APIClient().post(
            f"/api/tables/{code}/host/",
            as_json(body),
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {token_of(data, table)}",
        )
    )


# --- The pages ----------------------------------------------------------------------------------


@hostile_settings
@given(data=st.data())
def test_page_start(data):
    client = Client()
    check(client.get("/t/?game=" + segment(data.draw(raw))))
    check(
        post_form(
            client,
            "/t/",
            game=data.draw(st.one_of(st.just(b"star-trek-missions"), raw)),
            players=b"\n".join(data.draw(st.lists(raw, max_size=5))),
        )
    )


def browser(data, table) -> Client:
    """A browser holding what hypothesis draws: no cookie, the host's, or a seat cookie of
    hostile text (or seat 2's own)."""
    code, host, seat = table
    client = Client()
    which = data.draw(st.sampled_from(["host", "hostile", "seat", "none"]), label="browser")
    if which == "host":
        client.cookies[f"host_{code}"] = host
    elif which == "seat":
        client.cookies[f"seat_{code}"] = f"2:{seat}"
    elif which == "hostile":
        client.cookies[f"seat_{code}"] = as_header(data.draw(numbers)) + ":" + seat
        client.cookies[f"host_{code}"] = as_header(data.draw(raw))
    return client


@hostile_settings
@given(data=st.data())
def test_page_table_and_live(table, data):
    client = browser(data, table)
    code = path_code(data.draw(codes), table[0])
    check(client.get(f"/t/{code}?seat=" + segment(data.draw(numbers))))
    check(client.get(f"/t/{code}/live", HTTP_IF_NONE_MATCH=as_header(data.draw(etags))))


@hostile_settings
@given(data=st.data())
def test_page_claim(table, data):
    code = path_code(data.draw(codes), table[0])
    check(post_form(browser(data, table), f"/t/{code}/claim", seat=data.draw(numbers)))


@hostile_settings
@given(data=st.data())
def test_page_seat_form(table, data):
    code = path_code(data.draw(codes), table[0])
    fields = {
        "hand": data.draw(st.one_of(st.just(HAND.encode()), raw)),
        "seat": data.draw(numbers),
        "version": data.draw(numbers),
    }
    if data.draw(st.booleans(), label="preview"):
        fields["preview"] = b"1"
    check(post_form(browser(data, table), f"/t/{code}/form", **fields))


@hostile_settings
@given(data=st.data())
def test_page_host_actions(table, data):
    code = path_code(data.draw(codes), table[0])
    action = data.draw(
        st.one_of(
            st.sampled_from([b"undo", b"new_game", b"new_match", b"release", b"handover"]), raw
        )
    )
    check(
        post_form(
            host_client(table),
            f"/t/{code}/host",
            action=action,
            seat=data.draw(numbers),
            version=data.draw(numbers),
        )
    )


@hostile_settings
@given(data=st.data())
def test_page_ask(table, data):
    code = path_code(data.draw(codes), table[0])
    kind = data.draw(st.one_of(st.sampled_from(["score", "ruling"]), raw.map(segment)))
    version = data.draw(st.one_of(st.integers(0, 2**70).map(str), numbers.map(segment)))
    client = browser(data, table)
    check(client.get(f"/t/{code}/ask/{kind}/{version}?seat=" + segment(data.draw(numbers))))
    check(
        post_form(
            client, f"/t/{code}/ask/{kind}/{version}", seat=data.draw(numbers), hand=data.draw(raw)
        )
    )


# --- The catalog's numbers (the same parser) ------------------------------------------------------


@hostile_settings
@given(data=st.data())
def test_catalog_page_size_and_page(data):
    client = Client()
    for url in ("/api/games/academy-credits/cards/", "/games/academy-credits/cards/"):
        query = f"page_size={segment(data.draw(numbers))}&page={segment(data.draw(numbers))}"
        check(client.get(f"{url}?{query}"))
