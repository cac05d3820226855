"""POST /api/games/academy-credits/score/ against the shipped catalog: the end of a round, both
readings of the Charles Vance bonus, the credits target option, the match, and every error."""

import json

import pytest

from cards.models import GameOption
from results.models import SavedResult

pytestmark = pytest.mark.django_db

URL = "/api/games/academy-credits/score/"
SCORE_KEYS = {
    "game",
    "total",
    "steps",
    "warnings",
    "ended_by",
    "round_winners",
    "awards",
    "standings",
    "target",
    "match_winners",
    "next_starter",
    "options",
    "id",
    "url",
}


def post(api, data):
    return api.post(URL, data=json.dumps(data), content_type="application/json")


def scored(api, data):
    response = post(api, data)
    payload = response.json()
    assert response.status_code == 200, payload
    assert set(payload) == SCORE_KEYS
    return payload


def error(api, data, code):
    response = post(api, data)
    payload = response.json()
    assert response.status_code == 400, payload
    assert set(payload) == {"status", "code", "detail", "errors"} and payload["code"] == code
    return payload


EXAMPLE = {
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
}


def test_the_example_a_showdown_and_the_bonus(api, catalog):
    score = scored(api, EXAMPLE)
    assert score["game"] == "academy-credits"
    assert score["ended_by"] == "deck_out_showdown"
    assert score["round_winners"] == ["Ana"]
    assert score["awards"] == [
        {"player": "Ana", "credits": 1, "reason": "won the deck-out showdown"},
        {"player": "Ben", "credits": 1, "reason": "Charles Vance bonus"},
    ]
    assert score["total"] == 2 and score["target"] == 4
    assert score["standings"] == [
        {
            "rank": 1,
            "player": "Ana",
            "credits_before": 2,
            "awarded": 1,
            "credits": 3,
            "to_target": 1,
        },
        {
            "rank": 2,
            "player": "Ben",
            "credits_before": 1,
            "awarded": 1,
            "credits": 2,
            "to_target": 2,
        },
    ]
    assert score["match_winners"] == [] and score["next_starter"] == "Ana"
    assert score["options"] == {
        "credits_target": {"2": 4, "3": 5, "4": 6},
        "charles_vance_bonus": "literal",
    }
    step = score["steps"][1]
    assert step == {
        "n": 2,
        "rule": "AC-6.2",
        "card": "Jett Reno",
        "player": "Ana",
        "detail": "Ana reveals Jett Reno (7).",
        "points": 0,
        "running_total": 0,
    }
    assert score["steps"][-1]["running_total"] == 2
    assert api.get(f"/api/results/{score['id']}/").json() == score
    assert SavedResult.objects.get(id=score["id"]).kind == "score"


def test_last_cadet_standing_needs_no_cards_in_hand(api, catalog):
    score = scored(
        api,
        {
            "players": [
                {"name": "Ana", "discards": [1, 4]},
                {"name": "Ben", "in_round": False, "discards": ["charles-vance", "Lura Thok"]},
            ],
            "deck_count": 7,
        },
    )
    assert score["ended_by"] == "last_cadet_standing" and score["round_winners"] == ["Ana"]
    # Literal reading: Ben, out, still gains the bonus.
    assert [a["player"] for a in score["awards"]] == ["Ana", "Ben"]


def test_the_still_in_round_reading_from_the_request(api, catalog):
    data = {
        "players": [
            {"name": "Ana", "discards": [1, 4]},
            {"name": "Ben", "in_round": False, "discards": [0, 1]},
        ],
        "deck_count": 7,
        "options": {"charles_vance_bonus": "still_in_round"},
    }
    score = scored(api, data)
    assert [a["player"] for a in score["awards"]] == ["Ana"]
    assert score["options"]["charles_vance_bonus"] == "still_in_round"
    assert any('Reading "still in the round"' in step["detail"] for step in score["steps"])


def set_option(key: str, value) -> None:
    """As the admin changes an option: save() (which stamps updated_at, so services see it)."""
    option = GameOption.objects.get(game__slug="academy-credits", key=key)
    option.value = value
    option.save()


def test_the_games_option_rows_are_the_defaults(api, catalog):
    set_option("charles_vance_bonus", "still_in_round")
    set_option("credits_target", {"2": 3, "3": 5, "4": 6})
    score = scored(
        api,
        {
            "players": [
                {"name": "Ana", "discards": [1, 4], "credits": 2},
                {"name": "Ben", "in_round": False, "discards": [0, 1]},
            ],
            "deck_count": 7,
        },
    )
    assert score["options"] == {
        "credits_target": {"2": 3, "3": 5, "4": 6},
        "charles_vance_bonus": "still_in_round",
    }
    assert score["target"] == 3 and score["match_winners"] == ["Ana"]
    assert score["next_starter"] is None


def test_a_credits_target_override_and_the_match(api, catalog):
    data = {**EXAMPLE, "options": {"credits_target": {"2": 3}}}
    score = scored(api, data)
    assert score["target"] == 3 and score["match_winners"] == ["Ana"]
    assert score["options"]["credits_target"] == {"2": 3, "3": 5, "4": 6}
    assert any(
        step["rule"] == "AC-6.5" and "wins the match" in step["detail"] for step in score["steps"]
    )


def test_a_shared_win_and_the_next_starter(api, catalog):
    players = [
        {"name": "Ana", "hand": "Lura Thok", "discards": ["Jay-Den Kraag"]},
        {"name": "Ben", "hand": "Lura Thok", "discards": ["Jay-Den Kraag"]},
        {"name": "Cy", "hand": "Charles Vance"},
    ]
    score = scored(api, {"players": players, "deck_count": 0, "starter": "ana"})
    assert score["round_winners"] == ["Ana", "Ben"]
    assert score["next_starter"] == "Ben"
    unknown = scored(api, {"players": players, "deck_count": 0})
    assert unknown["next_starter"] is None


def test_a_showdown_without_a_card_is_invalid_input(api, catalog):
    payload = error(
        api,
        {"players": [{"name": "Ana", "hand": "Lura Thok"}, {"name": "Ben"}], "deck_count": 0},
        "invalid_input",
    )
    assert payload["errors"] == [
        {
            "path": "players[1].hand",
            "code": "required",
            "detail": "Ben is still in the deck-out showdown: give the card Ben reveals (AC-6.2).",
        }
    ]


@pytest.mark.parametrize(
    "data, code",
    [
        (
            {"players": [{"name": "Ana", "hand": 1}, {"name": "Ben", "hand": 2}], "deck_count": 3},
            "round_not_over",
        ),
        (
            {
                "players": [{"name": "Ana", "hand": 10}, {"name": "Ben", "hand": 10}],
                "deck_count": 0,
            },
            "too_many_copies",
        ),
        (
            {
                "players": [{"name": "Ana", "hand": 1, "credits": 4}, {"name": "Ben", "hand": 2}],
                "deck_count": 0,
            },
            "match_over",
        ),
        (
            {"players": [{"name": n, "hand": 1} for n in "ABCDE"], "deck_count": 0},
            "too_many_cadets",
        ),
        (
            {
                "players": [{"name": "Ana", "hand": 1}, {"name": "Ben", "hand": 2}],
                "deck_count": 0,
                "starter": "Zed",
            },
            "unknown_starter",
        ),
        (
            {
                "players": [
                    {"name": "Ana", "in_round": False, "discards": [1]},
                    {"name": "Ben", "in_round": False, "discards": [2]},
                ],
                "deck_count": 0,
            },
            "no_cadet_left",
        ),
    ],
)
def test_rounds_that_cannot_be_scored(api, catalog, data, code):
    payload = error(api, data, "impossible_position")
    assert payload["errors"][0]["code"] == code


def test_ac_6_4_an_eliminated_cadet_with_nothing_face_up_cannot_be_scored(api, catalog):
    payload = error(
        api,
        {
            "players": [{"name": "Ana", "hand": "Lura Thok"}, {"name": "Ben", "in_round": False}],
            "deck_count": 4,
        },
        "impossible_position",
    )
    assert payload["errors"] == [
        {
            "path": "players[1].discards",
            "code": "eliminated_without_discard",
            "detail": "Ben is out of the round but has no card face up: an eliminated cadet discards "
            "their card face up (AC-6.4), so at least that card is in front of Ben. Add it "
            "to Ben's cards in front.",
        }
    ]


def test_ac_6_5_a_match_already_over_has_the_rulings_wording(api, catalog):
    payload = error(
        api,
        {
            "players": [{"name": "Ana", "hand": 1, "credits": 4}, {"name": "Ben", "hand": 2}],
            "deck_count": 0,
        },
        "impossible_position",
    )
    assert payload["errors"] == [
        {
            "path": "players[0].credits",
            "code": "match_over",
            "detail": "Ana already has 4 credits, at or above the target of 4: the match is over "
            "(AC-6.5), so no round is played after it.",
        }
    ]


def test_invalid_input_by_path(api, catalog):
    payload = error(
        api,
        {
            "players": [{"name": "Ana", "hand": "Jet Reno"}],
            "deck_count": -1,
            "options": {"credits_target": {"2": 0}, "colour": 1},
            "turn": "Ana",
            "starter": 5,
        },
        "invalid_input",
    )
    by_path = {e["path"]: e for e in payload["errors"]}
    assert by_path["players[0].hand"]["suggestions"] == ["Jett Reno"]
    assert by_path["deck_count"]["code"] == "invalid_count"
    assert by_path["options.credits_target"]["code"] == "invalid_option"
    assert by_path["options.colour"]["code"] == "unknown_option"
    assert by_path["turn"]["code"] == "unknown_field"
    assert by_path["starter"]["code"] == "invalid_type"
    required = error(api, {}, "invalid_input")
    assert {e["path"] for e in required["errors"]} == {"players", "deck_count"}


def test_no_target_for_the_number_of_cadets(api, catalog):
    set_option("credits_target", {"2": 4, "4": 6})
    payload = error(
        api,
        {
            "players": [
                {"name": "Ana"},
                {"name": "Ben", "in_round": False},
                {"name": "Cy", "in_round": False},
            ],
            "deck_count": 3,
        },
        "invalid_input",
    )
    assert payload["errors"][0]["path"] == "options.credits_target"
    assert payload["errors"][0]["code"] == "invalid_option"


# --- AC-R12 (issue 21) ------------------------------------------------------------------------------

ANA = ["Lura Thok"] * 5 + ["Charles Vance"] * 2 + [2, 2, "Caleb Mir"]
BEN = [
    3,
    3,
    "Jay-Den Kraag",
    "Jay-Den Kraag",
    "Darem Reymi",
    "Darem Reymi",
    "The Doctor",
    "The Doctor",
    "Lura Thok",
    "Tarima Sadel",
]


def test_ac_r12_a_round_over_with_cards_in_the_deck_still_has_its_set_aside_card(api, catalog):
    # 21 cards shown and 1 in the deck: 22, and the set-aside card, never drawn from a deck that
    # still holds cards, makes 23.
    data = {
        "players": [
            {"name": "Ana", "discards": ANA, "hand": "Jett Reno"},
            {"name": "Ben", "in_round": False, "discards": BEN},
        ],
        "deck_count": 1,
    }
    payload = error(api, data, "impossible_position")
    assert payload["errors"] == [
        {
            "path": "deck_count",
            "code": "too_many_cards",
            "detail": "The round accounts for 23 cards (1 set aside, 1 in the deck, 1 in hands, 20 "
            "face up), but the deck has 22: while the deck holds cards the set-aside card "
            "has not been drawn, so it is still set aside (AC-2.1, AC-R12).",
        }
    ]
    # The legal neighbours: the deck empty (Nahla Ake set aside), and 22 shown with the deck
    # empty (a Darem Reymi drew the set-aside card, AC-5.3).
    assert scored(api, {**data, "deck_count": 0})["round_winners"] == ["Ana"]
    data["players"][0]["discards"] = ANA + ["Nahla Ake"]
    assert scored(api, {**data, "deck_count": 0})["round_winners"] == ["Ana"]


def test_ac_r12_tarima_sadel_face_up_means_out_at_the_end_of_a_round_too(api, catalog):
    data = {
        "players": [
            {"name": "Ana", "hand": "Jett Reno"},
            {"name": "Ben", "discards": ["Tarima Sadel"], "hand": "Lura Thok"},
        ],
        "deck_count": 0,
    }
    payload = error(api, data, "impossible_position")
    assert [(e["path"], e["code"]) for e in payload["errors"]] == [
        ("players[1].in_round", "eliminated_still_in")
    ]
    assert "(AC-R12)" in payload["detail"]
    out = {
        "players": [
            {"name": "Ana", "hand": "Jett Reno"},
            {"name": "Ben", "in_round": False, "discards": ["Tarima Sadel"]},
        ],
        "deck_count": 0,
    }
    assert scored(api, out)["round_winners"] == ["Ana"]
