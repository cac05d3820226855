"""What every game's page forms share: reading what was submitted, the slots of a list (a few
shown, the rest in a <details>), and which field each request path came from, so a problem the
service reports at a path shows next to the field that gave it.

A form builds the API's request body from its fields (`body()`); while it does, it records the
field behind each path in `paths`. The service then checks the body exactly as it checks the
API's, and its problems come back through `add_errors` and `error_summary`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from django.http import QueryDict

from cards.selectors import clean_text
from common.numbers import plain_int
from web.page_fields import FormField, filled_names
from web.page_results import problem_message

# The most a page form's number field is read as (a count, a seat): six digits either way.
NUMBER_BOUND = 999_999
LAST_STEP = re.compile(r"(\.[^.\[\]]*|\[\d+\])$")  # "players[0].hand" → "players[0]"
LAST_NAME = re.compile(r"(?:^|\.)([a-z_]+)$")  # "move.amount" → "amount"


def as_dict(value: object) -> dict[str, Any]:
    """A saved request's part as an object, or {} (a saved body is read back forgivingly)."""
    return value if isinstance(value, dict) else {}


def as_list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def has_content(item: Any) -> bool:
    """A field with a value or a problem, or a row (anything with `has_content`) holding one."""
    if isinstance(item, FormField):
        return bool(item.value or item.errors)
    return bool(item.has_content)


class Slots(list[Any]):
    """The slots of one list of the form: the first `shown` always on view, the rest in a
    <details> that opens by itself when one of them holds something (or a problem)."""

    def __init__(self, items: Iterable[Any], shown: int) -> None:
        super().__init__(items)
        self.shown_count = shown

    @property
    def shown(self) -> list[Any]:
        return self[: self.shown_count]

    @property
    def more(self) -> list[Any]:
        return self[self.shown_count :]

    @property
    def open(self) -> bool:
        return any(has_content(item) for item in self.more)


class PageForm:
    """A page's form: the submitted data (None: the empty form) and the field of each path."""

    # Error codes whose entry names something typed that matched nothing: its suggestions are
    # offered as "Did you mean …?".
    suggest_for: tuple[str, ...] = ("unknown_card",)

    def __init__(self, data: QueryDict | None = None) -> None:
        self.bound = data is not None
        self.data = data if data is not None else {}
        self.paths: dict[str, FormField] = {}

    def text(self, name: str, default: str = "") -> str:
        """A field as typed (cleaned), or `default` when nothing was submitted at all."""
        return clean_text(self.data.get(name)) if self.bound else default

    def texts(self, name: str, slots: int) -> list[str]:
        """The values of the `slots` fields sharing a name, in order, padded with ""."""
        getlist = getattr(self.data, "getlist", None)
        given = [clean_text(value) for value in getlist(name)][:slots] if getlist else []
        return given + [""] * (slots - len(given))

    def ticked(self, name: str) -> str:
        return "on" if self.data.get(name) else ""

    def names(self, fields: list[FormField], path: str) -> list[str]:
        """The filled slots' values (see web.page_fields.filled_names)."""
        return filled_names(fields, path, self.paths)

    def number(self, field: FormField, path: str, target: dict[str, Any], key: str) -> None:
        """target[key] = the field's whole number (or its text, for the service to refuse)."""
        self.paths[path] = field
        if field.value:
            number = plain_int(field.value, least=-NUMBER_BOUND, most=NUMBER_BOUND)
            target[key] = number if number is not None else field.value

    def field_for(self, path: str) -> FormField | None:
        """The field of a request path, or of the nearest path that encloses it."""
        while path:
            if path in self.paths:
                return self.paths[path]
            shorter = LAST_STEP.sub("", path)
            path = "" if shorter == path else shorter
        return None

    def body(self) -> Any:
        """The API's request body the fields describe, recording the field of each path."""
        raise NotImplementedError

    def message(self, entry: dict[str, Any]) -> str:
        """A problem in a player's words. The service's detail is written for the API: it names
        the request path ("position.galaxy_deck must be …") and, for a missing field, the JSON it
        wants; a page names the field by its label instead ("Galaxy deck must be …", "Card drawn
        is required.")."""
        path, detail = entry.get("path", ""), entry.get("detail", "")
        field = self.field_for(path) if path else None
        last = LAST_NAME.search(path)
        named = next(
            (
                name
                for name in (path, last and last.group(1))
                if name and detail.startswith(name + " ")
            ),
            None,
        )
        if field is not None and named:  # a detail already in a player's words stays as it is
            label = field.label or "This field"
            rest = detail[len(named) :]
            missing = entry.get("code") == "required" and rest.startswith(" is required")
            entry = {**entry, "detail": f"{label} is required." if missing else label + rest}
        return problem_message(entry, suggest_for=self.suggest_for)

    def add_errors(self, entries: list[dict[str, Any]]) -> None:
        """Each problem next to its field (the summary lists them all, fields or not)."""
        for entry in entries:
            field = self.field_for(entry.get("path", ""))
            message = self.message(entry)
            if field is not None and message not in field.errors:
                field.errors.append(message)

    def error_summary(self, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """One line per problem, linking to its field when it has one."""
        summary = []
        for entry in entries:
            field = self.field_for(entry.get("path", ""))
            summary.append({"message": self.message(entry), "field_id": field.id if field else ""})
        return summary
