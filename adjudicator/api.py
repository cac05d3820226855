"""POST /api/games/{game}/rulings/: a legality ruling on one move in one position.

The view only finds the game and its ruling service (common.games) and passes the body
on; each game's service validates the body, asks its engine and saves the result. The schema's
description and examples are the common part here plus each game's own (its api_docs module).
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cards.api.serializers import ErrorSerializer
from common.games import slugs_with
from common.throttling import EvaluationRateThrottle
from games.api import run_game_service
from games.package import RULING
from results.api import GameJobSchema


class RuleQuoteSerializer(serializers.Serializer):
    id = serializers.CharField()
    title = serializers.CharField()
    text = serializers.CharField()
    url = serializers.CharField(help_text="The rule section on the game's page.")


class CheckSerializer(serializers.Serializer):
    rule = serializers.CharField()
    passed = serializers.BooleanField()
    detail = serializers.CharField()


class RulingResponseSerializer(serializers.Serializer):
    game = serializers.CharField()
    verdict = serializers.ChoiceField(choices=["legal", "illegal", "needs_information"])
    code = serializers.CharField(help_text="Machine-readable and stable; listed per game above.")
    reason = serializers.CharField()
    rule = RuleQuoteSerializer()
    checks = CheckSerializer(many=True, help_text="Every check made, in order.")
    alternatives = serializers.ListField(
        child=serializers.DictField(), help_text="The legal moves, when the move is illegal."
    )
    outcome = serializers.DictField(allow_null=True, help_text="What a legal move leads to.")
    missing = serializers.ListField(child=serializers.DictField())
    warnings = serializers.ListField(child=serializers.CharField())
    id = serializers.CharField(help_text="The saved result's id.")
    url = serializers.CharField(help_text="Its page, /r/{id}; GET /api/results/{id}/ for JSON.")


# A game's own error examples are in its api_docs module (RULING_EXAMPLES), with its requests.
ERROR_EXAMPLES = [
    OpenApiExample(
        "No rulings for this game yet",
        response_only=True,
        status_codes=["404"],
        value={
            "status": 404,
            "code": "not_available",
            "detail": "Tableside does not give rulings for Snap yet.",
            "errors": [
                {
                    "path": "game",
                    "code": "not_available",
                    "detail": "Tableside does not give rulings for Snap yet.",
                    "suggestions": slugs_with(RULING),
                }
            ],
        },
    ),
]

DESCRIPTION = """
Body: `{"position": …, "move": …}`, per game (API.md; examples below). Card names may be the
exact name in any case or the slug (a game's paragraph below says where it takes another name
too). The ruling is saved: its
`id` and `url` (the page `/r/{id}`) are in the response, and `GET /api/results/{id}/` returns
it again exactly.

**Errors.** 404 `unknown_game`; 404 `not_available` (Tableside gives no rulings for that game
yet); 400 `malformed_request` (not JSON); 400 `invalid_input` (the body is not an object, a
field is missing or of the wrong type, an unknown field, or a card name that names no card:
entries `unknown_card` with `suggestions`, `invalid_card`, `required`, `invalid_type`,
`unknown_field`, `invalid_action`, `invalid_count`, `too_many`); 400 `impossible_position` (the
position cannot exist; each entry names one contradiction).
"""


class RulingSchema(GameJobSchema):
    kind = RULING
    description = DESCRIPTION
    examples = ERROR_EXAMPLES


class RulingApi(APIView):
    throttle_classes = [EvaluationRateThrottle]
    schema = RulingSchema()

    @extend_schema(
        summary="A ruling on one move in one position",
        request=OpenApiTypes.OBJECT,
        responses={
            200: RulingResponseSerializer,
            400: OpenApiResponse(
                ErrorSerializer,
                description="`malformed_request`, `invalid_input` or `impossible_position`.",
            ),
            404: OpenApiResponse(ErrorSerializer, description="`unknown_game` or `not_available`."),
        },
    )
    def post(self, request: Request, game: str) -> Response:
        return run_game_service(
            request,
            game_slug=game,
            kind=RULING,
            unavailable="Tableside does not give rulings for {game} yet.",
        )
