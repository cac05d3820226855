"""Small helpers the services share when they check a request body: how a value is quoted back
in a message, and the entry for a field that is not one (in the error-entry shape of API.md)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any

from .api_errors import error_entry

SHOWN_CHARACTERS = 60  # of what was sent, echoed in a message


def shown(value: object) -> str:
    text = str(value)
    return text if len(text) <= SHOWN_CHARACTERS else text[: SHOWN_CHARACTERS - 1] + "…"


def json_type(value: object) -> str:
    """What a JSON value is, in words, for "must be a list, not …" messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text '{shown(value)}'"
    return "a list" if isinstance(value, list) else "an object"


def shown_json(value: object) -> str:
    return f"'{shown(value)}'" if isinstance(value, str) else json_type(value)


def unknown_fields(
    raw: dict[str, Any], known: Iterable[str], prefix: str = "", *, of: str = ""
) -> list[dict[str, Any]]:
    """An `unknown_field` entry for each key of `raw` that is not one of `known` (at
    `prefix` + the key, shortened as every echo is), naming the fields there are and suggesting
    the closest. `of` says what the object is ("a player"); without it, "here"."""
    known = tuple(known)
    where = f"of {of}" if of else "here"
    return [
        error_entry(
            path=f"{prefix}{shown(key)}",
            code="unknown_field",
            detail=f"'{shown(key)}' is not a field {where}; the fields are {', '.join(known)}.",
            suggestions=difflib.get_close_matches(str(key), known, n=3, cutoff=0.5),
        )
        for key in raw
        if key not in known
    ]
