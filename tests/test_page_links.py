"""The input a player entered lives in the page's address (issue 15, "Nothing lost"): a GET of a
form page with its fields in the query string fills the form in and shows the answer without
saving it; a submit gives the address of its input (htmx: HX-Replace-Url; without JavaScript, a
link by the answer); "Score again" / "Check again" on /r/<id> opens the form filled in."""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser
from urllib.parse import urlencode

import pytest

from results.models import SavedResult
from tests.browser.game_forms import FORMS, STAR_TREK_MISSIONS_EXAMPLE

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
STAR_TREK_MISSIONS_SCORE = "/games/star-trek-missions/score/"
STAR_TREK_MISSIONS_TABLE = "/games/star-trek-missions/table/"


class FormValues(HTMLParser):
    """(name, value) of every field a form would submit as the page shows it: text and hidden
    inputs, checked boxes and radios, selected options, textareas."""

    def __init__(self):
        super().__init__()
        self.pairs: list[tuple[str, str]] = []
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "input" and a.get("name"):
            kind = a.get("type", "text")
            if kind in {"checkbox", "radio"}:
                if "checked" in a:
                    self.pairs.append((a["name"], a.get("value", "on")))
            elif kind not in {"submit", "button"}:
                self.pairs.append((a["name"], a.get("value") or ""))
        elif tag == "select":
            self._select = a.get("name")
        elif tag == "option" and self._select and "selected" in a:
            self.pairs.append((self._select, a.get("value", "")))
        elif tag == "textarea":
            self._textarea = a.get("name")

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data):
        if self._textarea:
            self.pairs.append((self._textarea, data))


def shown_fields(html: str) -> list[tuple[str, str]]:
    parser = FormValues()
    parser.feed(html)
    return parser.pairs


def entered(data: dict) -> list[tuple[str, str]]:
    return [
        (name, value)
        for name, values in data.items()
        for value in (values if isinstance(values, list) else [values])
    ]


def again_link(html: str) -> str:
    match = re.search(r'<a class="button" href="([^"]*)">(?:Check|Score) again</a>', html)
    assert match, "no Check again / Score again link"
    return unescape(match.group(1))


# The Star Trek: Missions score form takes its cards typed one by one.
TEXT_FORMS = [form for form in FORMS if form.id != "star-trek-missions-score"]


@pytest.mark.parametrize("game_form", TEXT_FORMS, ids=[form.id for form in TEXT_FORMS])
def test_a_get_with_the_fields_in_the_query_fills_the_form_and_saves_nothing(
    client, catalog, game_form
):
    data = game_form.valid[-1]
    response = client.get(game_form.url + "?" + urlencode(entered(data)))
    assert response.status_code == 200
    html = response.content.decode()
    fields = shown_fields(html)
    for pair in entered(data):
        assert pair in fields, pair
    assert not SavedResult.objects.exists()
    assert "was worked out from the page's address and not saved" in html


@pytest.mark.parametrize("game_form", TEXT_FORMS, ids=[form.id for form in TEXT_FORMS])
def test_a_submit_gives_the_address_of_its_input(client, catalog, game_form):
    data = game_form.valid[-1]
    htmx = client.post(game_form.url, data, headers=HTMX)
    assert htmx.status_code == 200
    address = htmx.headers["HX-Replace-Url"]
    assert address.startswith(game_form.url + "?")
    assert "csrfmiddlewaretoken" not in address
    plain = client.post(game_form.url, data).content.decode()
    assert f'href="{address.replace("&", "&amp;")}"' in plain  # the link without JavaScript
    assert SavedResult.objects.count() == 1  # the same request twice: one result (issue 22)
    # The address reproduces the form, and the answer, saving nothing more.
    again = client.get(address).content.decode()
    for pair in entered(data):
        assert pair in shown_fields(again), pair
    assert SavedResult.objects.count() == 1


@pytest.mark.parametrize("game_form", TEXT_FORMS, ids=[form.id for form in TEXT_FORMS])
def test_check_again_and_score_again_open_the_form_filled_in(client, catalog, game_form):
    data = game_form.valid[-1]
    client.post(game_form.url, data)
    result = SavedResult.objects.get()
    again = again_link(client.get(f"/r/{result.id}").content.decode())
    assert again.startswith(game_form.url + "?")
    html = client.get(again).content.decode()
    filled = {name for name, value in shown_fields(html) if value.strip()}
    # The saved request is the one understood (issue 22): each field entered is filled in, with
    # what was typed or, where it named a card another way (a value, a slug, another case), the
    # card's catalog name; the form reads it without a problem and gives the same answer.
    for name, value in entered(data):
        assert not value.strip() or name in filled, name
    assert 'class="error-summary' not in html
    answer = result.response.get("total", result.response.get("reason"))
    assert answer is None or str(answer).replace("'", "&#x27;") in html
    assert SavedResult.objects.count() == 1


def test_score_again_on_a_saved_hand_opens_the_score_page_with_the_hand(client, catalog):
    for name in STAR_TREK_MISSIONS_EXAMPLE:
        before = STAR_TREK_MISSIONS_EXAMPLE[: STAR_TREK_MISSIONS_EXAMPLE.index(name)]
        response = client.post(
            STAR_TREK_MISSIONS_SCORE, {"hand": before, "action": "add", "add": name}, headers=HTMX
        )
    address = response.headers["HX-Replace-Url"]
    assert address == STAR_TREK_MISSIONS_SCORE + "?" + urlencode(
        [("hand", n) for n in STAR_TREK_MISSIONS_EXAMPLE]
    )
    saved = SavedResult.objects.latest("created_at")
    again = again_link(client.get(f"/r/{saved.id}").content.decode())
    assert again == address
    html = client.get(again).content.decode()
    shown = [value for name, value in shown_fields(html) if name == "hand"]
    assert shown == STAR_TREK_MISSIONS_EXAMPLE
    assert f'<strong class="score-total__value">{saved.response["total"]}</strong>' in html


def test_score_the_table_again_on_a_saved_table_opens_the_table_with_every_player(
    api, client, catalog
):
    import json

    players = [
        {"name": "Ana", "hand": STAR_TREK_MISSIONS_EXAMPLE},
        {
            "name": "Ben",
            "hand": ["Space Confrontation", "Daimon Bok", "Daimon Tog", "Vice Admiral Nakamura"],
        },
    ]
    saved = api.post(
        "/api/games/star-trek-missions/score/",
        data=json.dumps({"players": players}),
        content_type="application/json",
    ).json()
    again = again_link(client.get(saved["url"]).content.decode())
    assert again.startswith(STAR_TREK_MISSIONS_TABLE + "?")
    html = client.get(again).content.decode()
    fields = shown_fields(html)
    # Every player's name comes back, and the hand of the one open (the first) in its fields.
    assert ("p0-name", "Ana") in fields and ("p1-name", "Ben") in fields
    assert [value for name, value in fields if name == "p0-hand"] == STAR_TREK_MISSIONS_EXAMPLE
    # The standings are worked out again from the address: Ana's 66 against Ben's 12 (STM-R10).
    assert "Ana wins with 66 points" in unescape(html)
