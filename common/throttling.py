"""Rate limits of the POST endpoints (scores and rulings), per client address.

The count is a sliding-window estimate kept in one database row per client: the requests of the
current fixed window plus the previous window's, weighted by how much of it still lies within the
last window length. One statement (an upsert returning the counts) reads and records a request, so
the limit is shared by every app server at the cost of one round trip. DRF's own throttles keep a
list of timestamps in a cache; on the database cache that took six statements per request.

A refusal is cheap (issue 30: eight clients receiving only 429s pushed GET /api/games/ to p99
1.5 s): each process remembers the clients it refused and until when (`_refused`), and refuses
them again until then without a statement; the requests refused so — they count too — are added
to the client's row with its next request that reaches the database. The throttle runs before the
view, and the pages count their input before they build their forms (common.page_throttle).
"""

from __future__ import annotations

import ipaddress
import math
import random
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.http import HttpRequest
from rest_framework.throttling import BaseThrottle, SimpleRateThrottle

from .models import ThrottleCounter

# Each request also deletes the rows of clients idle for two windows with this chance, so the
# table holds about the clients of the last few minutes without a scheduled job.
PRUNE_CHANCE = 0.01


def client_address(request: HttpRequest) -> str:
    """The client's address, as every limit counts it (the API's throttle, the pages' share of it,
    and the admin lockout through settings.AXES_CLIENT_IP_CALLABLE): the socket's address, or with
    TRUSTED_PROXY_COUNT=n (REST_FRAMEWORK["NUM_PROXIES"]) the n-th entry from the right of
    X-Forwarded-For, the one the first proxy appended. An entry that is not an IP address (no
    proxy writes one; a client reaching the app directly could) counts as the socket's address."""
    for address in (BaseThrottle().get_ident(request), request.META.get("REMOTE_ADDR")):
        try:
            return str(ipaddress.ip_address(str(address or "").strip()))
        except ValueError:
            continue
    # No address at all (a request made in-process, as a test client's login is): "" (stored as
    # NULL by axes, one shared key for the throttle).
    return ""


@dataclass(frozen=True)
class WindowCount:
    hits: int  # in the current window, this request included
    previous_hits: int  # in the window before
    fraction: float  # how far into the current window the request came, 0 to 1

    @property
    def estimate(self) -> float:
        """Requests within the last window length: the previous window counts for the part of it
        that is still inside that length."""
        return self.hits + self.previous_hits * (1 - self.fraction)


def record_request(
    *, client: str, now: float, duration: int, refused_before: int = 0
) -> WindowCount:
    """Count one request of `client` at time `now` (seconds) in windows of `duration` seconds,
    with `refused_before` requests this process refused without counting them (`_refused`)."""
    period, offset = divmod(now, duration)
    table = connection.ops.quote_name(ThrottleCounter._meta.db_table)
    with connection.cursor() as cursor:
        # Old values on the right of SET (both databases read the row as it was): a new window
        # moves the current count to `previous_hits` (or drops it when a whole window passed).
        cursor.execute(
            f"""INSERT INTO {table} (client, period, hits, previous_hits) VALUES (%s, %s, %s, 0)
            ON CONFLICT (client) DO UPDATE SET
              hits = CASE WHEN {table}.period = excluded.period THEN {table}.hits + excluded.hits
                ELSE excluded.hits END,
              previous_hits = CASE
                WHEN {table}.period = excluded.period THEN {table}.previous_hits
                WHEN {table}.period = excluded.period - 1 THEN {table}.hits
                ELSE 0 END,
              period = excluded.period
            RETURNING hits, previous_hits""",
            [client[:200], int(period), 1 + refused_before],
        )
        hits, previous_hits = cursor.fetchone()
    if random.random() < PRUNE_CHANCE:
        ThrottleCounter.objects.filter(period__lt=int(period) - 1).delete()
    return WindowCount(hits, previous_hits, offset / duration)


def seconds_until_allowed(count: WindowCount, *, limit: int, duration: int) -> float:
    """How long a client that sends nothing more must wait until its next request is allowed."""
    elapsed = count.fraction * duration
    # Later in this window the previous window weighs less: enough, if this one has room left.
    room = limit - count.hits - 1
    if room >= 0 and count.previous_hits:
        needed = max(0.0, 1 - room / count.previous_hits)
        return max(0.0, needed * duration - elapsed)
    # Otherwise in the next window, once this window's requests weigh little enough.
    needed = max(0.0, 1 - (limit - 1) / count.hits) if count.hits else 0.0
    return duration - elapsed + needed * duration


@dataclass
class _Refusal:
    until: float  # the throttle's clock: refused again without a statement until then
    uncounted: int = 0  # requests refused so, added to the row with the next counted one


# The clients this process refused, by throttle key: at most REFUSED_MAX (the oldest refusals
# go first past it), each forgotten once its time is up.
REFUSED_MAX = 10_000
_refused: dict[str, _Refusal] = {}


def forget_refusals() -> None:
    """Forget every refusal this process remembers (the tests' databases start afresh)."""
    _refused.clear()


class EvaluationRateThrottle(SimpleRateThrottle):
    """Scores and rulings cost real work and each is saved: at most settings'
    REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["evaluations"] per client address. A refused request
    counts too, so a client that keeps hammering stays refused until it pauses."""

    scope = "evaluations"
    seconds_left: float

    def get_cache_key(self, request: Any, view: Any) -> str:
        key: str = self.cache_format % {"scope": self.scope, "ident": client_address(request)}
        return key

    def allow_request(self, request: Any, view: Any) -> bool:
        if self.rate is None:
            return True
        key, now = self.get_cache_key(request, view), self.timer()
        refusal = _refused.get(key)
        if refusal is not None and now < refusal.until:
            # Refused a moment ago and still waiting: refused again, counted with its next
            # request that reaches the database.
            refusal.uncounted += 1
            self.seconds_left = refusal.until - now
            return False
        _refused.pop(key, None)
        self.count = record_request(
            client=key,
            now=now,
            duration=self.duration,
            refused_before=refusal.uncounted if refusal else 0,
        )
        self.seconds_left = seconds_until_allowed(
            self.count, limit=self.num_requests, duration=self.duration
        )
        if self.count.estimate <= self.num_requests:
            return True
        if len(_refused) >= REFUSED_MAX:
            del _refused[next(iter(_refused))]
        _refused[key] = _Refusal(until=now + self.seconds_left)
        return False

    def wait(self) -> float:
        return max(1, math.ceil(self.seconds_left))


class TableReadThrottle(EvaluationRateThrottle):
    """Reads of a table that answer it (its API read, a page of its history, its page and the
    page's polled part; not an unchanged poll's 304, one indexed query) at most settings'
    REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["table_reads"] per client address (issue 30: a flood
    of reads slowed the whole site). Its own counter, apart from the evaluations': six phones
    polling every 2 s behind one address read at most 180 times a minute.

    A refusal costs no query while this process knows the address must wait: a flood of reads
    past the limit is refused from memory (issue 30: a flood of 429s must not slow the site), and
    the refusals are not counted, so the client reads again once the wait it was given is over
    (unlike the evaluations', where hammering keeps a client refused)."""

    scope = "table_reads"
    # Per process: the addresses refused, and until when (self.timer()'s seconds). Bounded: past
    # REMEMBERED entries the memory is emptied (the counters in the database still hold).
    REMEMBERED = 10_000
    refused_until: dict[str, float] = {}
    _memory_wait: float | None = None

    def allow_request(self, request: Any, view: Any) -> bool:
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        now = self.timer()
        until = self.refused_until.get(key)
        if until is not None and until > now:
            self._memory_wait = until - now
            return False
        if super().allow_request(request, view):
            return True
        if len(self.refused_until) >= self.REMEMBERED:
            self.refused_until.clear()
        self.refused_until[key] = now + super().wait()
        return False

    def wait(self) -> float:
        if self._memory_wait is not None:
            return max(1, math.ceil(self._memory_wait))
        return super().wait()
