"""An unchanged poll of a table, answered before the rest of the stack (issue 25: "an unchanged
poll is answered from the version alone (304) and costs at most one indexed query").

Every phone at a table polls every 2 s (`GET /api/tables/<code>/`, `GET /t/<code>/live`) with
the ETag it holds; nearly every poll finds the table unchanged. `unchanged_poll` says, from one
query on the unique index of `code` (tables.selectors.table_version), whether a request is such a
poll, and its ETag. Two places answer it with a 304 without the rest of the stack (sessions,
CSRF, authentication, messages, DRF's request handling: a 304 needs none of them):

- config/asgi.py (the server `make serve` and production run) before Django's own handler;
- UnchangedPollMiddleware, right after SecurityMiddleware, for every other way Django is served
  (the development server, the test client).

A poll whose tag is not the table's current one (or any other request) goes on to the views,
which answer as before (and answer 304 on their own too)."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified

from .selectors import table_version

# (path, the ETag's prefix): the API's table ("v<version>") and the page's polled part
# ("p<version>"), as tables.api and tables.views tag them.
POLLS = (
    (re.compile(r"/api/tables/(?P<code>[a-z0-9]{1,16})/"), "v"),
    (re.compile(r"/t/(?P<code>[a-z0-9]{1,16})/live"), "p"),
)
HEADERS = {"Cache-Control": "no-cache"}


def is_poll(method: str, path: str, held: str | None) -> bool:
    """Whether the request may be an unchanged poll (no query asked yet)."""
    return bool(held) and method == "GET" and any(pattern.fullmatch(path) for pattern, _ in POLLS)


def unchanged_poll(path: str, held: str | None) -> str | None:
    """The table's ETag when `held` (If-None-Match) names the current version of the table the
    poll `path` reads; None otherwise. One indexed query, for a poll path only."""
    if not held:
        return None
    for pattern, prefix in POLLS:
        match = pattern.fullmatch(path)
        if match is None:
            continue
        version = table_version(code=match["code"])
        etag = f'"{prefix}{version}"'
        if version is not None and etag in [tag.strip() for tag in held.split(",")]:
            return etag
        return None
    return None


class UnchangedPollMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        held = request.META.get("HTTP_IF_NONE_MATCH")
        if is_poll(request.method or "", request.path_info, held):
            etag = unchanged_poll(request.path_info, held)
            if etag is not None:
                response = HttpResponseNotModified()
                response["ETag"] = etag
                for name, value in HEADERS.items():
                    response[name] = value
                return response
        return self.get_response(request)
