"""FAC-R9 (now written down in the rules file): an eliminated player's hand is discarded at once,
face up and without the enemy-card consequences, so a position that gives a player out of the
game some cards is impossible, and the rejection cites FAC-R9 for it. Engine only."""

import json

from tests.engines.test_factions_engine import (
    AMBUSH,
    CATALOG_FILE,
    SABOTAGE,
    SPY,
    A,
    B,
    C,
    card,
    codes,
    impossible,
    judge,
    play,
    position,
    unit,
)


def _rule_text(rule_id: str) -> str:
    data = json.loads(CATALOG_FILE.read_text(encoding="utf-8"))
    return next(r["text"] for r in data["rule_sections"] if r["id"] == rule_id)


def test_fac_r9_the_catalog_states_the_discard_of_an_eliminated_players_hand():
    text = _rule_text("FAC-R9")
    assert "An eliminated player's hand is discarded at once" in text
    assert "an eliminated player never holds cards" in text


def test_fac_r9_a_hand_for_an_eliminated_player_is_rejected_citing_fac_r9():
    pos = position(
        {"Ben": [card(SPY, B)]}, players=3, control={A: "Ana", B: "Ana", C: "Cleo"}, dead={B: "all"}
    )
    errors = impossible(pos)
    assert codes(errors) == ["hand_for_absent_player"]
    detail = errors[0]["detail"]
    # The discard itself is what FAC-R9 says, and the detail cites it for that.
    assert detail.endswith(
        "an eliminated player's hand is discarded at once, so they never hold cards (FAC-R9)."
    )


def test_fac_r9_the_hand_of_a_player_eliminated_now_is_discarded_without_consequences():
    # Ben holds an enemy SABOTAGE (Ana's faction's) when he is eliminated: it is discarded face
    # up, and Ben, out of the game, loses no turn for it (no intentional discard).
    pos = position(
        {"Ana": [card(AMBUSH, A)], "Ben": [card(SABOTAGE, A), card(SPY, B)]},
        players=3,
        dead={B: [1, 2, 3, 4]},
    )
    ruling = judge(pos, play(AMBUSH, A, unit_ref=unit(B, 0)))
    outcome = ruling.outcome
    assert outcome["eliminated"] == ["Ben"]
    assert outcome["turns_lost"] == []
    assert outcome["hand_sizes"]["Ben"] == 0
    event = next(e for e in outcome["events"] if e.startswith("Ben controls no surviving unit"))
    assert event.endswith(
        "Ben's hand (2 cards) is discarded at once, face up, without the "
        "enemy-card consequences (FAC-R9)."
    )
