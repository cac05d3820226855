"""What the API's schema says of this game: its paragraph of the rulings and score endpoints'
descriptions (Markdown) and its request examples. adjudicator/api.py and scoring/api.py gather them
from every game in GAMES."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample

from common.schema import codes as _codes
from games.star_realms_academy import engine

RULING_DOCS = f"""
**star-realms-academy.** Position and move as API.md fixes them (optional `deck`, `discard_pile`
and `drawn` counts; `refill` on a buy). Codes: legal {_codes(engine.LEGAL_CODES)}; illegal
{_codes(engine.ILLEGAL_CODES)}; needs_information `{engine.NEEDS_INFORMATION_CODE}` (each `missing`
entry names the card, the field and its admin page; with rule {engine.POOL_RULE} for every move when
only abilities of unknown value could explain the Combat pool), `{engine.COUNTS_CODE}` (a card played
as drawn when the draws may have taken none: `missing` names `active.deck` and
`active.discard_pile`, rule {engine.DRAW_RULE}) and `{engine.REFILL_CODE}` (a card bought that a space
refilled unnamed may hold: `missing` names `actions[i].refill`, rule {engine.REFILL_RULE}). A draw
the position does not fix ({engine.DRAW_RULE}) is legal, its count given as `{{"at_least",
"at_most"}}` instead of a number (`drawn`, `draws`, a Draw `gained`). `impossible_position` entries:
{_codes(engine.IMPOSSIBLE_CODES)}.

"""

RULING_EXAMPLES = [
    OpenApiExample(
        "star-realms-academy",
        request_only=True,
        value={
            "position": {
                "active": {
                    "name": "Ana",
                    "health": 15,
                    "coins": 0,
                    "hand": ["Scout", "Scout", "Scout", "Viper", "Ram"],
                    "in_play": [],
                    "bases": [],
                    "combat": 0,
                    "used": [],
                },
                "opponent": {"name": "Ben", "health": 15, "coins": 0, "bases": []},
                "shop_row": ["Freighter", "Corvette", "The Hive", "Barter World", "Survey Ship"],
            },
            "move": {"action": "play", "card": "Ram"},
        },
    ),
]

SCORE_EXAMPLES = [
    OpenApiExample(
        "star-realms-academy: a whole turn",
        request_only=True,
        value={
            "active": {
                "name": "Ana",
                "health": 15,
                "coins": 0,
                "hand": ["Scout", "Scout", "Scout", "Viper", "Ram"],
                "in_play": [],
                "bases": [],
                "combat": 0,
                "used": [],
            },
            "opponent": {"name": "Ben", "health": 15, "coins": 0, "bases": []},
            "shop_row": ["Freighter", "Corvette", "The Hive", "Barter World", "Survey Ship"],
            "actions": [
                {"action": "play", "card": "Scout"},
                {"action": "play", "card": "Viper"},
                {"action": "attack", "target": "health", "amount": 1},
                {"action": "end_turn"},
            ],
        },
    ),
]
