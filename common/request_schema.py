"""A request model (common.requests.RequestModel) named as an endpoint's body in the API schema:
`@extend_schema(request=SomeRequest)`. drf-spectacular's own pydantic extension documents a
model as it is written out (pydantic's serialization mode) in JSON Schema 2020-12; a request
body is what is read, so this one takes pydantic's validation-mode schema, as the games' bodies
do (games/api_schema.py), in OpenAPI 3.0's terms (common.schema.openapi_30): the schema says
what read_body refuses (strict types, required fields, no unknown fields:
`additionalProperties: false`).

Registered by its definition (drf-spectacular's extensions register themselves), which
common.apps imports when Django starts, before any schema is built.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.plumbing import ResolvedComponent
from pydantic.json_schema import model_json_schema

from .schema import openapi_30

COMPONENTS = "#/components/schemas/"


class RequestModelExtension(OpenApiSerializerExtension):
    target_class = "common.requests.RequestModel"
    match_subclasses = True
    # Before drf-spectacular's own extension of every pydantic model (priority 0).
    priority = 1

    def get_name(self, auto_schema: Any, direction: str) -> str:
        name: str = self.target.__name__
        return name

    def map_serializer(self, auto_schema: Any, direction: str) -> dict[str, Any]:
        schema = model_json_schema(
            self.target, ref_template=COMPONENTS + "{model}", mode="validation"
        )
        # A model the body's model holds is a component of its own, referenced from the body.
        for name, inner in schema.pop("$defs", {}).items():
            auto_schema.registry.register_on_missing(
                ResolvedComponent(
                    name=name,
                    type=ResolvedComponent.SCHEMA,
                    object=name,
                    schema=openapi_30(inner),
                )
            )
        converted: dict[str, Any] = openapi_30(schema)
        return converted
