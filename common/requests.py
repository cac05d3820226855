"""Request bodies declared, not hand-parsed: a game writes its request as pydantic models and
`read_body` reads any body against them, answering every problem at once in API.md's error body.

Decision (docs/CODE.md): pydantic rather than DRF serializers. Its errors come with the exact place of
each problem (`("position", "hand", 2)` → `position.hand[2]`) and a type per kind of problem, which
map one to one onto the contract's codes; strict mode refuses what a hand-written reader refused
(a number for a name, "3" for a count, 1 for true); the models are typed, so the engines' callers
are checked by mypy; and drf-spectacular can document them. A serializer would have needed the
same mapping written around its nested error dicts, without the types.

How a problem reads: `required` ("position.hand is required: a list of card names."),
`unknown_field` (with the closest field names as suggestions), `invalid_type` ("… must be a
whole number of cards; got the text 'x'."), `invalid_count` (a count out of its bounds),
`invalid_<field>` for a value outside a field's choices (`invalid_action`), and what
a field's own validator raises as a PydanticCustomError: its type is the code, its message the
detail, `suggestions` in its context the suggestions (card names: `card_name` below).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from enum import Enum
from typing import Annotated, Any, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, ValidationError, ValidationInfo, WithJsonSchema
from pydantic.fields import FieldInfo
from pydantic.functional_validators import BeforeValidator, PlainValidator
from pydantic_core import PydanticCustomError

from common.api_errors import ApiError, error_entry
from common.body_checks import json_type, shown

M = TypeVar("M", bound=BaseModel)


class RequestModel(BaseModel):
    """A part of a request body: strict types, unknown fields refused, read-only once read."""

    model_config = ConfigDict(
        strict=True, extra="forbid", frozen=True, arbitrary_types_allowed=True
    )

    @classmethod
    def refused(cls, error: ApiError) -> ApiError:
        """The 400 of a body that is not of this model (games.services reads the body): the
        invalid_input of read_body, unless a model words a refusal its own way."""
        return error


# What each of pydantic's type errors asked for, in words, when the field says nothing itself.
TYPE_WORDS = {
    "int_type": "a whole number",
    "bool_type": "true or false",
    "list_type": "a list",
    "string_type": "text",
    "model_type": "an object",
    "dict_type": "an object",
    "model_attributes_type": "an object",
    "float_type": "a number",
    "none_required": "null",
}


# The last body read by read_body in this context, and that body as it was understood: what a
# saved result stores as its request (results.services), instead of the bytes as sent.
_UNDERSTOOD: ContextVar[tuple[object, object] | None] = ContextVar("understood", default=None)


def understood(value: object) -> object:
    """A request as it was read: the fields of its models that differ from their defaults (so
    leaving a field out and sending its default read alike), a card named in any way (slug, case,
    padding, value) as its catalog name, text without surrounding spaces. Unknown fields never get
    this far: the models refuse them."""
    if isinstance(value, BaseModel):
        fields = type(value).model_fields.items()
        read = {
            (field.alias or name): understood(getattr(value, name))
            for name, field in fields
            if field.is_required()
            or getattr(value, name) != field.get_default(call_default_factory=True)
        }
        # A model that takes fields of its own (extra="allow") keeps them as they were read.
        read.update({key: understood(item) for key, item in (value.model_extra or {}).items()})
        return read
    name = getattr(value, "name", None)
    if hasattr(value, "_meta") and isinstance(name, str):
        return name  # a catalog card (cards.models.Card) resolved from a name
    if isinstance(value, Mapping):
        return {str(key).strip(): understood(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [understood(item) for item in value]
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, Enum):
        return understood(value.value)
    return value


def understood_request(body: object) -> object:
    """`body` as read_body understood it, when read_body read this very body in this request;
    the body as it is otherwise."""
    last = _UNDERSTOOD.get()
    if last is not None and last[0] is body:
        return last[1]
    return body


def read_body(model: type[M], body: object, *, context: Mapping[str, Any] | None = None) -> M:
    """The body as `model`; a 400 invalid_input with one entry per problem otherwise. `context`
    reaches the fields' validators (e.g. "cards": the game's CardNameResolver)."""
    if not isinstance(body, dict):
        kind = "a list" if isinstance(body, list) else json_type(body)
        raise invalid_body(
            [
                error_entry(
                    path="body",
                    code="invalid_type",
                    detail=f"The request body must be a JSON object; it is {kind}.",
                )
            ]
        )
    try:
        read = model.model_validate(body, context=dict(context or {}))
    except ValidationError as error:
        raise invalid_body(
            [_entry(model, problem) for problem in error.errors(include_url=False)]
        ) from None
    _UNDERSTOOD.set((body, understood(read)))
    return read


def invalid_body(errors: list[dict[str, Any]]) -> ApiError:
    detail = (
        errors[0]["detail"]
        if len(errors) == 1
        else (f"The request has {len(errors)} problems; each is listed in errors.")
    )
    return ApiError(status_code=400, code="invalid_input", detail=detail, errors=errors)


def card_name(value: object, info: ValidationInfo) -> Any:
    """A card named in a request (its name in any case, its slug, or its value where the game
    numbers its cards), resolved by the CardNameResolver in the context's "cards"."""
    resolver = (info.context or {})["cards"]
    card, problem = resolver.resolve_one(value, path="")
    if problem is not None:
        # The detail goes in the context: as the template it would be read for {placeholders},
        # and a name typed with braces must come back as typed.
        raise PydanticCustomError(
            problem["code"],
            "{detail}",
            {"detail": problem["detail"], "suggestions": problem.get("suggestions") or []},
        )
    return card


def not_more_than_the_game_has(value: object, info: ValidationInfo) -> object:
    """A list of names longer than the game's catalog is refused before any name is looked up."""
    resolver = (info.context or {})["cards"]
    if isinstance(value, list) and len(value) > len(resolver.cards):
        raise PydanticCustomError(
            "too_many",
            f"This list names {len(value)} cards; {resolver.game.name} has only "
            f"{len(resolver.cards)}.",
        )
    return value


# What the API schema says a card name is. `card_name` reads text (the name in any case, or the
# slug) or, in a game that numbers its cards, a whole number: the schema says so, and marks the
# place (CARD_NAME_MARK) so each game's schema can name its own cards there (games/api_schema.py).
CARD_NAME_MARK = "x-card-name"
CARD_NAME_JSON_SCHEMA = {
    "anyOf": [{"type": "string", "minLength": 1}, {"type": "integer"}],
    "description": "a card: its name in any case or its slug (a number: its value, in a game "
    "that numbers its cards)",
    CARD_NAME_MARK: True,
}
CardNameSchema = WithJsonSchema(CARD_NAME_JSON_SCHEMA, mode="validation")

# What a field read by a game's own validator accepts, for the API schema: a person's or a
# faction's name (text that is not blank), and a number between bounds.
NameSchema = WithJsonSchema({"type": "string", "pattern": r"\S"}, mode="validation")


# A value that names one of the choices of a catalog attribute (a faction, by its value or its
# label, any case): marked with the attribute's key, so each game's schema lists its choices.
ATTRIBUTE_CHOICE_MARK = "x-attribute-choice"


def attribute_choice_schema(key: str) -> WithJsonSchema:
    return WithJsonSchema(
        {"type": "string", "pattern": r"\S", ATTRIBUTE_CHOICE_MARK: key}, mode="validation"
    )


def number_schema(least: int, most: int) -> WithJsonSchema:
    return WithJsonSchema({"type": "integer", "minimum": least, "maximum": most}, mode="validation")


@dataclass(frozen=True)
class BoundedList(BeforeValidator):
    """A game's check of a list before its entries are read (`func`, as BeforeValidator), which
    the API schema shows: at most `most` entries (maxItems), and null read as an empty list
    where `null` says so."""

    most: int | None = None
    null: bool = False

    def __get_pydantic_json_schema__(self, core_schema: Any, handler: Any) -> dict[str, Any]:
        schema = dict(handler(core_schema))
        if self.most is not None:
            schema["maxItems"] = self.most
        if self.null:
            schema = {"anyOf": [schema, {"type": "null"}]}
        return schema


# A card of the game's catalog (cards.models.Card), named in the request; a list of them.
CardName = Annotated[Any, PlainValidator(card_name), CardNameSchema]
CardNames = Annotated[list[CardName], BeforeValidator(not_more_than_the_game_has)]


# --- From pydantic's errors to API.md's entries -----------------------------------------------


def _entry(model: type[BaseModel], problem: Mapping[str, Any]) -> dict[str, Any]:
    kind = problem["type"]
    path, field, parent = _place(model, problem["loc"])
    described = field.description if field is not None and field.description else ""
    context = problem.get("ctx") or {}
    if kind == "missing":
        what = described or "a value"
        return error_entry(path=path, code="required", detail=f"{path} is required: {what}.")
    if kind == "extra_forbidden":
        known = list(_by_name(parent)) if parent is not None else []
        name = str(problem["loc"][-1])
        return error_entry(
            path=path,
            code="unknown_field",
            detail=f"'{shown(name)}' is not a field here; the fields are {', '.join(known)}.",
            suggestions=difflib.get_close_matches(name, known, n=3, cutoff=0.5),
        )
    if kind in TYPE_WORDS:
        what = described or TYPE_WORDS[kind]
        return error_entry(
            path=path,
            code="invalid_type",
            detail=f"{path} must be {what}; got {json_type(problem.get('input'))}.",
        )
    if kind == "greater_than_equal":
        least = context.get("ge")
        detail = (
            f"{path} cannot be negative; got {problem.get('input')}."
            if least == 0
            else f"{path} must be at least {least}; got {problem.get('input')}."
        )
        return error_entry(path=path, code="invalid_count", detail=detail)
    if kind == "less_than_equal":
        return error_entry(
            path=path,
            code="invalid_count",
            detail=f"{path} must be at most {context.get('le')}; got {problem.get('input')}.",
        )
    if kind in ("union_tag_invalid", "union_tag_not_found", "literal_error"):
        return _choice_entry(problem, path, kind, field)
    if kind in ("value_error", "assertion_error"):
        # A Python exception escaped a validator (int('²') once did): not a code of the contract,
        # and Python's message is not a sentence for a client. The value, refused at its path.
        what = described or "a value this field takes"
        return error_entry(
            path=path,
            code="invalid_input",
            detail=f"{path} must be {what}; got {json_type(problem.get('input'))}.",
        )
    # A field's own validator: its type is the code, its message the detail.
    return error_entry(
        path=path,
        code=kind,
        detail=problem["msg"],
        suggestions=list(context.get("suggestions") or []),
    )


def _choice_entry(
    problem: Mapping[str, Any], path: str, kind: str, union: FieldInfo | None = None
) -> dict[str, Any]:
    context = problem.get("ctx") or {}
    expected = [
        tag.strip(" '")
        for tag in str(context.get("expected_tags") or context.get("expected") or "").split(",")
    ]
    expected = [tag for tag in expected if tag and tag != "or"]
    field = str(context.get("discriminator", "")).strip("'")
    if not expected and union is not None:  # a missing tag: pydantic does not list the choices
        expected = _tags(union.annotation, field)
    where = f"{path}.{field}" if kind.startswith("union_tag") and field else path
    if kind == "union_tag_not_found":
        return error_entry(
            path=where,
            code="required",
            detail=f"{where} is required: one of {', '.join(expected)}.",
        )
    given = context.get("tag", problem.get("input"))
    shown_given = f"'{shown(given)}'" if isinstance(given, str) else json_type(given)
    # The contract names the code after the field: invalid_action for a move's action.
    return error_entry(
        path=where,
        code=f"invalid_{where.rsplit('.', 1)[-1]}",
        detail=f"{where} must be one of {', '.join(expected)}; got {shown_given}.",
        suggestions=difflib.get_close_matches(str(given), expected, n=3, cutoff=0.5) or expected,
    )


def _place(
    model: type[BaseModel], loc: Sequence[str | int]
) -> tuple[str, FieldInfo | None, type[BaseModel] | None]:
    """The path of a problem ("position.hand[2]"), the field it is in and the model holding that
    field, following the models along pydantic's location (whose union tags are not fields)."""
    path = ""
    current: Any = model
    field: FieldInfo | None = None
    parent: type[BaseModel] | None = None
    for part in loc:
        if part == "[key]":  # pydantic's mark of a problem in a dict's key (the part before it)
            continue
        if get_origin(_strip(current)) is dict:  # under a dict-typed field a part is a key:
            key, current = get_args(_strip(current))
            # read by a validator (a card name): choices['Borg Cube']; plain text: options.key
            path += f"[{part!r}]" if get_origin(key) is Annotated else f".{part}"
            field = None
            continue
        if isinstance(part, int):  # an item: the list's description is not the item's
            path += f"[{part}]"
            current, field = _item(current), None
            continue
        member = _union_member(current, part)
        if member is not None:  # a discriminated union's tag: it names the member, not a field
            current = member
            continue
        parent = current if _is_model(current) else None
        field = _by_name(parent).get(str(part)) if parent is not None else None
        path += f".{part}" if path else part
        current = _strip(field.annotation) if field is not None else None
    return path or "body", field, parent


def _by_name(model: type[BaseModel]) -> dict[str, FieldInfo]:
    """A model's fields by the names a body gives them: a field's alias where it has one (the
    table's `from`, which Python cannot name), as pydantic's locations name it."""
    return {(field.alias or name): field for name, field in model.model_fields.items()}


def _is_model(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _strip(annotation: Any) -> Any:
    """The type under Annotated[...] and under an optional field's `X | None`."""
    while get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    if get_origin(annotation) is Union or type(annotation).__name__ == "UnionType":
        kept = [arg for arg in get_args(annotation) if arg is not type(None)]
        if len(kept) == 1 and len(get_args(annotation)) == 2:
            return _strip(kept[0])
    return annotation


def _tags(annotation: Any, discriminator: str) -> list[str]:
    """The values a discriminated union's members accept for their tag field, in order."""
    tags: list[str] = []
    for member in get_args(_strip(annotation)):
        info = member.model_fields.get(discriminator) if _is_model(member) else None
        tags += [str(tag) for tag in get_args(info.annotation)] if info is not None else []
    return tags


def _item(annotation: Any) -> Any:
    args = get_args(_strip(annotation))
    return args[0] if args else None


def _union_member(annotation: Any, tag: str) -> type[BaseModel] | None:
    annotation = _strip(annotation)
    if get_origin(annotation) is not Union and type(annotation).__name__ != "UnionType":
        return None
    for member in get_args(annotation):
        member = _strip(member)
        if _is_model(member):
            for name, info in member.model_fields.items():
                if get_origin(info.annotation) is not None and tag in get_args(info.annotation):
                    if name and info.annotation is not None:
                        found: type[BaseModel] = member
                        return found
    return None
