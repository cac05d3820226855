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


class TablePlayerSerializer(serializers.Serializer):
    name = serializers.CharField()
    total = serializers.IntegerField()
    steps = StepSerializer(many=True, help_text="This player's own steps, from zero.")
    warnings = serializers.ListField(child=serializers.CharField())
    cards = serializers.ListField(child=serializers.DictField(),
                                  help_text='One per card in hand order: {"name", "points", '
                                            '"blanked", "blanked_reason"}.')
    choices = serializers.DictField(help_text="Every choice the scorer made or was given.")


class ScoreResponseSerializer(serializers.Serializer):
    game = serializers.CharField()
    total = serializers.IntegerField(allow_null=True, help_text="The headline number, if any.")
    steps = StepSerializer(many=True, help_text="In order: the total can be followed from zero.")
    warnings = serializers.ListField(child=serializers.CharField())
    players = TablePlayerSerializer(
        many=True, required=False,
        help_text="star-trek-missions, the whole table: one single-hand answer per player, with "
                  "its name, in seat order.")
    standings = serializers.ListField(
        child=serializers.DictField(), required=False,
        help_text='star-trek-missions, the whole table: [{"rank", "name", "total", "margin"}], '
                  "highest total first; academy-credits and factions: their own standings.")
    winners = serializers.ListField(
        child=serializers.CharField(), required=False,
        help_text="star-trek-missions, the whole table: every player with the highest total "
                  "(tied players share victory).")
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
        "star-trek-missions: the whole table at game end",
        request_only=True,
        description="Every player's final hand, scored as a single hand is, with the standings "
                    "and the winners. A player's `choices` are theirs alone.",
        value={"players": [
            {"name": "Ana", "hand": ["Lieutenant Worf", "Commander Kurn", "Ambassador K'Ehleyr",
                                     "Commander Sela", "Diplomatic Conference",
                                     "Photon Torpedoes", "Bridge"]},
            {"name": "Ben", "hand": ["Captain Jean-Luc Picard", "Minuet", "Tractor Beam",
                                     "Holodeck 2", "Commander Bruce Maddox",
                                     "Do Machines Have Rights?", "Enterprise Goes Haywire"]},
            {"name": "Cy", "hand": ["Unidentified Ship", "Commander Tomalak", "The Traveler",
                                    "Engine Room", "Daimon Bok", "Klingon Civil War",
                                    "Borg Cube"],
             "choices": {"Borg Cube": {"blank": []}}},
        ]},
    ),
    OpenApiExample(
        "star-trek-missions: the table's answer",
        response_only=True,
        status_codes=["200"],
        description="Shortened: each player's `steps` and `cards` are listed in full, as for a "
                    "single hand. A table has no single `total` (null) and no steps of its own.",
        value={
            "game": "star-trek-missions", "total": None, "steps": [], "warnings": [],
            "players": [
                {"name": "Ana", "total": 66,
                 "steps": [{"n": 1, "rule": "STM-7.2", "card": "Lieutenant Worf",
                            "giving": ["Photon Torpedoes"],
                            "detail": "4 for Photon Torpedoes (Combat)", "points": 4,
                            "running_total": 4}],
                 "warnings": [],
                 "cards": [{"name": "Lieutenant Worf", "points": 8, "blanked": False,
                            "blanked_reason": None}],
                 "choices": {}},
                {"name": "Ben", "total": 63, "steps": [], "warnings": [], "cards": [],
                 "choices": {}},
                {"name": "Cy", "total": 53, "steps": [], "warnings": [], "cards": [],
                 "choices": {"Unidentified Ship": {"type": "captain", "lifeform": "klingon",
                                                   "affiliation": "federation",
                                                   "specialty": "engineer"},
                             "Borg Cube": {"blank": []}}},
            ],
            "standings": [{"rank": 1, "name": "Ana", "total": 66, "margin": 0},
                          {"rank": 2, "name": "Ben", "total": 63, "margin": 3},
                          {"rank": 3, "name": "Cy", "total": 53, "margin": 13}],
            "winners": ["Ana"],
            "id": "b4tq2mxk7a", "url": "/r/b4tq2mxk7a",
        },
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

**Star Trek: Missions, the whole table.** `{"players": [{"name", "hand", "choices"}, …]}` (2 to
10 players, each name of its own, 1–40 characters) scores every player's hand exactly as the
single-hand body `{"hand", "choices"}` would: `players` holds one single-hand answer per player
(`name`, `total`, `steps`, `cards`, `choices`, `warnings`), in seat order; `standings` lists
`{"rank", "name", "total", "margin"}` highest total first (`margin`: points behind the winner;
tied players share a rank); `winners` names every player with the highest total (tied players
share victory, STM-9.4). The table's own `total` is null and its `steps` empty; its `warnings`
are the players' warnings, each after the player's name. A partial hand is scored as it stands,
with a warning. 400s: `invalid_player_count` (entry `too_few_players` / `too_many_players`);
`invalid_input` with entries `duplicate_player`, `invalid_name`, `required`, `unknown_field`,
`unknown_card`; `card_in_two_hands` (one entry per card found in a second hand, at that card's
path, with `card` and both `players`); `illegal_hand` (entries at `players[i].hand…` with the
`player`); `invalid_choice` (at `players[i].choices…`, with the `player`). A table whose cards are
in two hands is reported with every illegal hand too, under `card_in_two_hands`.

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
