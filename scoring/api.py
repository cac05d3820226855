"""POST /api/games/{game}/score/: a step-by-step score breakdown.

The view only finds the game and its score service (scoring.registry) and passes the body on;
each game's service validates the body, asks its engine and saves the result.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.views import APIView

from cards.api.serializers import ErrorSerializer
from common.throttling import EvaluationRateThrottle
from results.api import run_game_service
from scoring.registry import scorers


class StepSerializer(serializers.Serializer):
    n = serializers.IntegerField()
    rule = serializers.CharField()
    card = serializers.CharField(allow_null=True)
    detail = serializers.CharField()
    points = serializers.IntegerField()
    running_total = serializers.IntegerField()


class ScoreResponseSerializer(serializers.Serializer):
    game = serializers.CharField()
    total = serializers.IntegerField(allow_null=True, help_text="The headline number, if any.")
    steps = StepSerializer(many=True, help_text="In order: the total can be followed from zero.")
    warnings = serializers.ListField(child=serializers.CharField())
    id = serializers.CharField(help_text="The saved result's id.")
    url = serializers.CharField(help_text="Its page, /r/{id}; GET /api/results/{id}/ for JSON.")


EXAMPLES = [
    OpenApiExample(
        "star-trek-missions: a final hand",
        request_only=True,
        value={"hand": ["Captain Jean-Luc Picard", "Commander William Riker", "Lieutenant Worf",
                        "Photon Torpedoes", "Bridge", "Away Team", "Time Distortion"]},
    ),
    OpenApiExample(
        "star-trek-missions: a hand with a fixed choice",
        request_only=True,
        value={"hand": ["Unidentified Ship", "Captain Jean-Luc Picard", "Lieutenant Worf",
                        "Photon Torpedoes", "Bridge", "Away Team", "Borg Cube"],
               "choices": {"Unidentified Ship": {"type": "captain", "lifeform": "human",
                                                 "affiliation": "federation",
                                                 "specialty": "command"},
                           "Borg Cube": {"blank": ["Bridge"]}}},
    ),
    OpenApiExample(
        "academy-credits: the end of a round",
        request_only=True,
        value={"players": [
                   {"name": "Ana", "in_round": True, "shielded": False, "marked": False,
                    "discards": ["Lura Thok", "Jay-Den Kraag"], "hand": "Jett Reno", "credits": 2},
                   {"name": "Ben", "in_round": True, "shielded": False, "marked": False,
                    "discards": ["Charles Vance"], "hand": "The Doctor", "credits": 1},
               ],
               "deck_count": 0},
    ),
    OpenApiExample(
        "star-realms-academy: a whole turn",
        request_only=True,
        value={
            "active": {"name": "Ana", "health": 15, "coins": 0,
                       "hand": ["Scout", "Scout", "Scout", "Viper", "Ram"], "in_play": [],
                       "bases": [], "combat": 0, "used": []},
            "opponent": {"name": "Ben", "health": 15, "coins": 0, "bases": []},
            "shop_row": ["Freighter", "Corvette", "The Hive", "Barter World", "Survey Ship"],
            "actions": [{"action": "play", "card": "Scout"}, {"action": "play", "card": "Viper"},
                        {"action": "attack", "target": "health", "amount": 1},
                        {"action": "end_turn"}],
        },
    ),
    OpenApiExample(
        "factions: the standings",
        request_only=True,
        value={
            "factions": [
                {"name": "amber-coast", "controller": "Ana",
                 "units": [{"name": "Harbour Captain", "alive": True}]},
                {"name": "ashen-peaks", "controller": "Ben",
                 "units": [{"name": "Peak Sentinel", "alive": False}]},
            ],
            "players": [{"name": "Ana", "hand": [], "lost_turns": 0},
                        {"name": "Ben", "hand": [], "lost_turns": 0}],
            "turn": "Ana",
        },
    ),
]

DESCRIPTION = """
Body: per game (API.md; examples below). Card names may be the exact name in any case or the
slug (in academy-credits also the value). The response's `steps` let a person follow the total
from zero; each game adds its own fields (star-trek-missions: `cards`, `choices`). The score is
saved: its `id` and `url` (the page `/r/{id}`) are in the response, and
`GET /api/results/{id}/` returns it again exactly.

**Errors.** 404 `unknown_game`; 404 `not_available` (Tableside does not score that game yet);
400 `malformed_request` (not JSON); 400 `invalid_input` (the body is not an object, a field is
missing or of the wrong type, or a card name that names no card: entry `unknown_card` with
`suggestions`); 400 for a hand or position that cannot exist, naming the contradiction.
"""


class ScoreApi(APIView):
    throttle_classes = [EvaluationRateThrottle]

    @extend_schema(
        summary="A step-by-step score breakdown",
        description=DESCRIPTION,
        request=OpenApiTypes.OBJECT,
        responses={
            200: ScoreResponseSerializer,
            400: OpenApiResponse(ErrorSerializer, description="`malformed_request`, "
                                 "`invalid_input` or an impossible hand or position."),
            404: OpenApiResponse(ErrorSerializer, description="`unknown_game` or "
                                 "`not_available`."),
        },
        examples=EXAMPLES,
    )
    def post(self, request, game: str):
        return run_game_service(
            request, game_slug=game, registry=scorers,
            unavailable="Tableside does not score {game} yet.",
        )
