"""POST /api/games/academy-credits/rulings/ against the shipped catalog: every verdict, the card
and cadet names, the options, and every error (invalid input and impossible positions)."""

import copy
import json

import pytest

from cards.models import Card
from results.models import SavedResult

pytestmark = pytest.mark.django_db

URL = "/api/games/academy-credits/rulings/"
RULING_KEYS = {
    "game",
    "verdict",
    "code",
    "reason",
    "rule",
    "checks",
    "alternatives",
    "outcome",
    "missing",
    "warnings",
    "id",
    "url",
}


def table(*players, turn="Ana", hand=("Nahla Ake", "Jett Reno"), deck_count=None, **extra):
    players = [p if isinstance(p, dict) else {"name": p} for p in (players or ("Ana", "Ben"))]
    if deck_count is None:  # every card not shown is in the deck
        shown = len(hand) + sum(1 for p in players if p.get("in_round", True) and p["name"] != turn)
        shown += sum(len(p.get("discards", [])) for p in players)
        deck_count = 21 - shown
    return {"players": players, "turn": turn, "hand": list(hand), "deck_count": deck_count, **extra}


def body(move, position=None):
    return {"position": position or table(), "move": move}


def post(api, data):
    return api.post(URL, data=json.dumps(data), content_type="application/json")


def ruled(api, data, verdict=None, code=None):
    response = post(api, data)
    payload = response.json()
    assert response.status_code == 200, payload
    assert set(payload) == RULING_KEYS
    if verdict:
        assert (payload["verdict"], payload["code"]) == (verdict, code), payload["reason"]
    return payload


def error(api, data, code, status=400):
    response = post(api, data)
    payload = response.json()
    assert response.status_code == status, payload
    assert set(payload) == {"status", "code", "detail", "errors"}
    assert payload["code"] == code and payload["status"] == status
    return payload


# --- Verdicts ------------------------------------------------------------------------------------


def test_the_example_of_api_md_must_play_nahla_ake(api, catalog):
    ruling = ruled(
        api,
        body({"play": "Jett Reno", "target": "Ben", "guess": None, "confirm": False}),
        "illegal",
        "must_play_nahla_ake",
    )
    assert ruling["game"] == "academy-credits"
    assert ruling["reason"] == (
        "The hand holds Nahla Ake (9) with Jett Reno (7), so Nahla Ake must be played."
    )
    assert ruling["rule"] == {
        "id": "AC-4.1",
        "title": "Nahla Ake must be played",
        "text": "Playing Jett Reno (7) or Darem Reymi (5) while you also hold Nahla Ake (9). You "
        "must play Nahla Ake.",
        "url": "/games/academy-credits/#rule-AC-4.1",
    }
    assert ruling["checks"][-1] == {"rule": "AC-4.1", "passed": False, "detail": ruling["reason"]}
    assert ruling["alternatives"] == [
        {"play": "Nahla Ake", "target": None, "guess": None, "confirm": False}
    ]
    assert ruling["outcome"] is None and ruling["missing"] == []
    assert ruling["url"] == f"/r/{ruling['id']}"
    saved = api.get(f"/api/results/{ruling['id']}/")
    assert saved.json() == ruling
    stored = SavedResult.objects.get(id=ruling["id"])
    assert stored.kind == "ruling" and stored.request["move"]["play"] == "Jett Reno"


def test_a_legal_play_with_its_outcome_and_options(api, catalog):
    ruling = ruled(api, body({"play": "nahla ake"}), "legal", "legal_play")
    assert ruling["rule"]["id"] == "AC-R4"
    assert ruling["reason"] == "Legal: Ana plays Nahla Ake (9). Nahla Ake has no effect (AC-R4)."
    outcome = ruling["outcome"]
    assert outcome["next_turn"] == "Ben" and outcome["round_ends"] is False
    assert outcome["options"] == {
        "charles_vance_bonus": "literal",
        "credits_target": {"2": 4, "3": 5, "4": 6},
    }
    assert ruling["warnings"] == []


@pytest.mark.parametrize("name", ["Lura Thok", "LURA THOK", "lura-thok", 1, "1"])
def test_cards_by_name_any_case_slug_or_value(api, catalog, name):
    position = table("Ana", "Ben", hand=[name, "jay-den-kraag"])
    ruling = ruled(
        api, body({"play": name, "target": "ben", "guess": 7}, position), "legal", "legal_play"
    )
    assert ruling["outcome"]["guess"] == "Jett Reno" and ruling["outcome"]["target"] == "Ben"


def test_a_conditional_outcome_when_the_hand_is_unknown(api, catalog):
    position = table("Ana", "Ben", "Cy", hand=["Lura Thok", "Jay-Den Kraag"])
    ruling = ruled(
        api,
        body({"play": "Lura Thok", "target": "Ben", "guess": "Tarima Sadel"}, position),
        "legal",
        "legal_play",
    )
    cases = ruling["outcome"]["cases"]
    assert [case["if"] for case in cases] == [
        "if Ben holds any other card (not Tarima Sadel (10))",
        "if Ben holds Tarima Sadel (10)",
    ]
    assert cases[1]["eliminated"] == ["Ben"]


def test_needs_information_names_what_is_missing(api, catalog):
    position = table("Ana", "Ben", "Cy", hand=["Lura Thok", "Jay-Den Kraag"])
    needs_target = ruled(
        api, body({"play": "Lura Thok"}, position), "needs_information", "target_required"
    )
    assert needs_target["missing"] == [
        {
            "path": "move.target",
            "choices": ["Ben", "Cy"],
            "detail": "Lura Thok (1) needs a target: Ben and Cy can be targeted; say which.",
        }
    ]
    assert needs_target["outcome"] is None and needs_target["alternatives"] == []
    needs_guess = ruled(
        api,
        body({"play": "Lura Thok", "target": "Cy"}, position),
        "needs_information",
        "guess_required",
    )
    assert needs_guess["missing"][0]["path"] == "move.guess"


def test_a_card_with_an_unknown_effect_needs_information(api, catalog):
    card = Card.objects.get(game__slug="academy-credits", slug="jett-reno")
    card.field_provenance = {**card.field_provenance, "effect": "unknown"}
    card.attributes = {**card.attributes, "effect": None}
    card.save()
    ruling = ruled(
        api,
        body({"play": "Jett Reno", "target": "Ben"}, table(hand=["Jett Reno", "Lura Thok"])),
        "needs_information",
        "effect_unknown",
    )
    assert "does not know what Jett Reno does" in ruling["reason"]


@pytest.mark.parametrize(
    "move, position, code",
    [
        (
            {"play": "Jett Reno", "target": "Ben"},
            table(hand=["Lura Thok", "Jay-Den Kraag"]),
            "not_in_hand",
        ),
        (
            {"play": "Jett Reno", "target": "Ana"},
            table(hand=["Jett Reno", "Lura Thok"]),
            "target_self",
        ),
        (
            {"play": "Jett Reno", "target": "Cy"},
            table(
                "Ana",
                "Ben",
                {"name": "Cy", "in_round": False, "discards": ["Lura Thok"]},
                hand=["Jett Reno", "Lura Thok"],
            ),
            "target_eliminated",
        ),
        (
            {"play": "Jett Reno", "target": "Ben"},
            table(
                "Ana",
                {"name": "Ben", "shielded": True, "discards": ["Jay-Den Kraag"]},
                "Cy",
                hand=["Jett Reno", "Lura Thok"],
            ),
            "target_protected",
        ),
        (
            {"play": "Jett Reno", "target": "Cy"},
            table(
                {"name": "Ana", "discards": ["Caleb Mir"]},
                {"name": "Ben", "marked": True},
                "Cy",
                hand=["Jett Reno", "Lura Thok"],
            ),
            "must_target_marked",
        ),
        (
            {"play": "Lura Thok", "target": "Ben", "guess": "1"},
            table(hand=["Lura Thok", "Jett Reno"]),
            "cannot_name_lura_thok",
        ),
    ],
)
def test_every_illegal_code_through_the_api(api, catalog, move, position, code):
    ruling = ruled(api, body(move, position), "illegal", code)
    assert ruling["alternatives"], "an illegal play lists the legal plays"
    assert ruling["outcome"] is None
    assert ruling["checks"][-1]["passed"] is False


def test_the_special_rules_through_the_api(api, catalog):
    protected = table(
        "Ana",
        {"name": "Ben", "shielded": True, "discards": ["Jay-Den Kraag"]},
        hand=["Darem Reymi", "Lura Thok"],
    )
    darem = ruled(api, body({"play": "Darem Reymi"}, protected), "legal", "legal_play")
    assert darem["rule"]["id"] == "AC-R5" and darem["outcome"]["target"] == "Ana"
    nobody = ruled(api, body({"play": "Lura Thok"}, protected), "legal", "no_effect_no_target")
    assert nobody["rule"]["id"] == "AC-R5"
    doctor = ruled(
        api,
        body({"play": "The Doctor"}, table(hand=["The Doctor", "Lura Thok"], deck_count=0)),
        "legal",
        "no_effect_empty_deck",
    )
    assert doctor["rule"]["id"] == "AC-5.4" and doctor["outcome"]["round_ends"] is True
    tarima = ruled(
        api,
        body({"play": "Tarima Sadel"}, table(hand=["Tarima Sadel", "Lura Thok"])),
        "legal",
        "eliminates_player",
    )
    assert tarima["warnings"] and "confirm" in tarima["warnings"][0]
    confirmed = ruled(
        api,
        body({"play": 10, "confirm": True}, table(hand=["Tarima Sadel", "Lura Thok"])),
        "legal",
        "eliminates_player",
    )
    assert confirmed["warnings"] == []
    empty = ruled(
        api,
        body(
            {"play": "Darem Reymi", "target": "Ben"},
            table(
                "Ana",
                {"name": "Ben", "hand": "Jett Reno"},
                hand=["Darem Reymi", "Lura Thok"],
                deck_count=0,
            ),
        ),
        "legal",
        "legal_play",
    )
    assert empty["rule"]["id"] == "AC-5.3" and empty["outcome"]["set_aside_drawn"] is True


def test_a_provisional_effect_is_a_warning(api, catalog):
    ruling = ruled(
        api, body({"play": 2, "target": "Ben"}, table(hand=[2, "Lura Thok"])), "legal", "legal_play"
    )
    assert ruling["warnings"] == [
        "Unnamed card (2)'s effect is provisional: "
        + Card.objects.get(game__slug="academy-credits", slug="unnamed-2").provenance_note
    ]


def test_ac_r6_the_marked_player_must_aim_darem_reymi_at_themself(api, catalog):
    # Issue 11: Ana, to move, is the marked cadet; Darem Reymi may target its player, so aimed at
    # another cadet it must target Ana. Lura Thok cannot target its player: its target is free.
    position = table(
        {"name": "Ana", "marked": True},
        {"name": "Ben", "discards": ["Caleb Mir"]},
        "Cy",
        hand=["Darem Reymi", "Lura Thok"],
    )
    ruling = ruled(
        api,
        body({"play": "Darem Reymi", "target": "Cy"}, position),
        "illegal",
        "must_target_marked",
    )
    assert ruling["rule"]["id"] == "AC-R6"
    assert ruling["rule"]["text"].startswith("Caleb Mir's mark. Any cadet still in the round")
    assert ruling["reason"].endswith("so Darem Reymi must target Ana, not Cy.")
    assert [a["target"] for a in ruling["alternatives"] if a["play"] == "Darem Reymi"] == ["Ana"]
    assert {a["target"] for a in ruling["alternatives"] if a["play"] == "Lura Thok"} == {
        "Ben",
        "Cy",
    }
    ruled(api, body({"play": "Darem Reymi", "target": "Ana"}, position), "legal", "legal_play")
    ruled(
        api,
        body({"play": "Lura Thok", "target": "Cy", "guess": "Jett Reno"}, position),
        "legal",
        "legal_play",
    )


def test_ac_6_1_the_deck_count_is_asked_for_only_when_the_answer_needs_it(api, catalog):
    # Issue 15: an illegal play is ruled without the deck count…
    position = table(hand=["Nahla Ake", "Jett Reno"])
    del position["deck_count"]
    illegal = ruled(
        api,
        body({"play": "Jett Reno", "target": "Ben"}, position),
        "illegal",
        "must_play_nahla_ake",
    )
    assert illegal["alternatives"] == [
        {"play": "Nahla Ake", "target": None, "guess": None, "confirm": False}
    ]
    # …null is the same as leaving it out…
    ruled(
        api,
        body({"play": "Jett Reno", "target": "Ben"}, {**position, "deck_count": None}),
        "illegal",
        "must_play_nahla_ake",
    )
    # …and a legal play whose outcome depends on it says so, in a player's words.
    legal = ruled(
        api, body({"play": "Nahla Ake"}, position), "needs_information", "deck_count_required"
    )
    assert legal["rule"]["id"] == "AC-6.1"
    assert legal["reason"] == (
        "Playing Nahla Ake (9) is legal, but what happens depends on how "
        "many cards are left in the deck: the round ends when the deck "
        "runs out at the end of a turn (AC-6.1)."
    )
    assert legal["missing"] == [
        {
            "path": "position.deck_count",
            "detail": "How many cards are left in the deck, after Ana's draw "
            "this turn? (The set-aside card does not count.)",
        }
    ]
    assert legal["outcome"] is None and all(c["passed"] for c in legal["checks"])
    # A play that ends the round whatever the deck holds needs no count.
    tarima = table(hand=["Tarima Sadel", "Lura Thok"])
    del tarima["deck_count"]
    ends = ruled(
        api, body({"play": "Tarima Sadel", "confirm": True}, tarima), "legal", "eliminates_player"
    )
    assert ends["outcome"]["round_ends"] is True and ends["outcome"]["deck_count"] is None


# --- Impossible positions ---------------------------------------------------------------------


def test_more_copies_than_the_deck_has(api, catalog):
    position = table(
        "Ana", {"name": "Ben", "discards": ["Nahla Ake"]}, hand=["Nahla Ake", "Lura Thok"]
    )
    payload = error(
        api,
        body({"play": "Lura Thok", "target": "Ben", "guess": 7}, position),
        "impossible_position",
    )
    assert payload["detail"] == (
        "The position shows 2 copies of Nahla Ake (9) (in Ana's hand "
        "and in front of Ben), but the deck has 1 (AC-R2)."
    )
    assert payload["errors"][0]["code"] == "too_many_copies"


@pytest.mark.parametrize(
    "position, code",
    [
        (table(hand=["Lura Thok"]), "hand_size"),
        (
            table({"name": "Ana", "in_round": False, "discards": ["Lura Thok"]}, "Ben", "Cy"),
            "turn_out",
        ),
        (table(turn="Zed"), "turn_absent"),
        (table("Ana", "Ben", "Cy", "Dee", "Eve", deck_count=10), "too_many_cadets"),
        (table(deck_count=30), "too_many_cards"),
    ],
)
def test_impossible_positions_name_the_contradiction(api, catalog, position, code):
    payload = error(api, body({"play": "Nahla Ake"}, position), "impossible_position")
    assert payload["errors"][0]["code"] == code
    assert payload["errors"][0]["path"].startswith("position")


def test_ac_6_5_a_match_already_over_is_refused_as_the_score_refuses_it(api, catalog):
    # Issue 11: one check, one wording for the ruling and the score endpoints.
    position = table("Ana", {"name": "Ben", "credits": 4}, hand=["Lura Thok", "Jay-Den Kraag"])
    payload = error(api, body({"play": "Jay-Den Kraag"}, position), "impossible_position")
    assert payload["errors"] == [
        {
            "path": "position.players[1].credits",
            "code": "match_over",
            "detail": "Ben already has 4 credits, at or above the target of 4: the match is over "
            "(AC-6.5), so no round is played after it.",
        }
    ]
    assert payload["detail"] == payload["errors"][0]["detail"]
    scored = api.post(
        "/api/games/academy-credits/score/",
        content_type="application/json",
        data=json.dumps(
            {
                "players": [
                    {"name": "Ana", "hand": "Lura Thok"},
                    {"name": "Ben", "hand": "Jett Reno", "credits": 4},
                ],
                "deck_count": 0,
            }
        ),
    )
    assert scored.status_code == 400
    assert scored.json()["errors"] == [{**payload["errors"][0], "path": "players[1].credits"}]
    # The target in force is the request's: with a target of 5 for two cadets the match is on.
    ruled(
        api,
        body({"play": "Jay-Den Kraag"}, {**position, "options": {"credits_target": {"2": 5}}}),
        "legal",
        "legal_play",
    )


def test_ac_6_4_an_eliminated_cadet_with_nothing_face_up_is_impossible(api, catalog):
    position = table(
        "Ana", {"name": "Ben", "in_round": False}, "Cy", hand=["Lura Thok", "Jay-Den Kraag"]
    )
    payload = error(api, body({"play": "Jay-Den Kraag"}, position), "impossible_position")
    assert payload["errors"] == [
        {
            "path": "position.players[1].discards",
            "code": "eliminated_without_discard",
            "detail": "Ben is out of the round but has no card face up: an eliminated cadet discards "
            "their card face up (AC-6.4), so at least that card is in front of Ben. Add it "
            "to Ben's cards in front.",
        }
    ]


def test_ac_5_1_the_cadet_to_move_cannot_still_be_protected(api, catalog):
    position = table(
        {"name": "Ana", "shielded": True, "discards": ["Jay-Den Kraag"]},
        "Ben",
        hand=["Caleb Mir", "Lura Thok"],
    )
    payload = error(
        api, body({"play": "Caleb Mir", "target": "Ana"}, position), "impossible_position"
    )
    assert [(e["path"], e["code"]) for e in payload["errors"]] == [
        ("position.players[0].shielded", "turn_protected")
    ]
    assert payload["detail"] == (
        "Ana is shown shielded, but it is Ana's turn: Jay-Den Kraag protects only until the "
        "start of the cadet's next turn (AC-5.1), so Ana's protection has ended. Clear Ana's "
        "shield."
    )


# --- Invalid input --------------------------------------------------------------------------------


def test_malformed_and_non_object_bodies(api, catalog):
    response = api.post(URL, data="{not json", content_type="application/json")
    assert response.status_code == 400 and response.json()["code"] == "malformed_request"
    payload = error(api, [1, 2], "invalid_input")
    assert payload["errors"][0]["path"] == "body"


def test_every_problem_is_named_by_path(api, catalog):
    data = {
        "position": {
            "players": [
                {
                    "name": "Ana",
                    "hand": "Jet Reno",
                    "credits": -1,
                    "in_round": "yes",
                    "colour": "red",
                },
                {"name": ""},
            ],
            "turn": 3,
            "hand": "Lura Thok",
            "deck_count": "nine",
            "options": {"charles_vance": "literal"},
        },
        "move": {"play": "Lura Tok", "guess": [], "confirm": "yes", "tagret": "Ben"},
        "extra": 1,
    }
    payload = error(api, data, "invalid_input")
    by_path = {e["path"]: e for e in payload["errors"]}
    assert by_path["extra"]["code"] == "unknown_field"
    assert by_path["position.players[0].colour"]["code"] == "unknown_field"
    assert by_path["position.players[0].hand"]["code"] == "unknown_card"
    assert by_path["position.players[0].hand"]["suggestions"] == ["Jett Reno"]
    assert by_path["position.players[0].credits"]["code"] == "invalid_count"
    assert by_path["position.players[0].in_round"]["code"] == "invalid_type"
    assert by_path["position.players[1].name"]["code"] == "invalid_name"
    assert by_path["position.turn"]["code"] == "invalid_type"
    assert by_path["position.hand"]["code"] == "invalid_type"
    assert by_path["position.deck_count"]["code"] == "invalid_type"
    assert by_path["position.options.charles_vance"]["code"] == "unknown_option"
    assert by_path["position.options.charles_vance"]["suggestions"] == ["charles_vance_bonus"]
    assert by_path["move.play"]["suggestions"] == ["Lura Thok"]
    assert by_path["move.guess"]["code"] == "invalid_card"
    assert by_path["move.confirm"]["code"] == "invalid_type"
    assert by_path["move.tagret"]["suggestions"] == ["target"]
    assert (
        payload["detail"] == f"The request has {len(payload['errors'])} problems; each is "
        "listed in errors."
    )


def test_required_fields(api, catalog):
    payload = error(api, {"position": {}, "move": {}}, "invalid_input")
    paths = {e["path"] for e in payload["errors"] if e["code"] == "required"}
    # The deck count is not required: it is asked for when the answer needs it (issue 15).
    assert paths == {"position.players", "position.turn", "position.hand", "move.play"}
    missing = error(api, {}, "invalid_input")
    assert {e["path"] for e in missing["errors"]} == {"position", "move"}


def test_a_target_who_is_not_at_the_table(api, catalog):
    payload = error(api, body({"play": "Nahla Ake", "target": "Bem"}), "invalid_input")
    assert payload["errors"] == [
        {
            "path": "move.target",
            "code": "unknown_player",
            "detail": "No cadet called 'Bem' is at the table; the cadets are Ana, Ben.",
            "suggestions": ["Ben"],
        }
    ]


def test_options_are_validated_and_override_the_games(api, catalog):
    bad = error(
        api,
        body(
            {"play": "Nahla Ake"},
            table(options={"charles_vance_bonus": "sometimes", "credits_target": {"7": 3}}),
        ),
        "invalid_input",
    )
    by_path = {e["path"]: e for e in bad["errors"]}
    assert by_path["position.options.charles_vance_bonus"]["code"] == "invalid_option"
    assert by_path["position.options.charles_vance_bonus"]["suggestions"] == [
        "literal",
        "still_in_round",
    ]
    assert by_path["position.options.credits_target"]["code"] == "invalid_option"
    ruling = ruled(
        api,
        body(
            {"play": "Nahla Ake"},
            table(options={"charles_vance_bonus": "still_in_round", "credits_target": {"2": 3}}),
        ),
    )
    assert ruling["outcome"]["options"] == {
        "charles_vance_bonus": "still_in_round",
        "credits_target": {"2": 3, "3": 5, "4": 6},
    }


def test_counts_above_their_maximum_and_a_cadet_that_is_not_an_object(api, catalog):
    position = table("Ana", {"name": "Ben", "credits": 1001}, deck_count=1001)
    position["players"].append(3)
    payload = error(api, body({"play": "Nahla Ake"}, position), "invalid_input")
    assert [(e["path"], e["code"]) for e in payload["errors"]] == [
        ("position.players[1].credits", "invalid_count"),
        ("position.players[2]", "invalid_type"),
        ("position.deck_count", "invalid_count"),
    ]
    assert payload["errors"][0]["detail"] == (
        "position.players[1].credits must be at most 1000; got 1001."
    )


def test_too_many_cadets_listed_is_refused_early(api, catalog):
    position = table(*[f"Cadet {i}" for i in range(60)], turn="Cadet 0")
    payload = error(api, body({"play": "Nahla Ake"}, position), "invalid_input")
    assert payload["errors"][0]["code"] == "too_many"


def test_the_request_is_saved_as_understood(api, catalog):
    data = body({"play": "NAHLA AKE"})
    understood = copy.deepcopy(data)
    understood["move"]["play"] = "Nahla Ake"  # the card by its catalog name (issue 22)
    ruling = ruled(api, data)
    assert SavedResult.objects.get(id=ruling["id"]).request == understood


# --- Never a 5xx ---------------------------------------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

NAMES = ["Ana", "Ben", "Cy", "Lura Thok", "Jett Reno", "Tarima Sadel", "7", "caleb-mir"]
values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.text(max_size=10) | st.sampled_from(NAMES),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(["name", "hand", "discards", "in_round", "marked", "x"]),
            inner,
            max_size=3,
        )
    ),
    max_leaves=8,
)
PATHS = [
    ("position", "players"),
    ("position", "turn"),
    ("position", "hand"),
    ("position", "deck_count"),
    ("position", "options"),
    ("move", "play"),
    ("move", "target"),
    ("move", "guess"),
    ("move", "confirm"),
    ("position", "players", 0),
    ("position", "players", 1, "discards"),
    ("position", "players", 1, "hand"),
    ("position", "players", 0, "marked"),
    ("position", "players", 1, "shielded"),
]


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(changes=st.lists(st.tuples(st.sampled_from(PATHS), values), min_size=1, max_size=3))
def test_no_body_ever_causes_a_server_error(api, catalog, changes):
    data = body(
        {"play": "Nahla Ake"}, table("Ana", {"name": "Ben", "discards": ["Caleb Mir"]}, "Cy")
    )
    for path, value in changes:
        node = data
        try:
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change removed the place: nothing to change there
    response = post(api, data)
    assert response.status_code in (200, 400), response.content
    payload = response.json()
    assert set(payload) == (
        RULING_KEYS if response.status_code == 200 else {"status", "code", "detail", "errors"}
    )


# --- AC-R12: face up, out, shielded (issue 21) ----------------------------------------------------


def test_ac_r12_tarima_sadel_face_up_in_front_of_a_cadet_still_in_the_round(api, catalog):
    position = table(
        "Ana",
        {"name": "Ben", "discards": ["Tarima Sadel"]},
        "Cy",
        hand=["Lura Thok", "Jay-Den Kraag"],
    )
    payload = error(api, body({"play": "Jay-Den Kraag"}, position), "impossible_position")
    assert [(e["path"], e["code"]) for e in payload["errors"]] == [
        ("position.players[1].in_round", "eliminated_still_in")
    ]
    assert payload["detail"] == (
        "Tarima Sadel (10) is face up in front of Ben, but Ben is shown still in the round: a "
        "cadet who plays or discards Tarima Sadel (10) is out of the round (AC-R12). Mark Ben as "
        "out, or take Tarima Sadel (10) from Ben's cards in front."
    )
    # The legal neighbour: Ben is out.
    position["players"][1]["in_round"] = False
    position["deck_count"] += 1  # Ben holds no card now
    ruled(api, body({"play": "Jay-Den Kraag"}, position), "legal", "legal_play")


def test_ac_r12_a_cadet_out_of_the_round_is_never_shielded(api, catalog):
    ben = {
        "name": "Ben",
        "in_round": False,
        "shielded": True,
        "discards": ["Jay-Den Kraag", "Lura Thok"],
    }
    position = table("Ana", ben, "Cy", hand=["Lura Thok", "Jay-Den Kraag"])
    payload = error(api, body({"play": "Jay-Den Kraag"}, position), "impossible_position")
    assert [(e["path"], e["code"]) for e in payload["errors"]] == [
        ("position.players[1].shielded", "shield_of_eliminated")
    ]
    assert "a cadet who is out is never shielded (AC-R12)" in payload["detail"]
    # The legal neighbours: Ben out and not shielded; Ben in and shielded.
    ben["shielded"] = False
    ruled(api, body({"play": "Jay-Den Kraag"}, position), "legal", "legal_play")
    shielded = table(
        "Ana",
        {"name": "Ben", "shielded": True, "discards": ["Jay-Den Kraag"]},
        "Cy",
        hand=["Lura Thok", "Jay-Den Kraag"],
    )
    assert (
        ruled(api, body({"play": "Jay-Den Kraag"}, shielded), "legal", "legal_play")["warnings"]
        == []
    )
