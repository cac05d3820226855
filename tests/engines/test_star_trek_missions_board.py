"""Star Trek: Missions on the engine protocol: the board of a turn (engine.check), of a final
hand (engine.check(HandPosition(…))) and of a whole final table (TablePosition) pass the shared
conformance checks on positions of the shipped cards, and a final hand's board scores exactly what
the score API answers."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.models import Card, Game
from games.protocol import ImpossiblePosition, NotScored, Refused
from games.star_trek_missions import engine
from games.star_trek_missions.engine import DRAW_GALAXY, DRAW_MISSIONS, TAKE_DISCARD, Move
from games.star_trek_missions.scores import card_spec, vocabulary_and_labels
from tests.engines.board_conformance import assert_board_conforms
from tests.engines.star_trek_missions_catalog import catalog
from tests.engines.test_star_trek_missions_properties import legal_hands
from tests.test_star_trek_missions_turn_engine import (
    AWAY,
    BRIDGE,
    ELEVEN_MISSIONS,
    SEVEN_GALAXY,
    TIME,
    VASH,
    VIRUS,
    Q,
    hand_of,
    position,
)

SPECS, VOCABULARY, LABELS = catalog()


def turn_card(name: str) -> engine.CardSpec:
    """A catalog card as the turn engine sees it: name, deck and the kinds of its effects."""
    spec = SPECS[name]
    kinds = frozenset(effect["kind"] for effect in (spec.rule or {}).get("effects", []))
    return engine.CardSpec(name, spec.deck, kinds)


GALAXY = sorted(name for name, spec in SPECS.items() if spec.deck == "galaxy")
MISSIONS = sorted(name for name, spec in SPECS.items() if spec.deck == "mission")


@st.composite
def turn_positions(draw):
    """A position that can exist: seven cards with one or two Missions, a discard area short of
    the end trigger (past it only on Time Distortion's extra turn) and decks that leave another
    player a hand (STM-R16)."""
    missions = draw(st.lists(st.sampled_from(MISSIONS), min_size=1, max_size=2, unique=True))
    galaxy = draw(
        st.lists(
            st.sampled_from(GALAXY),
            min_size=7 - len(missions),
            max_size=7 - len(missions),
            unique=True,
        )
    )
    hand = draw(st.permutations(galaxy + missions))
    extra_turn = "Time Distortion" in hand and draw(st.booleans())
    end = 1 if extra_turn else 0  # the extra turn may follow the end trigger
    discarded = draw(
        st.lists(
            st.sampled_from([g for g in GALAXY if g not in hand]),
            max_size=engine.END_GALAXY - 1 + end,
            unique=True,
        )
    )
    discarded += draw(
        st.lists(
            st.sampled_from([m for m in MISSIONS if m not in hand]),
            max_size=engine.END_MISSION - 1,
            unique=True,
        )
    )
    discard_area = draw(st.permutations(discarded))
    decks = {}
    for deck, names in (("galaxy", GALAXY), ("mission", MISSIONS)):
        left = len(names) - sum(1 for name in [*hand, *discard_area] if SPECS[name].deck == deck)
        # STM-R16: at least one other player holds five Galaxy cards and a Mission.
        decks[deck] = draw(st.integers(0, left - engine.OTHER_HAND[deck]))
    return engine.Position(
        hand=[turn_card(n) for n in hand],
        discard_area=[turn_card(n) for n in discard_area],
        galaxy_deck=decks["galaxy"],
        mission_deck=decks["mission"],
        extra_turn=extra_turn,
    )


def illegal_turns(pos: engine.Position) -> tuple[Move, ...]:
    """Turns no position allows: taking a card from the hand, drawing a card already in the
    hand, drawing one Mission card."""
    first, second = pos.hand[0], pos.hand[1]
    return (
        Move(TAKE_DISCARD, take=first, discard=[second]),
        Move(DRAW_GALAXY, draw=[first], discard=[second]),
        Move(DRAW_MISSIONS, draw=[first], discard=[first, second]),
    )


def assert_turn_board_conforms(pos: engine.Position) -> None:
    board = engine.check(pos)
    assert_board_conforms(board, illegal_moves=illegal_turns(pos))
    assert all(move.action == TAKE_DISCARD for move in board.legal_moves())
    with pytest.raises(NotScored):
        board.score()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(turn_positions())
def test_the_board_of_a_random_turn_conforms(pos):
    assert_turn_board_conforms(pos)


@pytest.mark.parametrize(
    "pos",
    [
        position(discard_area=[BRIDGE, VIRUS]),
        position(hand=hand_of(AWAY), discard_area=[BRIDGE, VIRUS, TIME]),
        position(hand=hand_of(AWAY, Q), discard_area=SEVEN_GALAXY),
        position(hand=hand_of(AWAY, TIME), discard_area=[*SEVEN_GALAXY, VASH], extra_turn=True),
        position(discard_area=[*ELEVEN_MISSIONS[:10], BRIDGE], mission_deck=10),
        position(galaxy_deck=0, mission_deck=1),
        position(),  # an empty discard area: no legal move is known before the draw
    ],
    ids=[
        "take",
        "time-distortion",
        "meddlesome-q",
        "extra-turn",
        "eleven-missions",
        "empty-decks",
        "no-discard",
    ],
)
def test_the_board_of_the_turn_engine_tests_positions_conforms(pos):
    assert_turn_board_conforms(pos)


def test_given_a_draw_the_legal_moves_are_its_discards_then_the_takes():
    board = engine.check(position(hand=hand_of(AWAY), discard_area=[BRIDGE]))
    moves = board.legal_moves(Move(DRAW_GALAXY, draw=[VASH], discard=[AWAY]))
    assert [move.action for move in moves] == [DRAW_GALAXY] * 7 + [TAKE_DISCARD] * 6
    assert all(board.rule(move).verdict == "legal" for move in moves)
    assert board.rule(Move(DRAW_GALAXY, draw=[VASH], discard=[AWAY])).alternatives == [
        move.as_dict() for move in moves
    ]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(legal_hands())
def test_the_board_of_a_random_final_hand_conforms_and_scores(hand):
    board = engine.check(
        engine.HandPosition([SPECS[n] for n in hand], vocabulary=VOCABULARY, labels=LABELS)
    )
    first, second = (turn_card(n) for n in hand[:2])
    [ruling] = assert_board_conforms(
        board, illegal_moves=(Move(TAKE_DISCARD, take=first, discard=[second]),)
    )
    assert (ruling.code, ruling.rule) == ("game_over", "STM-6.4")
    result = board.score()
    assert sum(step.points for step in result.steps) == result.steps[-1].running_total
    assert result.steps[-1].running_total == result.total


def seat(name, names, choices=None):
    return engine.Seat(
        name,
        engine.HandPosition(
            [SPECS[n] for n in names], vocabulary=VOCABULARY, labels=LABELS, choices=choices
        ),
    )


def test_a_final_table_is_one_position_whose_board_scores_every_hand_as_a_hand():
    hands = [EXAMPLE, [n for n in BORG_HAND if n not in EXAMPLE]]
    board = engine.check(engine.TablePosition([seat("Ana", hands[0]), seat("Ben", hands[1])]))
    assert_board_conforms(board)
    result = board.score()
    assert result.total is None and result.steps == []
    for (name, scored), names in zip(result.seats, hands, strict=True):
        alone = engine.check(
            engine.HandPosition([SPECS[n] for n in names], vocabulary=VOCABULARY, labels=LABELS)
        ).score()
        assert (scored.total, scored.steps) == (alone.total, alone.steps), name
    # Ben's hand is partial: its warning, named, is the table's.
    assert result.warnings == [f"Ben: {warning}" for warning in result.seats[1][1].warnings]
    assert result.warnings and result.warnings[0].startswith("Ben: Partial hand")


def test_a_card_in_two_hands_and_an_illegal_hand_are_refused_as_the_table_they_make():
    with pytest.raises(ImpossiblePosition) as two_hands:
        engine.check(engine.TablePosition([seat("Ana", EXAMPLE), seat("Ben", ["Bridge"])]))
    assert two_hands.value.code == "card_in_two_hands"
    [entry] = two_hands.value.errors
    assert (entry["path"], entry["players"]) == ("players[1].hand[0]", ["Ana", "Ben"])
    with pytest.raises(ImpossiblePosition) as illegal:
        engine.check(engine.TablePosition([seat("Ana", EXAMPLE + ["Tricorder"])]))
    assert illegal.value.code == "illegal_hand"
    assert [(e["path"], e["code"], e["player"]) for e in illegal.value.errors] == [
        ("players[0].hand", "too_many_cards", "Ana")
    ]
    assert illegal.value.errors[0]["detail"].startswith("Ana: The hand has 8 cards")


def test_a_choice_the_hand_does_not_allow_is_refused_by_seat():
    wrong = {"Borg Cube": {"blank": ["Nobody"]}}
    board = engine.check(
        engine.TablePosition([seat("Ana", EXAMPLE), seat("Ben", ["Borg Cube"], wrong)])
    )
    with pytest.raises(Refused) as refused:
        board.score()
    assert refused.value.code == "invalid_choice"
    [entry] = refused.value.errors
    assert entry["player"] == "Ben" and entry["path"].startswith("players[1].choices")
    # The same hand alone: refused by the hand's board, its path the hand's own.
    with pytest.raises(Refused) as alone:
        engine.check(
            engine.HandPosition([SPECS["Borg Cube"]], vocabulary=VOCABULARY, choices=wrong)
        ).score()
    assert alone.value.errors[0]["path"] == entry["path"].removeprefix("players[1].")


EXAMPLE = [
    "Lieutenant Worf",
    "Commander Kurn",
    "Ambassador K'Ehleyr",
    "Commander Sela",
    "Diplomatic Conference",
    "Photon Torpedoes",
    "Bridge",
]
BORG_HAND = [
    "Unidentified Ship",
    "Captain Jean-Luc Picard",
    "Lieutenant Worf",
    "Photon Torpedoes",
    "Bridge",
    "Away Team",
    "Borg Cube",
]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "names, choices",
    [
        (EXAMPLE, {}),
        (BORG_HAND, {}),
        (BORG_HAND, {"Borg Cube": {"blank": []}}),
        (EXAMPLE[:4], {}),  # a partial hand: scored as it stands, with a warning
    ],
)
def test_the_board_scores_what_the_score_api_answers(api, catalog, names, choices):
    response = api.post(
        "/api/games/star-trek-missions/score/",
        content_type="application/json",
        data=json.dumps({"hand": names, "choices": choices}),
    )
    assert response.status_code == 200, response.json()
    answer = response.json()
    game = Game.objects.get(slug="star-trek-missions")
    cards = {card.name: card for card in Card.objects.filter(game=game, name__in=names)}
    vocabulary, labels = vocabulary_and_labels(game)
    board = engine.check(
        engine.HandPosition(
            [card_spec(cards[name]) for name in names],
            vocabulary=vocabulary,
            labels=labels,
            choices=choices,
        )
    )
    result = board.score()
    assert result.total == answer["total"]
    assert [step.as_dict() for step in result.steps] == answer["steps"]
    assert board.warnings == answer["warnings"]
    if names == EXAMPLE:
        assert result.total == 66  # the rulebook's scoring example
