"""The saved-result API, and the schema of the endpoints that create results (score and rulings:
their running is games/api.py, which asks the one flow)."""

from __future__ import annotations

from typing import Any

from django.utils.cache import patch_cache_control
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cards.api.serializers import ErrorSerializer
from common.api_errors import ApiError, error_entry
from common.games import games
from common.schema import GAME_JOB_MARK

from .selectors import ResultNotFound, result_get
from .services import result_opened

RESULT_MAX_AGE = 60 * 60 * 24  # a saved result never changes


class GameJobSchema(AutoSchema):
    """The schema of a game-job endpoint (rulings, score): its description and examples are the
    endpoint's own followed by every game's in GAMES (RULING_DOCS / RULING_EXAMPLES, SCORE_DOCS
    / SCORE_EXAMPLES of its api_docs module), read when the schema is built, so a game added to
    GAMES documents itself. drf-spectacular makes its own instances, so a subclass per endpoint
    sets these three.

    Each game's body, and its own operation at /api/games/<slug>/<job>/, are published by the
    postprocessing hook games.api_schema.publish_game_bodies, which finds this endpoint by the
    mark its operation carries (the job and the endpoint's own description)."""

    kind: str = ""
    description: str = ""
    examples: list[OpenApiExample] = []

    def get_description(self) -> str:
        prefix = self.kind.upper()
        paragraphs = [game.docs(f"{prefix}_DOCS").strip() for game in games()]
        return "\n\n".join([self.description.strip(), *filter(None, paragraphs)]) + "\n"

    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation = super().get_operation(*args, **kwargs)
        if operation is not None:
            operation[GAME_JOB_MARK] = {"kind": self.kind, "description": self.description}
        return operation

    def get_examples(self) -> list[OpenApiExample]:
        prefix = self.kind.upper()
        return [
            example for game in games() for example in game.docs(f"{prefix}_EXAMPLES")
        ] + self.examples


class ResultApi(APIView):
    @extend_schema(
        summary="A saved score or ruling, exactly as first returned",
        description=(
            "Every score and ruling is saved when it is returned; its `id` and `url` (the page "
            "`/r/{id}`) are in the body. This returns that body unchanged. Saved results are "
            "immutable, so responses may be cached for a day."
        ),
        responses={
            200: OpenApiResponse(OpenApiTypes.OBJECT, description="The score or ruling body."),
            404: OpenApiResponse(ErrorSerializer, description="`unknown_result`."),
        },
    )
    def get(self, request: Request, result_id: str) -> Response:
        try:
            result = result_get(result_id=result_id)
        except ResultNotFound:
            detail = f"No saved result '{result_id[:40]}'."
            raise ApiError(
                status_code=404,
                code="unknown_result",
                detail=detail,
                errors=[error_entry(path="result_id", code="unknown_result", detail=detail)],
            ) from None
        result_opened(result_id=result.id)
        response = Response(result.response)
        patch_cache_control(response, public=True, max_age=RESULT_MAX_AGE)
        return response
