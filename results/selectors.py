"""Reads of saved results."""

from __future__ import annotations

import re

from .models import SavedResult

RESULT_ID = re.compile(r"[a-z0-9]{1,32}")


class ResultNotFound(LookupError):
    pass


def result_get(*, result_id: str) -> SavedResult:
    """One saved result by id; raises ResultNotFound (also for ids that cannot exist)."""
    if not isinstance(result_id, str) or not RESULT_ID.fullmatch(result_id):
        raise ResultNotFound(result_id)
    result = SavedResult.objects.select_related("game").filter(pk=result_id).first()
    if result is None:
        raise ResultNotFound(result_id)
    return result
