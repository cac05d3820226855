"""The pages' share of the API's limit: a score or ruling submitted from a page counts towards the
same per-client limit as one sent to the API (common.throttling, the same counter row), since each
is evaluated and saved alike; so does a page GET that carries its input in the address, which
works the answer out too (web.page_results.page_input). Past it, a person gets a page (status
429, Retry-After), not JSON."""

from __future__ import annotations

import time
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

# The friendly 429s this process drew, by (path, htmx or not, seconds to wait): a client that
# keeps sending is answered with the page drawn once (issue 30: drawing it was most of a 429's
# cost). At most KEPT_MAX of them, each for KEPT_SECONDS (the header's list of games may change).
KEPT_MAX = 512
KEPT_SECONDS = 60.0
_kept: dict[tuple[str, bool, int], tuple[float, str]] = {}


class PageThrottled(Exception):
    def __init__(self, wait: int):
        super().__init__(f"Too many submissions; retry in {wait} s.")
        self.wait = wait


def check_page_throttle(request: HttpRequest) -> None:
    """Count this request (a page submission, or a GET with input) against the client's limit,
    once however often it is asked; PageThrottled past it. The callers decide what counts: a
    page read without input never calls this."""
    from .throttling import EvaluationRateThrottle

    if getattr(request, "_page_throttle_counted", False):
        return
    request._page_throttle_counted = True  # type: ignore[attr-defined]  # a mark on this request only
    throttle = EvaluationRateThrottle()
    if not throttle.allow_request(request, None):
        raise PageThrottled(int(throttle.wait()))


def check_read_throttle(request: HttpRequest) -> None:
    """Count a read of a table's page (or of its polled part, when it answers it) against the client's read limit
    (common.throttling.TableReadThrottle, the API's table reads' counter); PageThrottled past
    it."""
    from .throttling import TableReadThrottle

    throttle = TableReadThrottle()
    if not throttle.allow_request(request, None):
        raise PageThrottled(int(throttle.wait()))


def throttled_page(request: HttpRequest, wait: int) -> HttpResponse:
    """The friendly 429: the whole page, or to an htmx submit the message swapped into <main>."""
    htmx = request.headers.get("HX-Request") == "true"
    context = {
        "title": "Too many submissions",
        "message": (
            "This address has sent more scores and rulings in the last minute than "
            "Tableside takes; nothing was scored or saved this time."
        ),
        "retry_after": wait,
        "back": request.path,
    }
    key, now = (request.path, htmx, wait), time.monotonic()
    kept = _kept.get(key)
    if kept is None or now - kept[0] > KEPT_SECONDS:
        if len(_kept) >= KEPT_MAX:
            _kept.clear()
        kept = _kept[key] = (
            now,
            render_to_string("_problem.html" if htmx else "problem.html", context, request),
        )
    response = HttpResponse(kept[1], status=429)
    response["Retry-After"] = str(wait)
    if htmx:
        response["HX-Retarget"] = "#main"
        response["HX-Reswap"] = "innerHTML"
    return response


class PageThrottleMiddleware:
    """Answers a PageThrottled raised by any page view with the friendly 429."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, PageThrottled):
            return throttled_page(request, exception.wait)
        return None
