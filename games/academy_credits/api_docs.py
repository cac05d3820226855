"""What the API's schema says of this game: its paragraph of the rulings and score endpoints'
descriptions (Markdown) and its request examples. adjudicator/api.py and scoring/api.py gather them
from every game in GAMES."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample

from common.schema import codes as _codes
from games.academy_credits import engine

RULING_DOCS = f"""
**academy-credits.** Position and move as API.md fixes them (`options` may override the game's
options; `deck_count` may be left out: an illegal play is ruled without it, a legal one answers
`deck_count_required` unless it ends the round whatever the deck holds). Codes: legal {_codes(engine.LEGAL_CODES)}; illegal {_codes(engine.ILLEGAL_CODES)};
needs_information {_codes(engine.NEEDS_INFORMATION_CODES)}. `impossible_position` entries:
{_codes(engine.IMPOSSIBLE_CODES)}. A card may also be named by its value, as 7 or "7".

"""

SCORE_DOCS = """
**academy-credits.** The end of a round as API.md fixes it (each cadet's `credits` before it);
a card may also be named by its value, as 7 or "7". The answer adds the match's `standings`
(`{"rank", "player", "credits_before", "awarded", "credits", "to_target"}`, most credits first).

"""

RULING_EXAMPLES = [
    OpenApiExample(
        "academy-credits",
        request_only=True,
        value={
            "position": {
                "players": [
                    {
                        "name": "Ana",
                        "in_round": True,
                        "shielded": False,
                        "marked": False,
                        "discards": ["Lura Thok"],
                        "hand": None,
                        "credits": 0,
                    },
                    {
                        "name": "Ben",
                        "in_round": True,
                        "shielded": False,
                        "marked": False,
                        "discards": [],
                        "hand": None,
                        "credits": 1,
                    },
                ],
                "turn": "Ana",
                "hand": ["Nahla Ake", "Jett Reno"],
                "deck_count": 9,
                "options": {},
            },
            "move": {"play": "Jett Reno", "target": "Ben", "guess": None, "confirm": False},
        },
    ),
]

SCORE_EXAMPLES = [
    OpenApiExample(
        "academy-credits: the end of a round",
        request_only=True,
        value={
            "players": [
                {
                    "name": "Ana",
                    "in_round": True,
                    "shielded": False,
                    "marked": False,
                    "discards": ["Lura Thok", "Jay-Den Kraag"],
                    "hand": "Jett Reno",
                    "credits": 2,
                },
                {
                    "name": "Ben",
                    "in_round": True,
                    "shielded": False,
                    "marked": False,
                    "discards": ["Charles Vance"],
                    "hand": "The Doctor",
                    "credits": 1,
                },
            ],
            "deck_count": 0,
        },
    ),
]
