"""Tiles people can read (issue 15): the score pages' tiles and the catalog grid show each card's
rendered text (Card.text), clamped on screen, the whole of it the tile's accessible description."""

import re
from html import unescape

from cards.models import Card


def test_score_page_tiles_show_the_card_text(client, catalog):
    html = client.get("/games/star-trek-missions/score/").content.decode()
    card = Card.objects.get(game__slug="star-trek-missions", slug="lieutenant-worf")
    assert card.text
    tile = re.search(r'<button[^>]*id="tile-lieutenant-worf".*?</button>', html, re.S).group(0)
    assert 'aria-describedby="tile-lieutenant-worf-text"' in tile
    text = re.search(
        r'<span class="pick-tile__text" id="tile-lieutenant-worf-text"[^>]*>(.*?)</span>',
        tile,
        re.S,
    ).group(1)
    assert unescape(text) == card.text


def test_catalog_tiles_show_the_card_text(client, catalog):
    html = client.get("/games/academy-credits/cards/").content.decode()
    card = Card.objects.get(game__slug="academy-credits", slug="jett-reno")
    tile = re.search(
        r'<a class="tile[^"]*" href="/games/academy-credits/cards/jett-reno/".*?</a>', html, re.S
    ).group(0)
    assert 'aria-describedby="text-jett-reno"' in tile
    assert (
        unescape(re.search(r'<span class="tile__text"[^>]*>(.*?)</span>', tile, re.S).group(1))
        == card.text
        == "Choose another cadet and trade hands with them."
    )


def test_table_page_tiles_show_the_card_text(client, catalog):
    html = client.post(
        "/games/star-trek-missions/table/", {"new_name": "Ann", "action": "add_player"}
    ).content.decode()
    assert (
        html.count('class="pick-tile__text"')
        == Card.objects.filter(game__slug="star-trek-missions").exclude(text="").count()
    )
