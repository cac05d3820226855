"""FAC-R9 through the API: the rule section says an eliminated player's hand is discarded at once,
and a position giving such a player cards is rejected citing FAC-R9 for that."""

import pytest

from tests.test_factions_rulings_api import entries, error_of, with_a_hand_for_an_absent_player

pytestmark = pytest.mark.django_db


def test_fac_r9_the_rule_section_and_the_rejection_agree(api, catalog):
    rule = api.get("/api/games/factions/rules/FAC-R9/").json()
    assert "An eliminated player's hand is discarded at once" in rule["text"]

    position = with_a_hand_for_an_absent_player()
    body = error_of(
        api, {"position": position, "move": {"action": "pass"}}, code="impossible_position"
    )
    assert entries(body) == [("position.players[1].hand", "hand_for_absent_player")]
    assert body["errors"][0]["detail"].endswith(
        "an eliminated player's hand is discarded at once, so they never hold cards (FAC-R9)."
    )
