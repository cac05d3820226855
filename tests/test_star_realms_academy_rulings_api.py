"""POST /api/games/star-realms-academy/rulings/ against the shipped catalog: every verdict, the
rulebook's examples, unknown card values (with their admin links), and every error."""

import json

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.models import Card
from results.models import SavedResult

pytestmark = pytest.mark.django_db

URL = "/api/games/star-realms-academy/rulings/"
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


def position(**changes):
    active = {
        "name": "Ana",
        "health": 15,
        "coins": 0,
        "hand": ["Scout", "Viper"],
        "in_play": [],
        "bases": [],
        "combat": 0,
        "used": [],
    }
    opponent = {"name": "Ben", "health": 15, "coins": 1, "bases": []}
    active.update(changes.pop("active", {}))
    opponent.update(changes.pop("opponent", {}))
    return {
        "active": active,
        "opponent": opponent,
        "shop_row": changes.pop(
            "shop_row", ["Freighter", "Corvette", "Ram", "The Hive", "Survey Ship"]
        ),
    }


def post(api, move, url=URL, **changes):
    data = {"position": position(**changes), "move": move}
    return api.post(url, data=json.dumps(data), content_type="application/json")


def ruling_of(response):
    body = response.json()
    assert response.status_code == 200, body
    assert set(body) == RULING_KEYS
    assert body["game"] == "star-realms-academy"
    return body


def assert_error_body(response, status, code):
    payload = response.json()
    assert response.status_code == status, payload
    assert set(payload) == {"status", "code", "detail", "errors"}
    assert payload["status"] == status and payload["code"] == code
    assert isinstance(payload["detail"], str) and payload["detail"]
    return payload


def card_admin(slug):
    card = Card.objects.get(game__slug="star-realms-academy", slug=slug)
    return reverse("admin:cards_card_change", args=[card.pk])


# --- Legal ----------------------------------------------------------------------------------------


def test_imperial_frigate_against_the_hive(api, catalog):
    played = ruling_of(
        post(
            api,
            {"action": "play", "card": "imperial frigate"},
            active={"hand": ["Imperial Frigate"]},
            opponent={"bases": [{"card": "The Hive", "damage": 0}]},
        )
    )
    assert (played["verdict"], played["code"]) == ("legal", "ship_played")
    assert played["rule"] == {
        "id": "SRA-6",
        "title": "Ships",
        "url": "/games/star-realms-academy/#rule-SRA-6",
        "text": played["rule"]["text"],
    }
    assert played["rule"]["text"].startswith("When you play a Ship, you must immediately use")
    assert played["outcome"]["combat"] == 2
    after = played["outcome"]["position"]

    # The outcome's position is a position again: attack The Hive from it, then Health.
    on_base = ruling_of(
        api.post(
            URL,
            data=json.dumps(
                {"position": after, "move": {"action": "attack", "target": "The Hive", "amount": 1}}
            ),
            content_type="application/json",
        )
    )
    assert (on_base["verdict"], on_base["code"], on_base["rule"]["id"]) == (
        "legal",
        "attack_made",
        "SRA-7",
    )
    assert on_base["outcome"]["destroyed"] == ["The Hive"]
    on_health = ruling_of(
        api.post(
            URL,
            data=json.dumps(
                {
                    "position": on_base["outcome"]["position"],
                    "move": {"action": "attack", "target": "Health"},
                }
            ),
            content_type="application/json",
        )
    )
    assert on_health["outcome"]["opponent_health"] == 14
    assert on_health["outcome"]["combat"] == 0


def test_buying_ram_for_one_coin(api, catalog):
    ruling = ruling_of(post(api, {"action": "buy", "card": "ram"}, active={"coins": 1}))
    assert (ruling["verdict"], ruling["code"], ruling["rule"]["id"]) == (
        "legal",
        "card_bought",
        "SRA-10",
    )
    assert ruling["outcome"]["coins"] == 0
    assert ruling["outcome"]["to_discard_pile"] == ["Ram"]
    assert ruling["outcome"]["position"]["shop_row"] == [
        "Freighter",
        "Corvette",
        "The Hive",
        "Survey Ship",
    ]
    assert ruling["alternatives"] == [] and ruling["missing"] == []


def test_survey_ship_two_coins_and_one_draw(api, catalog):
    ruling = ruling_of(
        post(
            api,
            {"action": "play", "card": "Survey Ship"},
            active={"hand": ["Survey Ship"], "coins": 7},
        )
    )
    assert ruling["outcome"]["gained"] == {"coin": 1, "coins_lost": 1, "draw": 1}
    assert ruling["outcome"]["coins"] == 8 and ruling["outcome"]["draws"] == 1
    assert (
        "1 Coin beyond the cap of 8 is lost: Ana had 7 Coins and gains 2 (SRA-R1)."
        in (ruling["warnings"])
    )
    # Survey Ship's kind is provisional: said so.
    assert [w for w in ruling["warnings"] if "rovisional" in w] == [
        "Provisional (inferred, not yet transcribed from the printed card): Survey Ship's kind "
        "(Ship). It is used here; an admin can correct it, and each card's page says where its "
        "values come from."
    ]


def test_playing_a_base_and_using_it_later(api, catalog):
    ruling = ruling_of(
        post(api, {"action": "play", "card": "The Hive"}, active={"hand": ["The Hive"]})
    )
    assert (ruling["code"], ruling["rule"]["id"]) == ("base_played", "SRA-7")
    assert ruling["outcome"]["position"]["active"]["bases"] == [
        {"card": "The Hive", "damage": 0, "used": []}
    ]


def test_ending_the_turn(api, catalog):
    ruling = ruling_of(
        post(
            api,
            {"action": "end_turn"},
            active={
                "hand": ["Scout"],
                "in_play": ["Viper"],
                "combat": 1,
                "deck": 2,
                "discard_pile": 0,
            },
        )
    )
    assert (ruling["code"], ruling["rule"]["id"]) == ("turn_ended", "SRA-11")
    active = ruling["outcome"]["position"]["active"]
    # Viper went to the discard pile first, then was shuffled into the new deck and drawn.
    assert (active["deck"], active["discard_pile"], active["drawn"]) == (0, 0, 3)
    assert ruling["outcome"]["turn_over"] is True


def test_a_winning_attack(api, catalog):
    ruling = ruling_of(
        post(
            api,
            {"action": "attack", "target": "health", "amount": 2},
            active={"combat": 3, "in_play": ["Imperial Frigate", "Imperial Frigate"]},
            opponent={"health": 2},
        )
    )
    assert (ruling["code"], ruling["rule"]["id"]) == ("opponent_defeated", "SRA-12")
    assert ruling["outcome"]["winner"] == "Ana"


def test_an_ally_of_a_transcribed_card(api, catalog):
    frigate = Card.objects.get(game__slug="star-realms-academy", slug="imperial-frigate")
    frigate.attributes = {**frigate.attributes, "ally": {"combat": 2}}
    frigate.field_provenance = {**frigate.field_provenance, "ally": "verified"}
    frigate.save()
    ruling = ruling_of(
        post(
            api,
            {"action": "use_ally", "card": "Imperial Frigate"},
            active={"in_play": ["Imperial Frigate", "Corvette"]},
        )
    )
    assert (ruling["verdict"], ruling["code"]) == ("legal", "ally_used")
    assert ruling["outcome"]["combat"] == 2
    again = ruling_of(
        post(
            api,
            {"action": "use_ally", "card": "Imperial Frigate"},
            active={"in_play": ["Imperial Frigate", "Corvette"], "used": ["Imperial Frigate"]},
        )
    )
    assert again["code"] == "already_used"
    as_object = ruling_of(
        post(
            api,
            {"action": "use_ally", "card": "Imperial Frigate"},
            active={
                "in_play": ["Imperial Frigate", "Corvette"],
                "used": [{"card": "Imperial Frigate", "ability": "ally"}],
            },
        )
    )
    assert as_object["code"] == "already_used"


# --- Illegal --------------------------------------------------------------------------------------


# A pool of 3 with its source in play (SRA-R8): two Imperial Frigates gave 4, 1 spent.
FRIGATES = {"combat": 3, "in_play": ["Imperial Frigate", "Imperial Frigate"]}


@pytest.mark.parametrize(
    "move, changes, code, rule",
    [
        ({"action": "play", "card": "Ram"}, {}, "not_in_hand", "SRA-5.1"),
        ({"action": "buy", "card": "Ram"}, {}, "not_enough_coins", "SRA-10"),
        (
            {"action": "buy", "card": "Trade Pod"},
            {"active": {"coins": 5}},
            "not_in_shop_row",
            "SRA-10",
        ),
        (
            {"action": "buy", "card": "Ram", "refill": "Scout"},
            {"active": {"coins": 5}},
            "not_a_shop_card",
            "SRA-R5",
        ),
        ({"action": "attack", "target": "health"}, {}, "no_combat", "SRA-8.4"),
        (
            {"action": "attack", "target": "health", "amount": 4},
            {"active": FRIGATES},
            "not_enough_combat",
            "SRA-R3",
        ),
        (
            {"action": "attack", "target": "health"},
            {"active": FRIGATES, "opponent": {"bases": ["The Hive"]}},
            "base_shields_health",
            "SRA-7",
        ),
        ({"action": "attack", "target": "Fleet HQ"}, {"active": FRIGATES}, "no_such_base", "SRA-7"),
        (
            {"action": "use_base", "card": "The Hive"},
            {"active": {"hand": ["The Hive"]}},
            "not_your_base",
            "SRA-7",
        ),
        ({"action": "use_ally", "card": "Imperial Frigate"}, {}, "not_in_play", "SRA-9"),
        (
            {"action": "use_ally", "card": "Scout"},
            {"active": {"hand": [], "in_play": ["Scout", "Viper"]}},
            "no_ally_ability",
            "SRA-9",
        ),
        (
            {"action": "use_ally", "card": "Imperial Frigate"},
            {"active": {"hand": [], "in_play": ["Imperial Frigate", "Ram"]}},
            "ally_not_ready",
            "SRA-9",
        ),
        (
            {"action": "play", "card": "Viper"},
            {"active": {"hand": [], "in_play": ["Viper"], "drawn": 1}},
            "too_many_copies",
            "SRA-3.3",
        ),
    ],
)
def test_illegal_moves(api, catalog, move, changes, code, rule):
    ruling = ruling_of(post(api, move, **changes))
    assert (ruling["verdict"], ruling["code"], ruling["rule"]["id"]) == ("illegal", code, rule)
    failed = [check for check in ruling["checks"] if not check["passed"]]
    assert len(failed) == 1 and failed[0]["rule"] == rule
    assert ruling["outcome"] is None
    assert {"action": "end_turn"} in ruling["alternatives"]


def test_an_illegal_move_lists_the_legal_ones(api, catalog):
    ruling = ruling_of(
        post(
            api,
            {"action": "attack", "target": "health", "amount": 2},
            active={"combat": 2, "coins": 1, "in_play": ["Imperial Frigate"]},
            opponent={"bases": [{"card": "The Hive", "damage": 0}]},
        )
    )
    assert ruling["alternatives"] == [
        {"action": "play", "card": "Scout"},
        {"action": "play", "card": "Viper"},
        {"action": "buy", "card": "Ram"},
        {"action": "attack", "target": "The Hive", "amount": 1},
        {"action": "end_turn"},
    ]


def test_once_per_turn_for_a_base(api, catalog):
    fleet = Card.objects.get(game__slug="star-realms-academy", slug="fleet-hq")
    fleet.attributes = {**fleet.attributes, "primary": {"coin": 2}}
    fleet.field_provenance = {**fleet.field_provenance, "primary": "verified"}
    fleet.save()
    fresh = ruling_of(
        post(
            api,
            {"action": "use_base", "card": "Fleet HQ"},
            active={"bases": [{"card": "Fleet HQ", "damage": 0, "used": []}]},
        )
    )
    assert (fresh["code"], fresh["outcome"]["coins"]) == ("base_used", 2)
    used = ruling_of(
        post(
            api,
            {"action": "use_base", "card": "Fleet HQ"},
            active={"bases": [{"card": "Fleet HQ", "damage": 0, "used": ["primary"]}]},
        )
    )
    assert (used["verdict"], used["code"], used["rule"]["id"]) == (
        "illegal",
        "already_used",
        "SRA-R4",
    )


# --- Needs information ----------------------------------------------------------------------------


def test_an_unknown_cost_names_the_card_field_and_admin_page(api, catalog):
    ruling = ruling_of(post(api, {"action": "buy", "card": "Corvette"}, active={"coins": 8}))
    assert (ruling["verdict"], ruling["code"], ruling["rule"]["id"]) == (
        "needs_information",
        "card_value_unknown",
        "SRA-F2",
    )
    admin_url = card_admin("corvette")
    assert ruling["missing"] == [
        {
            "card": "Corvette",
            "field": "cost",
            "label": "cost",
            "detail": f"Corvette's cost is not known yet. An admin can enter it at {admin_url}.",
            "admin_url": admin_url,
            "card_url": "/games/star-realms-academy/cards/corvette/",
        }
    ]
    assert ruling["alternatives"] == [] and ruling["outcome"] is None


@pytest.mark.parametrize(
    "move, changes, missing",
    [
        (
            {"action": "play", "card": "Corvette"},
            {"active": {"hand": ["Corvette"]}},
            [("Corvette", "primary")],
        ),
        (
            {"action": "use_base", "card": "Recycling Station"},
            {"active": {"bases": ["Recycling Station"]}},
            [("Recycling Station", "primary")],
        ),
        (
            {"action": "use_ally", "card": "Imperial Frigate"},
            {"active": {"in_play": ["Imperial Frigate", "Survey Ship"]}},
            [("Imperial Frigate", "ally")],
        ),
        (
            {"action": "attack", "target": "Blob World"},
            {
                "active": {"combat": 2, "in_play": ["Imperial Frigate"]},
                "opponent": {"bases": [{"card": "Blob World", "damage": 3}]},
            },
            [("Blob World", "defense")],
        ),
    ],
)
def test_rulings_that_need_unknown_values(api, catalog, move, changes, missing):
    ruling = ruling_of(post(api, move, **changes))
    assert ruling["verdict"] == "needs_information"
    assert [(m["card"], m["field"]) for m in ruling["missing"]] == missing
    assert all(m["admin_url"].startswith("/admin/cards/card/") for m in ruling["missing"])


# --- Impossible positions -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "changes, path, code",
    [
        ({"active": {"health": 16}}, "position.active.health", "health_above_cap"),
        ({"opponent": {"health": 0}}, "position.opponent.health", "game_over"),
        ({"active": {"coins": 9}}, "position.active.coins", "coins_above_cap"),
        (
            {"active": {"hand": ["Ram", "Ram", "Ram", "Ram"]}},
            "position.shop_row[2]",
            "too_many_copies",
        ),
        ({"active": {"hand": ["Viper", "Viper"]}}, "position.active.hand[1]", "too_many_copies"),
        (
            {"opponent": {"bases": [{"card": "The Hive", "damage": 1}]}},
            "position.opponent.bases[0].damage",
            "base_destroyed",
        ),
        (
            {
                "shop_row": [
                    "Ram",
                    "Freighter",
                    "Corvette",
                    "Trade Pod",
                    "Mothership",
                    "Survey Ship",
                ]
            },
            "position.shop_row",
            "shop_row_size",
        ),
        ({"shop_row": ["Scout"]}, "position.shop_row[0]", "not_a_shop_card"),
        (
            {"active": {"bases": ["Viper"], "hand": []}},
            "position.active.bases[0].card",
            "not_a_base",
        ),
        ({"active": {"in_play": ["The Hive"]}}, "position.active.in_play[0]", "not_a_ship"),
        ({"active": {"used": ["Corvette"]}}, "position.active.used[0]", "used_not_in_play"),
    ],
)
def test_impossible_positions_name_the_contradiction(api, catalog, changes, path, code):
    before = SavedResult.objects.count()
    payload = assert_error_body(
        post(api, {"action": "end_turn"}, **changes), 400, "impossible_position"
    )
    assert [(e["path"], e["code"]) for e in payload["errors"]] == [(path, code)]
    assert payload["detail"] == payload["errors"][0]["detail"]
    assert SavedResult.objects.count() == before  # nothing saved


def test_several_contradictions_at_once(api, catalog):
    payload = assert_error_body(
        post(api, {"action": "end_turn"}, active={"health": 20, "coins": 12}),
        400,
        "impossible_position",
    )
    assert [e["code"] for e in payload["errors"]] == ["health_above_cap", "coins_above_cap"]
    assert payload["detail"].startswith("This position cannot exist: ")


# --- Invalid requests -----------------------------------------------------------------------------


def test_a_card_name_typo_has_suggestions(api, catalog):
    payload = assert_error_body(
        post(api, {"action": "play", "card": "Imperial Frigat"}, active={"hand": ["Survey Shp"]}),
        400,
        "invalid_input",
    )
    entries = {e["path"]: e for e in payload["errors"]}
    assert entries["position.active.hand[0]"]["code"] == "unknown_card"
    assert entries["position.active.hand[0]"]["suggestions"] == ["Survey Ship"]
    assert entries["move.card"]["suggestions"] == ["Imperial Frigate"]


@pytest.mark.parametrize(
    "data, path, code",
    [
        ({"move": {"action": "end_turn"}}, "position", "required"),
        ({"position": [], "move": {"action": "end_turn"}}, "position", "invalid_type"),
        (
            {
                "position": {
                    "active": {"health": 15, "coins": 0, "hand": []},
                    "opponent": {"health": 15},
                }
            },
            "move",
            "required",
        ),
        (
            {
                "position": {"active": {"health": 15, "coins": 0}, "opponent": {"health": 15}},
                "move": {"action": "end_turn"},
            },
            "position.active.hand",
            "required",
        ),
        (
            {
                "position": {
                    "active": {"health": "lots", "coins": 0, "hand": []},
                    "opponent": {"health": 15},
                },
                "move": {"action": "end_turn"},
            },
            "position.active.health",
            "invalid_type",
        ),
        (
            {
                "position": {
                    "active": {"health": -1, "coins": 0, "hand": []},
                    "opponent": {"health": 15},
                },
                "move": {"action": "end_turn"},
            },
            "position.active.health",
            "invalid_number",
        ),
        (
            {
                "position": {
                    "active": {"health": 15, "coins": 0, "hand": [], "mana": 3},
                    "opponent": {"health": 15},
                },
                "move": {"action": "end_turn"},
            },
            "position.active.mana",
            "unknown_field",
        ),
        (
            {
                "position": {
                    "active": {
                        "health": 15,
                        "coins": 0,
                        "hand": [],
                        "bases": [{"card": "The Hive", "used": ["secondary"]}],
                    },
                    "opponent": {"health": 15},
                },
                "move": {"action": "end_turn"},
            },
            "position.active.bases[0].used[0]",
            "invalid_ability",
        ),
        (
            {
                "position": {
                    "active": {"health": 15, "coins": 0, "hand": []},
                    "opponent": {"health": 15},
                },
                "move": {"action": "scrap"},
            },
            "move.action",
            "invalid_action",
        ),
        (
            {
                "position": {
                    "active": {"health": 15, "coins": 0, "hand": []},
                    "opponent": {"health": 15},
                },
                "move": {"action": "play"},
            },
            "move.card",
            "required",
        ),
        (
            {
                "position": {
                    "active": {"health": 15, "coins": 0, "hand": []},
                    "opponent": {"health": 15},
                },
                "move": {"action": "attack"},
            },
            "move.target",
            "required",
        ),
        (
            {
                "position": {
                    "active": {"health": 15, "coins": 0, "hand": []},
                    "opponent": {"health": 15},
                },
                "move": {"action": "attack", "target": "health", "amount": 0},
            },
            "move.amount",
            "invalid_number",
        ),
        (
            {
                "position": {
                    "active": {"health": 15, "coins": 0, "hand": []},
                    "opponent": {"health": 15},
                },
                "move": {"action": "end_turn", "card": "Ram"},
            },
            "move.card",
            "unexpected_field",
        ),
        (
            {
                "position": {
                    "active": {"health": 15, "coins": 0, "hand": "Scout"},
                    "opponent": {"health": 15},
                },
                "move": {"action": "end_turn"},
            },
            "position.active.hand",
            "invalid_type",
        ),
    ],
)
def test_invalid_requests(api, catalog, data, path, code):
    payload = assert_error_body(
        api.post(URL, data=json.dumps(data), content_type="application/json"), 400, "invalid_input"
    )
    assert (path, code) in [(e["path"], e["code"]) for e in payload["errors"]], payload


def test_an_unknown_action_suggests_the_close_one(api, catalog):
    payload = assert_error_body(
        post(api, {"action": "use_allly", "card": "Ram"}), 400, "invalid_input"
    )
    assert payload["errors"][0]["suggestions"][0] == "use_ally"


def test_malformed_json_and_not_an_object(api, catalog):
    assert_error_body(
        api.post(URL, data="{", content_type="application/json"), 400, "malformed_request"
    )
    assert_error_body(
        api.post(URL, data="[]", content_type="application/json"), 400, "invalid_input"
    )


def test_the_ruling_is_saved_and_given_back_byte_for_byte(api, catalog):
    response = post(api, {"action": "play", "card": "Scout"})
    ruling = ruling_of(response)
    again = api.get(f"/api/results/{ruling['id']}/")
    assert again.content == response.content
    assert ruling["url"] == f"/r/{ruling['id']}"
    page = api.get(ruling["url"])
    assert page.status_code == 200 and "Ruling: Star Realms Academy" in page.content.decode()


# --- Never a server error -------------------------------------------------------------------------

NAMES = [
    "Scout",
    "Viper",
    "Ram",
    "The Hive",
    "Corvette",
    "Imperial Frigate",
    "Survey Ship",
    "Fleet HQ",
    "Blob World",
    "Barter World",
    "scout",
    "nonsense",
    7,
    None,
]
name = st.sampled_from(NAMES)
number = st.one_of(st.integers(-3, 20), st.sampled_from([None, "3", 2.0, True]))


@st.composite
def requests(draw):
    active = {
        "name": draw(st.sampled_from(["Ana", "", None, 3])),
        "health": draw(number),
        "coins": draw(number),
        "hand": draw(st.lists(name, max_size=6)),
        "in_play": draw(st.lists(name, max_size=4)),
        "bases": draw(
            st.lists(
                st.one_of(
                    name,
                    st.fixed_dictionaries(
                        {
                            "card": name,
                            "damage": number,
                            "used": st.lists(st.sampled_from(["primary", "ally", "x"]), max_size=2),
                        }
                    ),
                ),
                max_size=3,
            )
        ),
        "combat": draw(number),
        "used": draw(st.lists(name, max_size=2)),
    }
    if draw(st.booleans()):
        active.update(deck=draw(number), discard_pile=draw(number), drawn=draw(number))
    opponent = {
        "name": "Ben",
        "health": draw(number),
        "bases": draw(
            st.lists(st.fixed_dictionaries({"card": name, "damage": number}), max_size=3)
        ),
    }
    move = {
        "action": draw(
            st.sampled_from(["play", "use_base", "use_ally", "buy", "attack", "end_turn", "fly"])
        )
    }
    for key, values in (
        ("card", name),
        ("target", st.one_of(name, st.just("health"))),
        ("amount", number),
        ("refill", name),
    ):
        if draw(st.booleans()):
            move[key] = draw(values)
    return {
        "position": {
            "active": active,
            "opponent": opponent,
            "shop_row": draw(st.lists(name, max_size=6)),
        },
        "move": move,
    }


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=requests())
def test_any_request_is_a_ruling_or_a_400(api, catalog, data):
    response = api.post(URL, data=json.dumps(data), content_type="application/json")
    assert response.status_code in (200, 400), response.content
    body = response.json()
    if response.status_code == 200:
        assert set(body) == RULING_KEYS
        assert body["verdict"] in ("legal", "illegal", "needs_information")
    else:
        assert body["code"] in ("invalid_input", "impossible_position")
        assert all(entry["path"] for entry in body["errors"])


# --- Issue 21: SRA-R8 and answers that never contradict themselves ---------------------------------


def test_sra_r8_a_combat_pool_with_no_source_is_impossible(api, catalog):
    payload = assert_error_body(
        post(api, {"action": "attack", "target": "health", "amount": 3}, active={"combat": 3}),
        400,
        "impossible_position",
    )
    assert payload["errors"] == [
        {
            "path": "position.active.combat",
            "code": "combat_without_source",
            "detail": "Ana has 3 Combat in the pool, but nothing is in play and no base ability was "
            "used this turn: a Combat pool comes only from abilities used this turn, and "
            "the ships that gave it stay in play until the end of the turn (SRA-R8).",
        }
    ]
    # The legal neighbour: the Frigates that gave it are in play.
    ruling = ruling_of(
        post(api, {"action": "attack", "target": "health", "amount": 3}, active=FRIGATES)
    )
    assert (ruling["verdict"], ruling["code"]) == ("legal", "attack_made")


def test_sra_r8_a_pool_only_unknown_values_could_explain_needs_information(api, catalog):
    ruling = ruling_of(
        post(
            api,
            {"action": "attack", "target": "health", "amount": 3},
            active={"combat": 3, "in_play": ["Corvette"]},
        )
    )
    assert (ruling["verdict"], ruling["code"], ruling["rule"]["id"]) == (
        "needs_information",
        "card_value_unknown",
        "SRA-R8",
    )
    assert [(m["card"], m["field"], m["admin_url"]) for m in ruling["missing"]] == [
        ("Corvette", "primary", card_admin("corvette"))
    ]
    assert "whether Corvette's primary ability explains the rest is not known" in ruling["reason"]


def test_sra_8_survey_ship_with_no_card_to_draw_says_so_in_its_reason(api, catalog):
    ruling = ruling_of(
        post(
            api,
            {"action": "play", "card": "Survey Ship"},
            active={"hand": ["Survey Ship"], "deck": 0, "discard_pile": 0},
        )
    )
    assert ruling["reason"] == (
        "Legal: Ana plays Survey Ship and gets 2 Coins (its 1 Draw draws "
        "no card: none is left to draw, SRA-11.4)."
    )
    assert any("can draw only 0 cards of 1" in warning for warning in ruling["warnings"])
