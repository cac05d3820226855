"""The Factions rulings engine (no database): every rule of the text, the facts FAC-F1..F3 and the
numbered rulings FAC-R1..R10, the needs-information answers and every impossible position.

The catalog is the shipped JSON file turned into the engine's specs, the way the service turns
the database rows; faction, unit and card names are read from it (they are data an admin may
rename), and the action kinds the engine keys on are the catalog's "action" values.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from games.factions import engine
from games.factions.engine import (
    AMBUSH,
    ATTACK,
    DEFENCE,
    DEFEND,
    DISCARD,
    DOCTOR,
    END_TURN,
    PASS,
    PLAY,
    SABOTAGE,
    SACK,
    SPY,
    CardRef,
    Faction,
    Move,
    Pending,
    Player,
    Position,
    Unit,
    UnitRef,
)
from games.protocol import ImpossiblePosition

CATALOG_FILE = Path(__file__).resolve().parents[2] / "games" / "factions" / "catalog.json"


def load_catalog(path: Path = CATALOG_FILE) -> engine.Catalog:
    data = json.loads(path.read_text())
    faction = next(a for a in data["attributes"] if a["key"] == "faction")
    return engine.build_catalog(
        faction_choices=[(c["value"], c["label"]) for c in faction["choices"]],
        cards=[(c["name"], c["copies"], c["attributes"]) for c in data["cards"]],
        min_players=data["game"]["min_players"],
    )


CATALOG = load_catalog()
FACTIONS = list(CATALOG.factions)  # slugs, in the catalog's order
A, B, C, D = FACTIONS[:4]
UNITS = {slug: list(spec.units) for slug, spec in CATALOG.factions.items()}
LABEL = {slug: spec.label for slug, spec in CATALOG.factions.items()}
CARD = {spec.action: spec.name for spec in CATALOG.actions.values()}  # action kind -> card name
COPIES = {spec.action: spec.copies for spec in CATALOG.actions.values()}
PLAYERS = ["Ana", "Ben", "Cleo", "Dev"]


def card(kind: str, faction: str) -> CardRef:
    return CardRef(CARD[kind], faction)


def unit(faction: str, index: int = 0) -> UnitRef:
    return UnitRef(faction, UNITS[faction][index])


def position(
    hands=None,
    *,
    players=2,
    control=None,
    dead=None,
    turn="Ana",
    pending=None,
    lost=None,
    turn_lost=False,
    own=None,
    listed=None,
) -> Position:
    """A table of `players` players; player i controls FACTIONS[i] unless `control` says
    otherwise ({slug: player}). `dead`: {slug: unit indices or "all"}; `listed`: {slug: unit
    indices listed (the rest unlisted)}; `hands`: {player: [CardRef]}; `lost`: {player: n};
    `own`: {player: slug}."""
    names = PLAYERS[:players]
    control = control or {FACTIONS[i]: names[i] for i in range(players)}
    dead = dead or {}
    factions = []
    for slug, controller in control.items():
        down = dead.get(slug, ())
        indices = listed.get(slug, range(len(UNITS[slug]))) if listed else range(len(UNITS[slug]))
        units = [Unit(UNITS[slug][i], not (down == "all" or i in down)) for i in indices]
        factions.append(Faction(slug, controller, units))
    hands = hands or {}
    lost = lost or {}
    own = own or {}
    return Position(
        factions=factions,
        players=[Player(n, list(hands.get(n, [])), lost.get(n, 0), own.get(n)) for n in names],
        turn=turn,
        pending=pending,
        turn_lost=turn_lost,
    )


def rule(pos: Position, move: Move, catalog: engine.Catalog = CATALOG) -> engine.Ruling:
    return engine.check(replace(pos, catalog=catalog)).rule(move)


def play(kind, faction, *, unit_ref=None, player=None) -> Move:
    return Move(PLAY, card=card(kind, faction), target_unit=unit_ref, target_player=player)


def impossible(pos: Position, *, to_move=True) -> list[dict]:
    with pytest.raises(ImpossiblePosition) as raised:
        engine.check(replace(pos, catalog=CATALOG, to_move=to_move))
    return raised.value.errors


def codes(errors: list[dict]) -> list[str]:
    return [error["code"] for error in errors]


def legal(ruling: engine.Ruling, code: str, rule_id: str) -> None:
    assert (ruling.verdict, ruling.code, ruling.rule) == ("legal", code, rule_id), ruling.reason
    assert all(check.passed for check in ruling.checks)
    assert ruling.alternatives == [] and ruling.missing == []
    assert ruling.outcome is not None
    assert ruling.reason.startswith("Legal. ")


def illegal(ruling: engine.Ruling, code: str, rule_id: str) -> None:
    assert (ruling.verdict, ruling.code, ruling.rule) == ("illegal", code, rule_id), ruling.reason
    assert ruling.checks[-1].passed is False and ruling.checks[-1].rule == rule_id
    assert all(check.passed for check in ruling.checks[:-1])
    assert ruling.outcome is None
    for alternative in ruling.alternatives:  # every alternative is itself legal
        move = _move(alternative)
        assert rule(_position_of(ruling), move).verdict == "legal"


_LAST: dict = {}


def _position_of(_ruling):
    return _LAST["position"]


def _move(body: dict) -> Move:
    ref = body.get("card")
    target = body.get("target_unit")
    return Move(
        body["action"],
        card=CardRef(**ref) if ref else None,
        target_player=body.get("target_player"),
        target_unit=UnitRef(**target) if target else None,
    )


def judge(pos: Position, move: Move) -> engine.Ruling:
    _LAST["position"] = pos
    return rule(pos, move)


# --- The catalog is data ----------------------------------------------------------------------------


def test_the_shipped_catalog_has_seven_action_cards_and_four_sample_factions():
    assert sorted(CARD) == sorted(engine.KNOWN_ACTIONS)
    assert [COPIES[k] for k in (ATTACK, DEFENCE, DOCTOR, SPY, SACK, SABOTAGE, AMBUSH)] == [
        5,
        5,
        2,
        2,
        2,
        2,
        2,
    ]
    assert sum(COPIES.values()) == 20  # FAC-2, FAC-F1
    assert len(FACTIONS) == 4 and all(len(units) == 5 for units in UNITS.values())


def test_fac_f3_names_come_from_the_catalog_not_the_engine(tmp_path):
    """Rename every faction, unit and card: the rulings read the new names (FAC-F3)."""
    data = json.loads(CATALOG_FILE.read_text())
    faction = next(a for a in data["attributes"] if a["key"] == "faction")
    faction["choices"] = [
        {"value": f"f{i}", "label": f"House {i}"} for i, _ in enumerate(faction["choices"])
    ]
    slugs = {old: f"f{i}" for i, old in enumerate(FACTIONS)}
    for index, entry in enumerate(data["cards"]):
        attributes = entry["attributes"]
        if attributes["kind"] == "unit":
            attributes["faction"] = slugs[attributes["faction"]]
            entry["name"] = f"Soldier {index}"
        else:
            entry["name"] = f"Order of {attributes['action']}"
    path = tmp_path / "renamed.json"
    path.write_text(json.dumps(data))
    renamed = load_catalog(path)
    first, second = list(renamed.factions)[:2]
    units = {slug: list(spec.units) for slug, spec in renamed.factions.items()}
    pos = Position(
        factions=[
            Faction(first, "Ana", [Unit(n, True) for n in units[first]]),
            Faction(second, "Ben", [Unit(n, i == 0) for i, n in enumerate(units[second])]),
        ],
        players=[Player("Ana", [CardRef("Order of ambush", first)]), Player("Ben", [])],
        turn="Ana",
    )
    ruling = rule(
        pos,
        Move(
            PLAY, CardRef("Order of ambush", first), target_unit=UnitRef(second, units[second][0])
        ),
        renamed,
    )
    assert (ruling.verdict, ruling.code) == ("legal", "legal_ambush")
    assert "House 1 has no surviving unit left: Ana" in ruling.reason
    assert ruling.outcome["winner"] == "Ana"


def test_an_unknown_action_is_never_guessed():
    """A card whose action the catalog does not give: needs information, never a guess."""
    actions = dict(CATALOG.actions)
    actions["Bribe"] = engine.ActionSpec("Bribe", None, 2)
    actions["Parley"] = engine.ActionSpec("Parley", "parley", 2)
    catalog = engine.Catalog(actions=actions, factions=CATALOG.factions)
    pos = position({"Ana": [CardRef("Bribe", A), CardRef("Parley", A), CardRef("Bribe", B)]})
    ruling = rule(pos, Move(PLAY, CardRef("Bribe", A)), catalog)
    assert (ruling.verdict, ruling.code, ruling.rule) == (
        "needs_information",
        "action_unknown",
        "FAC-F1",
    )
    assert ruling.missing == [{"path": "move.card", "detail": ruling.missing[0]["detail"]}]
    assert "The catalog does not say what Bribe does" in ruling.reason
    ruling = rule(pos, Move(PLAY, CardRef("Parley", A)), catalog)
    assert (
        ruling.code == "action_unknown" and "no rule for Parley's action 'parley'" in ruling.reason
    )
    # Discarding one's own unknown card has no consequence either way: legal.
    assert rule(pos, Move(DISCARD, CardRef("Bribe", A)), catalog).verdict == "legal"
    # An enemy one might be a SPY, SACK or SABOTAGE: unknown (FAC-F2).
    ruling = rule(pos, Move(DISCARD, CardRef("Bribe", B)), catalog)
    assert (ruling.verdict, ruling.code, ruling.rule) == (
        "needs_information",
        "action_unknown",
        "FAC-F2",
    )


def test_copies_come_from_the_catalog():
    actions = {
        name: engine.ActionSpec(spec.name, spec.action, 1) for name, spec in CATALOG.actions.items()
    }
    catalog = engine.Catalog(actions=actions, factions=CATALOG.factions)
    pos = position({"Ana": [card(ATTACK, A), card(ATTACK, A)]})
    with pytest.raises(ImpossiblePosition) as raised:
        engine.check(replace(pos, catalog=catalog))
    assert codes(raised.value.errors) == ["too_many_copies"]
    assert "each faction contributes 1" in raised.value.errors[0]["detail"]


# --- FAC-1, FAC-18, FAC-R9: the goal, victory and elimination -------------------------------------------


def test_fac_1_fac_18_the_last_player_with_a_surviving_unit_wins():
    pos = position({"Ana": [card(AMBUSH, A)], "Ben": [card(SPY, B)]}, dead={B: [1, 2, 3, 4]})
    ruling = judge(pos, play(AMBUSH, A, unit_ref=unit(B, 0)))
    legal(ruling, "legal_ambush", "FAC-12")
    outcome = ruling.outcome
    assert outcome["eliminated"] == ["Ben"] and outcome["winner"] == "Ana"
    assert (
        "Only Ana still controls a surviving unit: Ana wins (FAC-18, FAC-R9)." in outcome["events"]
    )
    # Ben's hand is discarded at once on elimination (FAC-R9).
    assert {
        "card": card(SPY, B).as_dict(),
        "from": {"player": "Ben"},
        "to": {"place": "discard_pile"},
        "random": False,
    } in outcome["cards_moved"]
    assert outcome["hand_sizes"] == {"Ana": 0, "Ben": 0}


def test_fac_17_fac_r9_elimination_needs_every_controlled_unit_lost():
    """Ben controls two factions; losing the last unit of one leaves him in the game."""
    pos = position(
        {"Ana": [card(AMBUSH, A)]},
        players=4,
        control={A: "Ana", B: "Ben", C: "Ben", D: "Cleo"},
        dead={B: [1, 2, 3, 4], C: [0, 1]},
    )
    ruling = judge(pos, play(AMBUSH, A, unit_ref=unit(B, 0)))
    outcome = ruling.outcome
    assert outcome["conquests"][0]["faction"] == B and outcome["conquests"][0]["to"] == "Ana"
    assert outcome["eliminated"] == [] and outcome["winner"] is None


def test_fac_r9_a_player_out_of_the_game_cannot_be_targeted():
    # Ana conquered Cleo's faction: Cleo controls nothing and is out of the game.
    pos = position(
        {"Ana": [card(SPY, A)]}, players=3, control={A: "Ana", B: "Ben", C: "Ana"}, dead={C: "all"}
    )
    ruling = judge(pos, play(SPY, A, player="Cleo"))
    illegal(ruling, "target_eliminated", "FAC-R9")
    assert {
        "action": "play",
        "card": card(SPY, A).as_dict(),
        "target_player": "Ben",
    } in ruling.alternatives


# --- FAC-2, FAC-3: units and setup --------------------------------------------------------------------


def test_fac_2_a_unit_belongs_to_its_faction():
    pos = position()
    pos.factions[0].units.append(Unit(UNITS[B][0], True))
    errors = impossible(pos)
    assert "wrong_faction" in codes(errors) and "unit_in_two_factions" in codes(errors)
    wrong = next(e for e in errors if e["code"] == "wrong_faction")
    assert wrong["path"] == "factions[0].units[5]"
    assert f"{UNITS[B][0]} is a unit of {LABEL[B]}, not of {LABEL[A]}" in wrong["detail"]


def test_a_unit_listed_twice():
    pos = position()
    pos.factions[0].units.append(Unit(UNITS[A][0], False))
    assert codes(impossible(pos)) == ["duplicate_unit"]


def test_fac_3_one_faction_per_player():
    pos = position(players=2, control={A: "Ana", B: "Ben", C: "Ben"})
    errors = impossible(pos)
    assert codes(errors) == ["faction_count"]
    assert "3 factions in play for 2 players" in errors[0]["detail"]


def test_fac_3_at_least_two_players():
    pos = position(players=1, control={A: "Ana"})
    assert "too_few_players" in codes(impossible(pos))


def test_fac_3_own_factions_are_distinct_and_in_play():
    pos = position(own={"Ana": A, "Ben": A})
    assert codes(impossible(pos)) == ["faction_chosen_twice"]
    pos = position(own={"Ana": C})
    assert codes(impossible(pos)) == ["faction_not_in_play"]


def test_fac_3_play_proceeds_clockwise_skipping_eliminated_players():
    # Ben's faction was conquered by Ana: Ben controls nothing now.
    pos = position(
        {"Ana": [card(ATTACK, A)]},
        players=3,
        dead={B: "all"},
        control={A: "Ana", B: "Ana", C: "Cleo"},
    )
    ruling = judge(pos, Move(END_TURN))
    legal(ruling, "legal_end_turn", "FAC-5")
    assert ruling.outcome["next_turn"] == {"player": "Cleo", "lost": False, "draws": True}
    assert ruling.outcome["events"][-1] == (
        "Next: Cleo draws one card to start the turn (FAC-4, FAC-R8)."
    )


# --- FAC-4, FAC-5, FAC-R8: the turn and the hand limit ------------------------------------------------


def test_fac_4_a_card_must_be_in_hand():
    pos = position({"Ana": [card(ATTACK, A)], "Ben": [card(ATTACK, B)]})
    ruling = judge(pos, play(ATTACK, B, unit_ref=unit(B)))
    illegal(ruling, "card_not_in_hand", "FAC-4")
    assert f"Ana's hand holds no Attack ({LABEL[B]})" in ruling.reason.replace(
        CARD[ATTACK], "Attack"
    )
    ruling = judge(pos, Move(DISCARD, card=card(DOCTOR, A)))
    illegal(ruling, "card_not_in_hand", "FAC-4")


@pytest.mark.parametrize("size", [0, 4, 5])
def test_fac_4_pass_with_five_cards_or_fewer(size):
    pos = position({"Ana": [card(ATTACK, A)] * min(size, 5)})
    ruling = judge(pos, Move(PASS))
    legal(ruling, "legal_pass", "FAC-4")
    assert ruling.outcome["next_turn"] == {"player": "Ben", "lost": False, "draws": True}
    assert ruling.outcome["may_end_turn"] is None


def test_fac_4_fac_r8_no_pass_with_six_cards():
    hand = [card(ATTACK, A)] * 3 + [card(DEFENCE, A)] * 3
    ruling = judge(position({"Ana": hand}), Move(PASS))
    illegal(ruling, "pass_over_limit", "FAC-4")
    assert "Ana holds 6 cards; passing is allowed only with 5 or fewer" in ruling.reason
    assert {"action": "pass"} not in ruling.alternatives
    assert {"action": "discard", "card": card(DEFENCE, A).as_dict()} in ruling.alternatives


def test_fac_5_no_turn_ends_with_more_than_five():
    hand = [card(ATTACK, A)] * 3 + [card(DEFENCE, A)] * 3
    ruling = judge(position({"Ana": hand}), Move(END_TURN))
    illegal(ruling, "hand_over_limit", "FAC-5")
    assert {"action": "end_turn"} not in ruling.alternatives


def test_fac_5_playing_down_from_seven_keeps_the_turn_going():
    hand = [card(ATTACK, A)] * 4 + [card(DEFENCE, A)] * 3
    ruling = judge(position({"Ana": hand}), play(ATTACK, A, unit_ref=unit(B, 2)))
    legal(ruling, "legal_attack", "FAC-6")
    assert ruling.outcome["may_end_turn"] is False
    assert ruling.outcome["events"][-1] == (
        "Ana now holds 6 cards: more than 5, so Ana must keep "
        "playing or discarding before the turn can end "
        "(FAC-5)."
    )
    ruling = judge(position({"Ana": hand[1:]}), Move(DISCARD, card=card(DEFENCE, A)))
    assert ruling.outcome["may_end_turn"] is True


# --- FAC-6, FAC-7, FAC-R4: ATTACK and DEFENCE -----------------------------------------------------------


def test_fac_6_an_attack_the_defender_cannot_block_resolves_at_once():
    pos = position({"Ana": [card(ATTACK, A)], "Ben": [card(ATTACK, B)]})
    ruling = judge(pos, play(ATTACK, A, unit_ref=unit(B, 3)))
    legal(ruling, "legal_attack", "FAC-6")
    assert ruling.outcome["units"] == [{**unit(B, 3).as_dict(), "change": "defeated"}]
    assert ruling.outcome["pending"] is None
    assert "Ben holds no DEFENCE, so the attack cannot be blocked" in ruling.reason


def test_fac_6_an_attack_waits_for_the_defenders_answer():
    pos = position({"Ana": [card(ATTACK, A)], "Ben": [card(DEFENCE, C)]}, players=3)
    ruling = judge(pos, play(ATTACK, A, unit_ref=unit(B, 0)))
    legal(ruling, "legal_attack", "FAC-6")
    outcome = ruling.outcome
    assert outcome["pending"] == {
        "card": card(ATTACK, A).as_dict(),
        "by": "Ana",
        "target_unit": unit(B, 0).as_dict(),
        "defender": "Ben",
    }
    assert outcome["units"] == [] and outcome["may_end_turn"] is None
    assert outcome["if_let_through"]["units"] == [{**unit(B, 0).as_dict(), "change": "defeated"}]
    assert outcome["cards_moved"] == [
        {
            "card": card(ATTACK, A).as_dict(),
            "from": {"player": "Ana"},
            "to": {"place": "table"},
            "random": False,
        }
    ]


def pending_attack(kind=ATTACK, *, defender_hand=(), players=2, **kwargs) -> Position:
    return position(
        {"Ana": [card(DOCTOR, A)], "Ben": list(defender_hand)},
        players=players,
        pending=Pending(card(kind, A), "Ana", unit(B, 1)),
        **kwargs,
    )


def test_fac_r4_defence_blocks_the_attack_and_both_cards_are_discarded():
    pos = pending_attack(defender_hand=[card(DEFENCE, C), card(SPY, B)], players=3)
    ruling = judge(pos, Move(DEFEND, card=card(DEFENCE, C)))
    legal(ruling, "legal_defence", "FAC-R4")
    moved = ruling.outcome["cards_moved"]
    assert moved == [
        {
            "card": card(ATTACK, A).as_dict(),
            "from": {"place": "table"},
            "to": {"place": "discard_pile"},
            "random": False,
        },
        {
            "card": card(DEFENCE, C).as_dict(),
            "from": {"player": "Ben"},
            "to": {"place": "discard_pile"},
            "random": False,
        },
    ]
    assert ruling.outcome["units"] == []
    assert f"{UNITS[B][1]} ({LABEL[B]}) survives" in ruling.reason
    assert ruling.outcome["may_end_turn"] is True  # back to Ana's turn


def test_fac_6_letting_the_attack_through():
    pos = pending_attack(defender_hand=[card(DEFENCE, B)])
    ruling = judge(pos, Move(PASS))
    legal(ruling, "legal_let_through", "FAC-6")
    assert ruling.outcome["units"] == [{**unit(B, 1).as_dict(), "change": "defeated"}]
    assert ruling.outcome["next_turn"] is None  # the answer does not end Ana's turn


def test_fac_6_nothing_happens_before_the_answer():
    pos = pending_attack(defender_hand=[card(DEFENCE, B)])
    for move in (
        play(DOCTOR, A, unit_ref=unit(A, 0)),
        Move(DISCARD, card=card(DOCTOR, A)),
        Move(END_TURN),
    ):
        ruling = judge(pos, move)
        illegal(ruling, "awaiting_answer", "FAC-6")
        assert ruling.alternatives == [
            {"action": "defend", "card": card(DEFENCE, B).as_dict()},
            {"action": "pass"},
        ]


def test_fac_7_fac_r4_defence_is_never_a_play_of_its_own():
    pos = position({"Ana": [card(DEFENCE, A)]})
    ruling = judge(pos, play(DEFENCE, A))
    illegal(ruling, "defence_is_reactive", "FAC-7")
    assert "never as a play of its own" in ruling.reason


def test_fac_7_defence_only_when_a_unit_is_attacked():
    pos = position({"Ana": [card(DEFENCE, A)], "Ben": [card(DEFENCE, B)]})
    ruling = judge(pos, Move(DEFEND, card=card(DEFENCE, B)))
    illegal(ruling, "no_pending_attack", "FAC-7")


def test_fac_r4_only_from_the_attacked_players_hand():
    pos = pending_attack(defender_hand=[], players=3)
    pos.players[2].hand = [card(DEFENCE, C)]
    ruling = judge(pos, Move(DEFEND, card=card(DEFENCE, C)))
    illegal(ruling, "defence_not_in_defender_hand", "FAC-R4")
    assert "(Cleo holds one)" in ruling.reason
    assert ruling.alternatives == [{"action": "pass"}]


def test_fac_r4_only_defence_blocks():
    pos = pending_attack(defender_hand=[card(SPY, B), card(DEFENCE, B)])
    ruling = judge(pos, Move(DEFEND, card=card(SPY, B)))
    illegal(ruling, "not_a_defence", "FAC-R4")


def test_fac_12_fac_r4_never_against_ambush():
    pos = pending_attack(AMBUSH, defender_hand=[card(DEFENCE, B)])
    ruling = judge(pos, Move(DEFEND, card=card(DEFENCE, B)))
    illegal(ruling, "defence_against_ambush", "FAC-R4")
    assert ruling.alternatives == [{"action": "pass"}]
    legal(judge(pos, Move(PASS)), "legal_let_through", "FAC-12")


def test_fac_12_an_ambush_strikes_at_once_even_against_a_held_defence():
    pos = position({"Ana": [card(AMBUSH, A)], "Ben": [card(DEFENCE, B)]})
    ruling = judge(pos, play(AMBUSH, A, unit_ref=unit(B, 0)))
    legal(ruling, "legal_ambush", "FAC-12")
    assert ruling.outcome["pending"] is None
    assert ruling.outcome["units"] == [{**unit(B, 0).as_dict(), "change": "defeated"}]


# --- FAC-R5: ATTACK and AMBUSH targets ----------------------------------------------------------------


@pytest.mark.parametrize("kind", [ATTACK, AMBUSH])
def test_fac_r5_not_a_faction_you_control(kind):
    pos = position({"Ana": [card(kind, B)]}, control={A: "Ana", B: "Ben"})
    ruling = judge(pos, play(kind, B, unit_ref=unit(A, 0)))
    illegal(ruling, "own_faction", "FAC-R5")
    # The card's faction does not matter, only the target's controller.
    assert {
        "action": "play",
        "card": card(kind, B).as_dict(),
        "target_unit": unit(B, 0).as_dict(),
    } in ruling.alternatives


@pytest.mark.parametrize("kind", [ATTACK, AMBUSH])
def test_fac_r5_a_surviving_unit(kind):
    pos = position({"Ana": [card(kind, A)]}, dead={B: [2]})
    ruling = judge(pos, play(kind, A, unit_ref=unit(B, 2)))
    illegal(ruling, "unit_defeated", "FAC-R5")
    assert {
        "action": "play",
        "card": card(kind, A).as_dict(),
        "target_unit": unit(B, 2).as_dict(),
    } not in ruling.alternatives


def test_fac_r5_a_unit_in_play():
    pos = position({"Ana": [card(ATTACK, A)]})
    illegal(judge(pos, play(ATTACK, A, unit_ref=unit(C, 0))), "unit_not_in_play", "FAC-R5")


# --- FAC-8, FAC-R6: DOCTOR ------------------------------------------------------------------------------


def test_fac_8_doctor_restores_a_defeated_unit():
    pos = position({"Ana": [card(DOCTOR, B)]}, dead={A: [4]})
    ruling = judge(pos, play(DOCTOR, B, unit_ref=unit(A, 4)))
    legal(ruling, "legal_doctor", "FAC-8")
    assert ruling.outcome["units"] == [{**unit(A, 4).as_dict(), "change": "restored"}]


def test_fac_r6_no_defeated_unit():
    ruling = judge(position({"Ana": [card(DOCTOR, A)]}), play(DOCTOR, A, unit_ref=unit(A, 0)))
    illegal(ruling, "no_defeated_unit", "FAC-R6")


def test_fac_r6_only_a_faction_you_control():
    pos = position({"Ana": [card(DOCTOR, A)]}, dead={A: [0], B: [0]})
    ruling = judge(pos, play(DOCTOR, A, unit_ref=unit(B, 0)))
    illegal(ruling, "not_your_faction", "FAC-R6")
    assert ruling.alternatives[0] == {
        "action": "play",
        "card": card(DOCTOR, A).as_dict(),
        "target_unit": unit(A, 0).as_dict(),
    }
    illegal(judge(pos, play(DOCTOR, A, unit_ref=unit(C, 0))), "unit_not_in_play", "FAC-R6")


def test_fac_r6_only_a_defeated_unit():
    pos = position({"Ana": [card(DOCTOR, A)]}, dead={A: [0]})
    illegal(judge(pos, play(DOCTOR, A, unit_ref=unit(A, 1))), "unit_alive", "FAC-R6")


def test_fac_14_fac_r6_doctor_on_a_conquered_faction():
    pos = position(
        {"Ana": [card(DOCTOR, A)]},
        players=3,
        control={A: "Ana", B: "Ana", C: "Cleo"},
        dead={B: "all"},
    )
    ruling = judge(pos, play(DOCTOR, A, unit_ref=unit(B, 3)))
    legal(ruling, "legal_doctor", "FAC-8")


# --- FAC-9, FAC-10, FAC-11: SPY, SACK, SABOTAGE ----------------------------------------------------------


def test_fac_9_spy_inspects_an_opponents_hand():
    pos = position({"Ana": [card(SPY, A)], "Ben": [card(ATTACK, B), card(DOCTOR, A)]})
    ruling = judge(pos, play(SPY, A, player="Ben"))
    legal(ruling, "legal_spy", "FAC-9")
    assert ruling.outcome["revealed"] == [
        {
            "hand_of": "Ben",
            "to": "Ana",
            "cards": [card(ATTACK, B).as_dict(), card(DOCTOR, A).as_dict()],
        }
    ]


@pytest.mark.parametrize("kind", [SPY, SACK, SABOTAGE])
def test_player_cards_target_an_opponent(kind):
    pos = position({"Ana": [card(kind, A)]})
    ruling = judge(pos, play(kind, A, player="Ana"))
    illegal(ruling, "target_self", engine.PLAY_RULES[kind])


def test_spy_or_sack_on_an_empty_hand_is_legal_and_does_nothing():
    pos = position({"Ana": [card(SPY, A), card(SACK, A)]})
    ruling = judge(pos, play(SPY, A, player="Ben"))
    legal(ruling, "legal_spy", "FAC-9")
    assert ruling.warnings == ["Ben's hand is empty: SPY shows nothing."]
    ruling = judge(pos, play(SACK, A, player="Ben"))
    legal(ruling, "legal_sack", "FAC-10")
    assert ruling.outcome["cards_moved"] == [
        {
            "card": card(SACK, A).as_dict(),
            "from": {"player": "Ana"},
            "to": {"place": "discard_pile"},
            "random": False,
        }
    ]


def test_fac_10_sack_takes_a_random_card():
    pos = position({"Ana": [card(SACK, A)], "Ben": [card(ATTACK, B), card(SPY, B)]})
    ruling = judge(pos, play(SACK, A, player="Ben"))
    legal(ruling, "legal_sack", "FAC-10")
    assert ruling.outcome["cards_moved"][-1] == {
        "card": None,
        "from": {"player": "Ben"},
        "to": {"player": "Ana"},
        "random": True,
    }
    assert ruling.outcome["hand_sizes"] == {"Ana": 1, "Ben": 1}
    # Chance decides which: the position after is known only once it is said.
    applied = engine.apply_move(CATALOG, pos, play(SACK, A, player="Ben"))
    assert applied.position is None
    applied = engine.apply_move(CATALOG, pos, play(SACK, A, player="Ben"), taken=1)
    assert applied.position.players[0].hand == [card(SPY, B)]
    # A hand of one kind of card leaves nothing to chance.
    pos.players[1].hand = [card(ATTACK, B)]
    ruling = judge(pos, play(SACK, A, player="Ben"))
    assert ruling.outcome["cards_moved"][-1]["card"] == card(ATTACK, B).as_dict()


def test_fac_11_sabotage_costs_the_next_turn():
    pos = position({"Ana": [card(SABOTAGE, A)]})
    ruling = judge(pos, play(SABOTAGE, A, player="Ben"))
    legal(ruling, "legal_sabotage", "FAC-11")
    assert ruling.outcome["turns_lost"] == [{"player": "Ben", "before": 0, "after": 1}]


# --- FAC-R3: lost turns -----------------------------------------------------------------------------------


def test_fac_r3_lost_turns_stack():
    pos = position({"Ana": [card(SABOTAGE, A)]}, lost={"Ben": 1})
    ruling = judge(pos, play(SABOTAGE, A, player="Ben"))
    assert ruling.outcome["turns_lost"] == [{"player": "Ben", "before": 1, "after": 2}]
    assert "lost turns stack: 1 → 2 (FAC-R3)" in ruling.reason


def test_fac_r3_the_next_player_with_a_lost_turn_loses_it():
    pos = position({}, players=3, lost={"Ben": 2})
    ruling = judge(pos, Move(END_TURN))
    assert ruling.outcome["next_turn"] == {"player": "Ben", "lost": True, "draws": False}
    assert ruling.outcome["turns_lost"] == [{"player": "Ben", "before": 2, "after": 1}]
    after = engine.apply_move(CATALOG, pos, Move(END_TURN)).position
    assert (after.turn, after.turn_lost, after.players[1].lost_turns) == ("Ben", True, 1)


@pytest.mark.parametrize("move", [Move(PLAY, card=None), Move(DISCARD, card=None)])
def test_fac_r3_a_lost_turn_has_no_play_or_discard(move):
    hand = [card(ATTACK, B)] * 3 + [card(SPY, B)] * 2 + [card(DOCTOR, B)] * 2
    pos = position({"Ben": hand}, turn="Ben", turn_lost=True)
    move.card = card(ATTACK, B)
    if move.action == PLAY:
        move.target_unit = unit(A, 0)
    ruling = judge(pos, move)
    illegal(ruling, "turn_lost", "FAC-R3")
    assert ruling.alternatives == [{"action": "pass"}, {"action": "end_turn"}]


def test_fac_r3_fac_5_a_lost_turn_ends_whatever_the_hand_holds():
    hand = [card(ATTACK, B)] * 5 + [card(SPY, B)] * 2
    pos = position({"Ben": hand}, turn="Ben", turn_lost=True)
    for move in (Move(PASS), Move(END_TURN)):
        ruling = judge(pos, move)
        legal(ruling, "legal_lost_turn", "FAC-R3")
        assert ruling.outcome["next_turn"]["player"] == "Ana"


def test_a_lost_turn_cannot_hold_a_pending_attack():
    pos = pending_attack(defender_hand=[], turn_lost=True)
    assert codes(impossible(pos)) == ["pending_in_lost_turn"]


# --- FAC-13, FAC-14, FAC-R7: conquest -----------------------------------------------------------------------


def test_fac_13_fac_r7_conquest_passes_control_with_the_defeated_units():
    hands = {
        "Ana": [card(ATTACK, A), card(SPY, B)],
        "Ben": [card(ATTACK, B)],
        "Cleo": [card(SPY, B)],
    }
    pos = position(
        hands, players=4, control={A: "Ana", B: "Ben", C: "Ben", D: "Cleo"}, dead={B: [0, 1, 3, 4]}
    )
    ruling = judge(pos, play(ATTACK, A, unit_ref=unit(B, 2)))
    legal(ruling, "legal_attack", "FAC-6")
    conquest = ruling.outcome["conquests"]
    assert conquest == [
        {
            "faction": B,
            "from": "Ben",
            "to": "Ana",
            "defeated_units": UNITS[B],
            "no_longer_enemy": [card(SPY, B).as_dict()],
        }
    ]
    after = engine.apply_move(CATALOG, pos, play(ATTACK, A, unit_ref=unit(B, 2))).position
    assert engine.PositionReader(CATALOG, after).controller(B) == "Ana"
    assert ruling.outcome["eliminated"] == []  # Ben still holds Verdant March … (his C)
    text = " ".join(ruling.outcome["events"])
    assert f"For Ben they are now enemy cards (FAC-R1): {CARD[ATTACK]} ({LABEL[B]})" in text


def test_fac_14_a_conquered_factions_cards_are_no_longer_enemy_cards():
    """Ana conquered B: discarding a B Sabotage costs her nothing (FAC-14, FAC-R1)."""
    pos = position(
        {"Ana": [card(SABOTAGE, B)]},
        players=3,
        control={A: "Ana", B: "Ana", C: "Cleo"},
        dead={B: "all"},
    )
    ruling = judge(pos, Move(DISCARD, card=card(SABOTAGE, B)))
    legal(ruling, "legal_discard", "FAC-15")
    assert ruling.outcome["turns_lost"] == []


def test_conquest_that_depends_on_unlisted_units_is_a_warning():
    pos = position({"Ana": [card(AMBUSH, A)]}, listed={B: [0, 1]}, dead={B: [1]})
    ruling = judge(pos, play(AMBUSH, A, unit_ref=unit(B, 0)))
    assert ruling.verdict == "legal" and ruling.outcome["conquests"] == []
    assert any("if none of them survives, Ana conquers" in w for w in ruling.warnings)
    assert engine.apply_move(CATALOG, pos, play(AMBUSH, A, unit_ref=unit(B, 0))).position is None


# --- FAC-15, FAC-F2, FAC-R1, FAC-R2: discards ------------------------------------------------------------------


def test_fac_15_holding_and_discarding_other_factions_cards():
    pos = position({"Ana": [card(ATTACK, B), card(DEFENCE, B), card(DOCTOR, A)]})
    ruling = judge(pos, Move(DISCARD, card=card(ATTACK, B)))
    legal(ruling, "legal_discard", "FAC-15")
    assert ruling.outcome["turns_lost"] == [] and ruling.outcome["revealed"] == []
    assert "an enemy card with no special effect (FAC-15)" in ruling.reason


def test_fac_f2_discarding_an_enemy_spy_shows_the_hand():
    pos = position({"Ana": [card(SPY, B), card(DOCTOR, A)]})
    ruling = judge(pos, Move(DISCARD, card=card(SPY, B)))
    legal(ruling, "legal_discard", "FAC-F2")
    assert ruling.outcome["revealed"] == [
        {"hand_of": "Ana", "to": "Ben", "cards": [card(DOCTOR, A).as_dict()]}
    ]


def test_fac_f2_discarding_an_enemy_sack_gives_a_random_card():
    pos = position({"Ana": [card(SACK, B), card(DOCTOR, A), card(SPY, A)]})
    ruling = judge(pos, Move(DISCARD, card=card(SACK, B)))
    legal(ruling, "legal_discard", "FAC-F2")
    assert ruling.outcome["cards_moved"][-1] == {
        "card": None,
        "from": {"player": "Ana"},
        "to": {"player": "Ben"},
        "random": True,
    }
    assert ruling.outcome["hand_sizes"] == {"Ana": 1, "Ben": 1}


def test_fac_f2_discarding_an_enemy_sabotage_costs_the_next_turn():
    pos = position({"Ana": [card(SABOTAGE, B)]})
    ruling = judge(pos, Move(DISCARD, card=card(SABOTAGE, B)))
    legal(ruling, "legal_discard", "FAC-F2")
    assert ruling.outcome["turns_lost"] == [{"player": "Ana", "before": 0, "after": 1}]
    # The current turn goes on: it is the next one that is lost.
    after = engine.apply_move(CATALOG, pos, Move(DISCARD, card=card(SABOTAGE, B))).position
    assert after.turn_lost is False
    assert rule(after, Move(END_TURN)).verdict == "legal"


def test_fac_r1_that_factions_player_is_its_current_controller():
    """B was conquered by Cleo: an enemy B Sack discarded by Ana goes to Cleo, not Ben."""
    pos = position(
        {"Ana": [card(SACK, B), card(DOCTOR, A)]},
        players=3,
        control={A: "Ana", B: "Cleo", C: "Cleo"},
        dead={B: "all"},
    )
    ruling = judge(pos, Move(DISCARD, card=card(SACK, B)))
    assert ruling.outcome["cards_moved"][-1] == {
        "card": card(DOCTOR, A).as_dict(),
        "from": {"player": "Ana"},
        "to": {"player": "Cleo"},
        "random": True,
    }


def test_fac_r1_own_cards_are_never_enemy_cards():
    pos = position({"Ana": [card(SABOTAGE, A), card(SPY, A), card(SACK, A)]})
    for kind in (SABOTAGE, SPY, SACK):
        ruling = judge(pos, Move(DISCARD, card=card(kind, A)))
        legal(ruling, "legal_discard", "FAC-15")
        assert ruling.outcome["turns_lost"] == [] and ruling.outcome["revealed"] == []


def test_fac_r2_discarding_to_the_hand_limit_counts_as_intentional():
    hand = [card(SABOTAGE, B)] + [card(ATTACK, A)] * 5
    ruling = judge(position({"Ana": hand}), Move(DISCARD, card=card(SABOTAGE, B)))
    legal(ruling, "legal_discard", "FAC-F2")
    assert ruling.outcome["turns_lost"] == [{"player": "Ana", "before": 0, "after": 1}]
    assert ruling.outcome["may_end_turn"] is True
    assert any(c.rule == "FAC-R1" and "FAC-R2" in c.detail for c in ruling.checks)


# --- FAC-16, FAC-R10: negotiation --------------------------------------------------------------------------------


def test_fac_16_fac_r10_the_tool_rules_only_on_card_play():
    assert engine.ACTIONS == ("play", "defend", "discard", "pass", "end_turn")
    with pytest.raises(ValueError):
        rule(position(), Move("negotiate"))


# --- Needs information ------------------------------------------------------------------------------------------


def test_a_target_is_required():
    pos = position({"Ana": [card(ATTACK, A), card(SPY, A), card(DOCTOR, A)]}, dead={A: [0]})
    for move, path, rule_id in (
        (play(ATTACK, A), "move.target_unit", "FAC-R5"),
        (play(SPY, A), "move.target_player", "FAC-9"),
        (play(DOCTOR, A), "move.target_unit", "FAC-R6"),
    ):
        ruling = rule(pos, move)
        assert (ruling.verdict, ruling.code, ruling.rule) == (
            "needs_information",
            "target_required",
            rule_id,
        )
        assert [m["path"] for m in ruling.missing] == [path]
        assert ruling.alternatives == [] and ruling.outcome is None


def test_an_unlisted_target_unit():
    pos = position({"Ana": [card(ATTACK, A), card(DOCTOR, A)]}, listed={B: [0], A: [1, 2, 3, 4]})
    ruling = rule(pos, play(ATTACK, A, unit_ref=unit(B, 3)))
    assert (ruling.verdict, ruling.code) == ("needs_information", "unit_state_unknown")
    assert ruling.missing == [
        {
            "path": "position.factions[1].units",
            "detail": f"Whether {UNITS[B][3]} of {LABEL[B]} survives.",
        }
    ]
    assert any("does not list" in w for w in ruling.warnings)
    ruling = rule(pos, play(DOCTOR, A, unit_ref=unit(A, 0)))
    assert (ruling.verdict, ruling.code) == ("needs_information", "unit_state_unknown")


def test_an_opponent_whose_survival_is_unknown():
    pos = position({"Ana": [card(SPY, A)]}, listed={B: [0, 1]}, dead={B: [0, 1]})
    ruling = rule(pos, play(SPY, A, player="Ben"))
    assert (ruling.verdict, ruling.code, ruling.rule) == (
        "needs_information",
        "player_state_unknown",
        "FAC-R9",
    )
    assert ruling.missing[0]["path"] == "position.factions[1].units"


def test_unused_targets_are_ignored_with_a_warning():
    pos = position({"Ana": [card(SPY, A)], "Ben": [card(SPY, B)]})
    ruling = rule(pos, Move(PLAY, card=card(SPY, A), target_player="Ben", target_unit=unit(B, 0)))
    assert ruling.verdict == "legal"
    assert ruling.warnings == [
        f"move.target_unit is not used by this move (play "
        f"{CARD[SPY]} ({LABEL[A]})); it was ignored."
    ]


# --- Impossible positions ------------------------------------------------------------------------------------------


def test_fac_f1_more_copies_than_the_factions_in_play_contribute():
    hand = [card(SPY, A)] * 3
    errors = impossible(position({"Ana": hand}))
    assert codes(errors) == ["too_many_copies"]
    assert errors[0]["path"] == "players[0].hand[2]"
    assert (
        f"holds 3 {CARD[SPY]} cards of {LABEL[A]}, but each faction contributes 2 "
        f"(FAC-F1: 2 × 2 factions in play = 4 in the deck)"
    ) in errors[0]["detail"]
    # Spread over the players, with the pending card, still counted.
    pos = position(
        {"Ana": [card(ATTACK, A)] * 2, "Ben": [card(ATTACK, A)] * 3},
        pending=Pending(card(ATTACK, A), "Ana", unit(B, 0)),
    )
    assert codes(impossible(pos)) == ["too_many_copies"]
    # Two of each faction's is fine.
    engine.check(
        replace(position({"Ana": [card(SPY, A)] * 2, "Ben": [card(SPY, B)] * 2}), catalog=CATALOG)
    )


def test_a_card_of_a_faction_not_in_play():
    errors = impossible(position({"Ana": [card(ATTACK, C)]}))
    assert codes(errors) == ["faction_not_in_play"]
    assert errors[0]["path"] == "players[0].hand[0]"


def test_a_faction_with_two_controllers_or_listed_twice():
    pos = position()
    pos.factions.append(Faction(A, "Ben", []))
    assert "faction_two_controllers" in codes(impossible(pos))
    pos = position()
    pos.factions.append(Faction(A, "Ana", []))
    assert "duplicate_faction" in codes(impossible(pos))


def test_a_hand_for_an_absent_player():
    pos = position(
        {"Ben": [card(SPY, B)]}, players=3, control={A: "Ana", B: "Ana", C: "Cleo"}, dead={B: "all"}
    )
    errors = impossible(pos)
    assert codes(errors) == ["hand_for_absent_player"]
    assert errors[0]["path"] == "players[1].hand"


def test_the_turn_of_an_absent_player():
    pos = position(
        {}, players=3, control={A: "Ana", B: "Ana", C: "Cleo"}, dead={B: "all"}, turn="Ben"
    )
    assert codes(impossible(pos)) == ["turn_of_absent_player"]


def test_game_over_and_no_player_left():
    pos = position(players=2, dead={B: "all"})  # Ben's faction lost, not yet conquered
    assert codes(impossible(pos)) == ["game_over"]
    engine.check(replace(pos, catalog=CATALOG, to_move=False))  # the standings of a finished game
    pos = position(players=2, dead={A: "all", B: "all"})
    assert codes(impossible(pos, to_move=False)) == ["no_player_left"]


def test_impossible_pending_attacks():
    base = {"Ana": [card(SPY, A)]}
    pos = position(base, pending=Pending(card(SPY, A), "Ana", unit(B, 0)))
    assert codes(impossible(pos)) == ["pending_not_an_attack"]
    pos = position(base, pending=Pending(card(ATTACK, B), "Ben", unit(A, 0)))
    assert codes(impossible(pos)) == ["pending_not_by_turn_player"]
    pos = position(base, pending=Pending(card(ATTACK, A), "Ana", unit(A, 0)))
    assert codes(impossible(pos)) == ["pending_own_faction"]
    pos = position(base, pending=Pending(card(ATTACK, A), "Ana", unit(B, 0)), dead={B: [0]})
    assert codes(impossible(pos)) == ["pending_target_defeated"]
    pos = position(base, pending=Pending(card(ATTACK, A), "Ana", unit(C, 0)))
    assert codes(impossible(pos)) == ["faction_not_in_play"]


def test_every_contradiction_is_named_at_once():
    pos = position({"Ana": [card(SPY, A)] * 3 + [card(ATTACK, C)]}, own={"Ana": B, "Ben": B})
    pos.factions.append(Faction(A, "Ben", []))
    assert sorted(codes(impossible(pos))) == sorted(
        [
            "faction_two_controllers",
            "faction_chosen_twice",
            "too_many_copies",
            "faction_not_in_play",
        ]
    )


def test_every_documented_code_is_used():
    source = Path(engine.__file__).read_text()
    for code in (*engine.ILLEGAL_CODES, *engine.IMPOSSIBLE_CODES, *engine.NEEDS_INFORMATION_CODES):
        assert source.count(f'"{code}"') >= 2, code  # declared and raised


def test_a_target_player_naming_the_attacked_units_controller_is_accepted():
    pos = position({"Ana": [card(ATTACK, A)]}, players=3)
    move = play(ATTACK, A, unit_ref=unit(B, 0), player="Ben")
    assert rule(pos, move).warnings == []
    move.target_player = "Cleo"
    assert rule(pos, move).warnings == [
        f"move.target_player says Cleo, but {UNITS[B][0]} ({LABEL[B]}) belongs to a faction Ben "
        f"controls; the target unit decides, so it was ignored."
    ]
