"""Small helpers the services share when they check a request body: how a value is quoted back
in a message, and the entry for a missing field (in the error-entry shape of API.md)."""

from __future__ import annotations

from .api_errors import error_entry

SHOWN_CHARACTERS = 60  # of what was sent, echoed in a message


def shown(value) -> str:
    text = str(value)
    return text if len(text) <= SHOWN_CHARACTERS else text[: SHOWN_CHARACTERS - 1] + "…"


def json_type(value) -> str:
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


def shown_json(value) -> str:
    return f"'{shown(value)}'" if isinstance(value, str) else json_type(value)


def required(path: str, what: str) -> dict:
    return error_entry(path=path, code="required", detail=f"{path} is required: {what}.")
