"""What the API's schema says of this game: its paragraph of the rulings and score endpoints'
descriptions (Markdown) and its request examples. adjudicator/api.py and scoring/api.py gather them
from every game in GAMES."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample

from common.schema import codes as _codes
from games.star_trek_missions import engine

HAND = [
    "Captain Jean-Luc Picard",
    "Commander William Riker",
    "Lieutenant Worf",
    "Photon Torpedoes",
    "Bridge",
    "Away Team",
    "Borg Cube",
]
POSITION = {
    "hand": HAND,
    "discard_area": ["Time Distortion", "Tricorder", "Shields"],
    "galaxy_deck": 30,
    "mission_deck": 14,
}


RULING_DOCS = f"""
**star-trek-missions.** Position `{{"hand": [7 names], "discard_area": [names], "galaxy_deck": n,
"mission_deck": n, "extra_turn": false}}` (`galaxy_deck` and `mission_deck`, optional: the cards
left in each deck, needed only to rule a draw from that deck; `extra_turn`, optional: this turn
is the extra turn Time Distortion granted, STM-R7). Move `{{"action": "take_discard", "take": name, "discard":
[name]}}`, `{{"action": "draw_galaxy", "draw": name, "discard": [name]}}` or
`{{"action": "draw_missions", "draw": [name, name], "discard": [name, name]}}`.
Verdicts: `legal` (code `{engine.LEGAL_CODE}`; `outcome` holds the hand, discard area and deck
counts after the turn, `discard_counts`, `game_ends` with `game_ends_reason`, `extra_turn` with
`extra_turn_reason`) or `illegal`, codes: {_codes(engine.ILLEGAL_CODES)}; `alternatives` then lists
every legal take from the discard area and, for a draw, every legal discard given the card(s)
drawn; or `needs_information` (code `{engine.NEEDS_CODE}`): the move draws from a deck whose count
the position does not give, and `missing` names `position.galaxy_deck` or
`position.mission_deck`. A take from the discard area never needs the deck counts.
`impossible_position` entries: {_codes(engine.IMPOSSIBLE_CODES)}.

"""

RULING_EXAMPLES = [
    OpenApiExample(
        "star-trek-missions: take from the discard area",
        request_only=True,
        value={
            "position": POSITION,
            "move": {"action": "take_discard", "take": "Time Distortion", "discard": ["Borg Cube"]},
        },
    ),
    OpenApiExample(
        "star-trek-missions: take from the discard area, no deck counts",
        request_only=True,
        value={
            "position": {"hand": HAND, "discard_area": ["Time Distortion", "Tricorder"]},
            "move": {"action": "take_discard", "take": "Tricorder", "discard": ["Borg Cube"]},
        },
    ),
    OpenApiExample(
        "star-trek-missions: draw a Galaxy card",
        request_only=True,
        value={
            "position": POSITION,
            "move": {"action": "draw_galaxy", "draw": "Spock", "discard": ["Bridge"]},
        },
    ),
    OpenApiExample(
        "star-trek-missions: draw two Missions",
        request_only=True,
        value={
            "position": POSITION,
            "move": {
                "action": "draw_missions",
                "draw": ["Computer Virus", "Distress Call"],
                "discard": ["Away Team", "Borg Cube"],
            },
        },
    ),
    OpenApiExample(
        "star-trek-missions: an unknown card name",
        response_only=True,
        status_codes=["400"],
        value={
            "status": 400,
            "code": "invalid_input",
            "detail": "No card named 'Leiutenant Worf' in Star Trek: Missions.",
            "errors": [
                {
                    "path": "position.hand[2]",
                    "code": "unknown_card",
                    "detail": "No card named 'Leiutenant Worf' in Star Trek: Missions.",
                    "suggestions": ["Lieutenant Worf"],
                }
            ],
        },
    ),
    OpenApiExample(
        "star-trek-missions: an impossible position",
        response_only=True,
        status_codes=["400"],
        value={
            "status": 400,
            "code": "impossible_position",
            "detail": "Bridge is both in the hand and in the discard area; every card exists once.",
            "errors": [
                {
                    "path": "position.discard_area[0]",
                    "code": "card_in_two_places",
                    "detail": "Bridge is both in the hand and in the discard area; every "
                    "card exists once.",
                }
            ],
        },
    ),
]

SCORE_DOCS = """
**star-trek-missions.** A single hand `{"hand": [names], "choices": {…}}` answers with its `steps`
and adds `cards` (one per card in hand order: `{"name", "points", "blanked", "blanked_reason"}`)
and `choices` (every choice the scorer made or was given).

**Star Trek: Missions, the whole table.** `{"players": [{"name", "hand", "choices"}, …]}` (2 to
10 players, each name of its own, 1–40 characters) scores every player's hand exactly as the
single-hand body `{"hand", "choices"}` would: `players` holds one single-hand answer per player
(`name`, `total`, `steps`, `cards`, `choices`, `warnings`), in seat order; `standings` lists
`{"rank", "name", "total", "margin"}` highest total first (`margin`: points behind the winner;
tied players share a rank); `winners` names every player with the highest total (tied players
share victory, STM-9.4). The table's own `total` is null and its `steps` empty; its `warnings`
are the players' warnings, each after the player's name. A partial hand is scored as it stands,
with a warning. 400s: `invalid_player_count` (entry `too_few_players` / `too_many_players`);
`impossible_position` (entry `game_cannot_end`: nine or more players never finish a game,
STM-R16);
`invalid_input` with entries `duplicate_player`, `invalid_name`, `required`, `unknown_field`,
`unknown_card`; `card_in_two_hands` (one entry per card found in a second hand, at that card's
path, with `card` and both `players`); `illegal_hand` (entries at `players[i].hand…` with the
`player`); `invalid_choice` (at `players[i].choices…`, with the `player`). A table whose cards are
in two hands is reported with every illegal hand too, under `card_in_two_hands`.

"""

SCORE_EXAMPLES = [
    OpenApiExample(
        "star-trek-missions: a final hand",
        request_only=True,
        value={
            "hand": [
                "Captain Jean-Luc Picard",
                "Commander William Riker",
                "Lieutenant Worf",
                "Photon Torpedoes",
                "Bridge",
                "Away Team",
                "Time Distortion",
            ]
        },
    ),
    OpenApiExample(
        "star-trek-missions: a hand with a fixed choice",
        request_only=True,
        value={
            "hand": [
                "Unidentified Ship",
                "Captain Jean-Luc Picard",
                "Lieutenant Worf",
                "Photon Torpedoes",
                "Bridge",
                "Away Team",
                "Borg Cube",
            ],
            "choices": {
                "Unidentified Ship": {
                    "type": "captain",
                    "lifeform": "human",
                    "affiliation": "federation",
                    "specialty": "command",
                },
                "Borg Cube": {"blank": ["Bridge"]},
            },
        },
    ),
    OpenApiExample(
        "star-trek-missions: the whole table at game end",
        request_only=True,
        description="Every player's final hand, scored as a single hand is, with the standings "
        "and the winners. A player's `choices` are theirs alone.",
        value={
            "players": [
                {
                    "name": "Ana",
                    "hand": [
                        "Lieutenant Worf",
                        "Commander Kurn",
                        "Ambassador K'Ehleyr",
                        "Commander Sela",
                        "Diplomatic Conference",
                        "Photon Torpedoes",
                        "Bridge",
                    ],
                },
                {
                    "name": "Ben",
                    "hand": [
                        "Captain Jean-Luc Picard",
                        "Minuet",
                        "Tractor Beam",
                        "Holodeck 2",
                        "Commander Bruce Maddox",
                        "Do Machines Have Rights?",
                        "Enterprise Goes Haywire",
                    ],
                },
                {
                    "name": "Cy",
                    "hand": [
                        "Unidentified Ship",
                        "Commander Tomalak",
                        "The Traveler",
                        "Engine Room",
                        "Daimon Bok",
                        "Klingon Civil War",
                        "Borg Cube",
                    ],
                    "choices": {"Borg Cube": {"blank": []}},
                },
            ]
        },
    ),
    OpenApiExample(
        "star-trek-missions: the table's answer",
        response_only=True,
        status_codes=["200"],
        description="Shortened: each player's `steps` and `cards` are listed in full, as for a "
        "single hand. A table has no single `total` (null) and no steps of its own.",
        value={
            "game": "star-trek-missions",
            "total": None,
            "steps": [],
            "warnings": [],
            "players": [
                {
                    "name": "Ana",
                    "total": 66,
                    "steps": [
                        {
                            "n": 1,
                            "rule": "STM-7.2",
                            "card": "Lieutenant Worf",
                            "giving": ["Photon Torpedoes"],
                            "detail": "4 for Photon Torpedoes (Combat)",
                            "points": 4,
                            "running_total": 4,
                        }
                    ],
                    "warnings": [],
                    "cards": [
                        {
                            "name": "Lieutenant Worf",
                            "points": 8,
                            "blanked": False,
                            "blanked_reason": None,
                        }
                    ],
                    "choices": {},
                },
                {
                    "name": "Ben",
                    "total": 63,
                    "steps": [],
                    "warnings": [],
                    "cards": [],
                    "choices": {},
                },
                {
                    "name": "Cy",
                    "total": 53,
                    "steps": [],
                    "warnings": [],
                    "cards": [],
                    "choices": {
                        "Unidentified Ship": {
                            "type": "captain",
                            "lifeform": "klingon",
                            "affiliation": "federation",
                            "specialty": "engineer",
                        },
                        "Borg Cube": {"blank": []},
                    },
                },
            ],
            "standings": [
                {"rank": 1, "name": "Ana", "total": 66, "margin": 0},
                {"rank": 2, "name": "Ben", "total": 63, "margin": 3},
                {"rank": 3, "name": "Cy", "total": 53, "margin": 13},
            ],
            "winners": ["Ana"],
            "id": "b4tq2mxk7a",
            "url": "/r/b4tq2mxk7a",
        },
    ),
]
