"""Throttling, request size, security headers and the Content-Security-Policy."""

import json

import pytest

from common.middleware import STRICT_HEADER

pytestmark = pytest.mark.django_db

SCORE = "/api/games/star-trek-missions/score/"
HAND = {"hand": ["Lieutenant Worf", "Commander Kurn"]}


def test_post_endpoints_are_throttled_with_the_error_body(api, catalog, monkeypatch):
    from common.throttling import EvaluationRateThrottle

    # DRF reads the rates once, at import: lower this scope's rate on the class itself.
    monkeypatch.setattr(EvaluationRateThrottle, "THROTTLE_RATES", {"evaluations": "3/minute"})
    statuses = [api.post(SCORE, HAND, format="json").status_code for _ in range(4)]
    response = api.post(SCORE, HAND, format="json")
    assert statuses == [200, 200, 200, 429]
    body = response.json()
    assert response.status_code == 429 and body["code"] == "throttled"
    assert set(body) == {"status", "code", "detail", "errors"} and body["status"] == 429
    assert int(response["Retry-After"]) > 0
    # Reading is never throttled.
    assert api.get("/api/games/").status_code == 200


def test_a_body_over_the_limit_is_a_413_with_the_error_body(client, catalog, settings):
    settings.API_MAX_BODY_BYTES = 1000
    big = json.dumps({"hand": ["Lieutenant Worf"] * 200})
    response = client.post(SCORE, big, content_type="application/json")
    body = response.json()
    assert response.status_code == 413
    assert body["code"] == "request_too_large" and "at most 1000" in body["detail"]


@pytest.mark.parametrize(
    "url", ["/", "/games/academy-credits/cards/", "/api/games/", "/admin/login/"]
)
def test_every_response_carries_a_strict_content_security_policy(client, catalog, url):
    response = client.get(url)
    assert response["Content-Security-Policy"] == STRICT_HEADER
    assert "'unsafe-inline'" not in STRICT_HEADER and "script-src 'self'" in STRICT_HEADER
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["X-Frame-Options"] == "DENY"


def test_the_api_docs_have_no_inline_script(client, catalog):
    html = client.get("/api/docs/").content.decode()
    assert "<script>" not in html.replace(" ", "")
    assert "swagger-ui-bundle.js" in html
