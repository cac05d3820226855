"""Issue 29, "words for players": the pages players read at a game night say nothing of the
machinery (versions, cookies, JSON, API fields, admin chores), and the history names players, not
seat numbers."""

import html
import json
import re

import pytest

pytestmark = pytest.mark.django_db

INTERNAL = re.compile(r"\b(version|cookie|JSON|API|admin)\b", re.IGNORECASE)


def visible(response) -> str:
    """The words of the page's main part (the site's own header and footer links to its API
    documentation and admin are for the people who keep it)."""
    page = response.content.decode()
    main = re.search(r"<main\b.*?</main>", page, flags=re.S)
    page = main.group(0) if main else page
    page = re.sub(r"<(script|style|head)\b.*?</\1>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def internal_words(text: str) -> list[str]:
    return sorted({match.group(0) for match in INTERNAL.finditer(text)})


def test_a_table_page_and_its_history_speak_of_players(client, api, catalog):
    created = api.post(
        "/api/tables/",
        data=json.dumps({"game": "star-trek-missions", "players": ["Ana", "Ben"]}),
        content_type="application/json",
    ).json()
    code = created["code"]
    token = api.post(f"/api/tables/{code}/seats/1/claim/").json()["seat_token"]
    entered = api.post(
        f"/api/tables/{code}/events/",
        data=json.dumps({"kind": "hand", "seat": 1, "body": {"hand": ["Commander Tomalak"]}}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert entered.status_code == 201, entered.json()
    client.cookies[f"host_{code}"] = created["host_token"]
    page = visible(client.get(f"/t/{code}"))
    assert "Ana entered a hand" in page and "Seat 1 entered" not in page
    assert internal_words(page) == []
    assert internal_words(visible(client.get(f"/t/{code}/live"))) == []
    # The answer the history links, as a player opens it.
    result_url = entered.json()["event"]["result"]["url"]
    assert internal_words(visible(client.get(result_url))) == []


def test_a_games_page_lists_its_options_in_players_words(client, catalog):
    for slug in ("academy-credits", "factions", "star-realms-academy", "star-trek-missions"):
        page = visible(client.get(f"/games/{slug}/"))
        assert "For the API" not in page, slug
