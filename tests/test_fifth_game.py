"""A fifth game is one package and one line in GAMES (issue 13).

Ascent (tests/fifth_game/) is defined here only: its engine, services, pages, URLs, templates,
schema paragraph and catalog all sit in its package. Registering it (`GAMES.append(GAME)`, the
line a real game adds to games/registry.py) is the only change; with it the game gets its
catalog, its API answers, its schema entry and its pages, and its saved results their page.
"""

from __future__ import annotations

import html
import importlib
import re

import pytest
from django.urls import clear_url_caches

from cards.models import Game
from cards.services import catalog_load
from games.registry import GAMES
from tests.fifth_game.game import GAME


def _reload_urls():
    import config.urls

    importlib.reload(config.urls)
    clear_url_caches()


@pytest.fixture
def ascent(catalog):
    GAMES.append(GAME)  # the one registry line
    _reload_urls()
    try:
        catalog_load()
        yield Game.objects.get(slug="ascent")
    finally:
        GAMES.remove(GAME)
        _reload_urls()


def text(response) -> str:
    """The page's words as a reader meets them: tags out, entities read, space folded."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", response.content.decode(), flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


def test_its_catalog_loads_from_its_package_and_its_pages_are_linked(client, ascent):
    assert sorted(ascent.cards.values_list("name", flat=True)) == ["One", "Three", "Two"]
    assert ascent.rule_sections.get(rule_id="HC-2").title == "Higher"
    page = client.get("/games/ascent/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'href="/games/ascent/check-play/"' in html and 'href="/games/ascent/score/"' in html
    assert "Check a play" in text(page) and "Score a hand" in text(page)
    cards = client.get("/api/games/ascent/cards/").json()
    assert {card["name"] for card in cards["results"]} == {"One", "Two", "Three"}


def test_its_ruling_comes_from_its_engine_and_quotes_its_rule(api, ascent):
    response = api.post("/api/games/ascent/rulings/",
                        {"position": {"hand": ["One", "Three"], "table": "Two"},
                         "move": {"play": "One"}}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["verdict"], body["code"]) == ("illegal", "not_higher")
    assert body["rule"]["id"] == "HC-2"
    assert body["rule"]["text"] == "The card you play must be higher than the card on the table."
    assert body["alternatives"] == [{"play": "Three"}]
    assert body["checks"][-1] == {"rule": "HC-2", "passed": False,
                                  "detail": "One (1) is not higher than Two (2)."}
    # Its request errors have the shape of every game's.
    bad = api.post("/api/games/ascent/rulings/",
                   {"position": {"hand": ["Thre"]}, "move": {"play": "One"}, "extra": 1},
                   format="json").json()
    assert bad["code"] == "invalid_input"
    assert {(e["path"], e["code"]) for e in bad["errors"]} == {
        ("extra", "unknown_field"), ("position.hand[0]", "unknown_card")}


def test_its_score_has_steps_to_follow(api, ascent):
    body = api.post("/api/games/ascent/score/", {"hand": ["Two", "Three"]}, format="json").json()
    assert body["total"] == 5
    assert [(s["card"], s["points"], s["running_total"]) for s in body["steps"]] == [
        ("Two", 2, 2), ("Three", 3, 5)]


def test_its_schema_entry(client, ascent):
    schema = client.get("/api/schema/?format=json").json()
    rulings = schema["paths"]["/api/games/{game}/rulings/"]["post"]
    assert "**ascent.**" in rulings["description"]
    examples = rulings["requestBody"]["content"]["application/json"]["examples"]
    assert any(example["value"].get("move") == {"play": "Three"} for example in examples.values())
    score = schema["paths"]["/api/games/{game}/score/"]["post"]
    assert "the sum of the values (HC-3)" in score["description"]


def test_its_pages_and_the_saved_result(client, ascent):
    form = client.get("/games/ascent/check-play/")
    assert form.status_code == 200 and "Ascent: Check a play" in text(form)
    answer = client.post("/games/ascent/check-play/",
                         {"hand": "One, Three", "table": "Two", "play": "Three"})
    words = text(answer)
    assert "Legal" in words and "Three (3) is higher than Two (2)." in words
    saved = re.search(r"/r/([a-z0-9]{10})", answer.content.decode()).group(1)
    permalink = text(client.get(f"/r/{saved}"))
    assert "Ruling: Legal" in permalink and "Check again" in permalink
    assert "/games/ascent/check-play/?hand=One%2C+Three" in client.get(f"/r/{saved}").content.decode()
    scored = text(client.post("/games/ascent/score/", {"hand": "One, Two"}))
    assert "Ascent: Score a hand" in scored and "3" in scored
    # The shared job page (games.pages.job_page) gives it the rest: a problem shown by its field,
    # the form kept, and to an htmx submit the result fragment alone.
    refused = client.post("/games/ascent/score/", {"hand": "One, Zebra"})
    assert refused.status_code == 400
    assert "No card named 'Zebra'" in text(refused) and 'value="One, Zebra"' in refused.content.decode()
    fragment = client.post("/games/ascent/score/", {"hand": "Three"}, HTTP_HX_REQUEST="true")
    assert "<form" not in fragment.content.decode() and "Saved:" in text(fragment)


def test_without_the_registry_line_the_game_is_unknown(api, ascent):
    GAMES.remove(GAME)
    try:
        _reload_urls()
        response = api.post("/api/games/ascent/score/", {"hand": ["Two"]}, format="json")
        assert response.status_code == 404 and response.json()["code"] == "not_available"
    finally:
        GAMES.append(GAME)
