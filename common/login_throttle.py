"""Failed admin logins are throttled per account and client address.

Every failed login (Django's user_login_failed signal) is counted in the throttle's counter store
(common.throttling: one row per key, a sliding window, shared by every app server) under two keys:
the account at this address, and the address alone. Once an account has ACCOUNT_LIMIT failures
from one address within WINDOW, or an address ADDRESS_LIMIT failures on any accounts, the login
form answers with a 429 page until the window has moved on, whatever password is sent: guessing
stops, while the account can still be used from anywhere else. The client address is the one the
API's throttle uses (TRUSTED_PROXY_COUNT).
"""

from __future__ import annotations

import math
import time

from django.contrib.auth.signals import user_login_failed
from django.shortcuts import render
from django.urls import reverse
from rest_framework.throttling import BaseThrottle

from .models import ThrottleCounter
from .throttling import WindowCount, record_request, seconds_until_allowed

WINDOW = 15 * 60  # seconds
ACCOUNT_LIMIT = 5  # failures of one account from one address within WINDOW
ADDRESS_LIMIT = 20  # failures from one address, on any accounts, within WINDOW


def client_address(request) -> str:
    return BaseThrottle().get_ident(request)


def keys(request, username: str | None) -> list[tuple[str, int]]:
    address = client_address(request)
    found = [(f"login:{address}", ADDRESS_LIMIT)]
    if username:
        found.insert(0, (f"login:{address}:{username.strip().casefold()[:120]}", ACCOUNT_LIMIT))
    return found


def failures(key: str, *, now: float) -> WindowCount:
    """The failures counted under `key` as of `now`, without counting anything."""
    period, offset = divmod(now, WINDOW)
    row = ThrottleCounter.objects.filter(client=key[:200]).first()
    if row is None or row.period < int(period) - 1:
        hits, previous = 0, 0
    elif row.period == int(period) - 1:
        hits, previous = 0, row.hits
    else:
        hits, previous = row.hits, row.previous_hits
    return WindowCount(hits, previous, offset / WINDOW)


def locked_for(request, username: str | None, *, now: float | None = None) -> int:
    """Seconds until this account (at this address) may try again; 0 when it may now."""
    now = time.time() if now is None else now
    wait = 0.0
    for key, limit in keys(request, username):
        count = failures(key, now=now)
        if count.estimate >= limit:
            # seconds_until_allowed counts a request that has happened: count this attempt.
            attempted = WindowCount(count.hits + 1, count.previous_hits, count.fraction)
            wait = max(wait, seconds_until_allowed(attempted, limit=limit, duration=WINDOW))
    return max(1, math.ceil(wait)) if wait else 0


def record_failure(sender, credentials=None, request=None, **kwargs) -> None:
    if request is None:
        return
    username = (credentials or {}).get("username")
    now = time.time()
    for key, _limit in keys(request, username if isinstance(username, str) else None):
        record_request(client=key, now=now, duration=WINDOW)


user_login_failed.connect(record_failure, dispatch_uid="common.login_throttle.record_failure")


class LoginThrottleMiddleware:
    """A login attempt on a locked account (at this address) or from a locked address gets a 429
    page before any password is checked."""

    def __init__(self, get_response):
        self.get_response = get_response
        self._login_path: str | None = None

    def __call__(self, request):
        if request.method == "POST" and request.path == self.login_path():
            username = request.POST.get("username")
            wait = locked_for(request, username)
            if wait:
                minutes = math.ceil(wait / 60)
                message = ("Too many failed logins for this account from your address, or from "
                           "your address on any account. Nothing was checked this time; try "
                           f"again in {minutes} minute{'s' if minutes != 1 else ''}.")
                response = render(request, "problem.html", {
                    "title": "Too many failed logins", "message": message,
                    "retry_after": wait, "back": request.get_full_path(),
                }, status=429)
                response["Retry-After"] = str(wait)
                return response
        return self.get_response(request)

    def login_path(self) -> str:
        if self._login_path is None:
            self._login_path = reverse("admin:login")
        return self._login_path
