"""Repeated reads of an unchanged table cost a lookup (issue 30): the API's read of a table (and of
a page of its history), its page and the page's polled part at version v are the same for every
reader who sees the table alike, so the first read of v builds them and the next ones take them
from the cache (Django's "default": LocMemCache, one per worker process).

What a body may differ by is in its key, never left out:
- the API's read and its pages of the history hold no viewer's data (a token never; a seat's
  hidden cards never, the history holds their public copies): (code, version, the page);
- the page and its polled part show the host's buttons to the host and a seat's own answer form
  to that seat: (code, version, host or not, the seat, the history page shown, whether the table
  has ended: its age decides that without a new version; the page also the address it was opened
  at). One seat's part never reaches another seat or a phone holding none.
What differs per request is never cached: the CSRF token and the entry's Idempotency-Key are
rendered as placeholders and filled in on every answer.

Never stale: every change of a table moves its version on in the transaction that makes it
(tables.services: _take_lock, _take_version), so a read after the change asks another key. A body
is stored only if the table is still at the version it shows once it is built (a change committed
while it was read could otherwise leave a mix of two versions under the older one's key). A body
is kept TABLE_READ_CACHE_SECONDS at most (the cache's memory; LocMemCache also drops the oldest
past its MAX_ENTRIES)."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import render_to_string

from .selectors import HistoryPageRead, TableRead, table_version

Body = TypeVar("Body")

# Rendered in place of what differs per request, and replaced in every answer.
CSRF_PLACEHOLDER = "csrf-placeholder-6f1d0c2e"
ENTRY_KEY_PLACEHOLDER = "entry-key-placeholder-9b27a4d1"


def cache_seconds() -> int:
    """How long a body is kept (0: reads are not cached at all)."""
    return int(getattr(settings, "TABLE_READ_CACHE_SECONDS", 60))


def _stored(key: str, code: str, build: Callable[[], tuple[int, Body]]) -> Body:
    """The body under `key`, else built (with the version it shows) and kept if the table is
    still at that version. A key names one kind of body (its prefix: the API's read, a page of
    the history, a page), so what it holds is what `build` makes."""
    kept: Body | None = cache.get(key)
    if kept is not None:
        return kept
    version, body = build()
    if table_version(code=code) == version and key.endswith(f":v{version}"):
        cache.set(key, body, cache_seconds())
    return body


def api_table(code: str, version: int, build: Callable[[], TableRead]) -> TableRead:
    """The API's read of the table at `version` (as tables.selectors.table_data gives it)."""
    if not cache_seconds():
        return build()

    def built() -> tuple[int, TableRead]:
        data = build()
        return data["version"], data

    return _stored(f"table-api:{code}:v{version}", code, built)


def api_history(
    code: str, version: int, before: int | None, build: Callable[[], HistoryPageRead]
) -> HistoryPageRead:
    """A page of the table's history through the API at `version` (the newest, or the one before
    event `before`): the same for every reader."""
    if not cache_seconds():
        return build()

    def built() -> tuple[int, HistoryPageRead]:
        data = build()
        return data["version"], data

    return _stored(f"table-history:{code}:b{before}:v{version}", code, built)


def rendered(
    request: HttpRequest,
    *,
    part: str,
    code: str,
    version: int,
    viewer: str,
    context: Callable[[], Mapping[str, Any]],
    template: str,
) -> str:
    """A page of the table (`part`: the whole page, or its polled part) at `version`, as `viewer`
    sees it (everything the page shows differently goes in it: host or not, the seat, the history
    page shown), rendered once per version and viewer; this request's CSRF token and a new entry
    key are filled in on every answer."""

    def built() -> tuple[int, str]:
        parts = {
            **context(),
            "entry_key": ENTRY_KEY_PLACEHOLDER,
            "csrf_token": CSRF_PLACEHOLDER,
        }
        return parts["table"].version, render_to_string(template, parts, request)

    if not cache_seconds():
        text = built()[1]
    else:
        text = _stored(f"table-{part}:{code}:{viewer}:v{version}", code, built)
    if CSRF_PLACEHOLDER in text:
        text = text.replace(CSRF_PLACEHOLDER, get_token(request))
    return text.replace(ENTRY_KEY_PLACEHOLDER, str(uuid.uuid4()))
