"""POST /api/games/{game}/score/: a step-by-step score breakdown.

The view only finds the game and its score service (common.games) and passes the body
on; each game's service validates the body, asks its engine and saves the result. The schema's
description and examples are the common part here plus each game's own (its api_docs module).
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cards.api.serializers import ErrorSerializer
from common.throttling import EvaluationRateThrottle
from games.api import run_game_service
from games.package import SCORE
from results.api import GameJobSchema


class StepSerializer(serializers.Serializer):
    n = serializers.IntegerField()
    rule = serializers.CharField()
    card = serializers.CharField(allow_null=True)
    detail = serializers.CharField()
    points = serializers.IntegerField()
    running_total = serializers.IntegerField()


class TablePlayerSerializer(serializers.Serializer):
    name = serializers.CharField()
    total = serializers.IntegerField()
    steps = StepSerializer(many=True, help_text="This player's own steps, from zero.")
    warnings = serializers.ListField(child=serializers.CharField())
    cards = serializers.ListField(
        child=serializers.DictField(),
        help_text='One per card in hand order: {"name", "points", "blanked", "blanked_reason"}.',
    )
    choices = serializers.DictField(help_text="Every choice the scorer made or was given.")


class ScoreResponseSerializer(serializers.Serializer):
    game = serializers.CharField()
    total = serializers.IntegerField(allow_null=True, help_text="The headline number, if any.")
    steps = StepSerializer(many=True, help_text="In order: the total can be followed from zero.")
    warnings = serializers.ListField(child=serializers.CharField())
    players = TablePlayerSerializer(
        many=True,
        required=False,
        help_text="A game that scores a whole table (its paragraph above): one single-hand "
        "answer per player, with its name, in seat order.",
    )
    standings = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text="A game that ranks its players: their standings, in the shape its paragraph "
        "above gives.",
    )
    winners = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="A game that names its winners (its paragraph above): every player with the "
        "highest total (tied players share victory).",
    )
    id = serializers.CharField(help_text="The saved result's id.")
    url = serializers.CharField(help_text="Its page, /r/{id}; GET /api/results/{id}/ for JSON.")


DESCRIPTION = """
Body: per game (API.md; examples below). Card names may be the exact name in any case or the
slug (a game's paragraph below says where it takes another name too). The response's `steps`
let a person follow the total from zero; each game adds its own fields (its paragraph). The score is
saved: its `id` and `url` (the page `/r/{id}`) are in the response, and
`GET /api/results/{id}/` returns it again exactly.

**Errors.** 404 `unknown_game`; 404 `not_available` (Tableside does not score that game yet);
400 `malformed_request` (not JSON); 400 `invalid_input` (the body is not an object, a field is
missing or of the wrong type, or a card name that names no card: entry `unknown_card` with
`suggestions`); 400 for a hand or position that cannot exist, naming the contradiction.
"""


class ScoreSchema(GameJobSchema):
    kind = SCORE
    description = DESCRIPTION


class ScoreApi(APIView):
    throttle_classes = [EvaluationRateThrottle]
    schema = ScoreSchema()

    @extend_schema(
        summary="A step-by-step score breakdown",
        request=OpenApiTypes.OBJECT,
        responses={
            200: ScoreResponseSerializer,
            400: OpenApiResponse(
                ErrorSerializer,
                description="`malformed_request`, "
                "`invalid_input` or an impossible hand or position.",
            ),
            404: OpenApiResponse(ErrorSerializer, description="`unknown_game` or `not_available`."),
        },
    )
    def post(self, request: Request, game: str) -> Response:
        return run_game_service(
            request,
            game_slug=game,
            kind=SCORE,
            unavailable="Tableside does not score {game} yet.",
        )
