"""POST /api/games/factions/rulings/ against the shipped catalog: every verdict, the ruling body
of API.md, every error, the saved result, and names read from the catalog (renamable)."""

from __future__ import annotations

import json

import pytest

from cards.models import AttributeDefinition, Card
from results.models import SavedResult

pytestmark = pytest.mark.django_db

URL = "/api/games/factions/rulings/"
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
AMBER = ["Harbour Captain", "Tide Archer", "Dune Rider", "Net Caster", "Lighthouse Keeper"]
ASHEN = ["Peak Sentinel", "Ember Smith", "Cliff Runner", "Ash Seer", "Stone Drummer"]


def c(name: str, faction: str) -> dict:
    return {"card": name, "faction": faction}


def units(names, dead=()) -> list[dict]:
    return [{"name": n, "alive": n not in dead} for n in names]


def table(ana=(), ben=(), *, dead_ashen=(), dead_amber=(), **extra) -> dict:
    return {
        "factions": [
            {"name": "amber-coast", "controller": "Ana", "units": units(AMBER, dead_amber)},
            {"name": "ashen-peaks", "controller": "Ben", "units": units(ASHEN, dead_ashen)},
        ],
        "players": [
            {"name": "Ana", "hand": list(ana), "lost_turns": 0},
            {"name": "Ben", "hand": list(ben), "lost_turns": 0},
        ],
        "turn": "Ana",
        **extra,
    }


ATTACK_PEAK = {
    "action": "play",
    "card": c("Attack", "amber-coast"),
    "target_unit": {"faction": "ashen-peaks", "unit": "Peak Sentinel"},
}


def post(api, data):
    return api.post(URL, data=json.dumps(data), content_type="application/json")


def ruling_of(api, position, move) -> dict:
    response = post(api, {"position": position, "move": move})
    body = response.json()
    assert response.status_code == 200, body
    assert set(body) == RULING_KEYS and body["game"] == "factions"
    return body


def error_of(api, data, status=400, code="invalid_input") -> dict:
    response = (
        post(api, data)
        if not isinstance(data, str)
        else api.post(URL, data=data, content_type="application/json")
    )
    body = response.json()
    assert response.status_code == status, body
    assert set(body) == {"status", "code", "detail", "errors"}
    assert (body["status"], body["code"]) == (status, code)
    return body


def entries(body) -> list[tuple[str, str]]:
    return [(e["path"], e["code"]) for e in body["errors"]]


# --- Verdicts -------------------------------------------------------------------------------------


def test_a_legal_attack_waits_for_the_defence(api, catalog):
    ruling = ruling_of(
        api, table([c("Attack", "amber-coast")], [c("Defence", "ashen-peaks")]), ATTACK_PEAK
    )
    assert (ruling["verdict"], ruling["code"]) == ("legal", "legal_attack")
    assert ruling["rule"] == {
        "id": "FAC-6",
        "title": "Attack",
        "text": "ATTACK defeats one enemy unit; the attacked player may block it with DEFENCE "
        "from hand, after which both cards are discarded.",
        "url": "/games/factions/#rule-FAC-6",
    }
    assert all(
        set(check) == {"rule", "passed", "detail"} and check["passed"] for check in ruling["checks"]
    )
    assert ruling["outcome"]["pending"]["defender"] == "Ben"
    assert ruling["outcome"]["if_let_through"]["units"] == [
        {"faction": "ashen-peaks", "unit": "Peak Sentinel", "change": "defeated"}
    ]
    assert ruling["alternatives"] == [] and ruling["missing"] == [] and ruling["warnings"] == []
    assert ruling["url"] == f"/r/{ruling['id']}"
    saved = api.get(f"/api/results/{ruling['id']}/")
    assert saved.json() == ruling
    result = SavedResult.objects.get(id=ruling["id"])
    assert result.kind == "ruling" and result.game.slug == "factions"


def test_the_last_unit_falls_conquest_elimination_and_the_winner(api, catalog):
    position = table(
        [c("Ambush", "amber-coast"), c("Spy", "ashen-peaks")],
        [c("Defence", "ashen-peaks")],
        dead_ashen=ASHEN[1:],
    )
    move = {
        "action": "play",
        "card": c("ambush", "Amber Coast"),
        "target_unit": {"unit": "peak-sentinel"},
    }  # any case, slug; the faction inferred
    ruling = ruling_of(api, position, move)
    assert (ruling["verdict"], ruling["code"], ruling["rule"]["id"]) == (
        "legal",
        "legal_ambush",
        "FAC-12",
    )
    outcome = ruling["outcome"]
    assert outcome["conquests"] == [
        {
            "faction": "ashen-peaks",
            "from": "Ben",
            "to": "Ana",
            "defeated_units": ASHEN,
            "no_longer_enemy": [c("Spy", "ashen-peaks")],
        }
    ]
    assert outcome["eliminated"] == ["Ben"] and outcome["winner"] == "Ana"
    assert "Ana wins (FAC-18, FAC-R9)" in ruling["reason"]


def test_an_illegal_move_lists_the_legal_ones(api, catalog):
    ruling = ruling_of(
        api,
        table([c("Defence", "amber-coast"), c("Doctor", "amber-coast")]),
        {"action": "play", "card": c("Defence", "amber-coast")},
    )
    assert (ruling["verdict"], ruling["code"], ruling["rule"]["id"]) == (
        "illegal",
        "defence_is_reactive",
        "FAC-7",
    )
    assert ruling["checks"][-1]["passed"] is False
    assert ruling["outcome"] is None
    assert ruling["alternatives"] == [
        {"action": "discard", "card": c("Defence", "amber-coast")},
        {"action": "discard", "card": c("Doctor", "amber-coast")},
        {"action": "pass"},
        {"action": "end_turn"},
    ]


def test_defence_and_its_limits(api, catalog):
    pending = {
        "card": c("Attack", "amber-coast"),
        "by": "Ana",
        "target_unit": {"faction": "ashen-peaks", "unit": "Ash Seer"},
    }
    position = table([c("Attack", "amber-coast")], [c("Defence", "amber-coast")], pending=pending)
    ruling = ruling_of(api, position, {"action": "defend", "card": c("Defence", "amber-coast")})
    assert (ruling["verdict"], ruling["code"]) == ("legal", "legal_defence")
    ruling = ruling_of(api, position, {"action": "discard", "card": c("Attack", "amber-coast")})
    assert (ruling["verdict"], ruling["code"]) == ("illegal", "awaiting_answer")
    position["pending"]["card"] = c("Ambush", "amber-coast")
    ruling = ruling_of(api, position, {"action": "defend", "card": c("Defence", "amber-coast")})
    assert (ruling["verdict"], ruling["code"]) == ("illegal", "defence_against_ambush")
    assert ruling["alternatives"] == [{"action": "pass"}]
    # One pair of brackets (issue 23: "an AMBUSH (Ambush (Amber Coast))").
    assert ruling["reason"].startswith("The pending card, Ambush (Amber Coast), is an AMBUSH")


def test_discarding_an_enemy_sabotage_and_a_lost_turn(api, catalog):
    position = table([c("Sabotage", "ashen-peaks")])
    ruling = ruling_of(api, position, {"action": "discard", "card": c("Sabotage", "ashen-peaks")})
    assert (ruling["code"], ruling["rule"]["id"]) == ("legal_discard", "FAC-F2")
    assert ruling["outcome"]["turns_lost"] == [{"player": "Ana", "before": 0, "after": 1}]
    position = table(ben=[c("Attack", "ashen-peaks")], turn="Ben", turn_lost=True)
    ruling = ruling_of(
        api,
        position,
        {
            **ATTACK_PEAK,
            "card": c("Attack", "ashen-peaks"),
            "target_unit": {"unit": "Harbour Captain"},
        },
    )
    assert (ruling["verdict"], ruling["code"], ruling["rule"]["id"]) == (
        "illegal",
        "turn_lost",
        "FAC-R3",
    )
    ruling = ruling_of(api, position, {"action": "end_turn"})
    assert (ruling["verdict"], ruling["code"]) == ("legal", "legal_lost_turn")


def test_passing_and_ending_the_turn(api, catalog):
    six = [c("Attack", "amber-coast")] * 5 + [c("Spy", "amber-coast")]
    ruling = ruling_of(api, table(six), {"action": "pass"})
    assert (ruling["verdict"], ruling["code"]) == ("illegal", "pass_over_limit")
    ruling = ruling_of(api, table(six), {"action": "end_turn"})
    assert (ruling["verdict"], ruling["code"]) == ("illegal", "hand_over_limit")
    ruling = ruling_of(api, table(six[:5]), {"action": "pass"})
    assert (ruling["verdict"], ruling["code"]) == ("legal", "legal_pass")
    assert ruling["outcome"]["next_turn"] == {"player": "Ben", "lost": False, "draws": True}


def test_needs_information(api, catalog):
    ruling = ruling_of(
        api, table([c("Spy", "amber-coast")]), {"action": "play", "card": c("Spy", "amber-coast")}
    )
    assert (ruling["verdict"], ruling["code"]) == ("needs_information", "target_required")
    assert ruling["missing"] == [
        {"path": "move.target_player", "detail": "The opponent Ana's SPY is played on."}
    ]
    assert ruling["outcome"] is None and ruling["alternatives"] == []
    position = table([c("Attack", "amber-coast")])
    position["factions"][1]["units"] = units(ASHEN[:1])
    ruling = ruling_of(api, position, {**ATTACK_PEAK, "target_unit": {"unit": "Ash Seer"}})
    assert (ruling["verdict"], ruling["code"]) == ("needs_information", "unit_state_unknown")
    assert ruling["warnings"][0].startswith("The position does not list")


def test_an_action_the_catalog_does_not_give_is_not_guessed(api, catalog):
    card = Card.objects.get(game__slug="factions", slug="spy")
    card.attributes = {**card.attributes, "action": None}
    card.field_provenance = {**card.field_provenance, "action": "unknown"}
    card.save()
    ruling = ruling_of(
        api,
        table([c("Spy", "amber-coast")]),
        {"action": "play", "card": c("Spy", "amber-coast"), "target_player": "Ben"},
    )
    assert (ruling["verdict"], ruling["code"]) == ("needs_information", "action_unknown")


def test_renamed_factions_and_units_come_from_the_catalog(api, catalog):
    definition = AttributeDefinition.objects.get(game__slug="factions", key="faction")
    definition.choices = [
        {**choice, "label": "The Gilded Shore"} if choice["value"] == "amber-coast" else choice
        for choice in definition.choices
    ]
    definition.save()
    card = Card.objects.get(game__slug="factions", slug="peak-sentinel")
    card.name = "Summit Watch"
    card.save()
    position = table([c("Attack", "The Gilded Shore")])
    position["factions"][1]["units"][0]["name"] = "Summit Watch"
    ruling = ruling_of(
        api,
        position,
        {
            **ATTACK_PEAK,
            "card": c("Attack", "the gilded shore"),
            "target_unit": {"unit": "Summit Watch"},
        },
    )
    assert ruling["verdict"] == "legal"
    assert (
        "Ana attacks Summit Watch (Ashen Peaks) with Attack (The Gilded Shore)" in ruling["reason"]
    )


# --- Errors ---------------------------------------------------------------------------------------


def test_not_json_and_not_an_object(api, catalog):
    error_of(api, "{not json", code="malformed_request")
    body = error_of(api, [1, 2])
    assert entries(body) == [("body", "invalid_type")]


def test_missing_and_unknown_fields(api, catalog):
    body = error_of(api, {"position": {}, "mvoe": {}})
    assert set(entries(body)) == {
        ("mvoe", "unknown_field"),
        ("move", "required"),
        ("position.players", "required"),
        ("position.factions", "required"),
        ("position.turn", "required"),
    }
    assert next(e for e in body["errors"] if e["path"] == "mvoe")["suggestions"] == ["move"]


def test_wrong_types(api, catalog):
    position = table([c("Attack", "amber-coast")])
    position["players"][0]["lost_turns"] = -1
    position["players"][1]["hand"] = "Defence"
    position["factions"][0]["units"][0]["alive"] = "yes"
    position["turn_lost"] = "no"
    body = error_of(api, {"position": position, "move": {"action": "attack"}})
    assert set(entries(body)) == {
        ("position.players[0].lost_turns", "invalid_count"),
        ("position.players[1].hand", "invalid_type"),
        ("position.factions[0].units[0].alive", "invalid_type"),
        ("position.turn_lost", "invalid_type"),
        ("move.action", "invalid_action"),
    }


def test_names_that_name_nothing(api, catalog):
    position = table(
        [
            c("Atack", "amber-coast"),
            c("Harbour Captain", "amber-coast"),
            c("Spy", "Amber Cost"),
            c(7, "amber-coast"),
        ]
    )
    position["factions"][1]["units"][0]["name"] = "Attack"
    position["factions"][1]["controller"] = "Bne"
    body = error_of(
        api,
        {
            "position": position,
            "move": {**ATTACK_PEAK, "target_unit": {"faction": "amber-coast", "unit": "Ash Seer"}},
        },
    )
    found = {e["path"]: e for e in body["errors"]}
    assert found["position.players[0].hand[0].card"]["code"] == "unknown_card"
    assert found["position.players[0].hand[0].card"]["suggestions"][0] == "Attack"
    assert found["position.players[0].hand[1].card"]["code"] == "not_an_action_card"
    assert found["position.players[0].hand[2].faction"]["code"] == "unknown_faction"
    assert found["position.players[0].hand[2].faction"]["suggestions"][0] == "Amber Coast"
    assert found["position.players[0].hand[3].card"]["code"] == "invalid_card"
    assert found["position.factions[1].units[0].name"]["code"] == "not_a_unit"
    assert found["position.factions[1].controller"]["code"] == "unknown_player"
    assert found["position.factions[1].controller"]["suggestions"] == ["Ben"]
    assert found["move.target_unit.faction"]["code"] == "wrong_faction"
    assert found["move.target_unit.faction"]["detail"] == (
        "Ash Seer is a unit of Ashen Peaks, not of Amber Coast."
    )


def test_a_move_without_an_action_and_fields_inside_optional_objects(api, catalog):
    body = error_of(
        api, {"position": table(), "move": {"target_unit": {"unit": "Ash Seer", "fation": "x"}}}
    )
    assert entries(body) == [("move.action", "required")]
    assert (
        body["detail"] == "move.action is required: one of play, defend, discard, pass, end_turn."
    )
    body = error_of(
        api,
        {
            "position": table(
                pending={
                    "card": {"crad": "Attack"},
                    "by": "Ana",
                    "target_unit": {"unit": "Ash Seer"},
                }
            ),
            "move": {"action": "pass", "target_unit": {"unit": "Ash Seer", "fation": "x"}},
        },
    )
    found = {e["path"]: e for e in body["errors"]}
    assert found["position.pending.card.card"]["detail"] == (
        "position.pending.card.card is required: the action card's name."
    )
    assert found["position.pending.card.crad"]["suggestions"] == ["card"]
    assert found["move.target_unit.fation"]["suggestions"] == ["faction"]


def test_duplicate_players_and_unknown_options(api, catalog):
    position = table()
    position["players"][1]["name"] = "ana"
    position["options"] = {"house_rule": True}
    body = error_of(api, {"position": position, "move": {"action": "pass"}})
    assert ("position.players[1].name", "duplicate_player") in entries(body)
    assert ("position.options.house_rule", "unknown_option") in entries(body)


def test_too_many_players(api, catalog):
    position = table()
    position["players"] = [{"name": f"P{i}", "hand": []} for i in range(21)]
    body = error_of(api, {"position": position, "move": {"action": "pass"}})
    assert ("position.players", "too_many") in entries(body)


@pytest.mark.parametrize(
    "change, path, code",
    [
        (
            lambda p: p["players"][0]["hand"].extend([c("Doctor", "amber-coast")] * 3),
            "position.players[0].hand[2]",
            "too_many_copies",
        ),
        (
            lambda p: p["factions"][1]["units"].append({"name": "Tide Archer", "alive": True}),
            "position.factions[1].units[5]",
            "unit_in_two_factions",
        ),
        (
            lambda p: p["factions"].append(
                {"name": "Ashen Peaks", "controller": "Ana", "units": []}
            ),
            "position.factions[2]",
            "faction_two_controllers",
        ),
        (
            lambda p: p["factions"].append(
                {"name": "frost-reach", "controller": "Ben", "units": []}
            ),
            "position.factions",
            "faction_count",
        ),
        (
            lambda p: p["players"][0]["hand"].append(c("Attack", "frost-reach")),
            "position.players[0].hand[0]",
            "faction_not_in_play",
        ),
    ],
)
def test_impossible_positions(api, catalog, change, path, code):
    position = table()
    change(position)
    body = error_of(
        api, {"position": position, "move": {"action": "pass"}}, code="impossible_position"
    )
    assert (path, code) in entries(body)
    assert body["detail"]


def with_a_hand_for_an_absent_player() -> dict:
    """Ben holds a card but controls no surviving unit (the Ashen Peaks, all dead, go to Ana),
    while Cleo's Verdant March plays on: an eliminated player with a hand (FAC-R9)."""
    position = table(ben=[c("Spy", "ashen-peaks")])
    position["factions"].append(
        {"name": "verdant-march", "controller": "Cleo", "units": units(["Grove Warden"])}
    )
    position["factions"][1]["controller"] = "Ana"
    position["factions"][1]["units"] = units(ASHEN, dead=ASHEN)
    position["players"].append({"name": "Cleo", "hand": []})
    return position


def test_a_hand_for_an_absent_player(api, catalog):
    position = with_a_hand_for_an_absent_player()
    body = error_of(
        api, {"position": position, "move": {"action": "pass"}}, code="impossible_position"
    )
    assert entries(body) == [("position.players[1].hand", "hand_for_absent_player")]
    assert body["detail"].startswith("Ben controls no surviving unit")


def test_a_finished_game_is_not_ruled_on(api, catalog):
    body = error_of(
        api,
        {"position": table(dead_ashen=ASHEN), "move": {"action": "pass"}},
        code="impossible_position",
    )
    assert entries(body) == [("position", "game_over")]


def test_get_is_not_allowed(api, catalog):
    response = api.get(URL)
    assert response.status_code == 405 and response.json()["code"] == "method_not_allowed"


def test_game_options_are_read_from_the_catalog(api, catalog):
    from cards.models import Game, GameOption

    GameOption.objects.create(
        game=Game.objects.get(slug="factions"),
        key="variant",
        label="A variant",
        value="a",
        choices=["a", "b"],
    )
    position = table()
    position["options"] = {"variant": "c"}
    body = error_of(api, {"position": position, "move": {"action": "pass"}})
    assert entries(body) == [("position.options.variant", "invalid_option")]
    position["options"] = {"variant": "b"}
    ruling = ruling_of(api, position, {"action": "pass"})
    assert ruling["warnings"] == ["The option A variant is not applied by this tool's rulings."]


def test_a_pending_attack_that_cannot_be(api, catalog):
    pending = {
        "card": c("Spy", "amber-coast"),
        "by": "Ben",
        "target_unit": {"faction": "amber-coast", "unit": "Net Caster"},
    }
    body = error_of(
        api,
        {"position": table(pending=pending), "move": {"action": "pass"}},
        code="impossible_position",
    )
    assert set(entries(body)) == {
        ("position.pending.card", "pending_not_an_attack"),
        ("position.pending.by", "pending_not_by_turn_player"),
    }
    assert body["detail"].startswith("This position cannot exist: ")


def test_an_attack_on_a_hand_not_given_whole_waits_for_the_defender(api):
    """hand_complete false: the defender's hand is another phone's. The ATTACK is not ruled
    unblockable from an empty list; it waits for the answer. Its neighbour, the same empty hand
    given whole, holds no DEFENCE, so the attack resolves at once."""
    from tests.test_tables_factions import ATTACK, SETUP, c

    def ruling(ben_complete):
        players = [
            {"name": "Ana", "hand": [c("Attack", "amber-coast")], "faction": "amber-coast"},
            {"name": "Ben", "hand": [], "faction": "ashen-peaks", "hand_complete": ben_complete},
        ]
        response = api.post(
            "/api/games/factions/rulings/",
            data={
                "position": {"factions": SETUP["factions"], "players": players, "turn": "Ana"},
                "move": ATTACK,
            },
            format="json",
        )
        assert response.status_code == 200, response.json()
        return response.json()

    hidden = ruling(False)
    assert hidden["verdict"] == "legal" and hidden["outcome"]["pending"]["defender"] == "Ben"
    assert hidden["outcome"]["units"] == [] and "Ben" not in hidden["outcome"]["hand_sizes"]
    whole = ruling(True)
    assert whole["verdict"] == "legal" and whole["outcome"]["pending"] is None
    assert "Ben holds no DEFENCE" in whole["reason"]
    assert whole["outcome"]["units"] == [
        {"faction": "ashen-peaks", "unit": "Peak Sentinel", "change": "defeated"}
    ]
