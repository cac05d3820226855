"""Page forms over the size or field count any page sends are refused before anything reads them:
before the text check, the CSRF check and the throttle (2.6 MB of `a=&` pairs cost 1.1 s of CPU
before the CSRF check's 403). A person sees a page saying why; the API keeps its JSON 413."""

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

PAGE = "/games/star-trek-missions/score/"
TABLE = "/games/star-trek-missions/table/"
FORM = "application/x-www-form-urlencoded"


@pytest.fixture
def strict_client():
    """A browser's client: the CSRF check is made, as in production."""
    return Client(enforce_csrf_checks=True)


def lede(response) -> str:
    return re.search(r'<p class="lede">(.*?)</p>', response.content.decode(), re.S).group(1)


def test_a_page_form_over_the_size_limit_is_a_413_page_before_the_csrf_check(
    strict_client, catalog, settings, monkeypatch
):
    from common import middleware

    def never(body):  # the text check splits every field: it must not see such a body
        raise AssertionError("the form was read")

    monkeypatch.setattr(middleware, "first_field_not_text", never)
    body = "hand=" + "x" * (settings.PAGE_MAX_BODY_BYTES + 10)
    response = strict_client.post(PAGE, body, content_type=FORM)
    assert response.status_code == 413
    assert "<h1>This form is too large</h1>" in response.content.decode()
    assert lede(response) == (
        f"The form sent {len(body):,} bytes; Tableside takes at most "
        f"{settings.PAGE_MAX_BODY_BYTES:,} from a form, so nothing was "
        f"read, scored or saved."
    )


def test_a_page_form_of_too_many_fields_is_a_400_page_before_the_csrf_check(
    strict_client, catalog, settings
):
    body = "a=&" * 5000  # 15 kB: within the size limit, 5,000 fields
    response = strict_client.post(PAGE, body, content_type=FORM)
    assert response.status_code == 400
    assert "<h1>This form has too many fields</h1>" in response.content.decode()
    assert lede(response) == (
        "The form sent 5,001 fields; Tableside takes at most 1,000, so "
        "nothing was read, scored or saved."
    )


def test_a_multipart_page_form_of_too_many_fields_is_a_400_page(strict_client, catalog):
    from django.test.client import BOUNDARY, encode_multipart

    fields = {f"f{i}": "" for i in range(1500)}
    assert len(encode_multipart(BOUNDARY, fields)) < 128 * 1024
    response = strict_client.post(PAGE, fields)  # the test client's default: multipart
    assert response.status_code == 400
    assert lede(response) == (
        "The form sent 1,500 fields; Tableside takes at most 1,000, so "
        "nothing was read, scored or saved."
    )
    assert strict_client.post(PAGE, {f"f{i}": "" for i in range(900)}).status_code == 403


def test_a_form_within_the_limits_goes_on_to_the_csrf_check(strict_client, catalog):
    body = "a=&" * 900
    assert strict_client.post(PAGE, body, content_type=FORM).status_code == 403


def test_the_largest_page_form_is_well_within_the_limits(client, catalog, settings):
    """A table of ten players with nine of the longest card names each (a hand has at most
    nine): what the largest page sends is a quarter of the size limit, and goes on to be
    scored (or refused by the game's rules, never by the limits)."""
    from cards.models import Card

    longest = sorted(
        Card.objects.filter(game__slug="star-trek-missions").values_list("name", flat=True),
        key=len,
        reverse=True,
    )[:90]
    data: dict[str, object] = {"players": "10", "current": "0"}
    for seat in range(10):
        data[f"p{seat}-name"] = f"Player with a long name number {seat}"
        data[f"p{seat}-hand"] = longest[seat * 9 : seat * 9 + 9]
    from urllib.parse import urlencode

    size = len(urlencode(data, doseq=True))
    assert size < settings.PAGE_MAX_BODY_BYTES / 4
    response = client.post(TABLE, data)
    assert response.status_code in (200, 400)
    assert "This form is too large" not in response.content.decode()
    assert "too many fields" not in response.content.decode()
    assert "Player with a long name number 9" in response.content.decode()


def test_a_chunked_page_form_over_the_limit_is_a_413_page(client, catalog, settings):
    import io

    data = b"hand=" + b"x" * settings.PAGE_MAX_BODY_BYTES
    response = client.generic(
        "POST",
        PAGE,
        b"",
        content_type=FORM,
        HTTP_TRANSFER_ENCODING="chunked",
        **{"wsgi.input": io.BytesIO(data)},
    )
    assert response.status_code == 413
    assert f"more than {settings.PAGE_MAX_BODY_BYTES:,} bytes" in lede(response)


def test_the_admin_keeps_its_larger_limit(client, catalog, settings):
    """The admin's import confirms a whole catalog file in one form: 100 kB reaches the login
    page (which asks for the password again), not the pages' 413."""
    body = "username=a&password=b&filler=" + "x" * 100_000
    response = client.post("/admin/login/", body, content_type=FORM)
    assert response.status_code == 200


def test_the_api_keeps_its_json_413(client, catalog, settings):
    response = client.post(
        "/api/games/star-trek-missions/score/", "x" * 70_000, content_type="application/json"
    )
    assert response.status_code == 413 and response.json()["code"] == "request_too_large"
