"""A page's address with its input in the query string: what the games' pages and a saved result's
page (/r/<id>, its "Check again" / "Score again" link) both write."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseRedirectBase
from django.urls import reverse


def form_link(path: str, pairs: Iterable[tuple[str, str]]) -> str:
    """The page's address with its input: path?name=value&…"""
    query = urlencode(list(pairs))
    return f"{path}?{query}" if query else path


class PermanentRedirectKeepingMethod(HttpResponseRedirectBase):
    """308: a POST is sent again, body and all, to the new address (a 301 turns it into a GET)."""

    status_code = 308


def moved_to(url_name: str) -> Callable[[HttpRequest], HttpResponse]:
    """A page's earlier address, sending on to `url_name`'s with its query string.

    Issue 31 gave every game's pages the same words (check-move/, score/). A bookmark, a link or a
    QR code shared before keeps working, and so does a form queued offline on a page loaded before
    the change (a POST, hence 308 rather than 301)."""

    def moved(request: HttpRequest) -> HttpResponse:
        query = request.META.get("QUERY_STRING", "")
        target = reverse(url_name)
        return PermanentRedirectKeepingMethod(f"{target}?{query}" if query else target)

    return moved
