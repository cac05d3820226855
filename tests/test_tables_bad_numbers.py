"""Issue 30, finding 4: numbers and codes a hostile client sent to a table that reached a 500.

`²` or `①` in a page form's seat or version field (claim, the seat's form, the host's undo,
release, handover and new game), `?seat=²` on the host's page, `²` in a phone's seat cookie:
str.isdigit() said yes and int() raised. An If-Match of 5,000 digits passed Python's limit on
integer conversion; so did the catalog's page_size. A NUL in the table code or in `game` reached a
query (PostgreSQL refuses it: DataError). Each is now a 4xx (or, for what only chooses what a page
shows, the page as it is), and its legal neighbour still works. On SQLite here; the same tests run
on PostgreSQL (scripts/with-postgres), where the NUL cases were the 500s."""

import json

import pytest
from django.test import Client

from tables.models import Event, Table

pytestmark = pytest.mark.django_db

SUPERSCRIPT_TWO = "\u00b2"  # "²": isdigit() says yes, int() refuses it
CIRCLED_ONE = "\u2460"  # "①": likewise
NOT_INTS = [SUPERSCRIPT_TWO, CIRCLED_ONE]
FIVE_THOUSAND_DIGITS = "1" * 5000  # past Python's 4,300-digit limit on int()
HAND = (
    "Commander Tomalak\nCaptain Jean-Luc Picard\nCommander William Riker\nLieutenant Commander Data"
)


@pytest.fixture
def host():
    return Client()


@pytest.fixture
def code(host) -> str:
    """A Star Trek: Missions table started by `host` (the host cookie), seat 2 claimed by a
    phone."""
    response = host.post("/t/", {"game": "star-trek-missions", "players": "Ana\nBen\nCy"})
    assert response.status_code == 302, response.content.decode()[:300]
    made = response["Location"].rsplit("/", 1)[1]
    assert Client().post(f"/t/{made}/claim", {"seat": "2"}).status_code == 302
    return made


def version(code: str) -> int:
    return Table.objects.get(code=code).version


# --- The page forms ---------------------------------------------------------------------------


@pytest.mark.parametrize("seat", [*NOT_INTS, FIVE_THOUSAND_DIGITS])
def test_claiming_a_seat_named_by_a_non_ascii_digit_is_a_400(code, seat):
    before = version(code)
    response = Client().post(f"/t/{code}/claim", {"seat": seat})
    assert response.status_code == 400
    assert "Choose a seat to claim." in response.content.decode()
    assert version(code) == before
    assert Client().post(f"/t/{code}/claim", {"seat": "1"}).status_code == 302


@pytest.mark.parametrize("seat", NOT_INTS)
def test_the_hosts_seat_form_for_a_seat_named_by_a_non_ascii_digit_is_a_400(host, code, seat):
    response = host.post(f"/t/{code}/form", {"hand": HAND, "seat": seat})
    assert response.status_code == 400
    assert "names its seat: a number" in response.content.decode()
    assert not Event.objects.exists()
    assert host.post(f"/t/{code}/form", {"hand": HAND, "seat": "1"}).status_code == 302


@pytest.mark.parametrize("posted", [*NOT_INTS, FIVE_THOUSAND_DIGITS, "-1", "1.0"])
def test_the_seat_form_naming_a_version_that_is_no_number_is_a_400(host, code, posted):
    response = host.post(f"/t/{code}/form", {"hand": HAND, "seat": "1", "version": posted})
    assert response.status_code == 400
    assert "which is not a version" in response.content.decode()
    assert not Event.objects.exists()
    assert (
        host.post(
            f"/t/{code}/form", {"hand": HAND, "seat": "1", "version": str(version(code))}
        ).status_code
        == 302
    )


@pytest.mark.parametrize("action", ["undo", "new_game", "handover"])
@pytest.mark.parametrize("posted", NOT_INTS)
def test_a_host_action_naming_a_version_that_is_no_number_is_a_400(host, code, action, posted):
    before = version(code)
    response = host.post(f"/t/{code}/host", {"action": action, "version": posted, "seat": "2"})
    assert response.status_code == 400
    assert "which is not a version" in response.content.decode()
    assert version(code) == before


def test_the_legal_neighbours_of_the_host_actions_act(host, code):
    assert host.post(f"/t/{code}/form", {"hand": HAND, "seat": "1"}).status_code == 302
    # A new game with the table's version reaches the game, which wants every hand first.
    response = host.post(f"/t/{code}/host", {"action": "new_game", "version": str(version(code))})
    assert response.status_code == 400
    assert "have not entered a hand" in response.content.decode()
    assert "which is not a version" not in response.content.decode()
    for action in ("undo", "handover"):
        response = host.post(
            f"/t/{code}/host", {"action": action, "version": str(version(code)), "seat": "2"}
        )
        assert response.status_code == 302, (action, response.content.decode()[-600:])
    assert Table.objects.get(code=code).host_seat == 2


@pytest.mark.parametrize("action", ["release", "handover"])
@pytest.mark.parametrize("seat", [*NOT_INTS, FIVE_THOUSAND_DIGITS])
def test_a_host_action_naming_a_seat_that_is_no_number_is_a_400(host, code, action, seat):
    before = version(code)
    response = host.post(f"/t/{code}/host", {"action": action, "seat": seat})
    assert response.status_code == 400
    assert version(code) == before
    assert Table.objects.get(code=code).seats.get(number=2).claimed


def test_the_host_releases_a_seat_named_by_its_number(host, code):
    assert host.post(f"/t/{code}/host", {"action": "release", "seat": "2"}).status_code == 302
    assert not Table.objects.get(code=code).seats.get(number=2).claimed


# --- What only chooses what the page shows -------------------------------------------------------


@pytest.mark.parametrize("seat", NOT_INTS)
def test_the_hosts_page_asked_for_seat_of_a_non_ascii_digit_shows_the_table(host, code, seat):
    response = host.get(f"/t/{code}", {"seat": seat})
    assert response.status_code == 200
    assert "You are the host" in response.content.decode()
    assert host.get(f"/t/{code}", {"seat": "2"}).status_code == 200


# A server hands a header over (WSGI) as its bytes read as Latin-1: "²" is the byte B2 on the
# wire, "①" its UTF-8 bytes (three Latin-1 characters, none a digit).
@pytest.mark.parametrize(
    "number",
    [SUPERSCRIPT_TWO, "\u00b9\u00b3", FIVE_THOUSAND_DIGITS, CIRCLED_ONE.encode().decode("latin-1")],
)
def test_a_seat_cookie_of_a_non_ascii_digit_is_no_seat(code, number):
    phone = Client()
    phone.cookies[f"seat_{code}"] = f"{number}:sometoken"
    response = phone.get(f"/t/{code}")
    assert response.status_code == 200
    assert "I am Ana (seat 1)" in response.content.decode()  # offered: this phone holds none


def test_a_seat_cookie_of_the_seats_number_and_token_is_the_seat(code):
    phone = Client()
    assert phone.post(f"/t/{code}/claim", {"seat": "1"}).status_code == 302
    assert "You are Ana (seat 1)" in phone.get(f"/t/{code}").content.decode()


# --- Headers and the API ------------------------------------------------------------------------


def test_an_if_match_of_5000_digits_is_a_400_invalid_etag(api, host, code):
    table = Table.objects.get(code=code)
    token = host.cookies[f"host_{code}"].value
    before = table.version
    response = api.delete(
        f"/api/tables/{code}/events/last/",
        HTTP_AUTHORIZATION=f"Bearer {token}",
        HTTP_IF_MATCH=f'"v{FIVE_THOUSAND_DIGITS}"',
    )
    body = response.json()
    assert response.status_code == 400, body
    assert body["errors"][0]["code"] == "invalid_etag"
    assert version(code) == before
    # Its neighbour: a plain version, the table's own, reaches the undo (nothing to undo yet).
    response = api.delete(
        f"/api/tables/{code}/events/last/",
        HTTP_AUTHORIZATION=f"Bearer {token}",
        HTTP_IF_MATCH=f'"v{before}"',
    )
    assert response.status_code == 409 and response.json()["code"] == "nothing_to_undo"


@pytest.mark.parametrize("header", [f'"v{SUPERSCRIPT_TWO}"', '"v\u0663"', '"v-1"', '"v1.0"'])
def test_an_if_match_of_anything_but_ascii_digits_is_a_400_invalid_etag(api, host, code, header):
    token = host.cookies[f"host_{code}"].value
    response = api.delete(
        f"/api/tables/{code}/events/last/",
        HTTP_AUTHORIZATION=f"Bearer {token}",
        HTTP_IF_MATCH=header,
    )
    assert response.status_code == 400 and response.json()["errors"][0]["code"] == "invalid_etag"


@pytest.mark.parametrize("path", ["/api/tables/{bad}/", "/t/{bad}", "/t/{bad}/live"])
def test_a_nul_in_the_table_code_is_a_404(api, code, path):
    bad = code[:4] + "%00" + code[4:]
    response = api.get(path.format(bad=bad))
    assert response.status_code == 404
    assert api.get(path.format(bad=code)).status_code == 200


def test_a_nul_in_the_table_code_of_the_api_answers_unknown_table(api, code):
    response = api.post(f"/api/tables/{code}%00/seats/1/claim/")
    assert response.status_code == 404 and response.json()["code"] == "unknown_table"


def test_a_nul_in_the_game_is_an_unknown_game(api):
    response = api.post(
        "/api/tables/",
        json.dumps({"game": "star-trek\u0000missions", "players": ["Ana", "Ben"]}),
        content_type="application/json",
    )
    body = response.json()
    assert response.status_code == 400, body
    assert body["errors"][0]["code"] == "unknown_game"
    page = Client().post("/t/", {"game": "star-trek\x00missions", "players": "Ana\nBen"})
    assert page.status_code == 400
    assert not Table.objects.exists()
    assert (
        Client().post("/t/", {"game": "star-trek-missions", "players": "Ana\nBen"}).status_code
        == 302
    )


@pytest.mark.parametrize(
    "url", ["/api/games/academy-credits/cards/", "/games/academy-credits/cards/"]
)
def test_a_catalog_page_size_of_5000_digits_is_a_400(client, url):
    response = client.get(url, {"page_size": FIVE_THOUSAND_DIGITS})
    assert response.status_code == 400
    assert client.get(url, {"page_size": "5"}).status_code == 200


@pytest.mark.parametrize("value", ["\u0663", "\uff13", "3_0", "+-3", FIVE_THOUSAND_DIGITS[:150]])
def test_a_catalog_number_filter_of_anything_but_ascii_digits_is_a_400(client, value):
    # The same parser reads an integer attribute's filter: "٣" (int() reads it as 3) is refused,
    # like "²", rather than read as a number.
    response = client.get("/api/games/academy-credits/cards/", {"value": value})
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "invalid_filter"
    found = client.get("/api/games/academy-credits/cards/", {"value": "3"})
    assert found.status_code == 200 and found.json()["count"] >= 1
    for spelled in ("03", "+3"):
        assert (
            client.get("/api/games/academy-credits/cards/", {"value": spelled}).json()["count"]
            == found.json()["count"]
        )
