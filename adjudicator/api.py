"""POST /api/games/{game}/rulings/: a legality ruling on one move in one position.

The view only finds the game and its ruling service (adjudicator.registry) and passes the body
on; each game's service validates the body, asks its engine and saves the result.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.views import APIView

from adjudicator.engines import academy_credits as ac
from adjudicator.engines import factions as fac
from adjudicator.engines import star_realms_academy as sra
from adjudicator.engines import star_trek_missions as stm
from adjudicator.registry import rulers
from cards.api.serializers import ErrorSerializer
from common.throttling import EvaluationRateThrottle
from results.api import run_game_service


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


STM_HAND = [
    "Captain Jean-Luc Picard", "Commander William Riker", "Lieutenant Worf", "Photon Torpedoes",
    "Bridge", "Away Team", "Borg Cube",
]
STM_POSITION = {
    "hand": STM_HAND,
    "discard_area": ["Time Distortion", "Tricorder", "Shields"],
    "galaxy_deck": 30,
    "mission_deck": 14,
}

EXAMPLES = [
    OpenApiExample(
        "star-trek-missions: take from the discard area",
        request_only=True,
        value={"position": STM_POSITION,
               "move": {"action": "take_discard", "take": "Time Distortion",
                        "discard": ["Borg Cube"]}},
    ),
    OpenApiExample(
        "star-trek-missions: draw a Galaxy card",
        request_only=True,
        value={"position": STM_POSITION,
               "move": {"action": "draw_galaxy", "draw": "Spock", "discard": ["Bridge"]}},
    ),
    OpenApiExample(
        "star-trek-missions: draw two Missions",
        request_only=True,
        value={"position": STM_POSITION,
               "move": {"action": "draw_missions", "draw": ["Computer Virus", "Distress Call"],
                        "discard": ["Away Team", "Borg Cube"]}},
    ),
    OpenApiExample(
        "academy-credits",
        request_only=True,
        value={
            "position": {
                "players": [
                    {"name": "Ana", "in_round": True, "shielded": False, "marked": False,
                     "discards": ["Lura Thok"], "hand": None, "credits": 0},
                    {"name": "Ben", "in_round": True, "shielded": False, "marked": False,
                     "discards": [], "hand": None, "credits": 1},
                ],
                "turn": "Ana", "hand": ["Nahla Ake", "Jett Reno"], "deck_count": 9, "options": {},
            },
            "move": {"play": "Jett Reno", "target": "Ben", "guess": None, "confirm": False},
        },
    ),
    OpenApiExample(
        "star-realms-academy",
        request_only=True,
        value={
            "position": {
                "active": {"name": "Ana", "health": 15, "coins": 0,
                           "hand": ["Scout", "Scout", "Scout", "Viper", "Ram"], "in_play": [],
                           "bases": [], "combat": 0, "used": []},
                "opponent": {"name": "Ben", "health": 15, "coins": 0, "bases": []},
                "shop_row": ["Freighter", "Corvette", "The Hive", "Barter World", "Survey Ship"],
            },
            "move": {"action": "play", "card": "Ram"},
        },
    ),
    OpenApiExample(
        "factions",
        request_only=True,
        value={
            "position": {
                "factions": [
                    {"name": "amber-coast", "controller": "Ana",
                     "units": [{"name": "Harbour Captain", "alive": True}]},
                    {"name": "ashen-peaks", "controller": "Ben",
                     "units": [{"name": "Peak Sentinel", "alive": True}]},
                ],
                "players": [
                    {"name": "Ana", "hand": [{"card": "Attack", "faction": "amber-coast"}],
                     "lost_turns": 0},
                    {"name": "Ben", "hand": [{"card": "Defence", "faction": "ashen-peaks"}],
                     "lost_turns": 0},
                ],
                "turn": "Ana",
            },
            "move": {"action": "play", "card": {"card": "Attack", "faction": "amber-coast"},
                     "target_player": "Ben",
                     "target_unit": {"faction": "ashen-peaks", "unit": "Peak Sentinel"}},
        },
    ),
]


EXAMPLES += [
    OpenApiExample(
        "An unknown card name",
        response_only=True,
        status_codes=["400"],
        value={"status": 400, "code": "invalid_input",
               "detail": "No card named 'Leiutenant Worf' in Star Trek: Missions.",
               "errors": [{"path": "position.hand[2]", "code": "unknown_card",
                           "detail": "No card named 'Leiutenant Worf' in Star Trek: Missions.",
                           "suggestions": ["Lieutenant Worf"]}]},
    ),
    OpenApiExample(
        "An impossible position",
        response_only=True,
        status_codes=["400"],
        value={"status": 400, "code": "impossible_position",
               "detail": "Bridge is both in the hand and in the discard area; every card exists "
                         "once.",
               "errors": [{"path": "position.discard_area[0]", "code": "card_in_two_places",
                           "detail": "Bridge is both in the hand and in the discard area; every "
                                     "card exists once."}]},
    ),
    OpenApiExample(
        "No rulings for this game yet",
        response_only=True,
        status_codes=["404"],
        value={"status": 404, "code": "not_available",
               "detail": "Tableside does not give rulings for Factions yet.",
               "errors": [{"path": "game", "code": "not_available",
                           "detail": "Tableside does not give rulings for Factions yet.",
                           "suggestions": ["star-trek-missions"]}]},
    ),
]


def _codes(codes) -> str:
    return ", ".join(f"`{code}`" for code in codes)


DESCRIPTION = f"""
Body: `{{"position": …, "move": …}}`, per game (API.md; examples below). Card names may be the
exact name in any case or the slug (in academy-credits also the value). The ruling is saved: its
`id` and `url` (the page `/r/{{id}}`) are in the response, and `GET /api/results/{{id}}/` returns
it again exactly.

**Errors.** 404 `unknown_game`; 404 `not_available` (Tableside gives no rulings for that game
yet); 400 `malformed_request` (not JSON); 400 `invalid_input` (the body is not an object, a
field is missing or of the wrong type, an unknown field, or a card name that names no card:
entries `unknown_card` with `suggestions`, `invalid_card`, `required`, `invalid_type`,
`unknown_field`, `invalid_action`, `invalid_count`, `too_many`); 400 `impossible_position` (the
position cannot exist; each entry names one contradiction).

**star-trek-missions.** Position `{{"hand": [7 names], "discard_area": [names], "galaxy_deck": n,
"mission_deck": n, "extra_turn": false}}` (`extra_turn`, optional: this turn is the extra turn
Time Distortion granted, STM-R7). Move `{{"action": "take_discard", "take": name, "discard":
[name]}}`, `{{"action": "draw_galaxy", "draw": name, "discard": [name]}}` or
`{{"action": "draw_missions", "draw": [name, name], "discard": [name, name]}}`.
Verdicts: `legal` (code `{stm.LEGAL_CODE}`; `outcome` holds the hand, discard area and deck
counts after the turn, `discard_counts`, `game_ends` with `game_ends_reason`, `extra_turn` with
`extra_turn_reason`) or `illegal`, codes: {_codes(stm.ILLEGAL_CODES)}; `alternatives` then lists
every legal take from the discard area and, for a draw, every legal discard given the card(s)
drawn. Never `needs_information`: the position holds every fact a turn needs.
`impossible_position` entries: {_codes(stm.IMPOSSIBLE_CODES)}.

**academy-credits.** Position and move as API.md fixes them (`options` may override the game's
options; `deck_count` may be left out: an illegal play is ruled without it, a legal one answers
`deck_count_required` unless it ends the round whatever the deck holds). Codes: legal {_codes(ac.LEGAL_CODES)}; illegal {_codes(ac.ILLEGAL_CODES)};
needs_information {_codes(ac.NEEDS_INFORMATION_CODES)}. `impossible_position` entries:
{_codes(ac.IMPOSSIBLE_CODES)}.

**star-realms-academy.** Position and move as API.md fixes them (optional `deck`, `discard_pile`
and `drawn` counts; `refill` on a buy). Codes: legal {_codes(sra.LEGAL_CODES)}; illegal
{_codes(sra.ILLEGAL_CODES)}; needs_information `{sra.NEEDS_INFORMATION_CODE}` (each `missing`
entry names the card, the field and its admin page). `impossible_position` entries:
{_codes(sra.IMPOSSIBLE_CODES)}.

**factions.** Position and move as API.md fixes them (optional `turn_lost` and
`players[].faction`). Codes: legal {_codes(fac.LEGAL_CODES)}; illegal {_codes(fac.ILLEGAL_CODES)};
needs_information {_codes(fac.NEEDS_INFORMATION_CODES)}. `impossible_position` entries:
{_codes(fac.IMPOSSIBLE_CODES)}.
"""


class RulingApi(APIView):
    throttle_classes = [EvaluationRateThrottle]

    @extend_schema(
        summary="A ruling on one move in one position",
        description=DESCRIPTION,
        request=OpenApiTypes.OBJECT,
        responses={
            200: RulingResponseSerializer,
            400: OpenApiResponse(ErrorSerializer, description="`malformed_request`, "
                                 "`invalid_input` or `impossible_position`."),
            404: OpenApiResponse(ErrorSerializer, description="`unknown_game` or "
                                 "`not_available`."),
        },
        examples=EXAMPLES,
    )
    def post(self, request, game: str):
        return run_game_service(
            request, game_slug=game, registry=rulers,
            unavailable="Tableside does not give rulings for {game} yet.",
        )
