"""The admin lockout (django-axes, issue 22): after 20 failed logins within 15 minutes an address
is locked, whatever password it sends and on every account, and nothing the API counts (its
throttle rows, pruned by API traffic) can unlock it. The address is the one the API's throttle
counts (TRUSTED_PROXY_COUNT)."""

import json
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.conf import settings as django_settings
from django.utils import timezone

from common import throttling
from common.models import ThrottleCounter

pytestmark = pytest.mark.django_db

LOGIN = "/admin/login/?next=/admin/"
RIGHT = "secret-pass-123"
LIMIT = 20
ADDRESS = "198.51.100.4"
ELSEWHERE = "203.0.113.9"
SCORE = "/api/games/star-trek-missions/score/"


@pytest.fixture
def editor(django_user_model):
    return django_user_model.objects.create_superuser("editor", "editor@example.org", RIGHT)


def attempt(client, username, password, address=ADDRESS, **headers):
    return client.post(
        LOGIN, {"username": username, "password": password}, REMOTE_ADDR=address, **headers
    )


def logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def lock(client, address=ADDRESS, **headers):
    answers = [
        attempt(client, f"nobody-{i}", "wrong", address, **headers).status_code
        for i in range(LIMIT)
    ]
    # Every guess was checked and refused as usual; the 20th locks the address.
    assert answers == [200] * (LIMIT - 1) + [429]


def test_the_shipped_limit_is_twenty_failures_in_fifteen_minutes():
    assert django_settings.AXES_FAILURE_LIMIT == LIMIT
    assert django_settings.AXES_COOLOFF_TIME == timedelta(minutes=15)


def test_wrong_passwords_below_the_limit_are_answered_as_usual(client, editor):
    for _ in range(LIMIT - 1):
        assert attempt(client, "editor", "wrong").status_code == 200
    assert attempt(client, "editor", RIGHT).status_code == 302 and logged_in(client)


def test_past_the_limit_even_the_right_password_is_refused_with_a_429(client, editor):
    lock(client)
    refused = attempt(client, "editor", RIGHT)
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) == 15 * 60
    assert "Too many failed logins" in refused.content.decode()
    assert not logged_in(client)
    # The account itself is not locked: from another address it logs in.
    assert attempt(client, "editor", RIGHT, address=ELSEWHERE).status_code == 302


def test_no_amount_of_api_posts_unlocks_an_address(client, editor, monkeypatch):
    lock(client)
    # The API throttle at a rate the posts exceed (429s included), pruning its rows every time.
    monkeypatch.setattr(
        throttling.EvaluationRateThrottle, "THROTTLE_RATES", {"evaluations": "5/minute"}
    )
    monkeypatch.setattr(throttling, "PRUNE_CHANCE", 1.0)
    statuses = set()
    for _ in range(120):
        response = client.post(
            SCORE,
            json.dumps({"hand": ["Lieutenant Worf"]}),
            content_type="application/json",
            REMOTE_ADDR=ADDRESS,
        )
        statuses.add(response.status_code)
    assert 429 in statuses
    ThrottleCounter.objects.all().delete()  # even the throttle table emptied
    assert attempt(client, "editor", RIGHT).status_code == 429
    assert not logged_in(client)


def test_guesses_during_the_lockout_keep_it_and_it_lifts_after_the_cool_off(client, editor):
    lock(client)
    assert attempt(client, "editor", "wrong").status_code == 429
    # Fifteen minutes after the last failure (moved back in the table), the address may try again.
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=15, seconds=1))
    assert attempt(client, "editor", RIGHT).status_code == 302 and logged_in(client)


def test_a_spoofed_forwarded_for_does_not_change_the_address_without_a_proxy(client, editor):
    lock(client, HTTP_X_FORWARDED_FOR="192.0.2.1")
    refused = attempt(client, "editor", RIGHT, HTTP_X_FORWARDED_FOR="192.0.2.99")
    assert refused.status_code == 429


def test_behind_one_proxy_the_address_is_the_one_the_proxy_appended(client, editor, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    proxy = "10.0.0.2"
    # The client writes its own first entry each time; the proxy appends the address it saw.
    for i in range(LIMIT):
        attempt(
            client, "nobody", "wrong", address=proxy, HTTP_X_FORWARDED_FOR=f"192.0.2.{i}, {ADDRESS}"
        )
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {ADDRESS}
    assert (
        attempt(
            client, "editor", RIGHT, address=proxy, HTTP_X_FORWARDED_FOR=f"192.0.2.200, {ADDRESS}"
        ).status_code
        == 429
    )
    # Another client behind the same proxy is not locked.
    assert (
        attempt(client, "editor", RIGHT, address=proxy, HTTP_X_FORWARDED_FOR=ELSEWHERE).status_code
        == 302
    )


def test_the_lockout_and_the_api_throttle_count_the_same_address(rf, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    request = rf.post(LOGIN, REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=f"1.2.3.4, {ADDRESS}")
    from axes.helpers import get_client_ip_address

    assert get_client_ip_address(request) == throttling.client_address(request) == ADDRESS
    # An entry that is not an address (no proxy writes one) counts as the socket's address.
    odd = rf.post(LOGIN, REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="not-an-address")
    assert get_client_ip_address(odd) == "10.0.0.2"
    # No address at all (an in-process request): none, which axes stores as NULL on PostgreSQL's
    # inet column too (a word such as "unknown" was refused there).
    nowhere = rf.post(LOGIN)
    del nowhere.META["REMOTE_ADDR"]
    assert get_client_ip_address(nowhere) == ""


def test_an_admin_logged_in_in_process_is_recorded_without_an_address(admin_client):
    assert admin_client.get("/admin/").status_code == 200
