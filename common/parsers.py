"""The API's JSON parser: JSON that parses is still refused when it is not text a person could have
typed, before any view sees it.

JSON may escape a lone UTF-16 surrogate (``"\\ud800"``), which Python decodes to a string no
encoder accepts: echoed in an error it broke the JSON renderer, saved in a result it broke the
INSERT (a 500 either way). Every string of the body, keys included, is checked here, so every
endpoint of every game is covered; each bad one is an entry ``invalid_text`` with its path. A body
nested deeper than Python's decoder can follow is a ``malformed_request`` like any bad JSON.
"""

from __future__ import annotations

from rest_framework import exceptions
from rest_framework.parsers import JSONParser

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


def invalid_text_entries(data, *, root: str = "") -> list[dict]:
    """An entry for each string (value or key) of `data` that is not valid Unicode text, in
    document order, at most MAX_ENTRIES. Iterative: any depth the decoder accepted is walked."""
    entries: list[dict] = []
    stack = [(root, data)]
    while stack and len(entries) < MAX_ENTRIES:
        path, value = stack.pop()
        if isinstance(value, str):
            if not is_valid_text(value):
                entries.append(_entry(path or "body", "holds"))
        elif isinstance(value, dict):
            children = []
            for key, item in value.items():
                key_path = f"{path}.{escaped(key)}" if path else escaped(key)
                if not is_valid_text(key):
                    entries.append(_entry(key_path, "is a key that holds"))
                children.append((key_path, item))
            stack.extend(reversed(children))
        elif isinstance(value, list):
            stack.extend(reversed([(f"{path}[{i}]", item) for i, item in enumerate(value)]))
    return entries[:MAX_ENTRIES]


def _entry(path: str, what: str) -> dict:
    from .api_errors import error_entry

    detail = (f"{path} {what} a lone UTF-16 surrogate (an escape such as \\ud800 without its "
              f"pair), which is not text.")
    return error_entry(path=path, code="invalid_text", detail=detail)


def invalid_text_error(entries: list[dict]):
    from .api_errors import ApiError

    detail = entries[0]["detail"] if len(entries) == 1 else (
        f"The request has {len(entries)} strings that are not valid text; each is listed in "
        f"errors.")
    return ApiError(status_code=400, code="invalid_text", detail=detail, errors=entries)


class TextJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise exceptions.ParseError("The request body is nested too deeply.") from None
        entries = invalid_text_entries(data)
        if entries:
            raise invalid_text_error(entries)
        return data
