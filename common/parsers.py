"""The API's JSON parser: JSON that parses is still refused when it is not text a person could have
typed, before any view sees it.

JSON may escape a lone UTF-16 surrogate (``"\\ud800"``), which Python decodes to a string no
encoder accepts: echoed in an error it broke the JSON renderer, saved in a result it broke the
INSERT (a 500 either way). Every string of the body, keys included, is checked here, so every
endpoint of every game is covered; each bad one is an entry ``invalid_text`` with its path. A body
nested deeper than MAX_DEPTH is a ``nested_too_deeply`` naming the depth; one deeper than Python's
decoder can follow is a ``malformed_request`` like any bad JSON.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, Any, NamedTuple

from rest_framework import exceptions
from rest_framework.parsers import JSONParser

if TYPE_CHECKING:
    from .api_errors import ApiError

# common.api_errors is imported where it is used: it imports rest_framework.views, whose APIView
# reads this module (DEFAULT_PARSER_CLASSES) as it is defined.

MAX_ENTRIES = 20  # invalid strings listed in one answer


def is_valid_text(text: str) -> bool:
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def escaped(text: str) -> str:
    """The text with every lone surrogate written as its escape (\\ud800): safe to echo."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


# The deepest a body may nest (objects and lists): the deepest request of any game is 6 levels
# (a table's player, its choices, a card's choice, a list of names). Deeper is a 400 naming the
# depth, before any other check.
MAX_DEPTH = 32


class _Step(NamedTuple):
    """Where a value sits: the step from its parent (a key or an index), the parent's own place,
    and how deep it is. The text of a path is built from these only for a value reported: one
    string per value, each as long as every key above it, took 430 MB for a 61 kB body."""

    parent: _Step | None
    step: str | int
    depth: int


def path_of(place: _Step | None, root: str = "") -> str:
    """ "players[0].hand[2]": the path of a place, keys as escaped() writes them."""
    parts: list[str] = []
    while place is not None:
        step = place.step
        parts.append(f"[{step}]" if isinstance(step, int) else f".{escaped(step)}")
        place = place.parent
    text = root + "".join(reversed(parts))
    return text[1:] if text.startswith(".") else text


def nesting_error(depth: int, place: _Step | None) -> ApiError:
    from .api_errors import ApiError, error_entry

    where = path_of(place) if place is not None else "body"
    # The path of a place this deep is long: it is shown shortened, as every echo is.
    shown_where = where if len(where) <= 80 else where[:79] + "…"
    detail = (
        f"The request body is nested more than {MAX_DEPTH} levels deep (level {depth} at "
        f"{shown_where}); at most {MAX_DEPTH} levels of objects and lists are accepted."
    )
    return ApiError(
        status_code=400,
        code="nested_too_deeply",
        detail=detail,
        errors=[error_entry(path=shown_where, code="nested_too_deeply", detail=detail)],
    )


def invalid_text_entries(data: object, *, root: str = "") -> list[dict[str, Any]]:
    """An entry for each string (value or key) of `data` that is not valid Unicode text, in
    document order, at most MAX_ENTRIES. Iterative, one frame per object or list (never one per
    item: 15,000 numbers cost no allocation); past MAX_DEPTH levels of objects and lists, the
    nesting error (an ApiError) is raised."""
    if isinstance(data, str):
        return [] if is_valid_text(data) else [_entry(root or "body", "holds")]
    if not isinstance(data, dict | list):
        return []
    entries: list[dict[str, Any]] = []
    stack: list[tuple[_Step | None, int, Iterator[tuple[str | int, object]]]] = [
        (None, 1, _items(data))
    ]
    while stack and len(entries) < MAX_ENTRIES:
        place, depth, items = stack[-1]
        for step, item in items:
            if isinstance(step, str) and not is_valid_text(step):
                entries.append(
                    _entry(path_of(_Step(place, step, depth), root), "is a key that holds")
                )
            if isinstance(item, str):
                if not is_valid_text(item):
                    entries.append(_entry(path_of(_Step(place, step, depth), root), "holds"))
            elif isinstance(item, dict | list):
                child = _Step(place, step, depth)
                if depth + 1 > MAX_DEPTH:
                    raise nesting_error(depth + 1, child)
                stack.append((child, depth + 1, _items(item)))
                break
            if len(entries) >= MAX_ENTRIES:
                break
        else:
            stack.pop()
    return entries[:MAX_ENTRIES]


def _items(value: dict[str, object] | list[object]) -> Iterator[tuple[str | int, object]]:
    return iter(value.items()) if isinstance(value, dict) else enumerate(value)


def _entry(path: str, what: str) -> dict[str, Any]:
    from .api_errors import error_entry

    detail = (
        f"{path} {what} a lone UTF-16 surrogate (an escape such as \\ud800 without its "
        f"pair), which is not text."
    )
    return error_entry(path=path, code="invalid_text", detail=detail)


def invalid_text_error(entries: list[dict[str, Any]]) -> ApiError:
    from .api_errors import ApiError

    detail = (
        entries[0]["detail"]
        if len(entries) == 1
        else (
            f"The request has {len(entries)} strings that are not valid text; each is listed in "
            f"errors."
        )
    )
    return ApiError(status_code=400, code="invalid_text", detail=detail, errors=entries)


class TextJSONParser(JSONParser):
    def parse(
        self,
        stream: IO[bytes],
        media_type: str | None = None,
        parser_context: dict[str, Any] | None = None,
    ) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise exceptions.ParseError("The request body is nested too deeply.") from None
        entries = invalid_text_entries(data)
        if entries:
            raise invalid_text_error(entries)
        return data


def request_object(request: Any) -> dict[str, Any]:
    """The JSON body, which must be an object; a 400 in the contract's shape otherwise."""
    from common.api_errors import ApiError, error_entry

    try:
        body = request.data
    except RecursionError:  # absurdly deep nesting: still the client's fault, never a 500
        raise exceptions.ParseError() from None
    if not isinstance(body, dict):
        kind = "a list" if isinstance(body, list) else "not an object"
        detail = f"The request body must be a JSON object; it is {kind}."
        raise ApiError(
            status_code=400,
            code="invalid_input",
            detail=detail,
            errors=[error_entry(path="body", code="invalid_type", detail=detail)],
        )
    return dict(body)
