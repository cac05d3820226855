"""The game's own pages asked at a table (issue 25: "every ruling and score asked at the table
starts from the table's state, and every answer is an event in the table's history with its
/r/<id>"). From /t/<code> each job of the game opens its page at /t/<code>/ask/<kind>/<version>:
the form filled in with what the table knows (Academy Credits: the cadets and their credits, who
starts), and an answer given there by a seat's phone (or the host's) is the table's event, in the
history with its /r/<id>; a changed credit, a stale version and a phone without a seat are
refused and change nothing. Without JavaScript (Django's client)."""

import html as html_lib
import re

import pytest
from django.http import QueryDict
from django.test import Client

from games.star_trek_missions.turn_pages import turn_link_pairs
from results.models import SavedResult
from tables.models import Table

pytestmark = pytest.mark.django_db


def text(response) -> str:
    html = response.content.decode()
    html = re.sub(r"<(script|style|svg)\b.*?</\1>", " ", html, flags=re.S)
    return html_lib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def text_of(html: str) -> str:
    return html_lib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))).strip()


def field(html: str, name: str) -> str | None:
    """The value of the input named `name` ("" when empty), None when the page has none."""
    tag = re.search(rf'<input[^>]*\bname="{re.escape(name)}"[^>]*>', html)
    if tag is None:
        return None
    value = re.search(r'\bvalue="([^"]*)"', tag.group(0))
    return html_lib.unescape(value.group(1)) if value else ""


def ac_table(players="Ana\nBen") -> tuple[str, Client, Client]:
    host = Client()
    code = host.post("/t/", {"game": "academy-credits", "players": players})["Location"].rsplit(
        "/", 1
    )[1]
    ben = Client()
    assert ben.post(f"/t/{code}/claim", {"seat": "2"}).status_code == 302
    return code, host, ben


def stm_table() -> tuple[str, Client, Client]:
    """A Star Trek: Missions table of Ana and Ben: (its code, the host's client, Ana's phone,
    seat 1 claimed)."""
    host = Client()
    code = host.post("/t/", {"game": "star-trek-missions", "players": "Ana\nBen"})[
        "Location"
    ].rsplit("/", 1)[1]
    ana = Client()
    assert ana.post(f"/t/{code}/claim", {"seat": "1"}).status_code == 302
    return code, host, ana


def ask_links(client: Client, code: str) -> dict[str, str]:
    """The table page's links to the game's pages: {label: address}."""
    page = client.get(f"/t/{code}").content.decode()
    return {
        label: url
        for url, label in re.findall(r'<a href="(/t/[a-z0-9]+/ask/[a-z]+/\d+)">([^<]+)</a>', page)
    }


# Ana is the last cadet standing (Ben out): the round's score gives her a credit.
ROUND = {
    "player-1-discards": "1, 4",
    "player-2-discards": "Lura Thok",
    "player-2-out": "on",
    "deck_count": "7",
}


def the_form(html: str) -> dict[str, str]:
    """The round form's fields as the page filled them in (names and credits)."""
    return {
        name: field(html, name) or ""
        for name in ("player-1-name", "player-1-credits", "player-2-name", "player-2-credits")
    }


def test_a_round_scored_on_the_games_page_at_the_table_is_the_tables_round():
    code, host, ben = ac_table()
    links = ask_links(ben, code)
    assert set(links) == {"Check a move", "Score a round"}
    version = Table.objects.get(code=code).version
    assert links["Score a round"] == f"/t/{code}/ask/score/{version}"

    page = ben.get(links["Score a round"])
    assert page.status_code == 200
    words = text(page)
    assert f"At table {code}" in words and "as Ben (seat 2)" in words
    assert "Back to the table" in words
    filled = the_form(page.content.decode())
    assert filled == {
        "player-1-name": "Ana",
        "player-1-credits": "0",
        "player-2-name": "Ben",
        "player-2-credits": "0",
    }
    # Opening the page asks nothing yet: the table is as it was.
    assert (
        Table.objects.get(code=code).version == version
        and not Table.objects.get(code=code).events.exists()
    )

    answer = ben.post(links["Score a round"], {**filled, **ROUND})
    assert answer.status_code == 200, text(answer)[:800]
    table = Table.objects.get(code=code)
    assert table.state["credits"] == {"Ana": 1, "Ben": 0} and table.state["round"] == 1
    event = table.events.get()
    assert (event.kind, event.seat, event.by_host) == ("round", 2, False)
    # What the table knows (the credits) is not in the event's body; the answer is saved.
    assert all("credits" not in player for player in event.body["players"])
    assert SavedResult.objects.filter(pk=event.result["id"]).exists()
    assert event.result["url"] in answer.content.decode()

    # The table's page shows it in the history, with its /r/<id>, and the new credits.
    words = text(host.get(f"/t/{code}"))
    assert "Round scored: Ana won it" in words and "1 Ana Free 1" in words
    assert f'href="{event.result["url"]}"' in host.get(f"/t/{code}").content.decode()

    # The next round's form starts from the new credits and knows who starts.
    page = ben.get(ask_links(ben, code)["Score a round"]).content.decode()
    assert the_form(page)["player-1-credits"] == "1"
    assert re.search(r'<option value="1" selected>', page)  # the starter: Ana, seat 1


def test_a_credit_changed_on_the_form_a_stale_form_and_a_phone_without_a_seat_are_refused():
    code, host, ben = ac_table()
    url = ask_links(ben, code)["Score a round"]
    filled = the_form(ben.get(url).content.decode())

    changed = ben.post(url, {**filled, **ROUND, "player-1-credits": "3"})
    assert changed.status_code == 400
    assert "The table has Ana at 0 credits, not 3" in text(changed)
    assert not Table.objects.get(code=code).events.exists()

    onlooker = Client()
    refused = onlooker.post(url, {**filled, **ROUND})
    assert refused.status_code == 400 and "Claim your seat at the table first" in text(refused)
    assert "Claim your seat at the table" in text(onlooker.get(url))
    assert not Table.objects.get(code=code).events.exists()

    # The host scores the round from the table's own form: Ben's open page is now stale.
    host.post(
        f"/t/{code}/form",
        {
            "in_round_1": "1",
            "discards_1": "1, 4",
            "discards_2": "Lura Thok",
            "deck_count": "7",
            "version": str(Table.objects.get(code=code).version),
        },
    )
    assert Table.objects.get(code=code).state["round"] == 1
    stale = ben.post(url, {**filled, **ROUND})
    assert stale.status_code == 400
    assert "Not entered at the table: since this form was filled in" in text(stale)
    assert "Ana (seat 1) sent entry 1 (round)" in text(stale)
    # Next to the form's buttons too, and the form now names the table's version: the next tap
    # is decided on the table as it is (here the credits have changed: the form says so then).
    assert 'id="form-conflict"' in stale.content.decode()
    now = Table.objects.get(code=code).version
    assert field(stale.content.decode(), "table_version") == str(now)
    again = ben.post(url, {**filled, **ROUND, "table_version": str(now)})
    assert again.status_code == 400 and "table_knows" not in text(again)
    assert "The table has Ana at" in text(again)
    assert Table.objects.get(code=code).state["round"] == 1
    # The old link opens the form again from the table as it is now.
    reopened = ben.get(url, follow=True)
    assert (
        reopened.redirect_chain and the_form(reopened.content.decode())["player-1-credits"] == "1"
    )


def test_after_a_conflict_the_round_page_shows_the_tables_credits_and_keeps_the_round():
    """Issue 29: the page refused for a round scored since shows the credits (and who starts)
    as the table has them now, with the round as typed, so the form as shown enters in one
    tap; its legal neighbour, the page's old credits sent again, is still refused."""
    code, host, ben = ac_table()
    url = ask_links(ben, code)["Score a round"]
    filled = the_form(ben.get(url).content.decode())
    assert filled["player-1-credits"] == "0"
    host.post(
        f"/t/{code}/form",
        {
            "in_round_1": "1",
            "discards_1": "1, 4",
            "discards_2": "Lura Thok",
            "deck_count": "7",
            "version": str(Table.objects.get(code=code).version),
        },
    )
    credits = Table.objects.get(code=code).state["credits"]
    assert credits["Ana"] == 1

    stale = ben.post(url, {**filled, **ROUND})
    assert stale.status_code == 400 and 'id="form-conflict"' in stale.content.decode()
    shown = stale.content.decode()
    assert the_form(shown) == {
        "player-1-name": "Ana",
        "player-1-credits": "1",
        "player-2-name": "Ben",
        "player-2-credits": "0",
    }
    assert re.search(r'<option value="1" selected>', shown)  # who starts: Ana, as the table
    assert field(shown, "player-1-discards") == "1, 4"
    assert field(shown, "player-2-discards") == "Lura Thok"
    assert re.search(r'<input[^>]*name="player-2-out"[^>]*checked', shown)
    assert field(shown, "deck_count") == "7"
    assert Table.objects.get(code=code).state["round"] == 1

    # The old credits sent again are refused: the table keeps the credits.
    now = field(shown, "table_version")
    old = ben.post(url, {**filled, **ROUND, "table_version": now})
    assert old.status_code == 400 and "The table has Ana at 1 credit" in text(old)
    # The form as shown: one tap.
    again = ben.post(
        url,
        {
            **the_form(shown),
            **ROUND,
            "starter": "1",
            "table_version": now,
            "entry_key": field(shown, "entry_key"),
        },
    )
    assert again.status_code == 200, text(again)[:600]
    assert Table.objects.get(code=code).state["round"] == 2


def test_a_ruling_asked_at_the_table_starts_from_its_cadets_and_is_in_the_history():
    code, host, ben = ac_table()
    url = ask_links(host, code)["Check a move"]
    page = host.get(url)
    words = text(page)
    assert "as the host" in words
    html = page.content.decode()
    assert field(html, "player-1-name") == "Ana" and field(html, "player-2-name") == "Ben"
    answer = host.post(
        url,
        {
            "player-1-name": "Ana",
            "player-2-name": "Ben",
            "turn": "1",
            "hand": ["Jay-Den Kraag", "Jett Reno"],
            "play": "Jay-Den Kraag",
            "deck_count": "5",
        },
    )
    assert answer.status_code == 200, text(answer)[:800]
    event = Table.objects.get(code=code).events.get()
    assert (event.kind, event.seat, event.by_host) == ("ruling", 1, True)
    # The page shows the phone's own answer, whole; the history links its public copy, which
    # does not name the card kept in hand (issue 29).
    assert "/r/" in answer.content.decode() and "Jett Reno" not in event.result["reason"]
    assert Table.objects.get(code=code).state["round"] == 0  # a ruling changes nothing
    assert "A ruling:" in text(host.get(f"/t/{code}"))
    assert event.result["url"] in host.get(f"/t/{code}").content.decode()


STAR_TREK_MISSIONS_HAND = [
    "Captain Jean-Luc Picard",
    "Commander William Riker",
    "Lieutenant Worf",
    "Photon Torpedoes",
    "Bridge",
    "Away Team",
    "Borg Cube",
]


def test_a_star_trek_missions_turn_checked_at_the_table_is_in_its_history():
    code, host, ana = stm_table()
    links = ask_links(ana, code)
    assert "Check a move" in links
    page = ana.get(links["Check a move"])
    assert page.status_code == 200 and "as Ana (seat 1)" in text(page)
    turn = {
        "position": {
            "hand": STAR_TREK_MISSIONS_HAND,
            "discard_area": ["Tricorder", "Time Distortion"],
            "galaxy_deck": 30,
            "mission_deck": 14,
        },
        "move": {"action": "take_discard", "take": "Tricorder", "discard": ["Bridge"]},
    }
    data = QueryDict(mutable=True)
    for name, value in turn_link_pairs(None, turn):
        data.appendlist(name, value)
    answer = ana.post(
        links["Check a move"], data.urlencode(), content_type="application/x-www-form-urlencoded"
    )
    assert answer.status_code == 200, text(answer)[:800]
    event = Table.objects.get(code=code).events.get()
    assert (event.kind, event.seat) == ("ruling", 1)
    assert event.result["verdict"] == "legal"
    assert event.result["url"] in host.get(f"/t/{code}").content.decode()
    # A ruling changes nothing the table carries.
    assert Table.objects.get(code=code).state["hands"] == [None, None]


THOUGHT_MAKER = [
    "Thought Maker",
    "Commander William Riker",
    "Lieutenant Worf",
    "Photon Torpedoes",
    "Bridge",
    "Away Team",
    "Mysterious Plague",
]
CHOICES = {
    "Thought Maker": {"target": "Commander William Riker", "affiliation": "hostile"},
    "Mysterious Plague": {"lifeform": "human"},
}


def test_a_hand_with_its_choices_entered_on_score_a_hand_at_the_table():
    """Star Trek: Missions' "Score a hand" (card tiles, the choices of Thought Maker and the
    Mysterious Plague) opened from the table: scoring the hand as it grows records nothing;
    "Enter this hand at the table" makes it the seat's hand, choices included."""
    from cards.models import Game
    from games.star_trek_missions.pages import score_link_pairs

    code, host, ana = stm_table()
    url = ask_links(ana, code)["Score a hand"]
    page = ana.get(url)
    assert page.status_code == 200
    assert "Enter this hand at the table" in text(page) and "as Ana (seat 1)" in text(page)

    data = QueryDict(mutable=True)
    for name, value in score_link_pairs(
        Game.objects.get(slug="star-trek-missions"), {"hand": THOUGHT_MAKER, "choices": CHOICES}
    ):
        data.appendlist(name, value)
    scored = ana.post(url, data.urlencode(), content_type="application/x-www-form-urlencoded")
    assert scored.status_code == 200, text(scored)[:600]
    assert not Table.objects.get(code=code).events.exists()  # only scored, not entered

    data["at_table"] = "1"
    entered = ana.post(url, data.urlencode(), content_type="application/x-www-form-urlencoded")
    assert entered.status_code == 200, text(entered)[:600]
    assert "Entered at the table as Ana (seat 1)" in text(entered)
    table = Table.objects.get(code=code)
    event = table.events.get()
    assert (event.kind, event.seat) == ("hand", 1)
    assert event.body == {"hand": THOUGHT_MAKER, "choices": CHOICES}
    assert table.state["choices"][0] == CHOICES
    assert table.state["hands"][0] == event.result["total"]
    assert "Ana entered a hand" in text(host.get(f"/t/{code}"))

    # Opened again from the table, the page comes with the seat's hand as entered (to correct
    # it), its choices set; a seat that has entered nothing opens empty.
    again = ana.get(ask_links(ana, code)["Score a hand"]).content.decode()
    assert [
        html_lib.unescape(name)
        for name in re.findall(r'<span class="hand-card__name">([^<]+)</span>', again)
    ] == THOUGHT_MAKER
    for name, value in score_link_pairs(
        Game.objects.get(slug="star-trek-missions"), {"hand": THOUGHT_MAKER, "choices": CHOICES}
    ):
        if name != "hand":  # each choice control comes with the seat's choice selected
            control = re.search(
                rf'<select[^>]*name="{re.escape(name)}".*?</select>', again, flags=re.S
            )
            assert control is not None, name
            assert re.search(
                rf'<option value="{re.escape(value)}"[^>]*\bselected\b', control.group(0)
            ), (name, value)
    ben = Client()
    assert ben.post(f"/t/{code}/claim", {"seat": "2"}).status_code == 302
    empty = ben.get(ask_links(ben, code)["Score a hand"]).content.decode()
    assert re.findall(r'<span class="hand-card__name">([^<]+)</span>', empty) == []
    # Ana's cards are hers on Ben's page: marked as in her hand, not a tile that adds them.
    worf = re.search(r'<button[^>]*id="tile-lieutenant-worf".*?</button>', empty, flags=re.S)
    assert worf is not None and "disabled" in worf.group(0)
    assert "In Ana's hand" in text_of(worf.group(0))
    riker = re.search(r'<button[^>]*id="tile-commander-william-riker"[^>]*>', empty).group(0)
    assert "disabled" in riker
    free = re.search(r'<button[^>]*id="tile-commander-kurn"[^>]*>', empty).group(0)
    assert "disabled" not in free and 'name="toggle"' in free


def test_a_job_the_game_has_no_page_for_and_an_unknown_table_are_404s():
    code, host, ben = ac_table()
    assert ben.get(f"/t/{code}/ask/turn/2").status_code == 404
    assert ben.get("/t/nosuchtable/ask/score/1").status_code == 404
    assert ben.get(f"/t/{code}/ask/score/2").status_code == 200


@pytest.mark.parametrize(
    "game", ["star-trek-missions", "academy-credits", "star-realms-academy", "factions"]
)
def test_every_tables_game_pages_open_at_the_table_filled_in(game):
    """Each game's jobs open from its table (the host's browser here), with the way back."""
    host = Client()
    response = host.post("/t/", {"game": game, "players": "Ana\nBen"})
    assert response.status_code == 302, text(response)[:400]
    code = response["Location"].rsplit("/", 1)[1]
    links = ask_links(host, code)
    assert links, f"{game}: the table links none of its game's pages"
    for label, url in links.items():
        page = host.get(url)
        assert page.status_code == 200, (game, label)
        assert f"At table {code}" in text(page) and "as the host" in text(page)
        assert f'href="/t/{code}"' in page.content.decode()
