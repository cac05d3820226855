"""Failed admin logins are throttled per account and address (issue 12)."""

import pytest

from common import login_throttle
from common.login_throttle import ACCOUNT_LIMIT, ADDRESS_LIMIT

pytestmark = pytest.mark.django_db

LOGIN = "/admin/login/?next=/admin/"
RIGHT = "secret-pass-123"


@pytest.fixture
def editor(django_user_model):
    return django_user_model.objects.create_superuser("editor", "editor@example.org", RIGHT)


def attempt(client, username, password, address="198.51.100.4"):
    return client.post(LOGIN, {"username": username, "password": password},
                       REMOTE_ADDR=address)


def logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_wrong_passwords_up_to_the_limit_are_answered_as_usual(client, editor):
    for _ in range(ACCOUNT_LIMIT - 1):
        assert attempt(client, "editor", "wrong").status_code == 200
    assert attempt(client, "editor", RIGHT).status_code == 302 and logged_in(client)


def test_past_the_limit_even_the_right_password_is_refused_with_a_429(client, editor):
    for _ in range(ACCOUNT_LIMIT):
        assert attempt(client, "editor", "wrong").status_code == 200
    refused = attempt(client, "editor", RIGHT)
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert "Too many failed logins" in refused.content.decode()
    assert not logged_in(client)


def test_the_lock_is_per_account_and_address(client, editor, django_user_model):
    django_user_model.objects.create_superuser("other", "other@example.org", RIGHT)
    for _ in range(ACCOUNT_LIMIT):
        attempt(client, "editor", "wrong")
    # Another account from the same address, and the same account from elsewhere, still log in.
    assert attempt(client, "other", RIGHT).status_code == 302
    client.logout()
    assert attempt(client, "editor", RIGHT, address="203.0.113.9").status_code == 302


def test_an_address_guessing_across_accounts_is_locked_too(client, editor):
    for index in range(ADDRESS_LIMIT):
        assert attempt(client, f"nobody-{index}", "wrong").status_code == 200
    assert attempt(client, "editor", RIGHT).status_code == 429
    assert attempt(client, "editor", RIGHT, address="203.0.113.9").status_code == 302


def test_the_lock_lifts_once_the_window_has_moved_on(client, editor, monkeypatch):
    import time

    start = time.time()
    for _ in range(ACCOUNT_LIMIT):
        attempt(client, "editor", "wrong")
    assert attempt(client, "editor", RIGHT).status_code == 429
    later = start + 2 * login_throttle.WINDOW + 1
    monkeypatch.setattr(login_throttle.time, "time", lambda: later)
    assert attempt(client, "editor", RIGHT).status_code == 302
