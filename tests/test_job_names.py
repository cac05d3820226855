"""One name for each job (issue 23: the home page said "Check a move" and the page "Check a
play" or "Check a turn"): every job link on the home page and on each game's page names the page
it opens exactly as that page's heading and title do."""

import re
from html import unescape

import pytest

pytestmark = pytest.mark.django_db


def job_links(html: str) -> list[tuple[str, str]]:
    return [
        (href, unescape(re.sub(r"<[^>]+>", "", text)).strip())
        for href, text in re.findall(
            r'<a class="job job--ready" href="([^"]+)">(.*?)</a>', html, re.S
        )
    ]


@pytest.mark.parametrize(
    "where",
    [
        "/",
        "/games/star-trek-missions/",
        "/games/academy-credits/",
        "/games/factions/",
        "/games/star-realms-academy/",
    ],
)
def test_every_job_link_names_its_page_as_the_page_does(client, catalog, where):
    links = job_links(client.get(where).content.decode())
    assert links, f"{where} links no job"
    # The catalog is "Browse the catalog" everywhere, its page headed "<game> cards".
    catalogs = [(href, name) for href, name in links if href.endswith("/cards/")]
    assert {name for _href, name in catalogs} <= {"Browse the catalog"}
    for href, name in links:
        if href.endswith("/cards/"):
            continue
        page = client.get(href).content.decode()
        heading = unescape(re.search(r"<h1>(.*?)</h1>", page, re.S).group(1)).strip()
        title = unescape(re.search(r"<title>(.*?)</title>", page, re.S).group(1))
        assert heading == name, f"{where} calls {href} {name!r}; the page says {heading!r}"
        assert title.startswith(f"{name} ("), title


def test_every_games_ruling_job_is_called_check_a_move(client, catalog):
    home = job_links(client.get("/").content.decode())
    checks = [name for href, name in home if "check" in href]
    from games.registry import GAMES

    assert checks == ["Check a move"] * len([game for game in GAMES if game.ruling is not None])
