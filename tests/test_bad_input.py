"""Bad input costs little and never crashes (issue 12): text longer than any card name is refused
before any fuzzy work, a body's suggestion work is capped, and the same holds for every game's
score and ruling bodies and the catalog's `named/?fuzzy=`."""

import difflib
import json
import random
import string

import pytest
from django.test import Client

from cards import naming
from cards.models import Card
from common.card_names import MAX_SUGGESTED

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


def test_sixty_names_of_a_thousand_characters_are_refused_without_fuzzy_work(client, catalog,
                                                                             full_comparisons):
    names = [random_text(1000, seed) for seed in range(60)]
    response = post(client, SCORE, {"hand": names})
    body = response.json()
    assert response.status_code == 400 and body["code"] == "invalid_input"
    entries = {e["path"]: e for e in body["errors"]}
    assert [entries[f"hand[{i}]"]["code"] for i in range(60)] == ["too_long"] * 60
    assert "1000 characters is too long for a card name" in entries["hand[0]"]["detail"]
    assert full_comparisons == []


def test_one_name_of_sixty_thousand_characters_is_refused_without_fuzzy_work(client, catalog,
                                                                             full_comparisons):
    response = post(client, SCORE, {"hand": ["Lieutenant Worf", "x" * 60_000]})
    errors = response.json()["errors"]
    assert response.status_code == 400
    assert [(e["path"], e["code"]) for e in errors] == [("hand[1]", "too_long")]
    assert full_comparisons == []


def test_a_name_within_the_limit_still_gets_suggestions(client, catalog):
    longest = max(len(n) for n in Card.objects.filter(game__slug="star-trek-missions")
                  .values_list("name", flat=True))
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
def test_every_score_and_ruling_body_refuses_a_card_name_too_long(url, example, catalog,
                                                                   full_comparisons):
    game = url.split("/")[3]
    names = set(Card.objects.filter(game__slug=game).values_list("name", flat=True))

    def value_at(body, path):
        for step in path:
            body = body[step]
        return body

    spots = [path for path in _paths(example)
             if path and isinstance(value_at(example, path), str)
             and value_at(example, path) in names]
    assert spots, "the example names a card somewhere"
    body = _replace(example, spots[0], "Q" * 5_000)
    response = Client().post(url, json.dumps(body), content_type="application/json")
    assert response.status_code == 400, response.json()
    codes = {e["code"] for e in response.json()["errors"]}
    assert "too_long" in codes
    assert full_comparisons == []


@pytest.mark.parametrize("parameter", ["fuzzy", "exact"])
def test_the_named_lookup_refuses_text_longer_than_any_name(client, catalog, parameter,
                                                            full_comparisons):
    response = client.get("/api/games/academy-credits/cards/named/",
                          {parameter: random_text(4_000)})
    body = response.json()
    assert response.status_code == 400 and body["code"] == "too_long"
    assert body["errors"] == [{"path": f"query.{parameter}", "code": "too_long",
                               "detail": body["detail"]}]
    assert "4000 characters" in body["detail"]
    assert full_comparisons == []


def test_the_named_lookup_still_forgives_typos(client, catalog):
    response = client.get("/api/games/academy-credits/cards/named/", {"fuzzy": "jet renno"})
    assert response.status_code == 200 and response.json()["name"] == "Jett Reno"
