"""Bad input costs little and never crashes (issue 12): text longer than any card name is refused
before any fuzzy work, a body's suggestion work is capped, and the same holds for every game's
score and ruling bodies and the catalog's `named/?fuzzy=`."""

import difflib
import io
import json
import random
import string

import pytest
from django.test import Client

from cards import naming
from cards.models import Card
from results.models import SavedResult
from web.card_names import MAX_SUGGESTED

from .test_fuzz_services import _examples, _paths, _replace

pytestmark = pytest.mark.django_db

SCORE = "/api/games/star-trek-missions/score/"


def random_text(length: int, seed: int = 0) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice(string.ascii_letters + string.digits + " ") for _ in range(length))


@pytest.fixture
def full_comparisons(monkeypatch):
    calls = []
    original = difflib.SequenceMatcher.ratio

    def counted(self):
        calls.append(1)
        return original(self)

    monkeypatch.setattr(difflib.SequenceMatcher, "ratio", counted)
    return calls


def post(client, url, body):
    return client.post(url, json.dumps(body), content_type="application/json")


def test_sixty_names_of_a_thousand_characters_are_refused_without_fuzzy_work(
    client, catalog, full_comparisons
):
    names = [random_text(1000, seed) for seed in range(60)]
    response = post(client, SCORE, {"hand": names})
    body = response.json()
    assert response.status_code == 400 and body["code"] == "invalid_input"
    entries = {e["path"]: e for e in body["errors"]}
    assert [entries[f"hand[{i}]"]["code"] for i in range(60)] == ["too_long"] * 60
    assert "1000 characters is too long for a card name" in entries["hand[0]"]["detail"]
    assert full_comparisons == []


def test_one_name_of_sixty_thousand_characters_is_refused_without_fuzzy_work(
    client, catalog, full_comparisons
):
    response = post(client, SCORE, {"hand": ["Lieutenant Worf", "x" * 60_000]})
    errors = response.json()["errors"]
    assert response.status_code == 400
    assert [(e["path"], e["code"]) for e in errors] == [("hand[1]", "too_long")]
    assert full_comparisons == []


def test_a_name_within_the_limit_still_gets_suggestions(client, catalog):
    longest = max(
        len(n)
        for n in Card.objects.filter(game__slug="star-trek-missions").values_list("name", flat=True)
    )
    typed = "Lieutenant Worff".ljust(3 * longest, "f")  # as long as the limit allows
    response = post(client, SCORE, {"hand": ["Lieutenant Worff"]})
    entry = response.json()["errors"][0]
    assert entry["code"] == "unknown_card" and entry["suggestions"][0] == "Lieutenant Worf"
    entry = post(client, SCORE, {"hand": [typed]}).json()["errors"][0]
    assert entry["code"] == "unknown_card"
    assert post(client, SCORE, {"hand": [typed + "f"]}).json()["errors"][0]["code"] == "too_long"


def test_a_body_gets_suggestions_for_its_first_names_only(client, catalog, monkeypatch):
    calls = []
    original = naming.suggest

    def counted(query, cards, limit=5):
        calls.append(query)
        return original(query, cards, limit)

    monkeypatch.setattr(naming, "suggest", counted)
    names = [f"Lieutenant Worff {i}" for i in range(30)]
    errors = post(client, SCORE, {"hand": names}).json()["errors"]
    assert [e["code"] for e in errors] == ["unknown_card"] * 30
    assert len(calls) == MAX_SUGGESTED
    assert all(e["suggestions"] for e in errors[:MAX_SUGGESTED])
    assert not any(e["suggestions"] for e in errors[MAX_SUGGESTED:])


@pytest.mark.parametrize("url, example", _examples())
def test_every_score_and_ruling_body_refuses_a_card_name_too_long(
    url, example, catalog, full_comparisons
):
    game = url.split("/")[3]
    names = set(Card.objects.filter(game__slug=game).values_list("name", flat=True))

    def value_at(body, path):
        for step in path:
            body = body[step]
        return body

    spots = [
        path
        for path in _paths(example)
        if path and isinstance(value_at(example, path), str) and value_at(example, path) in names
    ]
    assert spots, "the example names a card somewhere"
    body = _replace(example, spots[0], "Q" * 5_000)
    response = Client().post(url, json.dumps(body), content_type="application/json")
    assert response.status_code == 400, response.json()
    codes = {e["code"] for e in response.json()["errors"]}
    assert "too_long" in codes
    assert full_comparisons == []


@pytest.mark.parametrize("parameter", ["fuzzy", "exact"])
def test_the_named_lookup_refuses_text_longer_than_any_name(
    client, catalog, parameter, full_comparisons
):
    response = client.get(
        "/api/games/academy-credits/cards/named/", {parameter: random_text(4_000)}
    )
    body = response.json()
    assert response.status_code == 400 and body["code"] == "too_long"
    assert body["errors"] == [
        {"path": f"query.{parameter}", "code": "too_long", "detail": body["detail"]}
    ]
    assert "4000 characters" in body["detail"]
    assert full_comparisons == []


def test_the_named_lookup_still_forgives_typos(client, catalog):
    response = client.get("/api/games/academy-credits/cards/named/", {"fuzzy": "jet renno"})
    assert response.status_code == 200 and response.json()["name"] == "Jett Reno"


# --- Text that is not text: lone UTF-16 surrogates (issue 12) --------------------------------------

PAGES = [
    "/games/star-trek-missions/score/",
    "/games/star-trek-missions/check-move/",
    "/games/academy-credits/check-move/",
    "/games/academy-credits/score/",
    "/games/star-realms-academy/check-move/",
    "/games/star-realms-academy/score/",
    "/games/factions/check-move/",
    "/games/factions/score/",
]


def raw_post(url, text):
    return Client().post(url, text, content_type="application/json")


def string_spots(example):
    def value_at(body, path):
        for step in path:
            body = body[step]
        return body

    return [path for path in _paths(example) if path and isinstance(value_at(example, path), str)]


def shown_path(path):
    text = ""
    for step in path:
        text += f"[{step}]" if isinstance(step, int) else (f".{step}" if text else step)
    return text


@pytest.mark.parametrize("url, example", _examples())
def test_a_lone_surrogate_in_any_value_is_a_400_naming_its_path(url, example, catalog):
    spots = string_spots(example)
    for spot in (spots[0], spots[-1]):
        body = _replace(example, spot, "Ana\ud800")
        response = raw_post(url, json.dumps(body))  # json.dumps writes it as the escape \ud800
        answer = response.json()
        assert response.status_code == 400, answer
        assert answer["code"] == "invalid_text"
        assert answer["errors"] == [
            {"path": shown_path(spot), "code": "invalid_text", "detail": answer["detail"]}
        ]


@pytest.mark.parametrize("url, example", _examples())
def test_a_lone_surrogate_in_a_key_is_a_400_naming_it(url, example, catalog):
    body = {**example, "\udc00x": 1}
    response = raw_post(url, json.dumps(body))
    answer = response.json()
    assert response.status_code == 400 and answer["code"] == "invalid_text"
    assert [e["path"] for e in answer["errors"]] == ["\\udc00x"]
    assert "key" in answer["detail"]


def test_a_player_named_with_a_lone_surrogate_is_a_400(catalog):
    body = {
        "players": [
            {"name": "Ana\ud800", "hand": ["Lieutenant Worf"]},
            {"name": "Ben", "hand": ["Commander Kurn"]},
        ]
    }
    answer = raw_post(SCORE, json.dumps(body)).json()
    assert answer["status"] == 400 and answer["code"] == "invalid_text"
    assert [e["path"] for e in answer["errors"]] == ["players[0].name"]


def test_a_surrogate_pair_is_ordinary_text(catalog):
    # "\ud83d\ude00" is one character, an emoji: text like any other (an unknown card here).
    answer = raw_post(SCORE, '{"hand": ["Worf \\ud83d\\ude00"]}').json()
    assert answer["code"] == "invalid_input"
    assert answer["errors"][0]["code"] == "unknown_card" and "😀" in answer["errors"][0]["detail"]


def test_a_body_nested_too_deeply_is_malformed_not_a_crash(catalog):
    deep = "[" * 30_000 + "]" * 30_000
    response = raw_post(SCORE, deep)
    assert response.status_code == 400 and response.json()["code"] == "malformed_request"


@pytest.mark.parametrize("url", PAGES)
def test_a_page_form_field_that_is_not_utf8_text_is_a_400_page_naming_it(url, catalog):
    # A browser cannot send a lone surrogate; a script can send its UTF-8-like bytes (%ED%A0%80),
    # which are not UTF-8. They are refused, not silently turned into U+FFFD and scored.
    response = Client().post(
        url, "hand=Ana%ED%A0%80&action=add", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert "not UTF-8 text" in html and "“hand”" in html


@pytest.mark.parametrize("url", PAGES)
def test_a_page_form_of_ordinary_text_is_not_refused(url, catalog):
    response = Client().post(
        url,
        "hand=Ana%C3%AF%F0%9F%98%80&action=add",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code in (200, 400)
    assert "not UTF-8 text" not in response.content.decode()


# --- Bodies sent in chunks (Transfer-Encoding: chunked, no Content-Length) -------------------------


def chunked_post(url, data: bytes, content_type="application/json"):
    # As gunicorn hands such a request on: no CONTENT_LENGTH, and the chunks joined in a
    # wsgi.input that reads until they end (the test client's own input refuses reads past a
    # Content-Length).
    return Client().generic(
        "POST",
        url,
        data,
        content_type=content_type,
        HTTP_TRANSFER_ENCODING="chunked",
        CONTENT_LENGTH="",
        **{"wsgi.input": io.BytesIO(data)},
    )


def test_a_chunked_body_is_read_not_taken_for_empty(catalog):
    body = json.dumps({"hand": ["Lieutenant Worf", "Commander Kurn"]}).encode()
    response = chunked_post(SCORE, body)
    assert response.status_code == 200, response.json()
    assert [c["name"] for c in response.json()["cards"]] == ["Lieutenant Worf", "Commander Kurn"]


def test_a_chunked_body_over_the_limit_is_a_413(catalog, settings):
    settings.API_MAX_BODY_BYTES = 1000
    response = chunked_post(SCORE, json.dumps({"hand": ["Lieutenant Worf"] * 200}).encode())
    body = response.json()
    assert response.status_code == 413 and body["code"] == "request_too_large"
    assert set(body) == {"status", "code", "detail", "errors"} and "at most 1000" in body["detail"]


def test_a_chunked_body_with_bad_text_gets_the_same_answer_as_any_body(catalog):
    response = chunked_post(SCORE, b'{"hand": ["\\ud800"]}')
    assert response.status_code == 400 and response.json()["code"] == "invalid_text"


def test_a_chunked_page_form_is_read(catalog):
    response = chunked_post(
        "/games/star-trek-missions/score/",
        b"hand=Lieutenant+Worf&hand=Commander+Kurn",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 200
    saved = SavedResult.objects.get()  # the hand was scored, and saved
    assert [c["name"] for c in saved.response["cards"]] == ["Lieutenant Worf", "Commander Kurn"]
