"""With a proxy count set, `make serve` (config/gunicorn.py) listens on loopback only (issue 22):
the app then believes X-Forwarded-For and X-Forwarded-Proto, which a client reaching it directly
would write itself."""

import pytest

from config.gunicorn import bind_addresses


def test_by_default_it_listens_on_loopback():
    assert bind_addresses({}) == ["127.0.0.1:8000"]
    assert bind_addresses({"PORT": "9000", "TRUSTED_PROXY_COUNT": "1"}) == ["127.0.0.1:9000"]


def test_without_a_proxy_count_any_bind_is_taken():
    assert bind_addresses({"BIND": "0.0.0.0:8000"}) == ["0.0.0.0:8000"]
    assert bind_addresses({"BIND": "0.0.0.0:8000", "TRUSTED_PROXY_COUNT": "0"}) == ["0.0.0.0:8000"]


@pytest.mark.parametrize(
    "bind", ["0.0.0.0:8000", "[::]:8000", "192.0.2.10:8000", "127.0.0.1:8000,0.0.0.0:8001"]
)
def test_with_a_proxy_count_a_bind_others_can_reach_is_refused(bind):
    with pytest.raises(SystemExit) as refused:
        bind_addresses({"BIND": bind, "TRUSTED_PROXY_COUNT": "1"})
    message = str(refused.value)
    assert "TRUSTED_PROXY_COUNT=1" in message and "PROXY_ONLY_NETWORK=1" in message


@pytest.mark.parametrize(
    "bind", ["127.0.0.1:8000", "[::1]:8000", "localhost:8000", "unix:/run/tableside.sock"]
)
def test_with_a_proxy_count_loopback_and_sockets_are_taken(bind):
    assert bind_addresses({"BIND": bind, "TRUSTED_PROXY_COUNT": "1"}) == [bind]


def test_an_operator_can_say_only_the_proxy_reaches_the_address():
    environ = {"BIND": "10.0.0.5:8000", "TRUSTED_PROXY_COUNT": "1", "PROXY_ONLY_NETWORK": "1"}
    assert bind_addresses(environ) == ["10.0.0.5:8000"]
