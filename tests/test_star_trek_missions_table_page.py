"""The "Score the table" page of Star Trek: Missions without JavaScript (Django test client):
players added and named, hands built by typing and by tapping tiles, a card in another player's
hand refused and marked, the standings and the winner, each player's breakdown, choices per
player, a player removed; every change a plain form POST that carries the whole table."""

import re

import pytest

from results.models import SavedResult

pytestmark = pytest.mark.django_db

PAGE = "/games/star-trek-missions/table/"
EXAMPLE = [
    "Lieutenant Worf",
    "Commander Kurn",
    "Ambassador K'Ehleyr",
    "Commander Sela",
    "Diplomatic Conference",
    "Photon Torpedoes",
    "Bridge",
]
HOLODECK = ["Holodeck 1", "Leah Brahms"]


def fields(html: str) -> list[tuple[str, str]]:
    """The hidden and text fields the page will post back (name, value), in order."""
    found = []
    for tag in re.findall(r"<input [^>]*>", html):
        name = re.search(r'name="([^"]*)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        kind = re.search(r'type="([^"]*)"', tag)
        if (
            name
            and kind
            and kind.group(1) in {"hidden", "text"}
            and name.group(1) not in {"csrfmiddlewaretoken", "add", "new_name"}
        ):
            found.append((name.group(1), value.group(1) if value else ""))
    return found


def selected(html: str) -> list[tuple[str, str]]:
    found = []
    for name, body in re.findall(r'<select [^>]*name="([^"]*)"[^>]*>(.*?)</select>', html, re.S):
        choice = re.search(r'<option value="([^"]*)" selected', body)
        found.append((name, choice.group(1) if choice else ""))
    return found


def unescape(value: str) -> str:
    return value.replace("&#x27;", "'").replace("&quot;", '"').replace("&amp;", "&")


class TablePage:
    """A player at the page without JavaScript: each press posts the form as the page is."""

    def __init__(self, client):
        self.client = client
        self.response = client.get(PAGE)
        assert self.response.status_code == 200

    @property
    def html(self) -> str:
        return self.response.content.decode()

    def press(self, status=200, **extra):
        data: dict[str, list[str]] = {}
        for name, value in fields(self.html) + selected(self.html):
            data.setdefault(name, []).append(unescape(value))
        for name, value in extra.items():
            data[name] = value if isinstance(value, list) else [value]
        self.response = self.client.post(PAGE, data)
        assert self.response.status_code == status, self.html[:3000]
        return self

    def add_player(self, name="", status=200):
        return self.press(status=status, action="add_player", new_name=name)

    def type_card(self, name, status=200):
        return self.press(status=status, action="add", add=name)

    def tap(self, name, status=200):
        return self.press(status=status, toggle=name)

    def text(self) -> str:
        return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", unescape(self.html)))


def test_the_page_and_its_links(client, catalog):
    table = TablePage(client)
    assert "<h1>Score the table</h1>" in table.html
    assert "Add the first player" in table.text()
    game = client.get("/games/star-trek-missions/").content.decode()
    assert f'href="{PAGE}"' in game and "Score the table" in game
    score = client.get("/games/star-trek-missions/score/").content.decode()
    assert f'href="{PAGE}"' in score


def test_a_table_of_two_built_without_javascript(client, catalog):
    table = TablePage(client).add_player("Ana")
    for name in EXAMPLE[:4]:
        table.type_card(name)
    for name in EXAMPLE[4:]:
        table.tap(name)
    assert "Ana: 66" in table.text() or "Total 66" in table.text()
    table.add_player("Ben")
    for name in HOLODECK:
        table.type_card(name)
    text = table.text()
    assert "So far: Ana wins with 66 points." in text
    assert "Ben has fewer than seven cards" in text
    assert re.search(r"1st Ana 66 points wins", text)
    assert re.search(r"2nd Ben 13 points 53 behind", text)
    # Ana is one line now: her total, and her breakdown behind <details>.
    assert re.search(r"<summary><span class=\"player-line__name\">Ana</span>", table.html)
    # The result is saved, with its permalink.
    assert any(saved.response.get("winners") == ["Ana"] for saved in SavedResult.objects.all())


def test_a_card_in_another_hand_is_marked_and_cannot_be_added(client, catalog):
    table = TablePage(client).add_player("Ana").type_card("Bridge").add_player("Ben")
    assert re.search(r'id="tile-bridge" disabled', table.html)
    assert "In Ana's hand Bridge" in table.text()
    table.tap("Bridge", status=400)
    assert "Bridge is in Ana's hand: every card exists once." in table.text()
    table.type_card("bridge", status=400)
    assert "Bridge is in Ana's hand" in table.text()
    assert 'name="p1-hand"' not in table.html


def test_a_tie_shares_victory(client, catalog):
    table = TablePage(client).add_player("Ana")
    for name in HOLODECK:
        table.type_card(name)
    table.add_player("Ben")
    for name in [
        "Commander Tomalak",
        "Captain Jean-Luc Picard",
        "Commander William Riker",
        "Lieutenant Commander Data",
    ]:
        table.type_card(name)
    text = table.text()
    assert "Ana and Ben share victory with 13 points each." in text
    assert text.count("shares victory") == 2


def test_edit_another_player_and_remove_one(client, catalog):
    table = TablePage(client).add_player("Ana").type_card("Bridge").add_player("Ben")
    table.type_card("Sickbay").press(edit="0")
    assert 'id="p0-name"' in table.html  # Ana is current again
    table.type_card("Photon Torpedoes")
    assert table.html.count('name="p0-hand"') == 2
    table.press(remove_player="1")
    assert "Ben left the table." in table.text()
    assert 'name="p1-name"' not in table.html


def test_enter_adds_what_was_typed(client, catalog):
    table = TablePage(client).press(action="enter", new_name="Ana")
    assert 'value="Ana"' in table.html
    table.press(action="enter", add="worf")
    assert 'name="p0-hand" value="Lieutenant Worf"' in table.html


def test_unnamed_and_duplicate_players(client, catalog):
    table = TablePage(client).add_player("")
    assert 'value="Player 1"' in table.html
    table.add_player("player 1", status=400)
    assert "player 1 is already at the table" in table.text()


def test_choices_per_player(client, catalog):
    table = TablePage(client).add_player("Ana")
    for name in [
        "Unidentified Ship",
        "Captain Jean-Luc Picard",
        "Lieutenant Worf",
        "Photon Torpedoes",
        "Bridge",
        "Away Team",
        "Borg Cube",
    ]:
        table.type_card(name)
    assert 'name="p0-choice-borg-cube"' in table.html
    table.press(**{"p0-choice-borg-cube": "bridge", "action": "choose"})
    assert "Ana's choice" in table.text()
    table.add_player("Ben").type_card("Kurn")
    # Ana's fixed choice travels with her line.
    assert 'name="p0-choice-borg-cube" value="bridge"' in table.html
    saved = SavedResult.objects.order_by("-created_at").first()
    assert saved.request["players"][0]["choices"]["Borg Cube"] == {"blank": ["Bridge"]}


def test_htmx_gets_the_form_content(client, catalog):
    response = client.post(
        PAGE, {"action": "add_player", "new_name": "Ana", "players": "0"}, HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "<h1>" not in html and 'id="table-status" hx-swap-oob' in html
    assert 'name="p0-name"' in html


@pytest.mark.parametrize(
    "data",
    [
        {"players": "999", "current": "x"},
        {"players": "-1"},
        {"players": "2", "p0-hand": "Nope"},
        {"players": "2", "current": "1", "edit": "7", "remove_player": "9"},
        {"players": "1", "current": "0", "p0-name": "A\x00", "toggle": "\x00"},
    ],
)
def test_odd_posts_are_never_a_500(client, catalog, data):
    response = client.post(PAGE, data)
    assert response.status_code in {200, 400}


def test_the_saved_table_has_the_standings_as_its_headline(client, api, catalog):
    import json

    body = {"players": [{"name": "Ana", "hand": HOLODECK}, {"name": "Ben", "hand": EXAMPLE}]}
    result = api.post(
        "/api/games/star-trek-missions/score/", json.dumps(body), content_type="application/json"
    ).json()
    response = client.get(result["url"])
    assert response.status_code == 200
    html = response.content.decode()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
    assert "<title>Standings: Ben wins with 66 points (Star Trek: Missions)" in html
    standings = text.index("Standings Ben wins with 66 points.")
    assert re.search(r"1st Ben 66 points wins 2nd Ana 13 points 53 behind", text)
    # Each player's breakdown, behind their line, after the standings.
    assert text.index("Each player, step by step") > standings
    assert html.count('<details class="player-line__details">') == 2
    assert "4 for Photon Torpedoes (Combat)" in text
    # "Score again" opens the table page filled in with the saved players (issue 15).
    assert 'href="/games/star-trek-missions/table/?players=2&amp;current=0&amp;p0-name=' in html


@pytest.mark.parametrize("count, status", [(9, 400), (8, 200)])
def test_stm_r16_a_table_of_nine_is_a_problem_by_the_players_not_a_500(
    client, catalog, count, status
):
    data = {"players": str(count), "current": "0"}
    for seat in range(count):
        data[f"p{seat}-name"] = f"P{seat + 1}"
    data["p0-hand"] = EXAMPLE
    response = client.post(PAGE, data)
    assert response.status_code == status
    html = response.content.decode()
    if status == 400:
        assert "A final table of 9 players cannot come from a finished game" in html
        assert "(STM-R16)" in html and 'href="#players"' in html
    else:
        assert "P1 wins with 66 points." in html


def test_a_reloaded_table_has_a_save_button_and_its_links(client, catalog):
    """Issue 23: the table opened from its address (a reload) is scored but not saved; it shows
    a Save button and the link back to this table, before any edit; saving gives the permalink."""
    table = TablePage(client).add_player("Ana")
    for name in EXAMPLE:
        table.type_card(name)
    form_url = unescape(re.search(r'href="([^"]*)" class="share__form-url"', table.html).group(1))
    saved = SavedResult.objects.count()
    table.response = client.get(form_url)
    assert table.response.status_code == 200
    assert SavedResult.objects.count() == saved  # a GET saves nothing
    assert "Not saved" in table.text() and "1st Ana 66 points" in table.text()
    assert re.search(
        r'<button type="submit" class="button share__save" name="save" value="1" '
        r'form="table-form">Save and get a link</button>',
        table.html,
    )
    assert 'class="share__form-url"' in table.html
    assert 'class="share__url"' not in table.html
    table.press(save="1")
    # Typing the last card saved this very table: an identical request shares its result (issue 22).
    assert SavedResult.objects.count() == saved
    assert 'class="share__url"' in table.html
    assert "Not saved" not in table.text()
    assert "1st Ana 66 points" in table.text()
