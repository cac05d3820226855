"""Writes of saved results: one function, inside or outside a transaction of the caller's; and
`unsaved()`, inside which it writes nothing (a page opened from a link shows its answer unsaved)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.db import IntegrityError, transaction
from django.urls import reverse

from cards.models import Game

from .models import SavedResult, new_result_id

ID_ATTEMPTS = 5
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


def result_save(*, game: Game, kind: str, request_body, response_body: dict) -> dict:
    """Save a score or ruling and return its response body with "id" and "url" added (the body
    stored is that final one, so the permalink gives back exactly what was returned)."""
    if kind not in dict(SavedResult.KIND_CHOICES):
        raise ValueError(f"Unknown result kind {kind!r}.")
    if _UNSAVED.get():
        return response_body
    for attempt in range(ID_ATTEMPTS):
        result_id = new_result_id()
        body = {**response_body, "id": result_id, "url": reverse("results:page", args=[result_id])}
        result = SavedResult(id=result_id, game=game, kind=kind, request=request_body, response=body)
        try:
            if transaction.get_connection().in_atomic_block:
                # A savepoint: a clash of ids must not break the caller's transaction.
                with transaction.atomic():
                    result.save(force_insert=True)
            else:
                result.save(force_insert=True)  # one INSERT, atomic on its own
        except IntegrityError:
            if attempt == ID_ATTEMPTS - 1:
                raise
            continue
        return body
    raise AssertionError("unreachable")
