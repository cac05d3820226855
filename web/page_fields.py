"""The form field every game's pages render: its value, label and the errors shown beside it,
with the ids the templates tie together for screen readers."""

from __future__ import annotations


class FormField:
    def __init__(
        self,
        name: str,
        field_id: str,
        value: str = "",
        label: str = "",
        css_class: str = "",
        *,
        hint: str = "",
        kind: str = "text",
        placeholder: str = "",
        label_hidden: str = "",
    ):
        self.name = name
        self.id = field_id
        self.value = value
        self.label = label
        self.label_hidden = label_hidden  # said to screen readers after the label
        self.css_class = css_class
        self.hint = hint
        self.kind = kind
        self.placeholder = placeholder
        self.errors: list[str] = []

    @property
    def error_id(self) -> str:
        return f"{self.id}-error"

    @property
    def hint_id(self) -> str:
        return f"{self.id}-hint"

    @property
    def checked(self) -> bool:
        return bool(self.value)


def filled_names(fields: list[FormField], path: str, paths: dict[str, FormField]) -> list[str]:
    """The values of the filled fields of a list (empty slots skipped), recording in `paths` the
    field each request path comes from ("position.hand" → the first slot, "position.hand[2]" → the
    slot that gave the third name), so a problem reported at a path shows by its field."""
    names: list[str] = []
    if fields:
        paths[path] = fields[0]
    for field in fields:
        if field.value:
            paths[f"{path}[{len(names)}]"] = field
            names.append(field.value)
    return names
