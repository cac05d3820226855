"""The Academy Credits play engine on plain card specs (no database): every move the game will
stop (AC-4), the special rules (AC-5), the numbered rulings AC-R3 to AC-R6, the outcomes (certain
and conditional), the alternatives and the positions that cannot exist."""

from dataclasses import replace

import pytest

from games.academy_credits import engine as ac
from games.academy_credits.engine import CardSpec
from games.protocol import ImpossiblePosition
from tests.engines.test_academy_credits_catalog import (
    CALEB,
    COMPARE,
    DAREM,
    DOCTOR,
    JETT,
    KRAAG,
    LOOK,
    LURA,
    NAHLA,
    TARIMA,
    VANCE,
    cadet,
    move,
    position,
)


def played(pos, mv):
    """The position with the card the move plays (counted among the copies, AC-R2)."""
    return replace(pos, played=mv.play)


def rule(pos, mv):
    return ac.check(played(pos, mv)).rule(mv)


def failed(ruling):
    return [c for c in ruling.checks if not c.passed]


def impossible(pos, mv=None):
    with pytest.raises(ImpossiblePosition) as raised:
        ac.check(played(pos, mv or move(pos.hand[0].name)))
    return raised.value.errors


# --- The card played (AC-3) ---------------------------------------------------------------------


def test_a_card_not_in_the_hand_is_illegal():
    ruling = rule(position(["Ana", "Ben"], [LURA, KRAAG]), move("Jett Reno", "Ben"))
    assert (ruling.verdict, ruling.code, ruling.rule) == ("illegal", "not_in_hand", "AC-3.2")
    assert ruling.reason == (
        "Jett Reno (7) is not in Ana's hand, so it cannot be played; the hand "
        "holds Lura Thok (1) and Jay-Den Kraag (4)."
    )
    assert failed(ruling)[0].rule == "AC-3.2"
    # Every legal play instead: Lura Thok at Ben with each guess but Lura Thok, and Jay-Den Kraag.
    guesses = [a["guess"] for a in ruling.alternatives if a["play"] == "Lura Thok"]
    assert len(guesses) == 10 and "Lura Thok" not in guesses
    assert {
        "play": "Jay-Den Kraag",
        "target": None,
        "guess": None,
        "confirm": False,
    } in ruling.alternatives


def test_a_legal_play_lists_every_check_in_order_with_rule_ids():
    ruling = rule(position(["Ana", "Ben"], [LOOK, KRAAG], turn="Ana"), move(LOOK.name, "Ben"))
    assert (ruling.verdict, ruling.code, ruling.rule) == ("legal", "legal_play", "AC-R3")
    assert [c.rule for c in ruling.checks] == ["AC-3.1", "AC-3.2", "AC-4.1", "AC-4.2"]
    assert all(c.passed for c in ruling.checks)
    assert ruling.alternatives == [] and ruling.missing == []
    assert ruling.outcome["looks"] == [{"player": "Ana", "at": "Ben", "card": None}]
    assert "Ana sees Ben's card; nobody else does." in ruling.outcome["summary"]


# --- AC-4.1: Nahla Ake ----------------------------------------------------------------------------


@pytest.mark.parametrize("other", [JETT, DAREM])
def test_nahla_ake_must_be_played_over_jett_reno_or_darem_reymi(other):
    pos = position(["Ana", "Ben"], [NAHLA, other])
    ruling = rule(pos, move(other.name, "Ben"))
    assert (ruling.verdict, ruling.code, ruling.rule) == (
        "illegal",
        "must_play_nahla_ake",
        "AC-4.1",
    )
    assert ruling.reason == (
        f"The hand holds Nahla Ake (9) with {other.label}, so Nahla Ake must be played."
    )
    assert ruling.alternatives == [
        {"play": "Nahla Ake", "target": None, "guess": None, "confirm": False}
    ]
    legal = rule(pos, move("Nahla Ake"))
    assert (legal.verdict, legal.code) == ("legal", "legal_play")
    assert "Nahla Ake (9) is played, as it must be when held with" in legal.checks[2].detail
    assert legal.outcome["has_effect"] is False
    assert "Nahla Ake has no effect (AC-R4)." in legal.outcome["summary"]


def test_nahla_ake_with_another_card_leaves_the_choice_free():
    pos = position(["Ana", "Ben"], [NAHLA, KRAAG])
    assert rule(pos, move("Jay-Den Kraag")).verdict == "legal"
    assert rule(pos, move("Nahla Ake")).verdict == "legal"


# --- AC-4.2: protected, eliminated, yourself ---------------------------------------------------


def test_targeting_an_eliminated_cadet_is_illegal():
    pos = position(["Ana", "Ben", cadet("Cy", "Lura Thok", in_round=False)], [JETT, LURA])
    ruling = rule(pos, move("Jett Reno", "Cy"))
    assert (ruling.verdict, ruling.code, ruling.rule) == ("illegal", "target_eliminated", "AC-4.2")
    assert ruling.reason == (
        "Cy is out of the round and cannot be targeted. Jett Reno can target Ben."
    )
    assert {
        "play": "Jett Reno",
        "target": "Ben",
        "guess": None,
        "confirm": False,
    } in ruling.alternatives


def test_targeting_a_protected_cadet_is_illegal():
    pos = position(["Ana", cadet("Ben", "Jay-Den Kraag", shielded=True), "Cy"], [LOOK, LURA])
    ruling = rule(pos, move(LOOK.name, "Ben"))
    assert (ruling.code, ruling.rule) == ("target_protected", "AC-4.2")
    assert "Ben is protected by Jay-Den Kraag until the start of their next turn" in ruling.reason
    assert all(a["target"] != "Ben" for a in ruling.alternatives)


@pytest.mark.parametrize(
    "played, rule_id", [(LURA, "AC-R4"), (LOOK, "AC-R3"), (COMPARE, "AC-R3"), (JETT, "AC-R4")]
)
def test_a_card_that_needs_another_cadet_cannot_target_its_player(played, rule_id):
    pos = position(["Ana", "Ben"], [played, KRAAG])
    ruling = rule(pos, move(played.name, "Ana", guess="Jett Reno" if played is LURA else None))
    assert (ruling.verdict, ruling.code, ruling.rule) == ("illegal", "target_self", rule_id)
    assert ruling.reason == f"{played.name} must target another cadet, not its player, Ana."


def test_darem_reymi_may_target_its_own_player():
    pos = position(["Ana", "Ben"], [DAREM, LURA])
    ruling = rule(pos, move("Darem Reymi", "Ana"))
    assert (ruling.verdict, ruling.code, ruling.rule) == ("legal", "legal_play", "AC-R4")
    outcome = ruling.outcome
    # Ana's own remaining card is known: it is discarded without effect and she draws again.
    assert outcome["discarded"] == [
        {"player": "Ana", "card": "Lura Thok", "reason": "forced discard"}
    ]
    assert outcome["draws"] == [{"player": "Ana", "count": 1, "from": "deck"}]
    assert outcome["deck_count"] == 17 and outcome["cases"] == []


# --- AC-4.3: Lura Thok -----------------------------------------------------------------------------


def test_lura_thok_cannot_name_lura_thok():
    pos = position(["Ana", "Ben"], [LURA, KRAAG])
    ruling = rule(pos, move("Lura Thok", "Ben", guess=1))
    assert (ruling.verdict, ruling.code, ruling.rule) == (
        "illegal",
        "cannot_name_lura_thok",
        "AC-4.3",
    )
    assert ruling.reason == (
        "Lura Thok cannot name Lura Thok: the guess must be a card other than Lura Thok (1)."
    )


def test_lura_thok_needs_a_guess():
    ruling = rule(position(["Ana", "Ben"], [LURA, KRAAG]), move("Lura Thok", "Ben"))
    assert (ruling.verdict, ruling.code) == ("needs_information", "guess_required")
    assert ruling.missing[0]["path"] == "move.guess"
    assert "Lura Thok" not in ruling.missing[0]["choices"]
    assert len(ruling.missing[0]["choices"]) == 10
    assert ruling.outcome is None and ruling.alternatives == []


def test_lura_thok_outcomes_known_and_conditional():
    # Ben's card known: a hit eliminates him, and with two cadets the round ends.
    pos = position(["Ana", cadet("Ben", hand="Jett Reno")], [LURA, KRAAG])
    hit = rule(pos, move("Lura Thok", "Ben", guess="jett reno".title()))
    assert hit.outcome["eliminated"] == ["Ben"]
    assert hit.outcome["discarded"] == [
        {"player": "Ben", "card": "Jett Reno", "reason": "eliminated: discards the card in hand"}
    ]
    assert hit.outcome["round_ends"] is True and hit.outcome["next_turn"] is None
    assert "Only Ana is left in the round" in hit.outcome["round_end_reason"]
    miss = rule(pos, move("Lura Thok", "Ben", guess="The Doctor"))
    assert miss.outcome["eliminated"] == [] and miss.outcome["round_ends"] is False
    assert "Ben does not hold The Doctor (6): nothing happens." in miss.outcome["summary"]
    # Unknown: stated conditionally.
    unknown = rule(
        position(["Ana", "Ben", "Cy"], [LURA, KRAAG]),
        move("Lura Thok", "Ben", guess="Tarima Sadel"),
    )
    outcome = unknown.outcome
    assert outcome["eliminated"] == [] and outcome["round_ends"] is False
    assert outcome["in_round"] is None and outcome["next_turn"] is None
    by_if = {case["if"]: case for case in outcome["cases"]}
    hit_case = by_if["if Ben holds Tarima Sadel (10)"]
    assert hit_case["eliminated"] == ["Ben"] and hit_case["next_turn"] == "Cy"
    assert hit_case["summary"][0] == "Ben holds Tarima Sadel (10) and is out of the round."
    miss_case = by_if["if Ben holds any other card (not Tarima Sadel (10))"]
    assert miss_case["eliminated"] == [] and miss_case["next_turn"] == "Ben"
    assert len(miss_case["holds"]) == 10


def test_a_guess_whose_every_copy_is_seen_cannot_hit():
    pos = position(
        ["Ana", cadet("Ben"), cadet("Cy", "Tarima Sadel", in_round=False)], [LURA, KRAAG]
    )
    ruling = rule(pos, move("Lura Thok", "Ben", guess="Tarima Sadel"))
    assert ruling.outcome["cases"] == [] and ruling.outcome["eliminated"] == []
    assert (
        "Every copy of Tarima Sadel (10) is accounted for elsewhere, so Ben cannot hold it."
        in ruling.outcome["summary"]
    )


# --- AC-4.4 and AC-R6: Caleb Mir's mark ------------------------------------------------------------


def marked_table(**ben):
    return [cadet("Ana", "Caleb Mir"), cadet("Ben", **ben), "Cy"]


def test_ignoring_the_mark_is_illegal():
    pos = position(marked_table(marked=True), [JETT, LURA], turn="Ana")
    ruling = rule(pos, move("Jett Reno", "Cy"))
    assert (ruling.verdict, ruling.code, ruling.rule) == ("illegal", "must_target_marked", "AC-4.4")
    assert ruling.reason == (
        "Ben is marked by Caleb Mir and can be targeted, so a card played at "
        "another cadet must target Ben, not Cy."
    )
    assert {a["target"] for a in ruling.alternatives} == {"Ben"}
    legal = rule(pos, move("Jett Reno", "Ben"))
    assert legal.verdict == "legal"
    assert legal.outcome["mark_cleared"] is True and legal.outcome["marked"] is None
    assert "Ben's mark clears (AC-R6)." in legal.outcome["summary"]
    assert any(c.rule == "AC-4.4" and c.passed for c in legal.checks)


def test_the_only_marked_target_is_taken_when_none_is_named():
    pos = position(marked_table(marked=True), [JETT, LURA])
    ruling = rule(pos, move("Jett Reno"))
    assert ruling.verdict == "legal" and ruling.outcome["target"] == "Ben"
    assert ruling.warnings == [
        "The move names no target; the only cadet Jett Reno can target is "
        "Ben, so the ruling takes Ben as the target."
    ]


def test_a_marked_cadet_who_cannot_be_targeted_leaves_the_target_free():
    # Ben marked, then protected himself: the next card at another cadet may aim anywhere, and
    # the mark clears (AC-R6).
    pos = position(
        [
            cadet("Ana", "Caleb Mir"),
            cadet("Ben", "Jay-Den Kraag", marked=True, shielded=True),
            "Cy",
        ],
        [JETT, LURA],
    )
    ruling = rule(pos, move("Jett Reno", "Cy"))
    assert ruling.verdict == "legal"
    free = next(c for c in ruling.checks if c.rule == "AC-R6")
    assert free.detail == (
        "Ben is marked but cannot be targeted by this card (Ben is protected), "
        "so the target is free; the mark then clears."
    )
    assert ruling.outcome["mark_cleared"] is True and ruling.outcome["marked"] is None
    # The same when the marked cadet is out of the round.
    out = position(
        [
            cadet("Ana", "Caleb Mir"),
            cadet("Ben", "Tarima Sadel", marked=True, in_round=False),
            "Cy",
            "Dee",
        ],
        [JETT, LURA],
    )
    assert rule(out, move("Jett Reno", "Dee")).verdict == "legal"


def test_cards_that_target_nobody_else_leave_the_mark_in_place():
    pos = position(marked_table(marked=True), [KRAAG, LURA])
    ruling = rule(pos, move("Jay-Den Kraag"))
    assert ruling.outcome["marked"] == "Ben" and ruling.outcome["mark_cleared"] is False
    assert ruling.outcome["protected"] == ["Ana"]
    # Darem Reymi aimed at its own player is not played at another cadet: the mark stays.
    own = rule(position(marked_table(marked=True), [DAREM, LURA]), move("Darem Reymi", "Ana"))
    assert own.verdict == "legal" and own.outcome["marked"] == "Ben"
    assert any(c.rule == "AC-R6" and "stays in place" in c.detail for c in own.checks)
    # …but aimed at another cadet it must follow the mark.
    other = rule(position(marked_table(marked=True), [DAREM, LURA]), move("Darem Reymi", "Cy"))
    assert other.code == "must_target_marked"


def test_the_marked_player_plays_freely_and_clears_their_own_mark():
    pos = position([cadet("Ana", marked=True), cadet("Ben", "Caleb Mir"), "Cy"], [JETT, LURA])
    ruling = rule(pos, move("Jett Reno", "Cy"))
    assert ruling.verdict == "legal" and ruling.outcome["mark_cleared"] is True
    assert "(Ana is the player)" in next(c.detail for c in ruling.checks if c.rule == "AC-R6")


def test_caleb_mir_marks_anyone_in_and_unprotected_the_player_included():
    pos = position(["Ana", cadet("Ben", "Jay-Den Kraag", shielded=True), "Cy"], [CALEB, LURA])
    ruling = rule(pos, move("Caleb Mir", "Cy"))
    assert (ruling.verdict, ruling.rule) == ("legal", "AC-R6")
    assert ruling.outcome["marked"] == "Cy"
    assert (
        "Cy is marked: the next card played at another cadet must target Cy if it can (AC-R6)."
    ) in ruling.outcome["summary"]
    assert rule(pos, move("Caleb Mir", "Ana")).outcome["marked"] == "Ana"
    protected = rule(pos, move("Caleb Mir", "Ben"))
    assert protected.code == "target_protected"
    assert rule(pos, move("Caleb Mir")).code == "target_required"


def test_only_one_mark_at_a_time_a_new_mark_replaces_it():
    # Tableside's reading: a copy of Caleb Mir beyond the catalog's one would move the mark.
    two = CardSpec("Caleb Mir", 8, "mark_target", 2)
    pos = position([cadet("Ana"), cadet("Ben", two, marked=True), "Cy"], [two, LURA])
    pos.cards = [c if c.name != "Caleb Mir" else two for c in pos.cards]
    ruling = rule(pos, move("Lura Thok", "Ben", guess="Jett Reno"))  # any legal play works
    assert ruling.verdict == "legal"
    self_mark = rule(pos, ac.Move(two, "Ana"))
    assert self_mark.outcome["marked"] == "Ana" and self_mark.outcome["mark_cleared"] is True
    assert self_mark.outcome["summary"][1].startswith("The mark moves from Ben to Ana")


def test_ac_r6_a_marked_player_must_aim_a_card_that_may_target_its_player_at_themself():
    # Issue 11: Ana is marked and to move. Darem Reymi may target its own player (AC-R4), so Ana,
    # the marked cadet, can be targeted by it: aimed at another cadet, it must target Ana.
    table = [cadet("Ana", marked=True), cadet("Ben", "Caleb Mir"), "Cy"]
    pos = position(table, [DAREM, LURA])
    ruling = rule(pos, move("Darem Reymi", "Cy"))
    assert (ruling.verdict, ruling.code, ruling.rule) == ("illegal", "must_target_marked", "AC-R6")
    assert ruling.reason == (
        "Ana is marked by Caleb Mir, and Darem Reymi can target its own "
        "player, so the mark binds it: a card played at another cadet must "
        "target the marked cadet if it can, so Darem Reymi must target Ana, "
        "not Cy."
    )
    assert failed(ruling)[0].rule == "AC-R6"
    assert [a["target"] for a in ruling.alternatives if a["play"] == "Darem Reymi"] == ["Ana"]
    # Lura Thok cannot target its player, so for it the target stays free.
    assert {a["target"] for a in ruling.alternatives if a["play"] == "Lura Thok"} == {"Ben", "Cy"}
    assert rule(pos, move("Lura Thok", "Cy", guess="Jett Reno")).verdict == "legal"
    # At Ana herself the play is legal; it is not played at another cadet, so the mark stays.
    own = rule(pos, move("Darem Reymi", "Ana"))
    assert own.verdict == "legal" and own.outcome["marked"] == "Ana"
    assert not own.outcome["mark_cleared"]
    # Naming no target, the one legal target is taken.
    assert rule(pos, move("Darem Reymi")).outcome["target"] == "Ana"


def test_ac_r6_whether_a_card_may_target_its_player_comes_from_its_effect_not_its_name():
    # The same card data under other names: a force_discard card is bound by the player's own
    # mark, a guess_card card is not.
    forcing = CardSpec("Ensign Any", 5, "force_discard", 1)
    guessing = CardSpec("Cadet Guess", 1, "guess_card", 1)
    table = [cadet("Ana", marked=True), cadet("Ben", "Caleb Mir"), "Cy"]
    pos = position(table, [forcing, guessing])
    pos.cards = [*pos.cards, forcing, guessing]
    bound = rule(pos, ac.Move(forcing, "Ben"))
    assert (bound.verdict, bound.code) == ("illegal", "must_target_marked")
    assert rule(pos, ac.Move(forcing, "Ana")).verdict == "legal"
    free = rule(pos, ac.Move(guessing, "Ben", JETT))
    assert free.verdict == "legal" and free.outcome["mark_cleared"] is True


# --- AC-R5 and AC-5.1: nobody to target --------------------------------------------------------


def everyone_else_protected():
    return [
        "Ana",
        cadet("Ben", "Jay-Den Kraag", shielded=True),
        cadet("Cy", "Lura Thok", in_round=False),
    ]


@pytest.mark.parametrize("played", [LURA, LOOK, COMPARE, JETT])
def test_a_card_that_needs_another_cadet_has_no_effect_when_none_can_be_targeted(played):
    pos = position(everyone_else_protected(), [played, VANCE])
    ruling = rule(pos, move(played.name))
    assert (ruling.verdict, ruling.code, ruling.rule) == ("legal", "no_effect_no_target", "AC-R5")
    assert ruling.checks[-1].rule == "AC-R5"
    assert ruling.checks[-1].detail == (
        f"No other cadet can be targeted (Ben is protected and Cy "
        f"is out): {played.name} is played with no target and no "
        "effect."
    )
    assert ruling.outcome["has_effect"] is False and ruling.outcome["eliminated"] == []
    # Aiming it anyway is stopped, at a protected, an eliminated cadet or its player.
    assert rule(pos, move(played.name, "Ben")).code == "target_protected"
    assert rule(pos, move(played.name, "Cy")).code == "target_eliminated"
    self_aimed = rule(pos, move(played.name, "Ana"))
    assert (self_aimed.code, self_aimed.rule) == ("target_self", "AC-R5")
    assert {
        "play": played.name,
        "target": None,
        "guess": None,
        "confirm": False,
    } in self_aimed.alternatives


def test_lura_thok_with_no_target_needs_no_guess():
    ruling = rule(
        position(everyone_else_protected(), [LURA, VANCE]), move("Lura Thok", guess="Jett Reno")
    )
    assert ruling.code == "no_effect_no_target"
    assert "the guess Jett Reno is ignored" in ruling.warnings[0]


def test_darem_reymi_must_then_target_its_player():
    pos = position(everyone_else_protected(), [DAREM, VANCE])
    ruling = rule(pos, move("Darem Reymi"))
    assert (ruling.verdict, ruling.code, ruling.rule) == ("legal", "legal_play", "AC-R5")
    assert ruling.outcome["target"] == "Ana"
    assert any(
        c.rule == "AC-R5" and "can only target its player, Ana" in c.detail for c in ruling.checks
    )
    assert ruling.outcome["discarded"][0] == {
        "player": "Ana",
        "card": "Charles Vance",
        "reason": "forced discard",
    }
    assert rule(pos, move("Darem Reymi", "Ana")).verdict == "legal"
    refused = rule(pos, move("Darem Reymi", "Ben"))
    assert refused.code == "target_protected"
    assert refused.reason.endswith(
        "No other cadet can be targeted, so Darem Reymi must target its player, Ana (AC-R5)."
    )
    assert [a["target"] for a in refused.alternatives if a["play"] == "Darem Reymi"] == ["Ana"]


def test_protection_lasts_until_the_start_of_the_players_next_turn():
    # Ana's shield from her last turn has ended at the start of this one (AC-5.1): with it
    # cleared she can mark herself, or shield herself again.
    pos = position([cadet("Ana", "Jay-Den Kraag"), "Ben"], [CALEB, KRAAG])
    ruling = rule(pos, move("Caleb Mir", "Ana"))
    assert ruling.verdict == "legal"
    assert ruling.outcome["protected"] == []
    shield = rule(pos, move("Jay-Den Kraag"))
    assert (shield.rule, shield.outcome["protected"]) == ("AC-5.1", ["Ana"])


# --- AC-4 and AC-R4: Tarima Sadel -----------------------------------------------------------------


def test_tarima_sadel_is_legal_but_warns_unless_confirmed():
    pos = position(["Ana", "Ben", "Cy"], [TARIMA, LURA])
    ruling = rule(pos, move("Tarima Sadel"))
    assert (ruling.verdict, ruling.code, ruling.rule) == ("legal", "eliminates_player", "AC-4")
    assert ruling.warnings == [
        "Playing Tarima Sadel eliminates Ana: the game asks Ana to confirm "
        '(AC-4). Send "confirm": true once they have.'
    ]
    outcome = ruling.outcome
    assert outcome["eliminated"] == ["Ana"]
    assert outcome["discarded"] == [
        {"player": "Ana", "card": "Lura Thok", "reason": "eliminated: discards the card in hand"}
    ]
    assert outcome["in_round"] == ["Ben", "Cy"] and outcome["next_turn"] == "Ben"
    confirmed = rule(pos, move("Tarima Sadel", confirm=True))
    assert confirmed.verdict == "legal" and confirmed.warnings == []
    # With two cadets it ends the round.
    duel = rule(position(["Ana", "Ben"], [TARIMA, LURA]), move("Tarima Sadel", confirm=True))
    assert duel.outcome["round_ends"] is True and duel.outcome["in_round"] == ["Ben"]


# --- AC-5.3 and AC-R4: Darem Reymi ------------------------------------------------------------------


def test_darem_reymi_on_tarima_sadel_eliminates_with_no_redraw():
    pos = position(["Ana", cadet("Ben", hand="Tarima Sadel"), "Cy"], [DAREM, LURA])
    ruling = rule(pos, move("Darem Reymi", "Ben"))
    assert ruling.outcome["eliminated"] == ["Ben"] and ruling.outcome["draws"] == []
    assert ruling.outcome["deck_count"] == pos.deck_count
    assert (
        "Ben discards Tarima Sadel (10) and is out of the round, with no new card (AC-R4, AC-5.3)."
    ) in ruling.outcome["summary"]


def test_darem_reymi_at_an_unknown_card_is_conditional():
    pos = position(["Ana", "Ben", "Cy"], [DAREM, LURA], deck_count=1)
    outcome = rule(pos, move("Darem Reymi", "Ben")).outcome
    cases = {case["if"]: case for case in outcome["cases"]}
    tarima = cases["if Ben holds Tarima Sadel (10)"]
    assert tarima["eliminated"] == ["Ben"] and tarima["deck_count"] == 1
    assert tarima["round_ends"] is False and tarima["next_turn"] == "Cy"
    other = cases["if Ben holds any other card (not Tarima Sadel (10))"]
    # Ben draws the last card: the deck is empty at the end of the turn, so the round ends.
    assert other["draws"] == [{"player": "Ben", "count": 1, "from": "deck"}]
    assert other["deck_count"] == 0 and other["round_ends"] is True
    assert outcome["round_ends"] is None and outcome["deck_count"] is None
    assert outcome["round_end_reason"] == "It depends on Ben's card: see the cases."


def test_darem_reymi_on_an_empty_deck_draws_the_set_aside_card():
    pos = position(["Ana", cadet("Ben", hand="Jett Reno")], [DAREM, LURA], deck_count=0)
    ruling = rule(pos, move("Darem Reymi", "Ben"))
    assert (ruling.verdict, ruling.rule) == ("legal", "AC-5.3")
    assert any(c.rule == "AC-5.3" and "set-aside card" in c.detail for c in ruling.checks)
    outcome = ruling.outcome
    assert outcome["draws"] == [{"player": "Ben", "count": 1, "from": "set_aside"}]
    assert outcome["set_aside_drawn"] is True and outcome["deck_count"] == 0
    assert (
        "Ben discards Jett Reno (7) face up without its effect and draws the set-aside card, "
        "as the deck is empty (AC-5.3)."
    ) in outcome["summary"]
    # The deck is still empty at the end of the turn: showdown.
    assert outcome["round_ends"] is True and "reveal their cards" in outcome["round_end_reason"]


# --- AC-5.4 and AC-R4: The Doctor ------------------------------------------------------------------


@pytest.mark.parametrize("deck, drawn", [(5, 2), (2, 2), (1, 1)])
def test_the_doctor_draws_up_to_two(deck, drawn):
    pos = position(["Ana", "Ben", "Cy"], [DOCTOR, LURA], deck_count=deck)
    ruling = rule(pos, move("The Doctor"))
    assert (ruling.verdict, ruling.code) == ("legal", "legal_play")
    check = next(c for c in ruling.checks if c.rule == "AC-5.4")
    assert ("just that one" in check.detail) == (drawn == 1)
    outcome = ruling.outcome
    assert outcome["draws"] == [{"player": "Ana", "count": drawn, "from": "deck"}]
    # What is not kept goes to the bottom: the deck holds as many cards as before.
    assert outcome["deck_count"] == deck and outcome["round_ends"] is False


def test_the_doctor_on_an_empty_deck_has_no_effect():
    pos = position(["Ana", "Ben"], [DOCTOR, LURA], deck_count=0)
    ruling = rule(pos, move("The Doctor"))
    assert (ruling.verdict, ruling.code, ruling.rule) == ("legal", "no_effect_empty_deck", "AC-5.4")
    assert ruling.outcome["draws"] == [] and ruling.outcome["has_effect"] is False
    assert ruling.outcome["round_ends"] is True  # the deck ran out at the end of a turn


# --- AC-R3: values 2 and 3; AC-R4: Jett Reno; Charles Vance --------------------------------------


def test_compare_hands_known_and_by_value():
    pos = position(["Ana", cadet("Ben", hand="Lura Thok"), "Cy"], [COMPARE, JETT])
    won = rule(pos, move(COMPARE.name, "Ben")).outcome
    assert won["eliminated"] == ["Ben"]
    assert (
        "Ana's Jett Reno (7) beats Ben's Lura Thok (1): Ben is out of the round." in won["summary"]
    )
    lost = rule(
        position(["Ana", cadet("Ben", hand="Nahla Ake")], [COMPARE, JETT]),
        move(COMPARE.name, "Ben"),
    ).outcome
    assert lost["eliminated"] == ["Ana"] and lost["round_ends"] is True
    assert lost["discarded"][0] == {
        "player": "Ana",
        "card": "Jett Reno",
        "reason": "eliminated: discards the card in hand",
    }
    tie = rule(
        position(["Ana", cadet("Ben", hand="Lura Thok")], [COMPARE, LURA]),
        move(COMPARE.name, "Ben"),
    ).outcome
    assert tie["eliminated"] == [] and "ties with" in tie["summary"][1]
    unknown = rule(
        position(["Ana", "Ben", "Cy"], [COMPARE, DAREM]), move(COMPARE.name, "Ben")
    ).outcome
    ifs = [case["if"] for case in unknown["cases"]]
    assert ifs[0].startswith("if Ben's card is lower than 5 (Charles Vance (0), Lura Thok (1)")
    assert ifs[1] == "if Ben's card is also 5 (Darem Reymi (5))"
    assert ifs[2].startswith("if Ben's card is higher than 5 (The Doctor (6)")
    assert [case["eliminated"] for case in unknown["cases"]] == [["Ben"], [], ["Ana"]]


def test_jett_reno_trades_hands():
    pos = position(["Ana", cadet("Ben", hand="Caleb Mir")], [JETT, LURA])
    outcome = rule(pos, move("Jett Reno", "Ben")).outcome
    assert outcome["trade"] == {
        "players": ["Ana", "Ben"],
        "player_gets": "Caleb Mir",
        "target_gets": "Lura Thok",
    }
    assert (
        "Ana and Ben trade hands: Ana takes Caleb Mir (8), Ben takes Lura Thok (1)."
        in outcome["summary"]
    )


def test_charles_vance_played_has_no_effect_now():
    ruling = rule(position(["Ana", "Ben"], [VANCE, LURA]), move("Charles Vance"))
    assert (ruling.code, ruling.rule) == ("legal_play", "AC-6.3")
    assert "counts for the bonus credit" in ruling.outcome["summary"][1]


def test_a_no_target_card_ignores_a_target_and_a_guess_with_warnings():
    ruling = rule(
        position(["Ana", "Ben"], [KRAAG, LURA]), move("Jay-Den Kraag", "Ben", guess="Jett Reno")
    )
    assert ruling.verdict == "legal" and ruling.outcome["target"] is None
    assert ruling.warnings == [
        "Jay-Den Kraag targets nobody; the target Ben is ignored.",
        "Jay-Den Kraag takes no guess; the guess Jett Reno is ignored.",
    ]


def test_a_card_whose_effect_is_unknown_needs_information():
    mystery = CardSpec("Mystery", 3, None, 1)
    pos = position(["Ana", "Ben"], [mystery, LURA], deck_count=17)
    pos.cards = pos.cards + [mystery]
    ruling = rule(pos, ac.Move(mystery, "Ben"))
    assert (ruling.verdict, ruling.code) == ("needs_information", "effect_unknown")
    assert ruling.missing[0]["path"] == "cards.Mystery.effect"


def test_several_targets_need_the_target():
    ruling = rule(position(["Ana", "Ben", "Cy"], [JETT, LURA]), move("Jett Reno"))
    assert (ruling.verdict, ruling.code, ruling.rule) == (
        "needs_information",
        "target_required",
        "AC-3.3",
    )
    assert ruling.missing == [
        {
            "path": "move.target",
            "choices": ["Ben", "Cy"],
            "detail": "Jett Reno (7) needs a target: Ben and Cy can be targeted; say which.",
        }
    ]


# --- AC-6.1: the end of the round, and the next cadet ------------------------------------------


def test_the_next_turn_skips_cadets_who_are_out():
    pos = position(["Ana", cadet("Ben", "Lura Thok", in_round=False), "Cy", "Dee"], [KRAAG, LURA])
    assert rule(pos, move("Jay-Den Kraag")).outcome["next_turn"] == "Cy"
    last = position(["Ana", "Ben", "Cy"], [KRAAG, LURA], turn="Cy")
    assert rule(last, move("Jay-Den Kraag")).outcome["next_turn"] == "Ana"


def test_the_round_ends_when_the_deck_runs_out_at_the_end_of_a_turn():
    pos = position(["Ana", "Ben", "Cy"], [KRAAG, LURA], deck_count=0)
    outcome = rule(pos, move("Jay-Den Kraag")).outcome
    assert outcome["round_ends"] is True and outcome["next_turn"] is None
    assert outcome["round_end_reason"] == (
        "The deck is empty at the end of the turn: the round "
        "ends, and Ana, Ben and Cy reveal their cards; the "
        "highest wins (AC-6.1, AC-6.2)."
    )


def unknown_deck(pos):
    pos.deck_count = None  # the request did not say how many cards are left
    return pos


def test_ac_6_1_a_play_illegal_whatever_the_deck_holds_is_ruled_without_the_deck_count():
    # Issue 15: legality never depends on the deck, so an illegal play needs no deck count.
    pos = unknown_deck(position(["Ana", "Ben"], [NAHLA, JETT]))
    ruling = rule(pos, move("Jett Reno", "Ben"))
    assert (ruling.verdict, ruling.code) == ("illegal", "must_play_nahla_ake")
    assert ruling.alternatives == [
        {"play": "Nahla Ake", "target": None, "guess": None, "confirm": False}
    ]
    assert ruling.missing == [] and ruling.warnings == []
    # The position is still checked: cards beyond the deck's without counting the deck at all.
    crowded = unknown_deck(
        position(
            ["Ana", cadet("Ben", *[1] * 6, *[0] * 2, *[4] * 2, *[5] * 2, *[6] * 2, 3, 3, 2, 2, 8)],
            [NAHLA, JETT],
        )
    )
    assert codes(impossible(crowded, move("Nahla Ake"))) == ["too_many_cards"]


@pytest.mark.parametrize(
    "played, target, rule_id, why",
    [
        (JETT, "Ben", "AC-6.1", "the round ends when the deck runs out at the end of a turn"),
        (DOCTOR, None, "AC-5.4", "The Doctor draws up to two cards, and none from an empty deck"),
        (
            DAREM,
            "Ben",
            "AC-5.3",
            "the cadet who discards draws from the deck, or takes the set-aside "
            "card when the deck is empty",
        ),
    ],
)
def test_ac_6_1_where_the_deck_count_matters_the_ruling_asks_for_it(played, target, rule_id, why):
    pos = unknown_deck(position(["Ana", "Ben", "Cy"], [played, LURA]))
    ruling = rule(pos, move(played.name, target))
    assert (ruling.verdict, ruling.code, ruling.rule) == (
        "needs_information",
        "deck_count_required",
        rule_id,
    )
    aimed = f" at {target}" if target else ""
    assert ruling.reason == (
        f"Playing {played.label}{aimed} is legal, but what happens depends "
        f"on how many cards are left in the deck: {why} ({rule_id})."
    )
    assert ruling.missing == [
        {
            "path": "position.deck_count",
            "detail": "How many cards are left in the deck, after Ana's draw this turn? (The "
            "set-aside card does not count.)",
        }
    ]
    assert all(c.passed for c in ruling.checks) and ruling.outcome is None
    assert "deck_count" not in ruling.reason + ruling.missing[0]["detail"]


def test_ac_6_1_a_play_that_needs_a_target_asks_for_the_deck_count_with_it():
    pos = unknown_deck(position(["Ana", "Ben", "Cy"], [JETT, LURA]))
    ruling = rule(pos, move("Jett Reno"))
    assert (ruling.verdict, ruling.code) == ("needs_information", "target_required")
    assert [m["path"] for m in ruling.missing] == ["move.target", "position.deck_count"]


def test_ac_6_1_a_play_that_ends_the_round_whatever_the_deck_needs_no_deck_count():
    # Tarima Sadel in a game of two: Ana is out, Ben is the last cadet standing, whatever the deck.
    pos = unknown_deck(position(["Ana", "Ben"], [TARIMA, LURA]))
    ruling = rule(pos, move("Tarima Sadel", confirm=True))
    assert (ruling.verdict, ruling.code) == ("legal", "eliminates_player")
    assert ruling.outcome["round_ends"] is True and ruling.outcome["deck_count"] is None
    assert ruling.outcome["round_end_reason"] == (
        "Only Ben is left in the round: the round ends and Ben wins it (AC-6.1)."
    )
    assert ruling.missing == [] and ruling.warnings == []


def test_the_outcome_says_which_option_readings_are_in_force():
    pos = position(["Ana", "Ben"], [KRAAG, LURA], options={"charles_vance_bonus": "still_in_round"})
    assert rule(pos, move("Jay-Den Kraag")).outcome["options"] == {
        "charles_vance_bonus": "still_in_round"
    }


# --- Positions that cannot exist ---------------------------------------------------------------


def codes(errors):
    return [e["code"] for e in errors]


def test_more_copies_than_the_deck_has_counting_hands_discards_and_the_move():
    errors = impossible(position(["Ana", cadet("Ben", "Nahla Ake")], [NAHLA, LURA]))
    assert codes(errors) == ["too_many_copies"]
    assert errors[0]["detail"] == (
        "The position shows 2 copies of Nahla Ake (9) (in Ana's "
        "hand and in front of Ben), but the deck has 1 (AC-R2)."
    )
    # The move's card counts when it is not in the hand.
    pos = position(["Ana", cadet("Ben", "Jett Reno")], [KRAAG, LURA])
    errors = impossible(pos, move("Jett Reno", "Ben"))
    assert "(in front of Ben and played by the move)" in errors[0]["detail"]
    # Seven Lura Thok across hands and discards.
    errors = impossible(
        position(["Ana", cadet("Ben", 1, 1, 1, hand=1), cadet("Cy", 1)], [LURA, LURA])
    )
    assert errors[0]["detail"] == (
        "The position shows 7 copies of Lura Thok (1) (2 in Ana's "
        "hand, in Ben's hand, 3 in front of Ben and in front of Cy), "
        "but the deck has 6 (AC-R2)."
    )


def test_the_hand_must_hold_two_cards():
    errors = impossible(position(["Ana", "Ben"], [LURA]))
    assert codes(errors) == ["hand_size"]
    assert "holds 1 card; after the draw a cadet holds exactly two (AC-3.1)" in errors[0]["detail"]
    assert codes(impossible(position(["Ana", "Ben"], [LURA, KRAAG, JETT]))) == ["hand_size"]


def test_a_turn_for_a_cadet_who_is_out_or_absent():
    out = impossible(
        position(
            [cadet("Ana", "Lura Thok", in_round=False), "Ben", "Cy"], [LURA, KRAAG], turn="Ana"
        )
    )
    assert codes(out) == ["turn_out"]
    absent = impossible(position(["Ana", "Ben"], [LURA, KRAAG], turn="Zed"))
    assert codes(absent) == ["turn_absent"]
    assert absent[0]["path"] == "turn"


def test_more_cadets_than_the_game_allows_and_fewer():
    five = impossible(position(["Ana", "Ben", "Cy", "Dee", "Eve"], [LURA, KRAAG]))
    assert codes(five) == ["too_many_cadets"]
    assert five[0]["detail"] == "The table seats 5 cadets; Academy Credits is for 2 to 4."
    assert codes(impossible(position(["Ana"], [LURA, KRAAG]))) == ["too_few_cadets"]


def test_other_contradictions():
    assert codes(impossible(position(["Ana", "ana"], [LURA, KRAAG]))) == ["duplicate_cadet"]
    assert codes(
        impossible(
            position(
                [
                    "Ana",
                    cadet("Ben", "Lura Thok", in_round=False),
                    cadet("Cy", "Lura Thok", in_round=False),
                ],
                [LURA, KRAAG],
            )
        )
    ) == ["round_over"]
    assert codes(
        impossible(
            position(
                ["Ana", cadet("Ben", "Lura Thok", hand="Jett Reno", in_round=False), "Cy"],
                [LURA, KRAAG],
            )
        )
    ) == ["hand_of_eliminated"]
    assert codes(impossible(position([cadet("Ana", hand="Jett Reno"), "Ben"], [LURA, KRAAG]))) == [
        "turn_hand_mismatch"
    ]
    assert codes(impossible(position(["Ana", "Ben"], [LURA, KRAAG], deck_count=19))) == [
        "too_many_cards"
    ]
    assert codes(
        impossible(
            position(
                [cadet("Ana", "Caleb Mir"), cadet("Ben", marked=True), cadet("Cy", marked=True)],
                [LURA, KRAAG],
            )
        )
    ) == ["several_marked"]
    assert codes(impossible(position(["Ana", cadet("Ben", marked=True)], [LURA, KRAAG]))) == [
        "mark_without_card"
    ]
    assert codes(impossible(position(["Ana", cadet("Ben", shielded=True)], [LURA, KRAAG]))) == [
        "shield_without_card"
    ]


TARGETS = {"credits_target": {"2": 4, "3": 5, "4": 6}}


def test_ac_6_5_a_match_already_over_is_no_position_to_rule_on():
    # Issue 11: Ben already holds the credit target, so the match is over; the ruling refuses the
    # position as the score does, with the one check and the one wording of both.
    pos = position(["Ana", cadet("Ben", credits=4)], [LURA, KRAAG], options=TARGETS)
    errors = impossible(pos, move("Jay-Den Kraag"))
    assert errors == [
        {
            "path": "players[1].credits",
            "code": "match_over",
            "detail": "Ben already has 4 credits, at or above the target of 4: the match is over "
            "(AC-6.5), so no round is played after it.",
        }
    ]
    with pytest.raises(ImpossiblePosition) as scored:
        round_end = [cadet("Ana", hand="Lura Thok"), cadet("Ben", hand="Jett Reno", credits=4)]
        ac.check(ac.Position(round_end, None, [], 0, list(pos.cards), options=TARGETS))
    assert scored.value.errors == [{**errors[0], "path": "players[1].credits"}]
    # One below the target is a match still on; the target follows the number of cadets.
    assert (
        rule(
            position(["Ana", cadet("Ben", credits=3)], [LURA, KRAAG], options=TARGETS),
            move("Jay-Den Kraag"),
        ).verdict
        == "legal"
    )
    assert (
        rule(
            position(["Ana", cadet("Ben", credits=4), "Cy"], [LURA, KRAAG], options=TARGETS),
            move("Jay-Den Kraag"),
        ).verdict
        == "legal"
    )


def test_ac_6_4_an_eliminated_cadet_has_their_card_face_up():
    # Issue 11: a cadet out of the round discarded their card face up, so nothing in front of
    # them cannot be. The position is refused, naming the cadet.
    errors = impossible(position(["Ana", cadet("Ben", in_round=False), "Cy"], [LURA, KRAAG]))
    assert errors == [
        {
            "path": "players[1].discards",
            "code": "eliminated_without_discard",
            "detail": "Ben is out of the round but has no card face up: an eliminated cadet discards "
            "their card face up (AC-6.4), so at least that card is in front of Ben. Add it "
            "to Ben's cards in front.",
        }
    ]
    # With the card face up the position is fine.
    assert (
        rule(
            position(["Ana", cadet("Ben", "Lura Thok", in_round=False), "Cy"], [LURA, KRAAG]),
            move("Jay-Den Kraag"),
        ).verdict
        == "legal"
    )


def test_ac_5_1_the_cadet_to_move_is_no_longer_protected():
    # Issue 11: Jay-Den Kraag protects until the start of the cadet's next turn, so the cadet to
    # move cannot still be shown shielded.
    pos = position([cadet("Ana", "Jay-Den Kraag", shielded=True), "Ben"], [CALEB, KRAAG])
    errors = impossible(pos, move("Caleb Mir", "Ana"))
    assert errors == [
        {
            "path": "players[0].shielded",
            "code": "turn_protected",
            "detail": "Ana is shown shielded, but it is Ana's turn: Jay-Den Kraag protects only until "
            "the start of the cadet's next turn (AC-5.1), so Ana's protection has ended. "
            "Clear Ana's shield.",
        }
    ]
    # Another cadet may still be shielded on Ana's turn.
    shielded = position(["Ana", cadet("Ben", "Jay-Den Kraag", shielded=True)], [CALEB, KRAAG])
    assert rule(shielded, move("Caleb Mir", "Ana")).verdict == "legal"


def test_every_contradiction_is_named_at_once():
    errors = impossible(
        position(["Ana", cadet("Ben", "Nahla Ake", marked=True)], [NAHLA, LURA, KRAAG])
    )
    assert set(codes(errors)) == {"hand_size", "too_many_copies", "mark_without_card"}
    assert set(codes(errors)) <= set(ac.IMPOSSIBLE_CODES)


def test_a_position_missing_cards_is_ruled_with_a_warning():
    ruling = rule(position(["Ana", "Ben"], [KRAAG, LURA], deck_count=15), move("Jay-Den Kraag"))
    assert ruling.verdict == "legal"
    assert ruling.warnings[0].startswith(
        "The position accounts for 19 of the 22 cards (1 set "
        "aside, 15 in the deck, 3 in hands, 0 face up): 3 cards "
        "are missing"
    )
    assert "In a game of two, nothing is removed face up" in ruling.warnings[0]  # AC-R9


def test_every_code_is_documented():
    assert set(ac.LEGAL_CODES) == {
        "legal_play",
        "no_effect_no_target",
        "no_effect_empty_deck",
        "eliminates_player",
    }
    for code in (
        *ac.LEGAL_CODES,
        *ac.ILLEGAL_CODES,
        *ac.NEEDS_INFORMATION_CODES,
        *ac.IMPOSSIBLE_CODES,
        *ac.ROUND_IMPOSSIBLE_CODES,
    ):
        assert f"``{code}``" in ac.__doc__


# --- AC-R12: face up, out, shielded (issue 21) ----------------------------------------------------


def test_ac_r12_tarima_sadel_face_up_in_front_of_a_cadet_still_in_is_impossible():
    pos = position(["Ana", cadet("Ben", TARIMA), "Cy"], [LURA, KRAAG])
    errors = impossible(pos, move(KRAAG.name))
    assert errors == [
        {
            "path": "players[1].in_round",
            "code": "eliminated_still_in",
            "detail": "Tarima Sadel (10) is face up in front of Ben, but Ben is shown still in the "
            "round: a cadet who plays or discards Tarima Sadel (10) is out of the round "
            "(AC-R12). Mark Ben as out, or take Tarima Sadel (10) from Ben's cards in "
            "front.",
        }
    ]
    # The legal neighbour: Ben is out, with Tarima Sadel face up in front of him.
    neighbour = position(["Ana", cadet("Ben", TARIMA, in_round=False), "Cy"], [LURA, KRAAG])
    assert rule(neighbour, move(KRAAG.name)).verdict == "legal"


def test_ac_r12_a_cadet_out_of_the_round_is_never_shielded():
    pos = position(
        ["Ana", cadet("Ben", KRAAG, LURA, in_round=False, shielded=True), "Cy"], [LURA, NAHLA]
    )
    errors = impossible(pos, move(NAHLA.name))
    assert errors == [
        {
            "path": "players[1].shielded",
            "code": "shield_of_eliminated",
            "detail": "Ben is out of the round but shown shielded: protection lasts until the start "
            "of one's own turn, and nobody can knock out a protected cadet, so a cadet who "
            "is out is never shielded (AC-R12). Clear Ben's shield.",
        }
    ]
    # The legal neighbours: Ben out and not shielded; Ben in the round and shielded.
    out = position(["Ana", cadet("Ben", KRAAG, LURA, in_round=False), "Cy"], [LURA, NAHLA])
    assert rule(out, move(NAHLA.name)).verdict == "legal"
    shielded = position(["Ana", cadet("Ben", KRAAG, shielded=True), "Cy"], [LURA, NAHLA])
    ruling = rule(shielded, move(NAHLA.name))
    assert ruling.verdict == "legal" and ac.check(shielded).warnings == []
