"""The pages' share of the API's limit: a score or ruling submitted from a page counts towards the
same per-client limit as one sent to the API (common.throttling, the same counter row), since each
is evaluated and saved alike. Past it, a person gets a page (status 429, Retry-After), not JSON."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


class PageThrottled(Exception):
    def __init__(self, wait: int):
        super().__init__(f"Too many submissions; retry in {wait} s.")
        self.wait = wait


def check_page_throttle(request: HttpRequest) -> None:
    """Count this page submission (a POST) against the client's limit; PageThrottled past it. A
    GET is a read, never counted, like the API's reads."""
    from .throttling import EvaluationRateThrottle

    if request.method != "POST":
        return

    throttle = EvaluationRateThrottle()
    if not throttle.allow_request(request, None):
        raise PageThrottled(int(throttle.wait()))


def throttled_page(request: HttpRequest, wait: int) -> HttpResponse:
    """The friendly 429: the whole page, or to an htmx submit the message swapped into <main>."""
    htmx = request.headers.get("HX-Request") == "true"
    context = {
        "title": "Too many submissions",
        "message": ("This address has sent more scores and rulings in the last minute than "
                    "Tableside takes; nothing was scored or saved this time."),
        "retry_after": wait, "back": request.path,
    }
    response = render(request, "_problem.html" if htmx else "problem.html", context, status=429)
    response["Retry-After"] = str(wait)
    if htmx:
        response["HX-Retarget"] = "#main"
        response["HX-Reswap"] = "innerHTML"
    return response


class PageThrottleMiddleware:
    """Answers a PageThrottled raised by any page view with the friendly 429."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, PageThrottled):
            return throttled_page(request, exception.wait)
        return None
