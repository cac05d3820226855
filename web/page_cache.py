"""Pages kept whole in the cache of computed answers (web.computed, settings.CACHES["computed"]).

A page whose whole answer is costly to draw (a game's page of card tiles: over 100 kB of HTML;
issue 30 measured 106 ms of CPU for each repeat) keeps the page itself (`computed_page`): a
repeat of the same address, the empty form's included, is then one cache lookup, with no form,
tiles or template drawn again. The page is kept compressed (about 13 kB), with its CSRF token
taken out (each visitor gets their own, put back when it is served); the key is the path, the
address's input as sent, the catalog's version stamp and the code's (web.computed.code_stamp:
after an upgrade, no page the code before it drew). The cache's bounds (COMPUTED_CACHE_SECONDS,
COMPUTED_CACHE_ENTRIES) count these pages with the answers.
"""

from __future__ import annotations

import hashlib
import json
import re
import zlib
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.core.cache import caches
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.utils.cache import patch_vary_headers

from cards.models import Game
from cards.selectors import catalog_stamp
from web.computed import CACHE, code_stamp
from web.page_results import is_input, page_input

# Where a kept page had its CSRF token (as Django's {% csrf_token %} writes it).
CSRF_FIELD = re.compile(rb'(name="csrfmiddlewaretoken" value=")[^"]*(")')
CSRF_PLACEHOLDER = b"\x00csrf\x00"


def page_key(request: HttpRequest, game: Game) -> str:
    """The key of a page GET's answer: its path, its input as sent (every field of the query
    string but tracking ones, in order, blank ones included), the catalog's version stamp and the
    code's."""
    pairs = [
        (key, value) for key, values in request.GET.lists() if is_input(key) for value in values
    ]
    canonical = json.dumps(
        [request.path, game.pk, str(catalog_stamp(game)), code_stamp(), pairs],
        ensure_ascii=False,
        separators=(",", ":"),
    )
    return "page:" + hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


def computed_page(
    game_of: Callable[[], Game | None],
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """A page view whose GETs are answered from the cache (see the module): the view draws a
    page once, the same address is then a lookup. Only a GET or HEAD, the empty form or with
    input, of the view as its own page (not asked at a table: `asked`), and answered 200 or 400
    is kept; input is counted against the client's limit first (page_input), kept or not.
    `game_of` gives the game whose catalog stamp keys the page (None: not loaded, the view
    answers)."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def page(request: HttpRequest, **kwargs: Any) -> HttpResponse:
            if request.method not in ("GET", "HEAD") or kwargs.get("asked") is not None:
                return view(request, **kwargs)
            # Input counts against the client's limit, kept or not; the empty form is a read,
            # never counted, and kept all the same: it is the page every phone opens first.
            page_input(request)
            game = game_of()
            if game is None:
                return view(request, **kwargs)
            cache = caches[CACHE]
            key = page_key(request, game)
            kept = cache.get(key)
            if kept is not None:
                status, content_type, compressed = kept
                response = HttpResponse(
                    zlib.decompress(compressed).replace(
                        CSRF_PLACEHOLDER, get_token(request).encode()
                    ),
                    content_type=content_type,
                    status=status,
                )
                patch_vary_headers(response, ["HX-Request"])
                return response
            response = view(request, **kwargs)
            if (
                response.status_code in (200, 400)
                and not response.streaming
                and not response.cookies
            ):
                content = CSRF_FIELD.sub(rb"\1" + CSRF_PLACEHOLDER + rb"\2", response.content)
                cache.set(
                    key, (response.status_code, response["Content-Type"], zlib.compress(content, 6))
                )
            return response

        return page

    return decorate
