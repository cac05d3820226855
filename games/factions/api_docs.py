"""What the API's schema says of this game: its paragraph of the rulings and score endpoints'
descriptions (Markdown) and its request examples. adjudicator/api.py and scoring/api.py gather them
from every game in GAMES."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample

from common.schema import codes as _codes
from games.factions import engine

RULING_DOCS = f"""
**factions.** Position and move as API.md fixes them (optional `turn_lost` and
`players[].faction`). Codes: legal {_codes(engine.LEGAL_CODES)}; illegal {_codes(engine.ILLEGAL_CODES)};
needs_information {_codes(engine.NEEDS_INFORMATION_CODES)}. `impossible_position` entries:
{_codes(engine.IMPOSSIBLE_CODES)}.
"""

SCORE_DOCS = """
**factions.** The table as API.md fixes it; the answer adds the table's `standings`.
"""

RULING_EXAMPLES = [
    OpenApiExample(
        "factions",
        request_only=True,
        value={
            "position": {
                "factions": [
                    {
                        "name": "amber-coast",
                        "controller": "Ana",
                        "units": [{"name": "Harbour Captain", "alive": True}],
                    },
                    {
                        "name": "ashen-peaks",
                        "controller": "Ben",
                        "units": [{"name": "Peak Sentinel", "alive": True}],
                    },
                ],
                "players": [
                    {
                        "name": "Ana",
                        "hand": [{"card": "Attack", "faction": "amber-coast"}],
                        "lost_turns": 0,
                    },
                    {
                        "name": "Ben",
                        "hand": [{"card": "Defence", "faction": "ashen-peaks"}],
                        "lost_turns": 0,
                    },
                ],
                "turn": "Ana",
            },
            "move": {
                "action": "play",
                "card": {"card": "Attack", "faction": "amber-coast"},
                "target_player": "Ben",
                "target_unit": {"faction": "ashen-peaks", "unit": "Peak Sentinel"},
            },
        },
    ),
]

SCORE_EXAMPLES = [
    OpenApiExample(
        "factions: the standings",
        request_only=True,
        value={
            "factions": [
                {
                    "name": "amber-coast",
                    "controller": "Ana",
                    "units": [{"name": "Harbour Captain", "alive": True}],
                },
                {
                    "name": "ashen-peaks",
                    "controller": "Ben",
                    "units": [{"name": "Peak Sentinel", "alive": False}],
                },
            ],
            "players": [
                {"name": "Ana", "hand": [], "lost_turns": 0},
                {"name": "Ben", "hand": [], "lost_turns": 0},
            ],
            "turn": "Ana",
        },
    ),
]
