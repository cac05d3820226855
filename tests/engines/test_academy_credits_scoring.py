"""The Academy Credits round scorer on plain card specs (no database): last cadet standing, the
deck-out showdown and its tie-breaks (AC-6.2, AC-R8), the Charles Vance bonus under both readings
(AC-6.3, AC-R7), the credits target (AC-R1), the match (AC-6.5, AC-R11), the next starter
(AC-R10) and the rounds that cannot be scored."""

import pytest

from games.academy_credits import engine as ac
from games.academy_credits import scorer as sc
from games.academy_credits.engine import CardSpec
from games.protocol import ImpossiblePosition, MissingFacts
from tests.engines.test_academy_credits_catalog import cadet, cards, option

TARGETS = option("credits_target")


def score(players, deck_count=0, reading="literal", starter=None, target=None, deck=None):
    """The board of the round's end (no cadet to move), scored."""
    players = [p if not isinstance(p, str) else cadet(p) for p in players]
    target = target if target is not None else TARGETS[str(len(players))]
    options = {"credits_target": {str(len(players)): target}, "charles_vance_bonus": reading}
    position = ac.Position(
        players, None, [], deck_count, list(deck or cards()), options=options, starter=starter
    )
    return ac.check(position).score()


def details(result):
    return [step.detail for step in result.steps]


def test_last_cadet_standing_wins_the_round():
    result = score(
        [
            cadet("Ana", "Lura Thok", in_round=False),
            cadet("Ben", "Jay-Den Kraag", hand="Lura Thok", credits=1),
            cadet("Cy", "Tarima Sadel", in_round=False),
        ],
        deck_count=9,
    )
    assert result.ended_by == sc.LAST_STANDING
    assert result.round_winners == ["Ben"]
    assert result.awards == [{"player": "Ben", "credits": 1, "reason": "last cadet standing"}]
    first = result.steps[0]
    assert (first.rule, first.points) == ("AC-6.1", 0)
    assert first.detail == (
        "Only Ben is still in the round (Ana and Cy are out): the round ends, "
        "Ben is the last cadet standing."
    )
    assert (result.steps[1].rule, result.steps[1].points, result.steps[1].running_total) == (
        "AC-1",
        1,
        1,
    )
    assert result.total == 1
    assert result.standings[0] == {
        "rank": 1,
        "player": "Ben",
        "credits_before": 1,
        "awarded": 1,
        "credits": 2,
        "to_target": 3,
    }
    assert [s["player"] for s in result.standings] == ["Ben", "Ana", "Cy"]
    assert [s["rank"] for s in result.standings] == [1, 2, 2]


def test_the_showdown_highest_value_wins_with_the_numbers():
    result = score(
        [
            cadet("Ana", hand="Jett Reno"),
            cadet("Ben", hand="The Doctor"),
            cadet("Cy", hand="Lura Thok"),
        ]
    )
    assert result.ended_by == sc.SHOWDOWN and result.round_winners == ["Ana"]
    assert details(result)[:5] == [
        "The deck is empty with 3 cadets still in (Ana, Ben and Cy): the round ends and they "
        "reveal their cards (AC-6.2).",
        "Ana reveals Jett Reno (7).",
        "Ben reveals The Doctor (6).",
        "Cy reveals Lura Thok (1).",
        "The highest value is 7, Ana's, above Ben's 6 and Cy's 1: Ana wins the round.",
    ]
    assert result.steps[1].card == "Jett Reno" and result.steps[1].player == "Ana"
    assert result.awards == [{"player": "Ana", "credits": 1, "reason": "won the deck-out showdown"}]


def test_a_tie_is_broken_by_the_cards_in_front_of_each_cadet_ac_r8():
    result = score(
        [
            cadet("Ana", "Lura Thok", "Jay-Den Kraag", hand="Darem Reymi"),
            cadet("Ben", "Charles Vance", "Unnamed card (2)", hand="Darem Reymi"),
            cadet("Cy", hand="Lura Thok"),
        ]
    )
    assert result.round_winners == ["Ana"]
    assert details(result)[4:8] == [
        "The highest value is 5, held by Ana and Ben: a tie, broken by the cards in front of each "
        "(AC-R8).",
        "The cards in front of Ana add up to 1 (Lura Thok) + 4 (Jay-Den Kraag) = 5.",
        "The cards in front of Ben add up to 0 (Charles Vance) + 2 (Unnamed card (2)) = 2.",
        "Ana's 5 beats Ben's 2: Ana wins the round.",
    ]
    assert [s.rule for s in result.steps[4:8]] == ["AC-6.2", "AC-R8", "AC-R8", "AC-R8"]


def test_still_tied_every_tied_cadet_earns_a_credit():
    result = score(
        [
            cadet("Ana", "Lura Thok", hand="Darem Reymi"),
            cadet("Ben", "Lura Thok", hand="Darem Reymi"),
            cadet("Cy", "Nahla Ake", hand="Lura Thok"),
        ]
    )
    assert result.round_winners == ["Ana", "Ben"]
    assert "Ana and Ben are still tied at 1: every tied cadet earns a credit." in details(result)
    assert result.awards == [
        {"player": "Ana", "credits": 1, "reason": "shared the deck-out showdown"},
        {"player": "Ben", "credits": 1, "reason": "shared the deck-out showdown"},
    ]
    assert result.total == 2
    no_cards = score([cadet("Ana", hand="Lura Thok"), cadet("Ben", hand="Lura Thok")])
    assert "Ana has no card in front of them: 0." in details(no_cards)
    assert no_cards.round_winners == ["Ana", "Ben"]


# --- AC-6.3 and AC-R7: the Charles Vance bonus -------------------------------------------------


def test_charles_vance_bonus_to_the_only_cadet_win_or_lose():
    result = score(
        [
            cadet("Ana", "Charles Vance", hand="Lura Thok"),
            cadet("Ben", "Lura Thok", hand="Jett Reno"),
        ]
    )
    assert result.round_winners == ["Ben"]
    assert result.awards[1] == {"player": "Ana", "credits": 1, "reason": "Charles Vance bonus"}
    bonus = [s for s in result.steps if s.rule in ("AC-R7", "AC-6.3")]
    assert bonus[0].detail == (
        "Ana is the only cadet who played or discarded Charles Vance (1 in "
        "front of Ana). Reading as printed: every cadet counts, eliminated or "
        "not."
    )
    assert (bonus[1].points, bonus[1].card) == (1, "Charles Vance")
    assert result.total == 2


def test_charles_vance_and_the_round_for_the_same_cadet():
    result = score(
        [
            cadet("Ana", "Charles Vance", "Charles Vance", hand="Nahla Ake"),
            cadet("Ben", hand="Lura Thok"),
        ]
    )
    assert [a["player"] for a in result.awards] == ["Ana", "Ana"]
    assert result.standings[0]["awarded"] == 2
    assert "(2 in front of Ana)" in details(result)[5]


def test_two_cadets_with_charles_vance_get_no_bonus():
    result = score(
        [
            cadet("Ana", "Charles Vance", hand="Nahla Ake"),
            cadet("Ben", "Charles Vance", hand="Lura Thok"),
        ]
    )
    assert [a["reason"] for a in result.awards] == ["won the deck-out showdown"]
    assert (
        "Ana and Ben each played or discarded Charles Vance: the bonus goes only to a cadet who "
        "is the only one, so nobody gains it."
    ) in details(result)[5]


def test_the_literal_reading_counts_an_eliminated_cadet():
    players = [
        cadet("Ana", "Charles Vance", in_round=False),
        cadet("Ben", "Lura Thok", hand="Jett Reno"),
    ]
    literal = score(players, deck_count=3)
    assert literal.awards == [
        {"player": "Ben", "credits": 1, "reason": "last cadet standing"},
        {"player": "Ana", "credits": 1, "reason": "Charles Vance bonus"},
    ]
    assert "Ana gains the bonus credit, though out of the round (win or lose)." in details(literal)
    variant = score(players, deck_count=3, reading="still_in_round")
    assert variant.awards == [{"player": "Ben", "credits": 1, "reason": "last cadet standing"}]
    assert (
        "No cadet still in the round played or discarded Charles Vance this round: no bonus "
        'credit. Reading "still in the round": only cadets still in the round count; Ana is out, '
        "so that Charles Vance does not count."
    ) in details(variant)


def test_the_variant_gives_the_bonus_to_the_only_survivor_with_it():
    players = [
        cadet("Ana", "Charles Vance", in_round=False),
        cadet("Ben", "Charles Vance", hand="Jett Reno"),
        cadet("Cy", hand="Lura Thok"),
    ]
    assert [a["reason"] for a in score(players).awards] == ["won the deck-out showdown"]
    variant = score(players, reading="still_in_round")
    assert variant.awards[1] == {"player": "Ben", "credits": 1, "reason": "Charles Vance bonus"}


def test_no_charles_vance_no_bonus():
    result = score([cadet("Ana", hand="Nahla Ake"), cadet("Ben", hand="Lura Thok")])
    assert (
        "No cadet played or discarded Charles Vance this round: no bonus credit. Reading "
        "as printed: every cadet counts, eliminated or not."
    ) in details(result)


# --- AC-R1, AC-6.5, AC-R11: the target and the match -------------------------------------------


@pytest.mark.parametrize("count, target", [(2, 4), (3, 5), (4, 6)])
def test_the_credits_target_by_number_of_cadets(count, target):
    players = [
        cadet(name, hand=hand)
        for name, hand in zip(
            ["Ana", "Ben", "Cy", "Dee"][:count],
            ["Nahla Ake", "Lura Thok", "Jay-Den Kraag", "The Doctor"],
            strict=False,
        )
    ]
    result = score(players)
    assert result.target == target
    assert (
        f"{count} cadets: the credits target is {target} (the Credits target option)."
        in details(result)
    )


def test_an_admin_changed_target_is_used():
    result = score(
        [cadet("Ana", hand="Nahla Ake", credits=2), cadet("Ben", hand="Lura Thok")], target=3
    )
    assert result.target == 3 and result.match_winners == ["Ana"]
    assert "Ana reaches 3 of 3 credits and wins the match." in details(result)


def test_the_match_goes_on_below_the_target():
    result = score([cadet("Ana", hand="Nahla Ake", credits=1), cadet("Ben", hand="Lura Thok")])
    assert result.match_winners == []
    assert "Nobody has reached 4 credits (the most is 2): the match goes on." in details(result)
    assert "Ana: 1 + 1 = 2 credits." in details(result)


def test_several_reach_the_target_with_equal_totals_and_share_the_victory():
    # Two cadets, target 4: Ana wins the round (3 + 1), Ben alone played Charles Vance (3 + 1).
    result = score(
        [
            cadet("Ana", hand="Nahla Ake", credits=3),
            cadet("Ben", "Charles Vance", hand="Lura Thok", credits=3),
        ]
    )
    assert result.round_winners == ["Ana"]
    assert result.match_winners == ["Ana", "Ben"]
    assert (
        "Ana (4) and Ben (4) reach 4 together with equal totals of 4: Ana and Ben share the "
        "victory."
    ) in details(result)
    assert next(s for s in result.steps if s.rule == "AC-R11").player is None


def test_several_reach_the_target_the_higher_total_wins():
    # Three cadets, target 5: Ana and Ben share the showdown (5 and 5, their cards in front add up
    # to 1 each), and Ana alone played Charles Vance (6).
    result = score(
        [
            cadet("Ana", "Charles Vance", "Lura Thok", hand="Darem Reymi", credits=4),
            cadet("Ben", "Lura Thok", hand="Darem Reymi", credits=4),
            cadet("Cy", hand="Lura Thok"),
        ]
    )
    assert result.round_winners == ["Ana", "Ben"]
    assert {s["player"]: s["credits"] for s in result.standings} == {"Ana": 6, "Ben": 5, "Cy": 0}
    assert result.match_winners == ["Ana"]
    assert "Ana (6) and Ben (5) reach 5 together: the higher total wins, Ana with 6." in details(
        result
    )
    assert [s["rank"] for s in result.standings] == [1, 2, 3]


def test_a_four_cadet_match_needs_six():
    result = score(
        [
            cadet("Ana", hand="Nahla Ake", credits=5),
            cadet("Ben", hand="Lura Thok"),
            cadet("Cy", hand="Lura Thok"),
            cadet("Dee", hand="Jett Reno", credits=5),
        ]
    )
    assert (result.target, result.match_winners) == (6, ["Ana"])


# --- AC-R10: the next starter ------------------------------------------------------------------


def test_the_round_winner_starts_the_next_round():
    result = score([cadet("Ana", hand="Lura Thok"), cadet("Ben", hand="Nahla Ake")])
    assert result.next_starter == "Ben"
    assert details(result)[-1] == "Ben won the round and starts the next one."


def test_after_a_shared_win_the_tied_winner_seated_first_after_the_starter():
    players = [
        cadet("Ana", hand="Lura Thok"),
        cadet("Ben", hand="Jay-Den Kraag"),
        cadet("Cy", hand="Lura Thok"),
        cadet("Dee", hand="Unnamed card (2)"),
    ]
    tied = score([cadet("Ana", hand="Jay-Den Kraag"), players[1], players[2], players[3]])
    assert tied.round_winners == ["Ana", "Ben"]
    assert tied.next_starter is None
    assert "the request does not say who started, so Tableside cannot tell" in details(tied)[-1]
    after_ben = score([cadet("Ana", hand="Jay-Den Kraag"), *players[1:]], starter="Ben")
    assert after_ben.next_starter == "Ana"
    assert details(after_ben)[-1] == (
        "Ana and Ben shared the round: Ana is the tied winner seated "
        "first after Ben, who started it, and starts the next."
    )
    after_dee = score([cadet("Ana", hand="Jay-Den Kraag"), *players[1:]], starter="Dee")
    assert after_dee.next_starter == "Ana"
    after_ana = score([cadet("Ana", hand="Jay-Den Kraag"), *players[1:]], starter="Ana")
    assert after_ana.next_starter == "Ben"


def test_no_next_starter_once_the_match_is_won():
    result = score([cadet("Ana", hand="Nahla Ake", credits=3), cadet("Ben", hand="Lura Thok")])
    assert result.match_winners == ["Ana"] and result.next_starter is None
    assert not any(step.rule == "AC-R10" for step in result.steps)


def test_steps_follow_the_total_from_zero():
    result = score(
        [cadet("Ana", "Charles Vance", hand="Lura Thok"), cadet("Ben", hand="Lura Thok")]
    )
    running = 0
    for n, step in enumerate(result.steps, start=1):
        running += step.points
        assert (step.n, step.running_total) == (n, running)
    assert result.total == running == sum(a["credits"] for a in result.awards)


# --- Rounds that cannot be scored -------------------------------------------------------------


def impossible_codes(players, **kwargs):
    with pytest.raises(ImpossiblePosition) as raised:
        score(players, **kwargs)
    return [e["code"] for e in raised.value.errors]


def test_rounds_that_cannot_exist():
    assert impossible_codes(
        [cadet("Ana", hand="Lura Thok"), cadet("Ben", hand="Lura Thok")], deck_count=4
    ) == ["round_not_over"]
    assert impossible_codes(
        [cadet("Ana", "Lura Thok", in_round=False), cadet("Ben", "Jett Reno", in_round=False)],
        target=4,
    ) == ["no_cadet_left"]
    assert impossible_codes(
        [cadet("Ana", hand="Nahla Ake"), cadet("Ben", "Nahla Ake", hand="Lura Thok")]
    ) == ["too_many_copies"]
    # AC-R12: Tarima Sadel face up means out; an out cadet is never shielded.
    assert impossible_codes(
        [cadet("Ana", hand="Nahla Ake"), cadet("Ben", "Tarima Sadel", hand="Lura Thok")]
    ) == ["eliminated_still_in"]
    assert impossible_codes(
        [
            cadet("Ana", hand="Nahla Ake"),
            cadet("Ben", "Tarima Sadel", in_round=False, shielded=True),
        ],
        target=4,
    ) == ["shield_of_eliminated"]
    assert impossible_codes(
        [
            cadet("Ana", "Lura Thok", hand="Jett Reno", in_round=False),
            cadet("Ben", hand="Lura Thok"),
        ],
        target=4,
    ) == ["hand_of_eliminated"]
    assert impossible_codes(
        [cadet("Ana", hand="Lura Thok", credits=4), cadet("Ben", hand="Jett Reno")]
    ) == ["match_over"]
    assert impossible_codes([cadet("Ana", hand="Lura Thok"), cadet("ANA", hand="Jett Reno")]) == [
        "duplicate_cadet"
    ]
    assert impossible_codes([cadet(n, hand="Lura Thok") for n in "ABCDE"], target=6) == [
        "too_many_cadets"
    ]
    assert impossible_codes([cadet("Ana", hand="Lura Thok")], target=4) == ["too_few_cadets"]
    assert impossible_codes(
        [cadet("Ana", hand="Lura Thok"), cadet("Ben", "Jett Reno", in_round=False)], deck_count=21
    ) == ["too_many_cards"]
    assert impossible_codes(
        [cadet("Ana", hand="Lura Thok"), cadet("Ben", hand="Jett Reno")], starter="Zed"
    ) == ["unknown_starter"]


def test_a_round_end_is_checked_by_the_one_check_of_positions_with_its_paths():
    # The copies and the cards in all are counted as for a play (where each copy is); the
    # set-aside card counts while the deck holds cards (AC-R12): it is drawn only from an empty
    # deck (AC-5.3).
    with pytest.raises(ImpossiblePosition) as raised:
        score(
            [cadet("Ana", hand="Tarima Sadel"), cadet("Ben", "Tarima Sadel", in_round=False)],
            deck_count=21,
        )
    assert raised.value.errors == [
        {
            "path": "players",
            "code": "too_many_copies",
            "detail": "The round shows 2 copies of Tarima Sadel (10) (in Ana's hand and in front of "
            "Ben), but the deck has 1 (AC-R2).",
        },
        {
            "path": "deck_count",
            "code": "too_many_cards",
            "detail": "The round accounts for 24 cards (1 set aside, 21 in the deck, 1 in hands, 1 "
            "face up), but the deck has 22: while the deck holds cards the set-aside card "
            "has not been drawn, so it is still set aside (AC-2.1, AC-R12).",
        },
    ]


def test_ac_6_4_an_eliminated_cadet_with_nothing_face_up_cannot_be_scored():
    # Issue 11: the one check of the ruling engine, with its wording and a path of this body.
    with pytest.raises(ImpossiblePosition) as raised:
        score([cadet("Ana", hand="Lura Thok"), cadet("Ben", in_round=False)], deck_count=5)
    assert raised.value.errors == [
        {
            "path": "players[1].discards",
            "code": "eliminated_without_discard",
            "detail": "Ben is out of the round but has no card face up: an eliminated cadet discards "
            "their card face up (AC-6.4), so at least that card is in front of Ben. Add it "
            "to Ben's cards in front.",
        }
    ]


def test_a_showdown_needs_every_card_still_in():
    with pytest.raises(MissingFacts) as raised:
        score([cadet("Ana", hand="Lura Thok"), cadet("Ben")])
    assert raised.value.missing == [
        {
            "path": "players[1].hand",
            "code": "required",
            "detail": "Ben is still in the deck-out showdown: give the card Ben reveals (AC-6.2).",
        }
    ]
    # The last cadet standing needs no card.
    assert score(
        [cadet("Ana"), cadet("Ben", "Lura Thok", in_round=False)], deck_count=5
    ).round_winners == ["Ana"]


def test_an_unknown_value_is_never_guessed():
    mystery = CardSpec("Mystery", None, "look_at_hand", 1)
    with pytest.raises(MissingFacts) as raised:
        score(
            [cadet("Ana", hand=mystery), cadet("Ben", hand="Lura Thok")], deck=[*cards(), mystery]
        )
    assert raised.value.missing[0]["code"] == "value_unknown"


def test_ac_r12_while_the_deck_holds_cards_the_set_aside_card_is_still_set_aside():
    # Ben is out; 21 cards are shown and 1 is in the deck: 22, but while the deck holds cards
    # the set-aside card has not been drawn, so the round accounts for 23.
    ana = ["Lura Thok"] * 5 + ["Charles Vance"] * 2 + [2, 2, "Caleb Mir"]
    ben = [
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
    shown = [cadet("Ana", *ana, hand="Jett Reno"), cadet("Ben", *ben, in_round=False)]
    with pytest.raises(ImpossiblePosition) as raised:
        score(shown, deck_count=1)
    assert raised.value.errors == [
        {
            "path": "deck_count",
            "code": "too_many_cards",
            "detail": "The round accounts for 23 cards (1 set aside, 1 in the deck, 1 in hands, 20 "
            "face up), but the deck has 22: while the deck holds cards the set-aside card "
            "has not been drawn, so it is still set aside (AC-2.1, AC-R12).",
        }
    ]
    # The legal neighbours: an empty deck (Nahla Ake set aside); and 22 shown with an empty
    # deck, where a Darem Reymi drew the set-aside card (AC-5.3).
    assert score(shown, deck_count=0).round_winners == ["Ana"]
    every = [cadet("Ana", *ana, "Nahla Ake", hand="Jett Reno"), shown[1]]
    assert score(every, deck_count=0).round_winners == ["Ana"]
