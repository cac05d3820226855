"""Catalog search forgives typos: a search that finds nothing offers the cards whose names look
like it ("Did you mean …?"), each a link to its card. On PostgreSQL the candidates come from
trigram similarity (pg_trgm, migration 0003's indexes), elsewhere from shared three-letter pieces;
`make test-postgres` runs this file on PostgreSQL."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cards.models import Game
from cards.selectors import FUZZY_CANDIDATES, search_suggestions
from tests.factories import CardFactory, GameFactory

HTMX = {"HTTP_HX_REQUEST": "true"}


def search(client, game: str, q: str, **headers):
    return client.get(reverse("pages:catalog", kwargs={"game": game}), {"q": q}, **headers)


def did_you_mean_links(html: str) -> list[tuple[str, str]]:
    block = re.search(r'<p class="empty did-you-mean">(.*?)</p>', html, re.S)
    assert block, "no 'Did you mean' line on the page"
    return re.findall(r'<a href="([^"]+)">([^<]+)</a>', block.group(1))


@pytest.mark.parametrize(
    ("game", "typed", "meant", "slug"),
    [
        ("academy-credits", "jet renno", "Jett Reno", "jett-reno"),
        ("star-trek-missions", "picrad", "Captain Jean-Luc Picard", "captain-jean-luc-picard"),
        ("star-realms-academy", "blob wrld", "Blob World", "blob-world"),
    ],
)
def test_a_typo_finds_no_card_but_offers_the_one_meant(client, catalog, game, typed, meant, slug):
    for headers in ({}, HTMX):
        html = search(client, game, typed, **headers).content.decode()
        assert "No card matches" in html
        assert "Did you mean" in html
        links = did_you_mean_links(html)
        card_url = reverse("pages:card", kwargs={"game": game, "slug": slug})
        # The card meant comes first, and links to its page.
        assert links[0] == (card_url, meant)


def test_a_search_that_finds_cards_offers_nothing_and_asks_nothing_more(client, catalog):
    with CaptureQueriesContext(connection) as plain:
        html = search(client, "academy-credits", "Jett").content.decode()
    assert "Did you mean" not in html
    assert "Jett Reno" in html
    assert not any(
        "similarity" in q["sql"] or "set_config" in q["sql"] for q in plain.captured_queries
    )


def test_text_like_no_name_offers_nothing(client, catalog):
    html = search(client, "academy-credits", "zzqqxx").content.decode()
    assert "No card matches" in html
    assert "Did you mean" not in html


def test_the_suggestions_for_a_large_game_are_bounded(db):
    game = GameFactory(slug="big", name="Big")
    for i in range(FUZZY_CANDIDATES + 50):
        CardFactory(game=game, name=f"Renegade {i:04d}", slug=f"renegade-{i:04d}")
    CardFactory(game=game, name="Jett Reno", slug="jett-reno")
    big = Game.objects.get(slug="big")
    with CaptureQueriesContext(connection) as queries:
        found = search_suggestions(game=big, q="jet renno")
    assert found[0].name == "Jett Reno"
    assert len(found) <= 5
    # The candidates in one query (on PostgreSQL, after setting the trigram thresholds).
    statements = [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
    assert len(statements) <= 2
    assert f"LIMIT {FUZZY_CANDIDATES}" in statements[-1]
