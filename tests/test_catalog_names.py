"""The catalog search reads a card name as the score pages do (issue 23): without its case,
accents, punctuation and spaces (cards.naming.normalise), so `kehleyr` finds Ambassador K'Ehleyr,
which the scorer accepted while the catalog found nothing. `make test-postgres` runs this file on
PostgreSQL too."""

import html as markup
import re

import pytest
from django.urls import reverse

from cards.models import Game
from cards.naming import NamedCard
from web.page_names import read_name

HTMX = {"HTTP_HX_REQUEST": "true"}


def names_found(client, q: str, **headers) -> list[str]:
    url = reverse("pages:catalog", kwargs={"game": "star-trek-missions"})
    html = client.get(url, {"q": q}, **headers).content.decode()
    return [markup.unescape(name) for name in re.findall(r'class="tile__name">([^<]+)<', html)]


@pytest.mark.parametrize(
    ("typed", "found"),
    [
        ("kehleyr", "Ambassador K'Ehleyr"),
        ("KEHLEYR", "Ambassador K'Ehleyr"),
        ("jean luc", "Captain Jean-Luc Picard"),
        ("jeanluc picard", "Captain Jean-Luc Picard"),
        ("b etor", "Lursa and B'Etor"),
    ],
)
def test_the_catalog_finds_what_the_score_pages_read(client, catalog, typed, found):
    for headers in ({}, HTMX):
        assert found in names_found(client, typed, **headers), typed


def test_kehleyr_is_read_alike_by_the_score_pages_and_the_catalog(client, catalog):
    game = Game.objects.get(slug="star-trek-missions")
    named = [NamedCard(name=c.name, slug=c.slug) for c in game.cards.all()]
    assert read_name("kehleyr", named).card.name == "Ambassador K'Ehleyr"
    assert names_found(client, "kehleyr") == ["Ambassador K'Ehleyr"]


def test_the_api_search_reads_names_the_same_way(client, catalog):
    response = client.get("/api/games/star-trek-missions/cards/", {"q": "kehleyr"})
    assert response.status_code == 200
    assert [card["name"] for card in response.json()["results"]] == ["Ambassador K'Ehleyr"]


def test_a_plain_search_is_unchanged(client, catalog):
    found = names_found(client, "commander")
    assert "Commander Kurn" in found and "Commander Sela" in found
    assert "Ambassador K'Ehleyr" not in found
    # Text still counts: a word of a card's text, not of its name.
    assert names_found(client, "Photon Torpedoes")
    assert names_found(client, "zzzz") == []
