"""Plain-Python description and validation of a game's card attributes (no Django import).

A game declares its attributes as data (key, kind, bounds, choices); a card stores its values in one
JSON object. `None` means the value is not known (or does not apply); provenance says which.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

KINDS = ("integer", "choice", "multi_choice", "text", "abilities")
ABILITY_EFFECTS = ("draw", "health", "coin", "combat")
PROVENANCE_VALUES = ("verified", "provisional", "unknown")


@dataclass(frozen=True)
class AttributeSpec:
    key: str
    label: str
    kind: str
    required: bool = False
    min_value: int | None = None
    max_value: int | None = None
    choices: tuple[tuple[str, str], ...] = field(default_factory=tuple)
    filterable: bool = True

    @property
    def choice_values(self) -> tuple[str, ...]:
        return tuple(value for value, _label in self.choices)

    def label_of(self, value: str) -> str:
        return dict(self.choices).get(value, value)


def _integer_error(spec: AttributeSpec, value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return f"{spec.label} must be a whole number, not {value!r}."
    if spec.min_value is not None and value < spec.min_value:
        return f"{spec.label} must be at least {spec.min_value}; got {value}."
    if spec.max_value is not None and value > spec.max_value:
        return f"{spec.label} must be at most {spec.max_value}; got {value}."
    return None


def _choice_error(spec: AttributeSpec, value: Any) -> str | None:
    if not isinstance(value, str) or value not in spec.choice_values:
        allowed = ", ".join(spec.choice_values)
        return f"{spec.label} must be one of: {allowed}; got {value!r}."
    return None


def _multi_choice_error(spec: AttributeSpec, value: Any) -> str | None:
    if not isinstance(value, list):
        return f"{spec.label} must be a list of values; got {value!r}."
    unknown = [item for item in value if item not in spec.choice_values]
    if unknown:
        allowed = ", ".join(spec.choice_values)
        return f"{spec.label} has values that are not allowed ({', '.join(map(str, unknown))}); allowed: {allowed}."
    if len(set(value)) != len(value):
        return f"{spec.label} lists a value twice."
    return None


def _abilities_error(spec: AttributeSpec, value: Any) -> str | None:
    if not isinstance(value, dict):
        return f'{spec.label} must be an object such as {{"coin": 2, "draw": 1}}; got {value!r}.'
    for effect, amount in value.items():
        if effect not in ABILITY_EFFECTS:
            return f"{spec.label}: '{effect}' is not an effect; use {', '.join(ABILITY_EFFECTS)}."
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 1:
            return f"{spec.label}: {effect} must be a whole number of at least 1; got {amount!r}."
    return None


_CHECKS: dict[str, Callable[[AttributeSpec, Any], str | None]] = {
    "integer": _integer_error,
    "choice": _choice_error,
    "multi_choice": _multi_choice_error,
    "abilities": _abilities_error,
    "text": lambda spec, value: None if isinstance(value, str) else f"{spec.label} must be text.",
}


def validate_attributes(specs: list[AttributeSpec], attributes: object) -> dict[str, str]:
    """Return {attribute key: message} for every bad value; an empty dict means valid."""
    if not isinstance(attributes, dict):
        return {"attributes": "Attributes must be an object of attribute key to value."}
    errors: dict[str, str] = {}
    known = {spec.key for spec in specs}
    for key in attributes:
        if key not in known:
            errors[key] = (
                f"'{key}' is not an attribute of this game (known: {', '.join(sorted(known))})."
            )
    for spec in specs:
        value = attributes.get(spec.key)
        if value is None:
            if spec.required:
                errors[spec.key] = f"{spec.label} is required."
            continue
        message = _CHECKS[spec.kind](spec, value)
        if message:
            errors[spec.key] = message
    return errors


def validate_field_provenance(
    specs: list[AttributeSpec], attributes: dict[str, Any], field_provenance: object
) -> dict[str, str]:
    """Each entry names a real field with a known provenance; an 'unknown' field holds no value."""
    if not isinstance(field_provenance, dict):
        return {"field_provenance": "Field provenance must be an object of field to provenance."}
    errors: dict[str, str] = {}
    fields = {spec.key for spec in specs} | {"copies", "rule"}
    for key, provenance in field_provenance.items():
        if key not in fields:
            errors[key] = f"Provenance is given for '{key}', which is not a field of this game."
        elif provenance not in PROVENANCE_VALUES:
            errors[key] = (
                f"Provenance of {key} must be one of {', '.join(PROVENANCE_VALUES)}; got {provenance!r}."
            )
        elif provenance == "unknown" and (key == "copies" or attributes.get(key) is not None):
            # Copies always hold a number, so they can be inferred but never unknown.
            errors[key] = (
                f"{key} is marked unknown but holds a value; clear it or mark it verified."
            )
    return errors


def card_provenance(field_provenance: dict[str, str]) -> str:
    """A card is incomplete while any value is unknown, provisional while any is inferred."""
    values = set(field_provenance.values())
    if "unknown" in values:
        return "incomplete"
    if "provisional" in values:
        return "provisional"
    return "verified"


def index_values(specs: list[AttributeSpec], attributes: dict[str, Any]) -> list[tuple[str, str]]:
    """(key, value) pairs by which a card can be filtered: one per choice, integer or text value."""
    pairs: list[tuple[str, str]] = []
    for spec in specs:
        value = attributes.get(spec.key)
        if value is None or spec.kind == "abilities":
            continue
        for item in value if isinstance(value, list) else [value]:
            pairs.append((spec.key, str(item)))
    return pairs


def describe_abilities(abilities: dict[str, Any] | None) -> str:
    """An "abilities" value in words, effects in the fixed order Draw, Health, Coin, Combat:
    "1 Draw and 2 Coin"."""
    if abilities is None:
        return "unknown (not yet transcribed from the card)"
    parts = [
        f"{abilities[effect]} {effect.capitalize()}"
        for effect in ABILITY_EFFECTS
        if effect in abilities
    ]
    return " and ".join(parts) if parts else "none"
