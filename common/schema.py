"""OpenAPI post-processing: the answers every operation can give, documented everywhere."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .parsers import MAX_DEPTH

ERROR_SCHEMA = {
    "type": "object",
    "required": ["status", "code", "detail", "errors"],
    "properties": {
        "status": {"type": "integer"},
        "code": {"type": "string"},
        "detail": {"type": "string"},
        "errors": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "path": {"type": "string"},
                    "code": {"type": "string"},
                    "detail": {"type": "string"},
                    "suggestions": {"type": "array", "items": {"type": "string"}},
                },
            },
        },
    },
}

COMMON = {
    "404": "Nothing at this address (for instance a game or card that does not exist).",
    "405": "This method is not allowed here.",
    "406": "The client accepts no format this API answers in (it answers JSON).",
}
POST_ONLY = {
    "400": (
        "The request is not valid; each problem is listed in `errors` with its path. A body "
        f"nested more than {MAX_DEPTH} levels deep is `nested_too_deeply`."
    ),
    "413": "The request body is larger than the API accepts (64 kB).",
    "415": "The request body is not JSON.",
    "429": "Too many scores or rulings from this client; retry after `Retry-After` seconds.",
}


def document_common_errors(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """Add the error body to every operation for the answers any request may get."""
    components = result.setdefault("components", {}).setdefault("schemas", {})
    components.setdefault("ApiError", ERROR_SCHEMA)
    reference = {"$ref": "#/components/schemas/ApiError"}
    for path_item in result.get("paths", {}).values():
        for method, operation in path_item.items():
            responses = operation.setdefault("responses", {})
            extra = dict(COMMON)
            if method == "post":
                extra.update(POST_ONLY)
            if any(p.get("in") == "query" for p in operation.get("parameters", [])):
                extra.setdefault("400", POST_ONLY["400"])
            for status, description in extra.items():
                responses.setdefault(
                    status,
                    {
                        "description": description,
                        "content": {"application/json": {"schema": reference}},
                    },
                )
    return result


def codes(values: Iterable[object]) -> str:
    """Codes as a Markdown list for an endpoint's description: `a`, `b`, `c`."""
    return ", ".join(f"`{value}`" for value in values)


# --- JSON Schema (pydantic's, draft 2020-12) as an OpenAPI 3.0 schema object ----------------------

# The mark a game-job endpoint's schema (results.api.GameJobSchema) leaves on its operation, with
# the endpoint's own description: games.api_schema reads it to publish each game's body, and
# removes it.
GAME_JOB_MARK = "x-game-job"


def openapi_30(node: Any) -> Any:
    """A JSON Schema as OpenAPI 3.0 says it: `const` as a one-value `enum`, a bound pydantic left
    as `ge`/`le`/`gt`/`lt` as `minimum`/`maximum`, a `null` alternative as
    `nullable`, `examples` as one `example`, and a `$ref` beside other keywords under `allOf`
    (3.0 ignores a reference's siblings). References are kept as they are."""
    if isinstance(node, list):
        return [openapi_30(item) for item in node]
    if not isinstance(node, dict):
        return node
    schema: dict[str, Any] = {key: openapi_30(value) for key, value in node.items()}
    if "const" in schema:
        schema["enum"] = [schema.pop("const")]
    # A bound pydantic could not place on the type (one on an optional field) comes out under
    # its own name.
    for bound, keyword, tighter in (("ge", "minimum", max), ("le", "maximum", min)):
        if bound in schema:
            value = schema.pop(bound)
            schema[keyword] = tighter(value, schema[keyword]) if keyword in schema else value
    for bound, keyword in (("gt", "minimum"), ("lt", "maximum")):
        if bound in schema and keyword not in schema:
            schema[keyword] = schema.pop(bound)
            schema["exclusive" + keyword.capitalize()] = True
    if "examples" in schema and isinstance(schema["examples"], list):
        examples = schema.pop("examples")
        if examples:
            schema.setdefault("example", examples[0])
    if schema.get("type") == "null":
        return {"nullable": True, "enum": [None]}
    for combiner in ("anyOf", "oneOf"):
        choices = schema.get(combiner)
        if not isinstance(choices, list) or not any(_is_null(choice) for choice in choices):
            continue
        kept: list[dict[str, Any]] = [choice for choice in choices if not _is_null(choice)]
        del schema[combiner]
        if len(kept) == 1:
            only = kept[0]
            if "$ref" in only:
                schema["allOf"] = [only]
            else:
                schema = {**only, **schema}
        else:
            schema[combiner] = kept
        schema["nullable"] = True
        if isinstance(schema.get("enum"), list) and None not in schema["enum"]:
            schema["enum"] = [*schema["enum"], None]  # 3.0: a nullable enum lists null
    if "$ref" in schema and len(schema) > 1:
        schema = {"allOf": [{"$ref": schema.pop("$ref")}], **schema}
    return schema


def _is_null(choice: object) -> bool:
    return isinstance(choice, dict) and (
        choice.get("type") == "null" or choice == {"nullable": True, "enum": [None]}
    )
