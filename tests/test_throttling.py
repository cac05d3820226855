"""The POST throttle's shared counter: a sliding-window estimate in one database row per client."""

from __future__ import annotations

import pytest

from common import throttling
from common.models import ThrottleCounter
from common.throttling import WindowCount, record_request, seconds_until_allowed

pytestmark = pytest.mark.django_db

MINUTE = 60
START = 1_800_000_000.0  # a whole number of minutes since the epoch


def test_requests_in_one_window_are_counted_one_by_one():
    counts = [record_request(client="a", now=START + second, duration=MINUTE) for second in range(5)]
    assert [c.hits for c in counts] == [1, 2, 3, 4, 5]
    assert {c.previous_hits for c in counts} == {0}
    assert counts[-1].fraction == pytest.approx(4 / MINUTE)
    assert ThrottleCounter.objects.get(client="a").hits == 5


def test_a_new_window_carries_the_last_one_and_forgets_older_ones():
    for _ in range(4):
        record_request(client="a", now=START + 10, duration=MINUTE)
    next_window = record_request(client="a", now=START + MINUTE + 15, duration=MINUTE)
    assert (next_window.hits, next_window.previous_hits) == (1, 4)
    # 15 s into the window, three quarters of the previous one is still within the last minute.
    assert next_window.estimate == pytest.approx(1 + 4 * 0.75)
    much_later = record_request(client="a", now=START + 5 * MINUTE, duration=MINUTE)
    assert (much_later.hits, much_later.previous_hits) == (1, 0)


def test_clients_are_counted_apart():
    record_request(client="a", now=START, duration=MINUTE)
    record_request(client="a", now=START, duration=MINUTE)
    assert record_request(client="b", now=START, duration=MINUTE).hits == 1


def test_idle_clients_are_pruned(monkeypatch):
    record_request(client="idle", now=START, duration=MINUTE)
    monkeypatch.setattr(throttling, "PRUNE_CHANCE", 1.0)
    record_request(client="busy", now=START + 3 * MINUTE, duration=MINUTE)
    assert list(ThrottleCounter.objects.values_list("client", flat=True)) == ["busy"]


@pytest.mark.parametrize(
    "count, wait",
    [
        # Over the limit within this window: wait for the next one, until 4 requests weigh ≤ 2.
        (WindowCount(hits=4, previous_hits=0, fraction=0.5), 30 + 0.5 * MINUTE),
        # This window has room (1 of 3); the previous window's 4 must weigh ≤ 1: at 3/4 through.
        (WindowCount(hits=1, previous_hits=4, fraction=0.25), 0.5 * MINUTE),
    ],
)
def test_the_wait_is_until_the_next_request_would_be_allowed(count, wait):
    assert seconds_until_allowed(count, limit=3, duration=MINUTE) == pytest.approx(wait)


@pytest.mark.parametrize("seconds_in", [0, 20, 59])
def test_waiting_as_told_is_enough_and_not_more_than_needed(seconds_in):
    limit, now = 3, START + seconds_in
    # Two clients with the same history: one comes back a second early, one when told.
    for client in ("early", "on-time"):
        for _ in range(limit + 1):
            count = record_request(client=client, now=now, duration=MINUTE)
    assert count.estimate > limit
    wait = seconds_until_allowed(count, limit=limit, duration=MINUTE)
    assert record_request(client="early", now=now + wait - 1, duration=MINUTE).estimate > limit
    assert record_request(client="on-time", now=now + wait, duration=MINUTE).estimate <= limit
