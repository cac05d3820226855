"""The saved-result API, and the plumbing shared by the endpoints that create results (score and
rulings): find the game and its job, check the body is a JSON object, and ask the one flow
(games.services.answer)."""

from __future__ import annotations

from django.utils.cache import patch_cache_control
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import APIView

from cards.api.serializers import ErrorSerializer
from cards.api.views import game_or_404
from common.api_errors import ApiError, error_entry
from games.registry import GAMES, game_package, slugs_with
from games.services import answer

from .selectors import ResultNotFound, result_get
from .services import result_opened

RESULT_MAX_AGE = 60 * 60 * 24  # a saved result never changes


def request_object(request) -> dict:
    """The JSON body, which must be an object; a 400 in the contract's shape otherwise."""
    try:
        body = request.data
    except RecursionError:  # absurdly deep nesting: still the client's fault, never a 500
        raise exceptions.ParseError() from None
    if not isinstance(body, dict):
        kind = "a list" if isinstance(body, list) else "not an object"
        detail = f"The request body must be a JSON object; it is {kind}."
        raise ApiError(status_code=400, code="invalid_input", detail=detail,
                       errors=[error_entry(path="body", code="invalid_type", detail=detail)])
    return dict(body)


def run_game_service(request, *, game_slug: str, kind: str, unavailable: str) -> Response:
    """Look up the game (404 unknown_game) and its package's job `kind`, "ruling" or "score"
    (404 not_available: `unavailable` is the detail, with {game} for the game's name), then
    answer the body through the one flow."""
    game = game_or_404(game_slug)
    package = game_package(game.slug)
    job = package.job(kind) if package else None
    if job is None:
        detail = unavailable.format(game=game.name)
        raise ApiError(status_code=404, code="not_available", detail=detail,
                       errors=[error_entry(path="game", code="not_available", detail=detail,
                                           suggestions=slugs_with(kind))])
    body = request_object(request)
    # No transaction around the flow: it reads the catalog and writes one saved result, a
    # single INSERT (atomic on its own); BEGIN and COMMIT were a third of a ruling's statements.
    return Response(answer(game=game, kind=kind, body=body))


class GameJobSchema(AutoSchema):
    """The schema of a game-job endpoint (rulings, score): its description and examples are the
    endpoint's own followed by every game's in GAMES (RULING_DOCS / RULING_EXAMPLES, SCORE_DOCS
    / SCORE_EXAMPLES of its api_docs module), read when the schema is built, so a game added to
    GAMES documents itself. drf-spectacular makes its own instances, so a subclass per endpoint
    sets these three."""

    kind: str = ""
    description: str = ""
    examples: list[OpenApiExample] = []

    def get_description(self) -> str:
        prefix = self.kind.upper()
        paragraphs = [game.docs(f"{prefix}_DOCS").strip() for game in GAMES]
        return "\n\n".join([self.description.strip(), *filter(None, paragraphs)]) + "\n"

    def get_examples(self) -> list[OpenApiExample]:
        prefix = self.kind.upper()
        return [example for game in GAMES for example in game.docs(f"{prefix}_EXAMPLES")] + \
            self.examples


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
    def get(self, request, result_id: str):
        try:
            result = result_get(result_id=result_id)
        except ResultNotFound:
            detail = f"No saved result '{result_id[:40]}'."
            raise ApiError(status_code=404, code="unknown_result", detail=detail,
                           errors=[error_entry(path="result_id", code="unknown_result",
                                               detail=detail)]) from None
        result_opened(result_id=result.id)
        response = Response(result.response)
        patch_cache_control(response, public=True, max_age=RESULT_MAX_AGE)
        return response
