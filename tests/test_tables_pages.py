"""The table's pages (issue 25), without JavaScript: start a table (the browser becomes the host),
open /t/<code> from another browser, claim a seat (a cookie), enter a hand, see who has entered
and, once all have, the standings and the history with its /r/<id> links; the QR code of the
link is inline SVG; /t/<code>/live, what htmx polls, answers 304 from one query while the table
is unchanged."""

import html as html_lib
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tables.models import Table

pytestmark = pytest.mark.django_db

TOMALAK = [
    "Commander Tomalak",
    "Captain Jean-Luc Picard",
    "Commander William Riker",
    "Lieutenant Commander Data",
]  # 13
HOLODECK = ["Holodeck 1", "Leah Brahms"]  # 13


def text(response) -> str:
    """The page's visible words, roughly: tags out, spaces squeezed."""
    html = response.content.decode()
    html = re.sub(r"<(script|style|svg)\b.*?</\1>", " ", html, flags=re.S)
    return html_lib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def start(client, players="Ana\nBen") -> str:
    response = client.post("/t/", {"game": "star-trek-missions", "players": players})
    assert response.status_code == 302, response.content.decode()[:500]
    return response["Location"].rsplit("/", 1)[1]


def test_start_a_table_from_its_form_makes_this_browser_the_host():
    host = Client()
    form = host.get("/t/")
    assert form.status_code == 200
    assert "Start a table" in text(form) and "Star Trek: Missions" in text(form)
    code = start(host)
    page = host.get(f"/t/{code}")
    assert page.status_code == 200
    words = text(page)
    assert "You are the host" in words
    assert "Ana" in words and "Ben" in words and "Undo the last entry" in words
    # The QR code: inline SVG, drawn by segno, of the table's own link.
    html = page.content.decode()
    assert re.search(r'<svg[^>]*class="table-qr__code"', html)
    assert f"http://testserver/t/{code}" in words
    assert "style=" not in html.split('class="table-qr"')[1].split("</div>")[0]


def test_a_table_that_cannot_start_says_why_on_the_form():
    response = Client().post("/t/", {"game": "star-trek-missions", "players": "Ana"})
    assert response.status_code == 400
    assert "The table has 1 player; Star Trek: Missions is played by" in text(response)
    assert not Table.objects.exists()


def test_three_browsers_claim_their_seats_and_see_the_standings():
    host = Client()
    code = start(host)
    ana, ben, onlooker = Client(), Client(), Client()
    assert "I am Ana (seat 1)" in text(ana.get(f"/t/{code}"))
    claimed = ana.post(f"/t/{code}/claim", {"seat": "1"})
    assert claimed.status_code == 302
    assert "You are Ana (seat 1)" in text(ana.get(f"/t/{code}"))
    # Seat 1 is no longer offered to the others; seat 2 is.
    words = text(ben.get(f"/t/{code}"))
    assert "I am Ana" not in words and "I am Ben (seat 2)" in words
    assert ben.post(f"/t/{code}/claim", {"seat": "2"}).status_code == 302
    # Claiming a claimed seat is refused on the page.
    refused = onlooker.post(f"/t/{code}/claim", {"seat": "1"})
    assert refused.status_code == 409 and "already claimed" in text(refused)

    assert ana.post(f"/t/{code}/form", {"hand": "\n".join(TOMALAK)}).status_code == 302
    words = text(onlooker.get(f"/t/{code}"))
    assert "Waiting for: Ben" in words and "Ana entered a hand: 13 points" in words
    # Ana's form said version 3; Ben's page was read before: the page re-applies on the new one.
    stale = ben.post(f"/t/{code}/form", {"hand": "\n".join(HOLODECK), "version": "1"})
    assert stale.status_code == 302
    page = onlooker.get(f"/t/{code}")
    words = text(page)
    assert "Ana, Ben share victory." in words
    links = re.findall(r'href="(/r/[a-z0-9]+)"', page.content.decode())
    assert len(links) == 3  # each hand's breakdown and the whole table's score
    assert Client().get(links[-1]).status_code == 200


def test_a_card_already_in_another_hand_is_shown_and_nothing_changes():
    host = Client()
    code = start(host)
    assert (
        host.post(f"/t/{code}/form", {"seat": "1", "hand": "\n".join(TOMALAK)}).status_code == 302
    )
    response = host.post(
        f"/t/{code}/form", {"seat": "2", "hand": "Leah Brahms\nCommander William Riker"}
    )
    assert response.status_code == 400
    words = text(response)
    assert "Commander William Riker is in Ana's hand (seat 1) and in Ben's hand (seat 2)" in words
    # What was typed stays in the form to be corrected.
    assert (
        "Leah Brahms"
        in response.content.decode().split('id="hand-cards"')[1].split("</textarea>")[0]
    )


def test_a_browser_without_a_seat_cannot_enter_a_hand():
    code = start(Client())
    response = Client().post(f"/t/{code}/form", {"hand": "\n".join(TOMALAK)})
    assert response.status_code == 401
    assert Table.objects.get(code=code).state["hands"] == [None, None]


def test_the_host_undoes_from_the_page_the_entry_it_saw():
    host = Client()
    code = start(host)
    host.post(f"/t/{code}/form", {"seat": "2", "hand": "\n".join(HOLODECK)})
    assert Table.objects.get(code=code).state["hands"] == [None, 13]
    page = host.get(f"/t/{code}").content.decode()
    # The undo sits in the polled history and names the version (and the entry) the host sees.
    undo = page.split('value="undo"')[1].split("</form>")[0]
    seen = Table.objects.get(code=code).version
    assert f'name="version" value="{seen}"' in undo and "Undo entry 1" in undo
    assert Client().post(f"/t/{code}/host", {"action": "undo", "version": seen}).status_code == 401
    # Another entry arrives after the host's page was drawn: the undo it shows is stale, refused,
    # and nothing is undone; the neighbour naming the current version undoes the new entry.
    host.post(f"/t/{code}/form", {"seat": "1", "hand": "\n".join(TOMALAK)})
    stale = host.post(f"/t/{code}/host", {"action": "undo", "version": seen})
    assert stale.status_code == 409
    assert "The table changed just now" in stale.content.decode()
    assert Table.objects.get(code=code).state["hands"] == [13, 13]
    now = Table.objects.get(code=code).version
    assert host.post(f"/t/{code}/host", {"action": "undo", "version": now}).status_code == 302
    assert Table.objects.get(code=code).state["hands"] == [None, 13]
    # A form naming no version undoes nothing.
    assert host.post(f"/t/{code}/host", {"action": "undo"}).status_code == 400
    assert Table.objects.get(code=code).state["hands"] == [None, 13]


def test_the_polled_part_is_a_304_from_one_query_while_nothing_changes():
    host = Client()
    code = start(host)
    first = Client().get(f"/t/{code}/live")
    assert first.status_code == 200 and 'hx-trigger="every 2s"' in first.content.decode()
    etag = first["ETag"]
    with CaptureQueriesContext(connection) as queries:
        again = Client().get(f"/t/{code}/live", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and len(queries.captured_queries) == 1
    host.post(f"/t/{code}/form", {"seat": "1", "hand": "\n".join(TOMALAK)})
    changed = Client().get(f"/t/{code}/live", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and "Ana entered a hand" in text(changed)


def test_an_unknown_table_is_a_404_page():
    assert Client().get("/t/nosuchtable").status_code == 404
    assert Client().get("/t/nosuchtable/live").status_code == 404


def test_academy_credits_rounds_from_the_page_to_a_match_winner():
    host = Client()
    response = host.post("/t/", {"game": "academy-credits", "players": "Ana\nBen"})
    code = response["Location"].rsplit("/", 1)[1]
    ben = Client()
    assert ben.post(f"/t/{code}/claim", {"seat": "2"}).status_code == 302
    page = ben.get(f"/t/{code}")
    assert "Score sheet" in text(page) and "Score the round" in text(page)
    # Ana is the last cadet standing: one credit a round; the target for two cadets is 4.
    form = {"in_round_1": "1", "discards_1": "1, 4", "discards_2": "Lura Thok", "deck_count": "7"}
    for number in range(1, 5):
        version = str(Table.objects.get(code=code).version)
        assert ben.post(f"/t/{code}/form", {**form, "version": version}).status_code == 302
        words = text(Client().get(f"/t/{code}"))
        if number < 4:
            assert f"{number} round{'s' if number > 1 else ''} played." in words
            assert "Ana starts the next round." in words
    words = text(Client().get(f"/t/{code}"))
    assert "Ana wins the match." in words
    assert "1 Ana Free 4 of 4" in words and "2 Ben Claimed 0 of 4" in words
    assert Table.objects.get(code=code).state["round"] == 4
    # A stale form (a round already scored by another phone) is not re-applied: it says what
    # changed since.
    stale = ben.post(f"/t/{code}/form", {**form, "version": "1"})
    assert stale.status_code == 409 and "This round is not entered yet" in text(stale)
    assert "Since you opened this form, Ben (seat 2) sent entry 1 (round)" in text(stale)
    assert Table.objects.get(code=code).state["round"] == 4


@pytest.mark.parametrize(
    ("game", "offered"),
    [
        ("star-trek-missions", True),
        ("academy-credits", True),
        ("factions", True),
        ("star-realms-academy", True),
    ],
)
def test_a_games_page_offers_a_table_where_tables_of_it_are_kept(game, offered):
    page = Client().get(f"/games/{game}/")
    assert page.status_code == 200
    link = f'href="/t/?game={game}"'
    assert (link in page.content.decode()) is offered
    if offered:
        form = Client().get(f"/t/?game={game}").content.decode()
        assert re.search(rf'<option value="{game}" selected>', form)
