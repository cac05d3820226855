"""POST /api/games/{game}/rulings/ (and /score/) as API.md fixes them, with Star Trek: Missions'
turn rulings against the shipped catalog; and the check-a-turn page that calls the same service."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.models import Card
from common.requests import RequestModel
from games.package import GamePackage, Job
from results.models import SavedResult
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db

URL = "/api/games/star-trek-missions/rulings/"
PAGE = "/games/star-trek-missions/check-move/"
HAND = [
    "Captain Jean-Luc Picard",
    "Commander William Riker",
    "Lieutenant Worf",
    "Photon Torpedoes",
    "Bridge",
    "Away Team",
    "Borg Cube",
]
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


def body(move, **position):
    return {
        "position": {
            "hand": HAND,
            "discard_area": ["Tricorder", "Time Distortion"],
            "galaxy_deck": 30,
            "mission_deck": 14,
            **position,
        },
        "move": move,
    }


def post(api, data, url=URL):
    return api.post(url, data=json.dumps(data), content_type="application/json")


def assert_error_body(response, status, code):
    payload = response.json()
    assert response.status_code == status, payload
    assert set(payload) == {"status", "code", "detail", "errors"}
    assert payload["status"] == status and payload["code"] == code
    assert isinstance(payload["detail"], str) and payload["detail"]
    return payload


# --- Legal and illegal ----------------------------------------------------------------------------


def test_a_legal_turn(api, catalog):
    response = post(
        api, body({"action": "take_discard", "take": "Tricorder", "discard": ["Bridge"]})
    )
    assert response.status_code == 200, response.json()
    ruling = response.json()
    assert set(ruling) == RULING_KEYS
    assert ruling["game"] == "star-trek-missions"
    assert (ruling["verdict"], ruling["code"]) == ("legal", "legal_turn")
    assert ruling["rule"]["id"] == "STM-R9"
    assert ruling["rule"]["title"] == "A legal turn"
    assert ruling["rule"]["text"].startswith("A legal turn is exactly one of")
    assert ruling["rule"]["url"] == "/games/star-trek-missions/#rule-STM-R9"
    assert all(set(c) == {"rule", "passed", "detail"} and c["passed"] for c in ruling["checks"])
    outcome = ruling["outcome"]
    assert outcome["hand"] == HAND[:4] + HAND[5:] + ["Tricorder"]
    assert outcome["discard_area"] == ["Time Distortion", "Bridge"]
    assert outcome["game_ends"] is False and outcome["extra_turn"] is False
    assert ruling["alternatives"] == [] and ruling["missing"] == [] and ruling["warnings"] == []
    assert ruling["url"] == f"/r/{ruling['id']}"
    assert "Cache-Control" not in response.headers


def test_an_illegal_turn_quotes_its_rule_and_lists_alternatives(api, catalog):
    response = post(
        api,
        body(
            {
                "action": "draw_missions",
                "draw": ["Computer Virus", "Distress Call"],
                "discard": ["Bridge", "Lieutenant Worf"],
            }
        ),
    )
    ruling = response.json()
    assert response.status_code == 200
    assert (ruling["verdict"], ruling["code"]) == ("illegal", "mission_count")
    assert ruling["rule"]["id"] == "STM-6.3"
    assert ruling["rule"]["text"].startswith("Check your Mission count after discarding.")
    assert (
        "4 Mission cards (Away Team, Borg Cube, Computer Virus and Distress Call)"
        in ruling["reason"]
    )
    assert ruling["checks"][-1] == {"rule": "STM-6.3", "passed": False, "detail": ruling["reason"]}
    assert ruling["outcome"] is None
    actions = [move["action"] for move in ruling["alternatives"]]
    assert actions[0] == "draw_missions" and "take_discard" in actions
    assert {
        "action": "draw_missions",
        "draw": ["Computer Virus", "Distress Call"],
        "discard": ["Away Team", "Borg Cube"],
    } in ruling["alternatives"]


def test_card_names_in_any_case_or_as_slugs(api, catalog):
    hand = [
        "captain-jean-luc-picard",
        "COMMANDER WILLIAM RIKER",
        "lieutenant worf",
        "photon-torpedoes",
        "bridge",
        "Away team",
        "borg-cube",
    ]
    response = post(
        api,
        body(
            {"action": "draw_galaxy", "draw": "spock", "discard": ["SPOCK"]},
            hand=hand,
            discard_area=[],
        ),
    )
    ruling = response.json()
    assert ruling["verdict"] == "legal", ruling
    assert ruling["outcome"]["hand"] == HAND
    assert ruling["outcome"]["discard_area"] == ["Spock"]
    assert ruling["outcome"]["galaxy_deck"] == 29


def test_time_distortion_taken_grants_an_extra_turn(api, catalog):
    card = Card.objects.get(game__slug="star-trek-missions", name="Time Distortion")
    card.rule = {"effects": [{"kind": "extra_turn_from_discard"}]}
    card.save()  # as the admin does: the services see the new rule at once
    hand = HAND[:6] + ["Lieutenant Commander Data"]  # one Mission
    response = post(
        api,
        body(
            {"action": "take_discard", "take": "Time Distortion", "discard": ["Bridge"]}, hand=hand
        ),
    )
    ruling = response.json()
    assert ruling["verdict"] == "legal"
    assert ruling["outcome"]["extra_turn"] is True
    assert "STM-R7" in ruling["outcome"]["extra_turn_reason"]


# --- 400s -----------------------------------------------------------------------------------------


def test_unknown_card_names_have_suggestions(api, catalog):
    hand = HAND[:2] + ["Leiutenant Worf"] + HAND[3:]
    payload = assert_error_body(
        post(
            api,
            body({"action": "take_discard", "take": "Tricorder", "discard": ["Bridge"]}, hand=hand),
        ),
        400,
        "invalid_input",
    )
    [entry] = payload["errors"]
    assert entry["path"] == "position.hand[2]"
    assert entry["code"] == "unknown_card"
    assert entry["detail"] == "No card named 'Leiutenant Worf' in Star Trek: Missions."
    assert "Lieutenant Worf" in entry["suggestions"]
    assert payload["detail"] == entry["detail"]
    assert SavedResult.objects.count() == 0


def test_every_bad_name_is_reported_at_once(api, catalog):
    payload = assert_error_body(
        post(
            api, body({"action": "draw_missions", "draw": ["Nope", 7], "discard": [None, "Bridge"]})
        ),
        400,
        "invalid_input",
    )
    assert [(e["path"], e["code"]) for e in payload["errors"]] == [
        ("move.draw[0]", "unknown_card"),
        ("move.draw[1]", "invalid_card"),
        ("move.discard[0]", "invalid_card"),
    ]


def test_an_impossible_position_names_the_contradiction(api, catalog):
    payload = assert_error_body(
        post(
            api,
            body(
                {"action": "draw_galaxy", "draw": "Spock", "discard": ["Bridge"]},
                discard_area=["Bridge"],
            ),
        ),
        400,
        "impossible_position",
    )
    assert payload["errors"] == [
        {
            "path": "position.discard_area[0]",
            "code": "card_in_two_places",
            "detail": "Bridge is both in the hand and in the discard area; every card exists once.",
        }
    ]
    assert payload["detail"] == payload["errors"][0]["detail"]


def test_stm_r16_a_turn_leaves_cards_for_another_player(api, catalog):
    # 5 Galaxy cards in the hand, 1 in the discard area, 40 in the deck: 4 for the others.
    move = {"action": "draw_galaxy", "draw": "Spock", "discard": ["Bridge"]}
    payload = assert_error_body(post(api, body(move, galaxy_deck=40)), 400, "impossible_position")
    assert payload["errors"] == [
        {
            "path": "position.galaxy_deck",
            "code": "no_other_hand",
            "detail": "The position leaves 4 of the 50 Galaxy cards for the other players (5 in the "
            "hand, 1 in the discard area, 40 in the Galaxy deck), but the game has at least "
            "one other player, whose hand holds at least 5 Galaxy cards (STM-R16).",
        }
    ]
    # 2 Missions in the hand, 1 in the discard area, 21 in the deck: none for the others.
    missions = assert_error_body(post(api, body(move, mission_deck=21)), 400, "impossible_position")
    assert [(e["path"], e["code"]) for e in missions["errors"]] == [
        ("position.mission_deck", "no_other_hand")
    ]
    assert "leaves 0 of the 24 Mission cards" in missions["detail"]
    # The legal neighbours: one card fewer in either deck.
    for neighbour in ({"galaxy_deck": 39}, {"mission_deck": 20}):
        response = post(api, body(move, **neighbour))
        assert response.status_code == 200 and response.json()["verdict"] == "legal"


def test_the_game_is_over_when_the_discard_area_is_at_the_trigger(api, catalog):
    galaxy = list(
        Card.objects.filter(game__slug="star-trek-missions", attributes__deck="galaxy")
        .exclude(name__in=HAND)
        .values_list("name", flat=True)[:8]
    )
    payload = assert_error_body(
        post(
            api,
            body(
                {"action": "draw_galaxy", "draw": "Spock", "discard": ["Bridge"]},
                discard_area=galaxy,
                galaxy_deck=10,
            ),
        ),
        400,
        "impossible_position",
    )
    assert [e["code"] for e in payload["errors"]] == ["game_over"]


def test_malformed_json(api, catalog):
    response = api.post(URL, data="{not json", content_type="application/json")
    assert_error_body(response, 400, "malformed_request")


@pytest.mark.parametrize("data", [[1, 2], "text", 3, None])
def test_the_body_must_be_an_object(api, catalog, data):
    payload = assert_error_body(post(api, data), 400, "invalid_input")
    assert payload["errors"][0]["path"] == "body"


def test_missing_and_unknown_fields(api, catalog):
    payload = assert_error_body(
        post(
            api,
            {
                "position": {
                    "hand": HAND,
                    "discard_aera": [],
                    "galaxy_deck": -1,
                    "mission_deck": "many",
                },
                "move": {"action": "take_discard", "discard": "Bridge"},
            },
        ),
        400,
        "invalid_input",
    )
    entries = {(e["path"], e["code"]) for e in payload["errors"]}
    assert entries == {
        ("position.discard_aera", "unknown_field"),
        ("position.discard_area", "required"),
        ("position.galaxy_deck", "invalid_count"),
        ("position.mission_deck", "invalid_type"),
        ("move.take", "required"),
        ("move.discard", "invalid_type"),
    }
    typo = next(e for e in payload["errors"] if e["code"] == "unknown_field")
    assert typo["suggestions"] == ["discard_area"]


def test_the_deck_counts_are_optional(api, catalog):
    """Issue 23: a take from the discard area is ruled without the deck counts; a draw without
    its deck's count needs information, naming it."""
    take = body({"action": "take_discard", "take": "Tricorder", "discard": ["Bridge"]})
    del take["position"]["galaxy_deck"], take["position"]["mission_deck"]
    ruling = post(api, take).json()
    assert (ruling["verdict"], ruling["code"]) == ("legal", "legal_turn")
    assert ruling["outcome"]["galaxy_deck"] is None

    draw = body({"action": "draw_galaxy", "draw": "Spock", "discard": ["Bridge"]})
    del draw["position"]["galaxy_deck"]
    response = post(api, draw)
    ruling = response.json()
    assert response.status_code == 200
    assert (ruling["verdict"], ruling["code"]) == ("needs_information", "deck_count_required")
    assert [entry["path"] for entry in ruling["missing"]] == ["position.galaxy_deck"]
    # A null count is the same as none; a negative one is still refused.
    draw["position"]["galaxy_deck"] = None
    assert post(api, draw).json()["verdict"] == "needs_information"
    draw["position"]["galaxy_deck"] = -1
    assert_error_body(post(api, draw), 400, "invalid_input")


def test_the_page_asks_for_a_decks_count_only_for_a_draw(client, catalog):
    data = form(
        {
            "action": "draw_missions",
            "draw": ["Computer Virus", "Distress Call"],
            "discard": ["Bridge", "Lieutenant Worf"],
        }
    )
    data["mission_deck"] = ""
    html = client.post(PAGE, data, headers={"HX-Request": "true"}).content.decode()
    assert "Ruling: Needs information" in html
    assert "The number of cards left in the Mission deck." in html
    data = form({"action": "take_discard", "take": "Tricorder", "discard": ["Bridge"]})
    data["galaxy_deck"] = data["mission_deck"] = ""
    html = client.post(PAGE, data, headers={"HX-Request": "true"}).content.decode()
    assert "Ruling: Legal" in html
    assert "Galaxy not given, Mission not given" in html


def test_an_unknown_action(api, catalog):
    payload = assert_error_body(
        post(api, body({"action": "draw_galaxi", "draw": "Spock", "discard": ["Bridge"]})),
        400,
        "invalid_input",
    )
    [entry] = payload["errors"]
    assert (entry["path"], entry["code"]) == ("move.action", "invalid_action")
    assert entry["suggestions"][0] == "draw_galaxy"


def test_two_options_at_once_are_illegal_not_malformed(api, catalog):
    ruling = post(
        api,
        body(
            {"action": "take_discard", "take": "Tricorder", "draw": "Spock", "discard": ["Bridge"]}
        ),
    ).json()
    assert (ruling["verdict"], ruling["code"]) == ("illegal", "one_option_only")


# --- 404s -----------------------------------------------------------------------------------------


def test_unknown_game(api, catalog):
    payload = assert_error_body(
        post(api, body({}), url="/api/games/star-trek-mission/rulings/"), 404, "unknown_game"
    )
    assert "star-trek-missions" in payload["errors"][0]["suggestions"]


def test_a_game_without_a_ruling_service(api, catalog):
    game = GameFactory(name="Snap")
    payload = assert_error_body(
        post(api, {}, url=f"/api/games/{game.slug}/rulings/"), 404, "not_available"
    )
    assert payload["detail"] == "Tableside does not give rulings for Snap yet."


def test_a_game_without_a_score_service(api, catalog):
    game = GameFactory(name="Snap")
    payload = assert_error_body(
        post(api, {"hand": []}, url=f"/api/games/{game.slug}/score/"), 404, "not_available"
    )
    assert payload["detail"] == "Tableside does not score Snap yet."
    assert_error_body(post(api, {}, url="/api/games/nope/score/"), 404, "unknown_game")


class SnapHand(RequestModel):
    hand: list[str]


def test_the_score_endpoint_answers_a_registered_game_through_the_one_flow(
    api, catalog, register_game
):
    from games.package import Asked
    from tests.fifth_game import engine as snap_engine

    game = GameFactory(name="Snap")
    calls = []

    def ask(game, request, context):
        calls.append(request.hand)
        return Asked(
            position=snap_engine.Position(
                tuple(snap_engine.Card(name, 3, 1) for name in request.hand), None
            )
        )

    register_game(
        GamePackage(
            slug=game.slug,
            package="games",
            check=snap_engine.check,
            score=Job(request_models=(SnapHand,), ask=ask, page="snap:score", label="Score"),
        )
    )
    response = post(api, {"hand": ["x"]}, url=f"/api/games/{game.slug}/score/")
    assert response.status_code == 200
    assert calls == [["x"]]
    assert response.json()["total"] == 3 and response.json()["steps"][0]["card"] == "x"
    saved = api.get(f"/api/results/{response.json()['id']}/")
    assert saved.content == response.content
    assert_error_body(post(api, [1], url=f"/api/games/{game.slug}/score/"), 400, "invalid_input")
    assert_error_body(
        post(api, {"hand": "x"}, url=f"/api/games/{game.slug}/score/"), 400, "invalid_input"
    )


# --- Saved results ------------------------------------------------------------------------------


def test_the_saved_ruling_is_exactly_the_response(api, catalog):
    response = post(api, body({"action": "draw_galaxy", "draw": "Spock", "discard": ["Away Team"]}))
    ruling = response.json()
    saved = api.get(f"/api/results/{ruling['id']}/")
    assert saved.status_code == 200
    assert saved.content == response.content
    assert saved.json() == ruling
    result = SavedResult.objects.get(pk=ruling["id"])
    assert result.kind == "ruling" and result.game.slug == "star-trek-missions"
    assert result.request == body(
        {"action": "draw_galaxy", "draw": "Spock", "discard": ["Away Team"]}
    )


def test_a_ruling_takes_a_bounded_number_of_queries(api, catalog, django_assert_max_num_queries):
    move = {"action": "take_discard", "take": "Tricorder", "discard": ["Bridge"]}
    # The throttle's shared counter (one upsert), the game, the cards' version stamp and rows,
    # the rule sections, the saved result (a savepoint and its release inside the test's
    # transaction; a bare INSERT when serving).
    with django_assert_max_num_queries(8):
        assert post(api, body(move)).status_code == 200


def test_the_schema_documents_both_endpoints_with_examples(api, catalog):
    schema = api.get("/api/schema/?format=json").json()
    rulings = schema["paths"]["/api/games/{game}/rulings/"]["post"]
    score = schema["paths"]["/api/games/{game}/score/"]["post"]
    assert "/api/results/{result_id}/" in schema["paths"]
    for operation in (rulings, score):
        examples = operation["requestBody"]["content"]["application/json"]["examples"]
        assert any(
            "star-trek-missions" in (e.get("summary") or name) for name, e in examples.items()
        )
        assert {"200", "400", "404"} <= set(operation["responses"])
    for code in (
        "one_option_only",
        "mission_count",
        "game_over",
        "impossible_position",
        "not_available",
    ):
        assert code in rulings["description"]


# --- The check-a-turn page ------------------------------------------------------------------------


def form(
    move_fields, hand=HAND, discard_area=("Tricorder", "Time Distortion"), galaxy="30", mission="14"
):
    data = {
        "hand": list(hand),
        "discard_area": list(discard_area),
        "galaxy_deck": galaxy,
        "mission_deck": mission,
    }
    data.update(move_fields)
    return data


def test_the_page_has_the_form_and_the_card_list(client, catalog):
    response = client.get(PAGE)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count('list="stm-cards"') == 7 + 18 + 5
    assert 'id="turn-form"' in html and "hx-swap-oob" not in html
    assert html.count("<option value=", html.index('<datalist id="stm-cards">')) == 74
    assert 'name="csrfmiddlewaretoken"' in html
    assert f'hx-post="{PAGE}"' in html
    assert "style=" not in html and "<script>" not in html


def test_a_plain_post_renders_the_whole_page_with_the_ruling(client, catalog):
    response = client.post(
        PAGE, form({"action": "take_discard", "take": "Tricorder", "discard": ["Bridge"]})
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" in html and "Ruling: Legal" in html
    result = SavedResult.objects.get()
    assert f"http://testserver/r/{result.id}" in html
    assert 'href="/games/star-trek-missions/#rule-STM-R9"' in html
    # The values stay in the form.
    assert 'value="Tricorder"' in html


def test_an_htmx_post_gets_the_fragment(client, catalog):
    response = client.post(
        PAGE,
        form({"action": "draw_galaxy", "draw": ["Spock"], "discard": ["Away Team", "ignored"]}),
        headers={"HX-Request": "true"},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert "Ruling: Legal" in html
    assert SavedResult.objects.get().request["move"] == {
        "action": "draw_galaxy",
        "draw": "Spock",
        "discard": ["Away Team"],
    }


def test_the_page_shows_an_illegal_ruling_with_alternatives(client, catalog):
    response = client.post(
        PAGE,
        form({"action": "take_discard", "take": "Tricorder", "discard": ["Tricorder"]}),
        headers={"HX-Request": "true"},
    )
    html = response.content.decode()
    assert "Ruling: Illegal" in html
    # Grouped: one line per card taken, every discard that goes with it (issue 23).
    assert 'Take from the discard area <span class="alternatives__count">(' in html
    assert "Take Tricorder, then discard one of: Captain Jean-Luc Picard, " in html
    assert "Take Time Distortion, then discard one of: Away Team, Borg Cube" in html
    assert "Failed" in html


def test_form_problems_are_shown_by_field(client, catalog):
    hand = HAND[:2] + ["Wrof"] + HAND[3:]
    response = client.post(
        PAGE,
        form(
            {"action": "take_discard", "take": "Tricorder", "discard": ["Bridge"]},
            hand=hand,
            galaxy="lots",
        ),
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "The turn could not be checked" in html
    assert 'id="hand-3"' in html and 'aria-describedby="hand-3-error"' in html
    assert "No card named &#x27;Wrof&#x27; in Star Trek: Missions." in html
    assert 'href="#galaxy-deck"' in html
    assert SavedResult.objects.count() == 0


def test_the_page_reports_an_impossible_position(client, catalog):
    response = client.post(
        PAGE,
        form({"action": "draw_galaxy", "draw": ["Spock"], "discard": ["Bridge"]}, hand=HAND[:6]),
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "The hand holds 6 cards" in html
    # The form comes again, out of band, with the problem by its field.
    assert '<form class="turn-form" id="turn-form" method="post" hx-swap-oob="true"' in html
    assert 'aria-describedby="hand-1-error"' in html


def test_stm_r16_the_page_shows_a_deck_with_no_room_for_another_hand_by_its_field(client, catalog):
    response = client.post(
        PAGE,
        form({"action": "draw_galaxy", "draw": ["Spock"], "discard": ["Bridge"]}, galaxy="40"),
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "The position leaves 4 of the 50 Galaxy cards for the other players" in html
    assert 'href="#galaxy-deck"' in html and 'aria-describedby="galaxy-deck-error"' in html
    assert (
        client.post(
            PAGE,
            form({"action": "draw_galaxy", "draw": ["Spock"], "discard": ["Bridge"]}, galaxy="39"),
        ).status_code
        == 200
    )


# --- No input produces a 5xx --------------------------------------------------------------------

NAMES = HAND + [
    "Tricorder",
    "Time Distortion",
    "Spock",
    "Computer Virus",
    "Distress Call",
    "Meddlesome Q",
    "spock",
    "nope",
    "",
    "7",
]
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=10,
)
name_lists = st.lists(st.sampled_from(NAMES) | json_values, max_size=9)
positions = st.fixed_dictionaries(
    {},
    optional={
        "hand": name_lists | json_values,
        "discard_area": name_lists | json_values,
        "galaxy_deck": st.integers(-2, 80) | json_values,
        "mission_deck": st.integers(-2, 30) | json_values,
        "extra_turn": st.booleans() | json_values,
    },
)
moves = st.fixed_dictionaries(
    {},
    optional={
        "action": st.sampled_from(["take_discard", "draw_galaxy", "draw_missions"]) | json_values,
        "take": st.sampled_from(NAMES) | json_values,
        "draw": st.sampled_from(NAMES) | name_lists | json_values,
        "discard": name_lists | json_values,
    },
)
bodies = (
    st.fixed_dictionaries(
        {"position": positions | json_values, "move": moves | json_values},
        optional={"extra": json_values},
    )
    | json_values
)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=bodies)
def test_no_body_produces_a_server_error(api, catalog, data):
    response = post(api, data)
    assert response.status_code in (200, 400), response.content
    payload = response.json()
    if response.status_code == 400:
        assert set(payload) == {"status", "code", "detail", "errors"}
        assert payload["code"] in ("invalid_input", "impossible_position", "malformed_request")
    else:
        assert set(payload) == RULING_KEYS and payload["verdict"] in ("legal", "illegal")


# --- web.card_names and games.responses ----------------------------------------------------------


def test_resolve_cards_by_name_slug_or_value(catalog, django_assert_max_num_queries):
    from cards.models import Game
    from web.card_names import resolve_cards

    academy = Game.objects.get(slug="academy-credits")
    # The version stamp of the cached cards, and their load when the cache is cold: never
    # a query per name.
    with django_assert_max_num_queries(2):
        cards, errors = resolve_cards(game=academy, names=["JETT RENO", "lura-thok"], path="hand")
    assert errors == [] and [c.name for c in cards] == ["Jett Reno", "Lura Thok"]
    cards, errors = resolve_cards(game=academy, names=[7, "9", " 0 "], path="hand")
    assert errors == [] and [c.name for c in cards] == ["Jett Reno", "Nahla Ake", "Charles Vance"]
    cards, errors = resolve_cards(game=academy, names=["Jet Reno", 42, True, {"a": 1}], path="p")
    assert cards[0] is None
    assert [(e["path"], e["code"]) for e in errors] == [
        ("p[0]", "unknown_card"),
        ("p[1]", "unknown_card"),
        ("p[2]", "invalid_card"),
        ("p[3]", "invalid_card"),
    ]
    assert errors[0]["detail"] == "No card named 'Jet Reno' in Academy Credits."
    assert "Jett Reno" in errors[0]["suggestions"]
    # Values name cards only in a game whose cards carry a whole-number "value".
    star_trek_missions = Game.objects.get(slug="star-trek-missions")
    _cards, errors = resolve_cards(game=star_trek_missions, names=[7, "7"], path="hand")
    assert [e["code"] for e in errors] == ["invalid_card", "unknown_card"]
    _cards, errors = resolve_cards(game=star_trek_missions, names="Spock", path="hand")
    assert [(e["path"], e["code"]) for e in errors] == [("hand", "invalid_type")]


def test_ruling_response_quotes_the_rule_or_links_a_missing_one(catalog):
    from cards.models import Game
    from games.protocol import Check, Ruling
    from games.responses import ruling_response

    star_trek_missions = Game.objects.get(slug="star-trek-missions")
    ruling = Ruling(
        verdict="legal",
        code="x",
        reason="Because.",
        rule="STM-6.4",
        checks=[Check(rule="STM-6.4", passed=True, detail="ok")],
    )
    body = ruling_response(game=star_trek_missions, ruling=ruling)
    assert body["rule"]["title"] == "End of the game"
    assert body["checks"] == [{"rule": "STM-6.4", "passed": True, "detail": "ok"}]
    assert list(body) == [
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
    ]
    missing = ruling_response(
        game=star_trek_missions, ruling=Ruling("legal", "x", "r", rule="STM-99")
    )
    assert missing["rule"] == {
        "id": "STM-99",
        "title": "",
        "text": "",
        "url": "/games/star-trek-missions/#rule-STM-99",
    }


def test_a_name_typed_with_braces_comes_back_as_typed(api, catalog):
    position = {
        "hand": ["{Worf}", *HAND[1:]],
        "discard_area": [],
        "galaxy_deck": 30,
        "mission_deck": 14,
    }
    payload = assert_error_body(
        post(
            api,
            {
                "position": position,
                "move": {"action": "take_discard", "take": "Bridge", "discard": ["Bridge"]},
            },
        ),
        400,
        "invalid_input",
    )
    entry = next(e for e in payload["errors"] if e["path"] == "position.hand[0]")
    assert entry["detail"] == "No card named '{Worf}' in Star Trek: Missions."
