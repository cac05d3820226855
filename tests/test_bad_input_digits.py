"""Bad input that reached a 500 in the second hostile probe (issue 22): text that Python's
isdigit() takes for a number while int() does not ('²'), an import nested too deeply, a multipart
page form skipping the text check, and methods a page does not answer."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from cards.models import Game
from results.models import SavedResult

from .test_academy_credits_pages import CHECK, SCORE, play_form, round_form

pytestmark = pytest.mark.django_db

SUPERSCRIPT_TWO = "\u00b2"  # "²": str.isdigit() says yes, int() refuses it


def test_a_page_size_of_superscript_two_is_the_documented_400(client, catalog):
    response = client.get("/api/games/academy-credits/cards/", {"page_size": SUPERSCRIPT_TWO})
    body = response.json()
    assert response.status_code == 400
    assert body["errors"][0]["code"] == "invalid_page_size"
    assert body["errors"][0]["path"] == "query.page_size"
    # Its legal neighbour.
    assert client.get("/api/games/academy-credits/cards/", {"page_size": "2"}).status_code == 200


@pytest.mark.parametrize("field", ["turn", "target"])
def test_a_seat_of_superscript_two_on_check_a_play_is_shown_by_its_field(client, catalog, field):
    response = client.post(CHECK, play_form(**{field: SUPERSCRIPT_TWO}))
    assert response.status_code == 400
    assert not SavedResult.objects.exists()
    assert (
        client.post(CHECK, play_form(**{field: "2" if field == "target" else "1"})).status_code
        == 200
    )


def test_a_starter_of_superscript_two_on_score_a_round_is_shown_by_its_field(client, catalog):
    response = client.post(SCORE, round_form(starter=SUPERSCRIPT_TWO))
    assert response.status_code == 400
    assert not SavedResult.objects.exists()
    assert client.post(SCORE, round_form(starter="2")).status_code == 200


def test_a_credits_target_keyed_by_superscript_two_is_an_invalid_option(client, catalog):
    body = {
        "players": [
            {
                "name": "Ana",
                "discards": ["Lura Thok", "Jay-Den Kraag"],
                "hand": "Jett Reno",
                "credits": 2,
            },
            {"name": "Ben", "discards": ["Charles Vance"], "hand": "The Doctor", "credits": 1},
        ],
        "deck_count": 0,
        "options": {"credits_target": {SUPERSCRIPT_TWO: 4}},
    }
    url = "/api/games/academy-credits/score/"
    response = client.post(url, json.dumps(body), content_type="application/json")
    answer = response.json()
    assert response.status_code == 400, answer
    codes = {entry["code"] for entry in answer["errors"]}
    assert codes == {"invalid_option"}, answer
    assert "value_error" not in json.dumps(answer)
    assert "is not a player count" in answer["errors"][0]["detail"]
    body["options"] = {"credits_target": {"2": 4, "3": 5, "4": 6}}
    assert client.post(url, json.dumps(body), content_type="application/json").status_code == 200


def _preview(admin_client, name: str, content: bytes):
    game = Game.objects.get(slug="academy-credits")
    upload = SimpleUploadedFile(name, content)
    return admin_client.post(
        reverse("admin:cards_card_import"), {"game": game.pk, "file": upload, "_preview": "1"}
    )


def test_the_admin_import_with_copies_of_superscript_two_reports_the_row(admin_client, catalog):
    cards = [{"slug": "lura-thok", "name": "Lura Thok", "copies": SUPERSCRIPT_TWO}]
    page = _preview(admin_client, "cards.json", json.dumps({"cards": cards}).encode())
    assert page.status_code == 200
    assert page.context["confirm_form"] is None
    assert "Copies must be a whole number of at least 1" in page.content.decode()
    cards[0]["copies"] = "2"
    assert (
        _preview(admin_client, "cards.json", json.dumps({"cards": cards}).encode()).context[
            "confirm_form"
        ]
        is not None
    )


def test_the_admin_import_of_json_nested_100000_deep_reports_the_file(admin_client, catalog):
    deep = b"[" * 100_000 + b"]" * 100_000
    page = _preview(admin_client, "cards.json", deep)
    assert page.status_code == 200
    assert page.context["confirm_form"] is None
    assert "nested too deeply" in page.content.decode()


# --- A multipart page form is checked for text like a urlencoded one ------------------------------


def test_a_multipart_page_form_with_a_lone_surrogate_is_refused_and_nothing_saved(catalog):
    boundary = "----tableside"
    body = (f'--{boundary}\r\nContent-Disposition: form-data; name="hand"\r\n\r\n').encode()
    body += b"Bridge\xed\xa0\x80\r\n"
    body += f"--{boundary}--\r\n".encode()
    response = Client().post(
        "/games/star-trek-missions/score/",
        body,
        content_type=f"multipart/form-data; boundary={boundary}",
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "not UTF-8 text" in html and "“hand”" in html
    assert not SavedResult.objects.exists()


def test_a_multipart_page_form_of_ordinary_text_is_scored(catalog):
    response = Client().post(
        "/games/star-trek-missions/score/", {"hand": ["Lieutenant Worf", "Commander Kurn"]}
    )  # multipart
    assert response.status_code == 200
    assert SavedResult.objects.count() == 1


# --- Methods ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url", ["/", "/games/star-trek-missions/score/", "/games/academy-credits/check-move/"]
)
def test_head_on_a_page_answers_like_get_without_a_body(client, catalog, url):
    get = client.get(url)
    head = client.head(url)
    assert get.status_code == 200
    assert head.status_code == 200 and head.content == b""
    assert head["Content-Type"] == get["Content-Type"]


@pytest.mark.parametrize("url", ["/", "/games/star-trek-missions/score/", "/api/games/"])
def test_trace_is_not_allowed(client, catalog, url):
    response = client.generic("TRACE", url)
    assert response.status_code == 405
    assert "TRACE" not in response.get("Allow", "")


def test_a_python_exception_in_a_validator_is_never_the_code_value_error():
    from pydantic import Field, field_validator

    from common.api_errors import ApiError
    from common.requests import RequestModel, read_body

    class Counted(RequestModel):
        count: str = Field(description="a number of players")

        @field_validator("count")
        @classmethod
        def _number(cls, value: str) -> str:
            int(value)  # raises ValueError on '²', as credits_target's keys once did
            return value

    with pytest.raises(ApiError) as refused:
        read_body(Counted, {"count": SUPERSCRIPT_TWO})
    [entry] = refused.value.errors
    assert refused.value.status_code == 400
    assert (entry["code"], entry["path"]) == ("invalid_input", "count")
    assert entry["detail"] == "count must be a number of players; got the text '²'."
    assert read_body(Counted, {"count": "2"}).count == "2"
