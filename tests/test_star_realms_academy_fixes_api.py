"""Issue 32 through the API (rulings and a whole turn), against the shipped catalog: a draw the
position does not fix is stated as the counts decide (SRA-R9), a card that a space refilled
unnamed may hold needs that refill (SRA-R10), Combat beyond a base's defense stays in the pool
(SRA-R11). Each with its neighbour that the position does fix."""

import json

import pytest

pytestmark = pytest.mark.django_db

RULINGS = "/api/games/star-realms-academy/rulings/"
SCORE = "/api/games/star-realms-academy/score/"
KEPT_ALL = ["Scout", "Scout", "Scout", "Scout", "Scout", "Viper"]
UP_TO_THREE = {"at_least": 0, "at_most": 3}


def issue_position(**active):
    """The issue's minimal position: Ana kept every card; no deck or discard pile count."""
    return {
        "active": {
            "name": "Ana",
            "health": 15,
            "coins": 0,
            "hand": list(KEPT_ALL),
            "in_play": [],
            "bases": [],
            "combat": 0,
            "used": [],
            **active,
        },
        "opponent": {"name": "Ben", "health": 15, "coins": 1, "bases": []},
        "shop_row": ["Freighter", "Trade Pod", "Mothership", "Central Office", "Ram"],
    }


def post(api, url, data):
    response = api.post(url, data=json.dumps(data), content_type="application/json")
    body = response.json()
    assert response.status_code == 200, body
    return body


def rule_ids(body):
    return [check["rule"] for check in body["checks"]]


# --- SRA-R9 ---------------------------------------------------------------------------------------


def test_the_issues_end_of_turn_without_counts_draws_up_to_three(api, catalog):
    body = post(api, RULINGS, {"position": issue_position(), "move": {"action": "end_turn"}})
    assert (body["verdict"], body["code"]) == ("legal", "turn_ended")
    assert body["outcome"]["drawn"] == UP_TO_THREE and body["outcome"]["draws"] == UP_TO_THREE
    assert (
        "draws up to 3 cards (give the deck and discard pile counts to know how many)"
        in body["reason"]
    )
    assert "draws 3" not in body["reason"]
    assert "SRA-R9" in rule_ids(body)
    assert any("SRA-R9" in warning for warning in body["warnings"])


def test_the_issues_end_of_turn_with_empty_counts_draws_none(api, catalog):
    body = post(
        api,
        RULINGS,
        {"position": issue_position(deck=0, discard_pile=0), "move": {"action": "end_turn"}},
    )
    assert body["verdict"] == "legal" and body["outcome"]["drawn"] == 0
    assert "Ana draws 0 cards" in body["reason"] and "SRA-R9" not in rule_ids(body)


def test_unseen_starting_cards_fix_the_end_of_turn_draw(api, catalog):
    position = issue_position(hand=["Scout", "Scout", "Viper"])
    body = post(api, RULINGS, {"position": position, "move": {"action": "end_turn"}})
    assert body["outcome"]["drawn"] == 3 and "Ana draws 3 cards;" in body["reason"]
    assert "SRA-R9" not in rule_ids(body)


def test_survey_ships_draw_follows_the_same_ruling(api, catalog):
    position = issue_position(hand=[*KEPT_ALL, "Survey Ship"])
    body = post(
        api, RULINGS, {"position": position, "move": {"action": "play", "card": "Survey Ship"}}
    )
    assert body["verdict"] == "legal"
    assert body["outcome"]["gained"] == {"coin": 2, "draw": {"at_least": 0, "at_most": 1}}
    assert "its 1 Draw draws up to 1 card" in body["reason"] and "SRA-R9" in rule_ids(body)
    counted = post(
        api,
        RULINGS,
        {
            "position": {
                **position,
                "active": {**position["active"], "deck": 4, "discard_pile": 0},
            },
            "move": {"action": "play", "card": "Survey Ship"},
        },
    )
    assert counted["outcome"]["gained"] == {"coin": 2, "draw": 1}
    assert "gets 2 Coins and 1 Draw." in counted["reason"]


def test_a_whole_turn_plays_a_card_drawn_only_when_the_draw_is_fixed(api, catalog):
    actions = [
        {"action": "play", "card": "Survey Ship"},
        {"action": "play", "card": "Viper"},
        {"action": "end_turn"},
    ]
    # Ana kept four Scouts and Survey Ship: a Scout and the Viper are in her deck or discard
    # pile, so Survey Ship draws one, which may be the Viper played next.
    fixed = post(
        api, SCORE, {**issue_position(hand=["Scout"] * 4 + ["Survey Ship"]), "actions": actions}
    )
    assert fixed["stopped_at"] is None and fixed["turn_over"] is True
    # Then Survey Ship and the Viper go to the discard pile, with the other unseen card: three
    # for the end of the turn.
    assert [step["draws"] for step in fixed["steps"]] == [1, 1, 4]
    # Every starting card in hand: Survey Ship's draw is the counts' to decide, so whether Ana
    # holds a drawn Ram to play is too.
    open_draw = post(
        api,
        SCORE,
        {
            **issue_position(hand=[*KEPT_ALL, "Survey Ship"]),
            "actions": [
                {"action": "play", "card": "Survey Ship"},
                {"action": "play", "card": "Ram"},
            ],
        },
    )
    assert open_draw["stopped_at"] == 1
    assert (open_draw["ruling"]["verdict"], open_draw["ruling"]["code"]) == (
        "needs_information",
        "deck_count_required",
    )
    assert [m["path"] for m in open_draw["ruling"]["missing"]] == [
        "active.deck",
        "active.discard_pile",
    ]
    assert open_draw["steps"][0]["draws"] == {"at_least": 0, "at_most": 1}


# --- SRA-R10 --------------------------------------------------------------------------------------


def refill_turn(first_buy):
    return {
        "active": {
            "name": "Ana",
            "health": 15,
            "coins": 2,
            "hand": ["Scout"],
            "in_play": [],
            "bases": [],
            "combat": 0,
            "used": [],
        },
        "opponent": {"name": "Ben", "health": 15, "coins": 1, "bases": []},
        "shop_row": ["Recycling Station", "Federation Shuttle", "Trade Escort", "Ram", "Corvette"],
        "actions": [first_buy, {"action": "buy", "card": "Ram"}],
    }


def test_the_issues_second_ram_needs_the_refill_not_named(api, catalog):
    body = post(api, SCORE, refill_turn({"action": "buy", "card": "Ram"}))
    assert body["stopped_at"] == 1
    ruling = body["ruling"]
    assert (ruling["verdict"], ruling["code"], ruling["rule"]["id"]) == (
        "needs_information",
        "refill_not_named",
        "SRA-R10",
    )
    assert [m["path"] for m in ruling["missing"]] == ["actions[0].refill"]
    assert "may hold Ram (SRA-R10)" in ruling["reason"]


def test_a_refill_named_decides_the_second_ram(api, catalog):
    other = post(api, SCORE, refill_turn({"action": "buy", "card": "Ram", "refill": "Freighter"}))
    assert other["stopped_at"] == 1
    assert (other["ruling"]["verdict"], other["ruling"]["code"]) == ("illegal", "not_in_shop_row")
    same = post(api, SCORE, refill_turn({"action": "buy", "card": "Ram", "refill": "Ram"}))
    assert same["stopped_at"] is None
    assert [step["code"] for step in same["steps"]] == ["card_bought", "card_bought"]


# --- SRA-R11 --------------------------------------------------------------------------------------


def attack_on_the_hive(amount):
    return {
        "position": {
            "active": {
                "name": "Ana",
                "health": 15,
                "coins": 0,
                "hand": [],
                "in_play": ["Imperial Frigate"],
                "bases": [],
                "combat": 2,
                "used": [],
            },
            "opponent": {
                "name": "Ben",
                "health": 15,
                "coins": 1,
                "bases": [{"card": "The Hive", "damage": 0}],
            },
            "shop_row": [],
        },
        "move": {"action": "attack", "target": "The Hive", "amount": amount},
    }


def test_combat_beyond_the_hives_defense_stays_in_the_pool(api, catalog):
    body = post(api, RULINGS, attack_on_the_hive(2))
    assert (body["verdict"], body["code"]) == ("legal", "attack_made")
    assert body["outcome"]["combat"] == 1 and body["outcome"]["destroyed"] == ["The Hive"]
    assert "SRA-R11" in rule_ids(body)
    assert any("stays in the pool (SRA-R11)" in warning for warning in body["warnings"])
    exact = post(api, RULINGS, attack_on_the_hive(1))
    assert exact["outcome"]["combat"] == 1 and "SRA-R11" not in rule_ids(exact)


def test_the_new_rulings_are_quoted_by_their_ids(api, catalog):
    refill = post(api, SCORE, refill_turn({"action": "buy", "card": "Ram"}))["ruling"]["rule"]
    assert (refill["id"], refill["title"]) == ("SRA-R10", "A refill not named")
    assert "the unknown space may hold it" in refill["text"]
    counts = post(
        api,
        SCORE,
        {
            **issue_position(hand=[*KEPT_ALL, "Survey Ship"]),
            "actions": [
                {"action": "play", "card": "Survey Ship"},
                {"action": "play", "card": "Ram"},
            ],
        },
    )
    rule = counts["ruling"]["rule"]
    assert (rule["id"], rule["title"]) == ("SRA-R9", "Say only what the position fixes")
    assert "never as a number the position does not fix" in rule["text"]
