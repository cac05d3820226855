"""OpenAPI post-processing: the answers every operation can give, documented everywhere."""

from __future__ import annotations

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
    "400": ("The request is not valid; each problem is listed in `errors` with its path. A body "
            f"nested more than {MAX_DEPTH} levels deep is `nested_too_deeply`."),
    "413": "The request body is larger than the API accepts (64 kB).",
    "415": "The request body is not JSON.",
    "429": "Too many scores or rulings from this client; retry after `Retry-After` seconds.",
}


def document_common_errors(result, generator, request, public):
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
                    {"description": description, "content": {"application/json": {"schema": reference}}},
                )
    return result


def codes(values) -> str:
    """Codes as a Markdown list for an endpoint's description: `a`, `b`, `c`."""
    return ", ".join(f"`{value}`" for value in values)
