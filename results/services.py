"""Writes of saved results: one function, inside or outside a transaction of the caller's; and
`unsaved()`, inside which it writes nothing (a page opened from a link shows its answer unsaved).

The store has a bound. A result stores the request as it was understood (common.requests:
cards by their catalog names, every field written out, no padding), and identical requests under
the same catalog version share one result: the same permalink, no new row. Results are removed
once none has opened them for RESULTS_MAX_AGE_DAYS, and when the store passes STORE_MAX_MB the
results never opened go first, oldest first, then those opened longest ago (results_prune; run by
`manage.py prune_results`, and now and then by a save).

STORE_MAX_MB bounds what the store holds in all (issue 30): the saved results and what other apps
keep beside them (the tables' histories, each event with the game's answer), each app counting its
own bytes through `store_share`. Only results are pruned to make room; an app whose rows would
take the store past the bound refuses them (tables.services: a 409 `store_full`), never dropping
what it holds.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.urls import reverse
from django.utils import timezone

from cards.models import Game
from cards.selectors import catalog_stamp
from common.requests import understood_request

from .models import SavedResult, new_result_id

ID_ATTEMPTS = 5
# A result opened again within this long is not marked again (one write an hour at most).
MARK_EVERY = datetime.timedelta(hours=1)
# Pruning by size deletes down to this share of the bound, so it does not run on every save.
PRUNE_TO = 0.9
_UNSAVED: ContextVar[bool] = ContextVar("unsaved", default=False)


@contextmanager
def unsaved() -> Iterator[None]:
    """Within it, result_save saves nothing and returns the body as it is, without "id" and "url":
    a GET of a page with its input in the query string shows the answer and writes nothing."""
    token = _UNSAVED.set(True)
    try:
        yield
    finally:
        _UNSAVED.reset(token)


def _json(value: object) -> str:
    return json.dumps(
        value, sort_keys=True, ensure_ascii=False, cls=DjangoJSONEncoder, separators=(",", ":")
    )


def result_key(*, game: Game, kind: str, request: Any, response_body: dict[str, Any]) -> str:
    """What makes two results one: the game, the kind, the request as understood, the catalog's
    version stamp (an edit to the catalog starts new results) and the answer itself (so a result
    is shared only when it is the very answer the second request would have been given)."""
    parts = [game.pk, kind, request, [str(part) for part in catalog_stamp(game)], response_body]
    return hashlib.sha256(_json(parts).encode("utf-8")).hexdigest()


def result_save(
    *, game: Game, kind: str, request_body: Any, response_body: dict[str, Any]
) -> dict[str, Any]:
    """Save a score or ruling and return its response body with "id" and "url" added (the body
    stored is that final one, so the permalink gives back exactly what was returned). A result
    already saved for the same request under the same catalog version is returned instead."""
    if kind not in dict(SavedResult.KIND_CHOICES):
        raise ValueError(f"Unknown result kind {kind!r}.")
    if _UNSAVED.get():
        return response_body
    request = understood_request(request_body)
    key = result_key(game=game, kind=kind, request=request, response_body=response_body)
    shared = _shared(key)
    if shared is not None:
        return shared
    for attempt in range(ID_ATTEMPTS):
        result_id = new_result_id()
        body = {**response_body, "id": result_id, "url": reverse("results:page", args=[result_id])}
        result = SavedResult(
            id=result_id,
            game=game,
            kind=kind,
            request=request,
            response=body,
            key=key,
            size=len(_json(request)) + len(_json(body)),
        )
        try:
            if transaction.get_connection().in_atomic_block:
                # A savepoint: a clash (of ids, or with the same result saved a moment ago by
                # another request) must not break the caller's transaction.
                with transaction.atomic():
                    result.save(force_insert=True)
            else:
                result.save(force_insert=True)  # one INSERT, atomic on its own
        except IntegrityError:
            shared = _shared(key)
            if shared is not None:
                return shared
            if attempt == ID_ATTEMPTS - 1:
                raise
            continue
        if random.random() < settings.RESULTS_PRUNE_CHANCE:
            results_prune()
        return body
    raise AssertionError("unreachable")


def _shared(key: str) -> dict[str, Any] | None:
    """The body of the result saved under `key`, marked as shared; None when there is none."""
    found = SavedResult.objects.filter(key=key).values_list("pk", "response").first()
    if found is None:
        return None
    result_id, response = found
    result_opened(result_id=result_id)
    body: dict[str, Any] = json.loads(response) if isinstance(response, str) else response
    return body


def result_opened(*, result_id: str) -> None:
    """Note that a result's permalink was opened (or the result shared): pruning keeps it longer."""
    SavedResult.objects.filter(pk=result_id).mark_opened(now=timezone.now(), every=MARK_EVERY)


# The bytes each other app keeps in the store (results_prune counts them with the results'): the
# tables app registers its events' (tables.apps), since results cannot import an app above them.
_SHARES: dict[str, Callable[[], int]] = {}


def store_share(name: str, stored_bytes: Callable[[], int]) -> None:
    """Count `stored_bytes()` (an app's rows, in bytes) in the store's bound, STORE_MAX_MB."""
    _SHARES[name] = stored_bytes


def results_bytes() -> int:
    return SavedResult.objects.aggregate(total=Sum("size"))["total"] or 0


def others_bytes() -> int:
    """What the other apps keep in the store (store_share), in bytes."""
    return sum(stored() for stored in _SHARES.values())


def store_bound_bytes() -> int | None:
    """STORE_MAX_MB in bytes; None when it is off (0)."""
    max_mb = settings.STORE_MAX_MB
    return int(max_mb * 1_000_000) if max_mb else None


@dataclass(frozen=True)
class Pruned:
    by_age: int
    by_size: int
    remaining: int
    remaining_bytes: int


def results_prune(
    *,
    now: datetime.datetime | None = None,
    max_age_days: int | None = None,
    max_mb: float | None = None,
) -> Pruned:
    """Bring the store within its bound: results nobody opened for `max_age_days` (settings'
    RESULTS_MAX_AGE_DAYS; counted from the last opening, or from the saving if never opened) are
    deleted; then, while the store holds more than `max_mb` megabytes (STORE_MAX_MB: the results
    and the other apps' rows, store_share, in all), results never opened go first, oldest first,
    then those opened longest ago, down to 90% of it (or none left). 0 (or None in settings) turns
    a bound off."""
    now = now or timezone.now()
    max_age_days = settings.RESULTS_MAX_AGE_DAYS if max_age_days is None else max_age_days
    max_mb = settings.STORE_MAX_MB if max_mb is None else max_mb
    by_age = 0
    if max_age_days:
        cutoff = now - datetime.timedelta(days=max_age_days)
        stale = SavedResult.objects.filter(
            last_opened_at__isnull=True, created_at__lt=cutoff
        ) | SavedResult.objects.filter(last_opened_at__lt=cutoff)
        by_age = stale.prune()
    by_size = 0
    total = results_bytes() + others_bytes()
    if max_mb and total > max_mb * 1_000_000:
        excess = total - int(max_mb * 1_000_000 * PRUNE_TO)
        victims: list[str] = []
        order = [
            SavedResult.objects.filter(last_opened_at__isnull=True).order_by("created_at"),
            SavedResult.objects.filter(last_opened_at__isnull=False).order_by(
                "last_opened_at", "created_at"
            ),
        ]
        for queryset in order:
            for result_id, size in queryset.values_list("pk", "size").iterator(chunk_size=2000):
                if excess <= 0:
                    break
                victims.append(result_id)
                excess -= size
        for start in range(0, len(victims), 500):
            by_size += SavedResult.objects.filter(pk__in=victims[start : start + 500]).prune()
    remaining = results_bytes()
    return Pruned(
        by_age=by_age,
        by_size=by_size,
        remaining=SavedResult.objects.count(),
        remaining_bytes=remaining,
    )
