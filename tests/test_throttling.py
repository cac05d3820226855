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
    counts = [
        record_request(client="a", now=START + second, duration=MINUTE) for second in range(5)
    ]
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


# --- Who the client is: X-Forwarded-For and the trusted proxies (issue 12) --------------------------

SCORE = "/api/games/star-trek-missions/score/"
HAND = {"hand": ["Lieutenant Worf", "Commander Kurn"]}
PAGE = "/games/star-trek-missions/score/"
PAGE_FORM = {"hand": ["Lieutenant Worf", "Commander Kurn"]}


@pytest.fixture
def three_a_minute(monkeypatch):
    from common.throttling import EvaluationRateThrottle

    # DRF reads the rates once, at import: lower this scope's rate on the class itself.
    monkeypatch.setattr(EvaluationRateThrottle, "THROTTLE_RATES", {"evaluations": "3/minute"})


def trusting(settings, proxies: int):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": proxies}


def test_the_default_trusts_no_proxy_and_the_number_is_a_setting(settings):
    from django.conf import settings as live

    assert live.REST_FRAMEWORK["NUM_PROXIES"] == 0


def test_with_no_trusted_proxy_a_changing_forwarded_for_does_not_escape_the_limit(
    api, catalog, three_a_minute
):
    # The settings as shipped (TRUSTED_PROXY_COUNT unset): the socket's address is the client.
    statuses = [
        api.post(
            SCORE,
            HAND,
            format="json",
            HTTP_X_FORWARDED_FOR=f"203.0.113.{i}",
            REMOTE_ADDR="198.51.100.9",
        ).status_code
        for i in range(5)
    ]
    assert statuses == [200, 200, 200, 429, 429]
    assert list(ThrottleCounter.objects.values_list("client", flat=True)) == [
        "throttle_evaluations_198.51.100.9"
    ]


def test_with_one_trusted_proxy_the_right_most_forwarded_address_is_the_client(
    api, catalog, settings, three_a_minute
):
    trusting(settings, 1)
    # The client writes anything on the left; the proxy appends the address it saw on the right.
    statuses = [
        api.post(
            SCORE,
            HAND,
            format="json",
            REMOTE_ADDR="10.0.0.2",
            HTTP_X_FORWARDED_FOR=f"spoofed-{i}, 203.0.113.7",
        ).status_code
        for i in range(4)
    ]
    assert statuses == [200, 200, 200, 429]
    other = api.post(
        SCORE,
        HAND,
        format="json",
        REMOTE_ADDR="10.0.0.2",
        HTTP_X_FORWARDED_FOR="203.0.113.7, 203.0.113.8",
    )
    assert other.status_code == 200
    assert sorted(ThrottleCounter.objects.values_list("client", flat=True)) == [
        "throttle_evaluations_203.0.113.7",
        "throttle_evaluations_203.0.113.8",
    ]


# --- Pages share the API's limit (issue 12) ----------------------------------------------------------


def test_page_submissions_share_the_api_limit_and_get_a_friendly_429(
    client, api, catalog, three_a_minute
):
    from results.models import SavedResult

    assert api.post(SCORE, HAND, format="json").status_code == 200
    assert [client.post(PAGE, PAGE_FORM).status_code for _ in range(2)] == [200, 200]
    refused = client.post(PAGE, PAGE_FORM)
    assert refused.status_code == 429
    assert refused["Content-Type"].startswith("text/html")
    assert int(refused["Retry-After"]) > 0
    html = refused.content.decode()
    assert "Too many submissions" in html and "nothing was scored or saved" in html
    assert "<html" in html  # the whole page, with the site's header
    # The same hand three times: one saved result, shared (issue 22); the refused one added none.
    assert SavedResult.objects.count() == 1
    # And the API counts the page's submissions too.
    assert api.post(SCORE, HAND, format="json").status_code == 429


def test_an_htmx_submission_past_the_limit_gets_the_message_in_place(
    client, catalog, three_a_minute
):
    for _ in range(3):
        client.post(PAGE, PAGE_FORM, HTTP_HX_REQUEST="true")
    refused = client.post(PAGE, PAGE_FORM, HTTP_HX_REQUEST="true")
    assert refused.status_code == 429
    assert refused["HX-Retarget"] == "#main" and refused["HX-Reswap"] == "innerHTML"
    html = refused.content.decode()
    assert "Too many submissions" in html and "<html" not in html


def _academy_credits_play():
    from .test_academy_credits_pages import play_form

    return play_form()


def _factions_end_turn():
    from .test_factions_pages import BASE

    return {**BASE, "action": "end_turn"}


@pytest.mark.parametrize(
    "url, form",
    [
        ("/games/academy-credits/check-move/", _academy_credits_play),
        ("/games/factions/check-move/", _factions_end_turn),
    ],
)
def test_other_games_pages_count_against_the_same_limit(client, catalog, monkeypatch, url, form):
    from common.throttling import EvaluationRateThrottle

    monkeypatch.setattr(EvaluationRateThrottle, "THROTTLE_RATES", {"evaluations": "1/minute"})
    assert client.post(url, form()).status_code == 200
    refused = client.post(url, form())
    assert refused.status_code == 429 and "Too many submissions" in refused.content.decode()


def test_reading_a_page_is_never_counted(client, catalog, three_a_minute):
    assert [client.get(PAGE).status_code for _ in range(5)] == [200] * 5
    assert client.post(PAGE, PAGE_FORM).status_code == 200


# --- A refusal is cheap (issue 30) ------------------------------------------------------------------

COSTLY_LINK = (
    PAGE
    + "?"
    + "&".join(
        "hand=" + name.replace(" ", "+").replace("'", "%27")
        for name in (
            "Thought Maker",
            "Unidentified Ship",
            "Chancellor Gowron",
            "Lursa and B'Etor",
            "Hand Phaser",
            "Space Confrontation",
            "Blossoming Romance",
        )
    )
)


def test_a_client_refused_again_costs_no_write_nor_any_work(
    client, api, catalog, three_a_minute, django_assert_max_num_queries, monkeypatch
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from common.throttling import EvaluationRateThrottle
    from games.star_trek_missions import pages

    # The clock stands still: the wait told is part of the kept refusal page's key, and on a busy
    # machine a second ticking between the draws made the last one a new page, read afresh.
    monkeypatch.setattr(EvaluationRateThrottle, "timer", lambda self: START + 10)

    for _ in range(3):
        assert api.post(SCORE, HAND, format="json").status_code == 200
    assert client.get(COSTLY_LINK).status_code == 429  # counted: the client is now refused
    row = ThrottleCounter.objects.get()
    decks = []
    real_deck = pages.Deck

    def counted_deck(game):
        decks.append(game)
        return real_deck(game)

    pages.Deck = counted_deck
    try:
        with CaptureQueriesContext(connection) as queries:
            statuses = [client.get(COSTLY_LINK).status_code for _ in range(5)]
            statuses.append(client.post(PAGE, PAGE_FORM).status_code)
            statuses.append(api.post(SCORE, HAND, format="json").status_code)
    finally:
        pages.Deck = real_deck
    assert statuses == [429] * 7
    writes = [
        q["sql"]
        for q in queries.captured_queries
        if q["sql"].lstrip().split()[0].upper() in ("INSERT", "UPDATE", "DELETE")
    ]
    assert writes == [] and decks == []  # no count written, no page's cards laid out
    assert ThrottleCounter.objects.get().hits == row.hits
    # A refused page is drawn once and kept (common.page_throttle): nothing is read for it.
    with django_assert_max_num_queries(0):
        refused = client.get(COSTLY_LINK)
    assert refused.status_code == 429 and refused.templates == []
    wait = int(refused["Retry-After"])
    assert f"Try again in {wait} second" in refused.content.decode()


def test_a_client_that_keeps_hammering_stays_refused_and_one_that_waits_gets_in(
    api, catalog, three_a_minute, monkeypatch
):
    from common.throttling import EvaluationRateThrottle

    clock = [START + 10]
    monkeypatch.setattr(EvaluationRateThrottle, "timer", lambda self: clock[0])
    hammering = {"REMOTE_ADDR": "203.0.113.1"}
    waiting = {"REMOTE_ADDR": "203.0.113.2"}
    for who in (hammering, waiting):
        assert [api.post(SCORE, HAND, format="json", **who).status_code for _ in range(3)] == [
            200
        ] * 3
    told = {}
    for name, who, refusals in (("hammering", hammering, 20), ("waiting", waiting, 1)):
        answers = [api.post(SCORE, HAND, format="json", **who) for _ in range(refusals)]
        assert {a.status_code for a in answers} == {429}
        told[name] = int(answers[0]["Retry-After"])
        assert int(answers[-1]["Retry-After"]) <= told[name]  # the same wait, counting down
    assert told["hammering"] == told["waiting"]
    clock[0] += told["waiting"]
    # Waiting as told is enough; the twenty refused without a write counted all the same.
    assert api.post(SCORE, HAND, format="json", **waiting).status_code == 200
    again = api.post(SCORE, HAND, format="json", **hammering)
    assert again.status_code == 429 and int(again["Retry-After"]) > 0
