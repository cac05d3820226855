"""Saved results: short permalinks, immutable rows, the JSON API and the readable page."""

import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.db.models import ProtectedError

from cards.models import Game
from results import models as result_models
from results.models import ID_ALPHABET, ResultImmutable, SavedResult
from results.selectors import ResultNotFound, result_get
from results.services import result_save
from tests.browser.game_forms import FORMS

pytestmark = pytest.mark.django_db

RULING_URL = "/api/games/star-trek-missions/rulings/"
TURN = {
    "position": {
        "hand": [
            "Captain Jean-Luc Picard",
            "Commander William Riker",
            "Lieutenant Worf",
            "Photon Torpedoes",
            "Bridge",
            "Away Team",
            "Borg Cube",
        ],
        "discard_area": ["Tricorder"],
        "galaxy_deck": 30,
        "mission_deck": 14,
    },
    "move": {"action": "take_discard", "take": "Tricorder", "discard": ["Tricorder"]},
}
SCORE = {
    "game": "star-trek-missions",
    "total": 12,
    "steps": [
        {
            "n": 1,
            "rule": "STM-9.3",
            "card": "Lieutenant Worf",
            "detail": "4 for Photon Torpedoes",
            "points": 4,
            "running_total": 4,
        },
        {
            "n": 2,
            "rule": "STM-9.3",
            "card": "Bridge",
            "detail": "8 with a Captain",
            "points": 8,
            "running_total": 12,
        },
    ],
    "warnings": ["Provisional card data used."],
    "cards": [
        {"name": "Lieutenant Worf", "points": 4, "blanked": False, "blanked_reason": None},
        {
            "name": "Away Team",
            "points": 0,
            "blanked": True,
            "blanked_reason": "Blanked unless with a Klingon.",
        },
    ],
    "choices": {"Borg Cube": {"blank": []}},
}


@pytest.fixture
def star_trek_missions(catalog):
    return Game.objects.get(slug="star-trek-missions")


@pytest.fixture
def ruling(api, catalog):
    response = api.post(RULING_URL, data=json.dumps(TURN), content_type="application/json")
    assert response.status_code == 200, response.json()
    return response


# --- Saving ---------------------------------------------------------------------------------------


def test_result_save_adds_id_and_url_and_stores_the_final_body(star_trek_missions):
    body = result_save(
        game=star_trek_missions,
        kind="score",
        request_body={"hand": []},
        response_body={"game": star_trek_missions.slug, "total": 0},
    )
    assert list(body) == ["game", "total", "id", "url"]
    assert len(body["id"]) == 10 and set(body["id"]) <= set(ID_ALPHABET)
    assert body["url"] == f"/r/{body['id']}"
    saved = SavedResult.objects.get(pk=body["id"])
    assert saved.response == body
    assert saved.request == {"hand": []}
    assert saved.kind == "score" and saved.game == star_trek_missions


def test_an_id_clash_is_retried(star_trek_missions, monkeypatch):
    first = result_save(
        game=star_trek_missions, kind="score", request_body={"n": 1}, response_body={}
    )
    ids = iter([first["id"], "abcdefghij"])
    monkeypatch.setattr("results.services.new_result_id", lambda: next(ids))
    second = result_save(
        game=star_trek_missions, kind="score", request_body={"n": 2}, response_body={}
    )
    assert second["id"] == "abcdefghij"
    assert SavedResult.objects.count() == 2


def test_key_order_survives_the_database(star_trek_missions):
    body = result_save(
        game=star_trek_missions,
        kind="ruling",
        request_body={"z": 1, "a": 2},
        response_body={"zebra": 1, "apple": {"y": 1, "b": 2}},
    )
    saved = SavedResult.objects.get(pk=body["id"])
    assert json.dumps(saved.response) == json.dumps(body)
    assert list(saved.request) == ["z", "a"]


def test_result_get(star_trek_missions):
    body = result_save(game=star_trek_missions, kind="score", request_body={}, response_body={})
    assert result_get(result_id=body["id"]).pk == body["id"]
    for missing in ("abcdefghij", "", "../etc", "x" * 100, "with\x00nul"):
        with pytest.raises(ResultNotFound):
            result_get(result_id=missing)


# --- Immutable ----------------------------------------------------------------------------------


def test_a_saved_result_cannot_be_updated_or_deleted(star_trek_missions):
    body = result_save(
        game=star_trek_missions, kind="score", request_body={}, response_body={"total": 1}
    )
    saved = SavedResult.objects.get(pk=body["id"])
    saved.response = {"total": 99}
    with pytest.raises(ResultImmutable):
        saved.save()
    with pytest.raises(ResultImmutable):
        saved.delete()
    with pytest.raises(ResultImmutable):
        SavedResult.objects.filter(pk=body["id"]).update(kind="ruling")
    with pytest.raises(ResultImmutable):
        SavedResult.objects.filter(pk=body["id"]).delete()
    with pytest.raises(ResultImmutable):
        SavedResult.objects.bulk_update([saved], ["response"])
    assert SavedResult.objects.get(pk=body["id"]).response == body


def test_a_game_with_saved_results_cannot_be_deleted(star_trek_missions):
    result_save(game=star_trek_missions, kind="score", request_body={}, response_body={})
    with pytest.raises(ProtectedError):
        Game.objects.filter(pk=star_trek_missions.pk).delete()


def test_the_admin_shows_results_read_only(client, star_trek_missions):
    body = result_save(
        game=star_trek_missions, kind="score", request_body={"hand": []}, response_body={"total": 3}
    )
    admin = get_user_model().objects.create_superuser("admin", "a@example.com", "pw")
    client.force_login(admin)
    assert client.get("/admin/results/savedresult/").status_code == 200
    page = client.get(f"/admin/results/savedresult/{body['id']}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "total 3" in html or "&quot;total&quot;: 3" in html
    assert "Last opened at" in html and "Size" in html  # what the store's bound goes by
    assert 'name="_save"' not in html
    assert client.get("/admin/results/savedresult/add/").status_code == 403
    assert client.post(f"/admin/results/savedresult/{body['id']}/delete/").status_code == 403
    assert SavedResult.objects.filter(pk=body["id"]).exists()


# --- The API --------------------------------------------------------------------------------------


def test_get_a_saved_result(api, ruling):
    saved = api.get(f"/api/results/{ruling.json()['id']}/")
    assert saved.status_code == 200
    assert saved.content == ruling.content
    assert "max-age=86400" in saved.headers["Cache-Control"]


@pytest.mark.parametrize("result_id", ["abcdefghij", "NOPE", "a" * 40])
def test_an_unknown_result(api, catalog, result_id):
    response = api.get(f"/api/results/{result_id}/")
    payload = response.json()
    assert response.status_code == 404
    assert set(payload) == {"status", "code", "detail", "errors"}
    assert payload["code"] == "unknown_result"
    assert payload["errors"][0]["path"] == "result_id"


# --- The page -----------------------------------------------------------------------------------


def test_the_page_of_a_ruling(client, ruling):
    ruling_body = ruling.json()
    response = client.get(ruling_body["url"])
    assert response.status_code == 200
    html = response.content.decode()
    assert "Ruling: Star Trek: Missions" in html
    assert (
        '<span class="verdict verdict--illegal"><span class="verdict__icon" aria-hidden="true">✗</span> Illegal</span>'
        in html
    )
    assert "takes Tricorder and discards it again" in html
    # The rule quoted, with its link.
    assert 'href="/games/star-trek-missions/#rule-STM-6.1"' in html
    assert "Choose exactly one option" in html
    # Every check, passed or failed in words; the alternatives as sentences.
    assert html.count('class="check check--passed"') == len(ruling_body["checks"]) - 1
    assert html.count('class="check check--failed"') == 1
    assert "Take Tricorder, then discard one of: Captain Jean-Luc Picard" in html
    # The share link, absolute and shown; the JSON link.
    assert f">http://testserver/r/{ruling_body['id']}</a>" in html
    # The JSON's address for programs, not a link a player reads.
    assert f'data-json-url="/api/results/{ruling_body["id"]}/"' in html
    assert "as JSON" not in html
    assert 'name="robots" content="noindex"' in html
    assert "style=" not in html
    # Django's {# #} is single-line only: a multi-line one is printed as text.
    for template_source in ("{#", "#}", "{%", "{{"):
        assert template_source not in html


def test_no_template_holds_a_multi_line_short_comment():
    """A `{# … #}` that spans lines renders as page text; longer comments use {% comment %}."""
    import re
    from pathlib import Path

    from django.conf import settings

    from games.registry import GAMES

    offenders = []
    for directory in [*settings.TEMPLATES[0]["DIRS"], *(game.templates for game in GAMES)]:
        for path in Path(directory).rglob("*.html"):
            for number, line in enumerate(path.read_text().splitlines(), start=1):
                if re.search(r"\{#(?!.*#\})", line):
                    offenders.append(f"{path}:{number}")
    assert not offenders, offenders


def test_the_page_of_a_legal_ruling_shows_the_outcome(client, api, catalog):
    turn = {**TURN, "move": {"action": "take_discard", "take": "Tricorder", "discard": ["Bridge"]}}
    body = api.post(RULING_URL, data=json.dumps(turn), content_type="application/json").json()
    html = client.get(body["url"]).content.decode()
    assert "verdict--legal" in html and "Legal" in html
    assert "What happens" in html and "Hand after the turn" in html
    assert "Galaxy 30, Mission 14" in html


def test_the_page_of_a_score(client, star_trek_missions):
    body = result_save(
        game=star_trek_missions, kind="score", request_body={"hand": []}, response_body=SCORE
    )
    response = client.get(body["url"])
    html = response.content.decode()
    assert response.status_code == 200
    assert "Total: <strong>12</strong>" in html
    assert html.count("<tr>") == 3  # the head and two steps
    assert 'href="/games/star-trek-missions/#rule-STM-9.3"' in html
    assert 'href="/games/star-trek-missions/cards/lieutenant-worf/"' in html
    assert "Blanked unless with a Klingon." in html
    assert "Provisional card data used." in html
    assert "Borg Cube" in html


def test_an_unknown_permalink(client, catalog):
    response = client.get("/r/abcdefghij")
    assert response.status_code == 404
    assert "no saved result" in response.content.decode()


def test_a_trailing_slash_redirects(client, star_trek_missions):
    body = result_save(game=star_trek_missions, kind="score", request_body={}, response_body={})
    response = client.get(body["url"] + "/")
    assert response.status_code == 301 and response["Location"] == body["url"]


def test_ids_are_random(monkeypatch):
    ids = {result_models.new_result_id() for _ in range(200)}
    assert len(ids) == 200


def test_a_real_score_is_saved_and_shown(api, client, catalog):
    hand = [
        "Captain Jean-Luc Picard",
        "Commander William Riker",
        "Lieutenant Worf",
        "Photon Torpedoes",
        "Bridge",
        "Away Team",
        "Time Distortion",
    ]
    response = api.post(
        "/api/games/star-trek-missions/score/",
        data=json.dumps({"hand": hand}),
        content_type="application/json",
    )
    assert response.status_code == 200, response.json()
    score = response.json()
    assert api.get(f"/api/results/{score['id']}/").content == response.content
    html = client.get(score["url"]).content.decode()
    assert f"Total: <strong>{score['total']}</strong>" in html
    assert html.count("<tr>") == len(score["steps"]) + 1


# --- Each game's result, as its own page shows it ---------------------------------------------------

ALTERNATIVES = re.compile(r'<ul class="alternatives">(.*?)</ul>', re.S)


def saved_from_page(client, game_form):
    """Submit a game's form (no JavaScript) with its valid input; the page and the saved result."""
    data = {key: value for submission in game_form.valid for key, value in submission.items()}
    response = client.post(game_form.url, data)
    assert response.status_code == 200, response.content.decode()[:2000]
    return response.content.decode(), SavedResult.objects.latest("created_at")


# The Star Trek: Missions score form adds its cards one by one.
PAGE_FORMS = [form for form in FORMS if form.id != "star-trek-missions-score"]


@pytest.mark.parametrize("game_form", PAGE_FORMS, ids=[form.id for form in PAGE_FORMS])
def test_a_saved_result_is_shown_as_its_games_page_shows_it(client, catalog, game_form):
    live, saved = saved_from_page(client, game_form)
    assert saved.kind == game_form.kind and saved.game.slug == game_form.game
    html = client.get(f"/r/{saved.id}").content.decode()
    # The same wording as the live answer: the alternatives, the headline of the fragment.
    assert ALTERNATIVES.findall(html) == ALTERNATIVES.findall(live)
    live_heading = re.search(r'<h2 id="[^"]*" tabindex="-1" data-focus>(.*?)</h2>', live, re.S)
    assert live_heading.group(0) in html
    # The game's stylesheet, as on its page; one share panel, with its button.
    for sheet in re.findall(r'href="(/static/css/[a-z-]+\.css)"', live):
        assert f'href="{sheet}"' in html
    assert html.count('class="share"') == 1
    assert 'class="button button--quiet share__button"' in html
    kind = "ruling" if saved.kind == "ruling" else "score"
    again = "Check again" if kind == "ruling" else "Score again"
    # "Check again" / "Score again" open the game's form filled in from the saved request.
    again_link = re.search(rf'href="([^"]*)">{again}</a>', html)
    assert again_link and again_link.group(1).startswith(game_form.url + "?")
    assert f"<title>{kind.capitalize()}" in html


def test_a_saved_ruling_lists_the_alternatives_as_the_page_does(client, catalog):
    academy_credits = next(form for form in FORMS if form.id == "ac-check-play")
    _, saved = saved_from_page(client, academy_credits)
    html = client.get(f"/r/{saved.id}").content.decode()
    assert "<li>Play Nahla Ake</li>" in html
    assert "play: Nahla Ake" not in html and "guess: none" not in html
    factions = next(form for form in FORMS if form.id == "factions-check-move")
    _, saved = saved_from_page(client, factions)
    html = client.get(f"/r/{saved.id}").content.decode()
    assert "<li>Discard Defence (Amber Coast)</li>" in html and "<li>End the turn</li>" in html


def test_a_rulings_code_sits_in_a_details_disclosure(client, ruling):
    html = client.get(ruling.json()["url"]).content.decode()
    verdict = re.search(r'<p class="ruling-result__verdict">.*?</p>', html, re.S).group(0)
    assert "same_card" not in verdict
    assert re.search(
        r'<details class="code-details"><summary>Details</summary><p>[^<]*'
        r'<code class="ruling-result__code">same_card</code></p></details>',
        html,
    )


def test_a_long_warning_shows_its_first_sentence_and_the_rest_on_demand(client, star_trek_missions):
    long_warning = (
        "The position accounts for 14 of the 22 cards (1 set aside, 5 in the deck, "
        "2 in hands, 6 face up): 8 cards are missing. What the position tells about "
        "unseen cards may be off."
    )
    body = result_save(
        game=star_trek_missions,
        kind="score",
        request_body={},
        response_body={**SCORE, "warnings": ["Short one.", long_warning]},
    )
    html = client.get(body["url"]).content.decode()
    assert "<li>Short one.</li>" in html
    assert (
        '<details class="warning-more"><summary class="warning-more__summary">The position '
        "accounts for 14 of the 22 cards (1 set aside, 5 in the deck, 2 in hands, 6 face up):"
        ' 8 cards are missing.</summary><p class="warning-more__rest">What the position '
        "tells about unseen cards may be off.</p></details>"
    ) in html


def test_warning_parts():
    from results.templatetags.results_text import warning_parts

    assert warning_parts("Short.") == {"short": True, "first": "Short.", "rest": ""}
    long = "A first sentence that goes on, e.g. with an example, for a while. " * 2 + "Then 3 more."
    parts = warning_parts(long)
    assert parts["first"] == "A first sentence that goes on, e.g. with an example, for a while."
    assert parts["rest"].endswith("Then 3 more.") and not parts["short"]
    one = "x" * 120
    assert warning_parts(one) == {"short": False, "first": one, "rest": ""}


def test_a_saved_score_stacks_its_steps_on_a_phone(client, star_trek_missions):
    body = result_save(game=star_trek_missions, kind="score", request_body={}, response_body=SCORE)
    html = client.get(body["url"]).content.decode()
    assert '<table class="steps steps--stack">' in html
    assert '<td class="num steps__points">4</td>' in html
    assert '<td class="num steps__running">12</td>' in html
    assert 'href="/games/star-trek-missions/score/">Score again</a>' in html


def test_the_share_button_is_hidden_until_its_script_runs(client, ruling):
    html = client.get(ruling.json()["url"]).content.decode()
    button = re.search(
        r'<button type="button" class="button button--quiet share__button"[^>]*>', html
    ).group(0)
    assert f'data-share-url="http://testserver{ruling.json()["url"]}"' in button
    assert " hidden" in button
    assert '<script src="/static/js/share.js" defer></script>' in html


def test_the_admins_fill_in_button_shows_to_staff_only(client, catalog):
    check_move = next(form for form in FORMS if form.id == "sra-check-move")
    live, saved = saved_from_page(client, check_move)
    button = "Fill in Corvette's cost (admin)"
    assert "Corvette" in live and button not in live
    assert button not in client.get(f"/r/{saved.id}").content.decode()
    client.force_login(get_user_model().objects.create_user("staff", password="x", is_staff=True))
    assert button in client.get(f"/r/{saved.id}").content.decode()
    assert button in client.post(check_move.url, check_move.valid[0]).content.decode()
