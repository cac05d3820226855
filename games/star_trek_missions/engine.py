"""Star Trek: Missions: is this turn legal, and what does a final hand score? (plain Python, no
Django import)

``check(position)`` checks a turn's position once and gives its TurnBoard (legal moves, rulings;
a turn scores nothing). ``check(HandPosition(hand, vocabulary=…))`` checks a final hand once and
gives its HandBoard (and ``check(TablePosition(seats))`` a whole final table, its TableBoard): no move is left (any is ruled ``game_over``, STM-6.4), and its score is the best total
over the open choices, with its steps (explain.score_hand).

A position is the player's hand before the turn, the open discard area and the two deck counts;
a move is one of the three options of STM-6.1 / STM-R9:

* ``take_discard``: take one card from the discard area, then discard a different card;
* ``draw_galaxy``: draw the top Galaxy card (the move names it), then discard any one card;
* ``draw_missions``: draw the top two Mission cards (named), then discard any two cards.

After the turn the hand holds seven cards with one or two Missions (STM-5, STM-6.3, STM-2.2). The
game ends once the discard area holds eight Galaxy or twelve Mission cards, after the turn's
discards (STM-6.4). Time Distortion taken from the discard area grants an extra turn, even when
this turn ends the game (STM-R7): any card whose rule carries an ``extra_turn_from_discard``
effect does. Meddlesome Q's hand size (STM-R6) applies only at the end of the game, never to a
turn: a turn always ends with seven cards, so the engine only warns about it when the game ends.

Every card exists once (the catalog has one copy of each of the 74 cards). The deck counts are
optional: a ruling depends on a deck's count only when the move draws from that deck (STM-6.1:
no draw from an empty Galaxy deck, nor two Missions from a deck of fewer than two). A draw whose
deck count was not given answers ``needs_information`` with the code ``deck_count_required``,
``missing`` naming ``position.galaxy_deck`` or ``position.mission_deck``; a take from the discard
area never needs them.

Codes of an illegal turn (``Ruling.code``; the checks stop at the first that fails):

===========================  ========  ==========================================================
code                         rule      the move …
===========================  ========  ==========================================================
``one_option_only``          STM-6.1   mixes options (a ``take`` with a draw, a ``draw`` with a
                                       take from the discard area)
``draw_count``               STM-6.1   draws other than two Mission cards (``draw_missions``)
``discard_count``            STM-6.1   discards other than one card (two for ``draw_missions``)
``duplicate_card``           STM-6.1   names the same card twice among its draws or discards
``not_in_discard_area``      STM-6.1   takes a card that is not in the discard area
``galaxy_deck_empty``        STM-6.1   draws from an empty Galaxy deck
``mission_deck_too_small``   STM-6.1   draws two Missions from a deck of fewer than two
``not_a_galaxy_card``        STM-4.1   says it drew a Mission card from the Galaxy deck
``not_a_mission_card``       STM-4.1   says it drew a Galaxy card from the Mission deck
``card_not_in_deck``         STM-6.1   draws a card that is in the hand or the discard area
``discard_not_in_hand``      STM-6.1   discards a card that is not in the hand after the take
                                       or draw
``same_card``                STM-6.1   discards the very card it took from the discard area
``mission_count``            STM-6.3   ends the turn with no Mission card or with more than two
===========================  ========  ==========================================================

A legal turn has the code ``legal_turn`` (rule STM-R9) and an ``outcome``: the hand, discard area
and deck counts after it, the discard area's counts, ``game_ends`` with ``game_ends_reason``, and
``extra_turn`` with ``extra_turn_reason``. An illegal turn lists ``alternatives``: every legal
``take_discard`` move of the position and, for a draw, every legal set of discards given the
card(s) the player says they drew (what lies on top of a deck is unknown otherwise). The
move's own action comes first; then hand order, then discard-area order.

A position that cannot exist raises ``ImpossiblePosition`` (a 400) with one entry per
contradiction, each with its path in the request:

===========================  =======================================================================
code                         the position …
===========================  =======================================================================
``duplicate_card``           holds a card twice in the hand, or twice in the discard area
``card_in_two_places``       holds a card both in the hand and in the discard area
``hand_size``                has a hand of other than seven cards before the turn (STM-5)
``mission_count``            has a hand of no Mission or more than two before the turn (STM-2.2)
``too_many_cards``           accounts for more Galaxy (50) or Mission (24) cards than exist
``no_other_hand``            leaves fewer than five Galaxy cards or no Mission card outside the
                             hand, the discard area and the decks: no other player's hand fits
                             (STM-R16)
``game_over``                has a discard area already at the end trigger (STM-6.4): the game is
                             over, unless the position says this is an extra turn (STM-R7)
``no_extra_turn``            says this is an extra turn, but no card in the hand grants one
===========================  =======================================================================
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from itertools import combinations
from typing import Any, NoReturn, overload

from games.protocol import (
    ILLEGAL,
    LEGAL,
    NEEDS_INFORMATION,
    Check,
    ImpossiblePosition,
    NotScored,
    Refused,
    Ruling,
    Step,
)
from games.wording import count as _plural
from games.wording import listing

from . import rules
from .choices import ChoiceError
from .explain import HandScore, score_hand
from .language import Labels

_list = partial(listing, empty="no cards")

GALAXY = "galaxy"
MISSION = "mission"
HAND_SIZE = 7
MIN_MISSIONS, MAX_MISSIONS = 1, 2
END_GALAXY, END_MISSION = 8, 12  # the discard area's end trigger (STM-6.4)
GALAXY_CARDS, MISSION_CARDS = 50, 24
# STM-R16: every other hand holds at least five Galaxy cards and one Mission (seven cards, at most
# two Missions), so a turn leaves that many of each deck's cards for at least one other player,
# and a finished game's table has few enough players to leave the discard area its end trigger.
TABLE_RULE = "STM-R16"
OTHER_HAND = {GALAXY: HAND_SIZE - MAX_MISSIONS, MISSION: MIN_MISSIONS}

TAKE_DISCARD = "take_discard"
DRAW_GALAXY = "draw_galaxy"
DRAW_MISSIONS = "draw_missions"
ACTIONS = (TAKE_DISCARD, DRAW_GALAXY, DRAW_MISSIONS)
# The fields each option uses besides "action"; a field of another option makes it two options.
ACTION_FIELDS = {
    TAKE_DISCARD: ("take", "discard"),
    DRAW_GALAXY: ("draw", "discard"),
    DRAW_MISSIONS: ("draw", "discard"),
}
DRAWS = {TAKE_DISCARD: 0, DRAW_GALAXY: 1, DRAW_MISSIONS: 2}
DISCARDS = {TAKE_DISCARD: 1, DRAW_GALAXY: 1, DRAW_MISSIONS: 2}

EXTRA_TURN_EFFECT = "extra_turn_from_discard"  # Time Distortion (STM-R7)
HAND_SIZE_EFFECT = "hand_size"  # Meddlesome Q (STM-R6): at game end only

LEGAL_CODE = "legal_turn"
NEEDS_CODE = "deck_count_required"
ILLEGAL_CODES = (
    "one_option_only",
    "draw_count",
    "discard_count",
    "duplicate_card",
    "not_in_discard_area",
    "galaxy_deck_empty",
    "mission_deck_too_small",
    "not_a_galaxy_card",
    "not_a_mission_card",
    "card_not_in_deck",
    "discard_not_in_hand",
    "same_card",
    "mission_count",
)
IMPOSSIBLE_CODES = (
    "duplicate_card",
    "card_in_two_places",
    "hand_size",
    "mission_count",
    "too_many_cards",
    "no_other_hand",
    "game_over",
    "no_extra_turn",
)


@dataclass(frozen=True)
class CardSpec:
    """What the engine knows of a card: its name, its deck and the kinds of its effects."""

    name: str
    deck: str  # "galaxy" | "mission"
    effects: frozenset[str] = frozenset()

    @property
    def is_mission(self) -> bool:
        return self.deck == MISSION


@dataclass
class Position:
    hand: list[CardSpec]
    discard_area: list[CardSpec]
    galaxy_deck: int | None  # None: not given (needed only to rule a draw from that deck)
    mission_deck: int | None
    # This turn is the extra turn Time Distortion granted (STM-R7): the discard area may already
    # be at the end trigger, and the game ends after it if it is.
    extra_turn: bool = False
    galaxy_cards: int = GALAXY_CARDS  # how many cards each deck has in all
    mission_cards: int = MISSION_CARDS


@dataclass
class Move:
    action: str  # one of ACTIONS
    take: CardSpec | None = None
    draw: list[CardSpec] = field(default_factory=list)
    discard: list[CardSpec] = field(default_factory=list)
    # Fields of another option the request gave as well ("take" on a draw, "draw" on a take).
    other_fields: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = {"action": self.action}
        if self.action == TAKE_DISCARD:
            body["take"] = self.take.name if self.take else None
        elif self.action == DRAW_GALAXY:
            body["draw"] = self.draw[0].name if self.draw else None
        else:
            body["draw"] = [card.name for card in self.draw]
        body["discard"] = [card.name for card in self.discard]
        return body


@dataclass
class HandPosition:
    """A final hand at the end of the game, to score: its cards, the catalog's attribute
    vocabulary (and labels, for the wording) and the choices the player fixed."""

    hand: Sequence[rules.CardSpec]
    vocabulary: Mapping[str, Sequence[str]]
    labels: Labels | None = None
    choices: Mapping[str, dict[str, Any]] | None = None


@dataclass
class Seat:
    name: str
    hand: HandPosition


@dataclass
class TablePosition:
    """The whole table at the end of the game: every player's final hand, in seat order."""

    seats: list[Seat]


ILLEGAL_HAND = "illegal_hand"
CARD_IN_TWO_HANDS = "card_in_two_hands"
INVALID_CHOICE = "invalid_choice"


# --- The board ---------------------------------------------------------------------------------


@dataclass
class TurnBoard:
    """A position checked once (check): its legal moves and a ruling on any turn. A turn has no
    score of its own: the final hand is scored (check(HandPosition(…)))."""

    position: Position
    warnings: list[str] = field(default_factory=list)

    def legal_moves(self, move: Move | None = None) -> list[Move]:
        """Every legal take_discard move (the discard area is open) and, given a draw `move`
        naming the drawn card(s), every legal set of discards after that draw (what lies on top
        of a deck is unknown otherwise). The draw's moves come first."""
        candidates: list[Move] = []
        if move is not None and move.action in (DRAW_GALAXY, DRAW_MISSIONS):
            wanted = DRAWS[move.action]
            drawn = list(move.draw)
            if len(drawn) == wanted and len(set(drawn)) == wanted:
                after = list(self.position.hand) + drawn
                for discards in combinations(after, DISCARDS[move.action]):
                    candidates.append(Move(move.action, draw=drawn, discard=list(discards)))
        for taken in self.position.discard_area:
            for discarded in self.position.hand:
                candidates.append(Move(TAKE_DISCARD, take=taken, discard=[discarded]))
        return [
            candidate for candidate in candidates if _evaluate(self.position, candidate)[1] is None
        ]

    def rule(self, move: Move) -> Ruling:
        position = self.position
        if move.action not in ACTIONS:
            raise ValueError(f"Unknown action {move.action!r}; the service validates it first.")
        checks, failure = _evaluate(position, move)
        if failure is not None and failure.unknown:
            return Ruling(
                verdict=NEEDS_INFORMATION,
                code=failure.code,
                reason=failure.detail,
                rule=failure.rule,
                checks=list(checks),
                missing=failure.missing,
            )
        if failure is not None:
            return Ruling(
                verdict=ILLEGAL,
                code=failure.code,
                reason=failure.detail,
                rule=failure.rule,
                checks=list(checks),
                alternatives=[legal.as_dict() for legal in self.legal_moves(move)],
            )
        outcome = _outcome(position, move)
        missions = sum(1 for card in _hand_after(position, move) if card.is_mission)
        return Ruling(
            verdict=LEGAL,
            code=LEGAL_CODE,
            reason=_legal_reason(move, outcome, missions),
            rule="STM-R9",
            checks=list(checks),
            outcome=outcome,
            warnings=_warnings(position, move, outcome),
        )

    def score(self, moves: Sequence[Move] = ()) -> NoReturn:
        raise NotScored(
            "A turn scores nothing in Star Trek: Missions; the final hand is scored "
            "(check(HandPosition(…)))."
        )


class HandBoard:
    """A final hand at the end of the game, checked once (check): no turn is left, and its
    score is the best over the choices the player left open (STM-R4)."""

    def __init__(
        self,
        hand: Sequence[rules.CardSpec],
        vocabulary: Mapping[str, Sequence[str]],
        labels: Labels | None,
        choices: Mapping[str, dict[str, Any]] | None,
        warnings: list[str],
    ) -> None:
        self.hand, self.vocabulary, self.labels, self.choices = hand, vocabulary, labels, choices
        self.warnings = warnings  # a partial hand's

    def legal_moves(self) -> list[Move]:
        return []

    def rule(self, move: Move) -> Ruling:
        detail = (
            f"The game is over: this is a final hand, and no turn follows the end of the "
            f"game (STM-6.4); the move to {_option_noun(move.action)} cannot be made."
        )
        return Ruling(
            verdict=ILLEGAL,
            code="game_over",
            reason=detail,
            rule="STM-6.4",
            checks=[Check("STM-6.4", False, detail, "game_over")],
        )

    def score(self, moves: Sequence[Move] = ()) -> HandScore:
        """The hand's best total with its steps (ChoiceError for a fixed choice the hand does
        not allow)."""
        if moves:
            raise ValueError("A final hand takes no more turns (STM-6.4).")
        try:
            result = score_hand(
                self.hand, vocabulary=self.vocabulary, labels=self.labels, choices=self.choices
            )
        except ChoiceError as wrong:
            raise Refused(
                [{"path": wrong.path, "code": INVALID_CHOICE, "detail": wrong.detail}],
                code=INVALID_CHOICE,
            ) from None
        result.warnings = list(self.warnings)
        return result


@dataclass
class TableScore:
    """A final table's scores: each player's hand scored as a single hand is, in seat order. A
    table has no single total and no steps of its own (each player's are theirs); its warnings
    are each player's, named."""

    seats: list[tuple[str, HandScore]]
    total: None = None
    steps: list[Step] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


class TableBoard:
    """A final table checked once (every card in one hand at most, every hand a legal final
    hand): each hand's board, in seat order."""

    def __init__(self, seats: list[tuple[str, HandBoard]]) -> None:
        self.seats = seats
        self.warnings: list[str] = []

    def legal_moves(self) -> list[Move]:
        return []

    def rule(self, move: Move) -> Ruling:
        raise NotScored("A final table takes no more turns (STM-6.4); rule on a turn's position.")

    def score(self, moves: Sequence[Move] = ()) -> TableScore:
        """Every hand's score (Refused invalid_choice naming each player's choice the hand does
        not allow)."""
        if moves:
            raise ValueError("A final table takes no more turns (STM-6.4).")
        scored: list[tuple[str, HandScore]] = []
        errors: list[dict[str, Any]] = []
        for index, (name, board) in enumerate(self.seats):
            try:
                scored.append((name, board.score()))
            except Refused as refused:
                errors += [
                    {
                        "path": f"players[{index}].{entry['path']}",
                        "code": entry["code"],
                        "detail": f"{name}: {entry['detail']}",
                        "player": name,
                    }
                    for entry in refused.errors
                ]
        if errors:
            raise Refused(
                errors,
                code=INVALID_CHOICE,
                summary=(f"{len(errors)} choices are not allowed; each is listed in errors."),
            )
        return TableScore(
            seats=scored,
            warnings=[
                f"{name}: {warning}" for name, result in scored for warning in result.warnings
            ],
        )


# --- The position -------------------------------------------------------------------------------


@overload
def check(position: Position) -> TurnBoard: ...
@overload
def check(position: HandPosition) -> HandBoard: ...
@overload
def check(position: TablePosition) -> TableBoard: ...
def check(position: Position | HandPosition | TablePosition) -> TurnBoard | HandBoard | TableBoard:
    """The position's board, checked once: a turn's (TurnBoard: legal moves, rulings), a final
    hand's (HandBoard: its score) or a whole final table's (TableBoard: every hand's score).
    Raises ImpossiblePosition naming every contradiction (paths are the position's own: the one
    flow, games.services, places them in the body)."""
    if isinstance(position, HandPosition):
        return _check_hand(position)
    if isinstance(position, TablePosition):
        return _check_table(position)
    return _check_turn(position)


def _check_turn(position: Position) -> TurnBoard:
    errors: list[dict[str, Any]] = []

    def error(path: str, code: str, detail: str) -> None:
        # The details name places as the ruling's body does ("position.hand[2]").
        errors.append({"path": path.removeprefix("position."), "code": code, "detail": detail})

    for where, cards in (("hand", position.hand), ("discard_area", position.discard_area)):
        seen: dict[str, int] = {}
        label = "the hand" if where == "hand" else "the discard area"
        for index, card in enumerate(cards):
            if card.name in seen:
                error(
                    f"position.{where}[{index}]",
                    "duplicate_card",
                    f"{card.name} is in {label} twice (position.{where}[{seen[card.name]}] and "
                    f"position.{where}[{index}]); every card exists once.",
                )
            else:
                seen[card.name] = index
    in_hand = {card.name for card in position.hand}
    for index, card in enumerate(position.discard_area):
        if card.name in in_hand:
            error(
                f"position.discard_area[{index}]",
                "card_in_two_places",
                f"{card.name} is both in the hand and in the discard area; every card exists once.",
            )
    if len(position.hand) != HAND_SIZE:
        error(
            "position.hand",
            "hand_size",
            f"The hand holds {_cards(len(position.hand))}; at the start of a turn it holds "
            f"exactly {HAND_SIZE} (STM-5).",
        )
    missions = [card.name for card in position.hand if card.is_mission]
    if not MIN_MISSIONS <= len(missions) <= MAX_MISSIONS:
        error(
            "position.hand",
            "mission_count",
            f"The hand holds {_missions(missions)}; a hand always holds one or two (STM-2.2).",
        )
    for deck, label, total, in_deck in (
        (GALAXY, "Galaxy", position.galaxy_cards, position.galaxy_deck),
        (MISSION, "Mission", position.mission_cards, position.mission_deck),
    ):
        held = sum(1 for card in position.hand if card.deck == deck)
        discarded = sum(1 for card in position.discard_area if card.deck == deck)
        counted = held + discarded + (in_deck or 0)
        in_the_deck = "" if in_deck is None else f", {in_deck} in the {label} deck"
        at = f"position.{deck}_deck" if in_deck is not None else "position.discard_area"
        left = total - counted
        if left < 0:
            error(
                at,
                "too_many_cards",
                f"The position accounts for {counted} {label} cards ({held} in the hand, "
                f"{discarded} in the discard area{in_the_deck}), but the game has {total}.",
            )
        elif left < OTHER_HAND[deck]:
            error(
                at,
                "no_other_hand",
                f"The position leaves {left} of the {total} {label} cards for the other "
                f"players ({held} in the hand, {discarded} in the discard area{in_the_deck}), "
                f"but the game has at least one other player, whose hand holds at least "
                f"{_plural(OTHER_HAND[deck], f'{label} card')} ({TABLE_RULE}).",
            )
    galaxy, mission = _discard_counts(position.discard_area)
    if (galaxy >= END_GALAXY or mission >= END_MISSION) and not position.extra_turn:
        error(
            "position.discard_area",
            "game_over",
            f"The discard area already holds {_plural(galaxy, 'Galaxy card')} and "
            f"{_plural(mission, 'Mission card')}: the "
            f"game ended when it reached {END_GALAXY} Galaxy or {END_MISSION} Mission cards "
            f"(STM-6.4), so no turn follows (only an extra turn from Time Distortion, STM-R7: "
            f'say so with "extra_turn": true).',
        )
    if position.extra_turn and not any(EXTRA_TURN_EFFECT in card.effects for card in position.hand):
        error(
            "position.extra_turn",
            "no_extra_turn",
            "The position says this is an extra turn, but no card in the hand grants one: the "
            "player keeps Time Distortion in hand after taking it from the discard area "
            "(STM-R7).",
        )
    if errors:
        raise ImpossiblePosition(errors)
    return TurnBoard(position)


def _check_table(position: TablePosition) -> TableBoard:
    """Every card exists once, and every hand is a legal final hand (its board, one per seat):
    ImpossiblePosition (code ``card_in_two_hands`` when a card is in two hands, else
    ``illegal_hand``) naming the players and cards of each contradiction."""
    errors: list[dict[str, Any]] = []
    held: dict[str, int] = {}
    seats = position.seats
    for index, seat in enumerate(seats):
        for place, card in enumerate(seat.hand.hand):
            other = held.get(card.name)
            if other is not None and other != index:
                errors.append(
                    {
                        "path": f"players[{index}].hand[{place}]",
                        "code": CARD_IN_TWO_HANDS,
                        "detail": f"{card.name} is in {seats[other].name}'s hand and in "
                        f"{seat.name}'s hand; every card exists once.",
                        "card": card.name,
                        "players": [seats[other].name, seat.name],
                    }
                )
            held.setdefault(card.name, index)
    boards: list[tuple[str, HandBoard]] = []
    for index, seat in enumerate(seats):
        try:
            boards.append((seat.name, _check_hand(seat.hand)))
        except ImpossiblePosition as illegal:
            errors += [
                {
                    "path": f"players[{index}].{problem['path']}",
                    "code": problem["code"],
                    "detail": f"{seat.name}: {problem['detail']}",
                    "player": seat.name,
                }
                for problem in illegal.errors
            ]
    if errors:
        two_hands = any(entry["code"] == CARD_IN_TWO_HANDS for entry in errors)
        raise ImpossiblePosition(
            errors,
            code=CARD_IN_TWO_HANDS if two_hands else ILLEGAL_HAND,
            summary=f"This table cannot exist: {len(errors)} problems, each listed in errors.",
        )
    return TableBoard(boards)


def table_contradiction(
    players: int, *, galaxy_cards: int = GALAXY_CARDS, mission_cards: int = MISSION_CARDS
) -> dict[str, Any] | None:
    """The error entry (path "players") of a final table of `players` no finished game can have
    (STM-R16), or None. Every hand holds at least five Galaxy cards and one Mission, and seven
    cards in all; the game ends only when the discard area reaches eight Galaxy or twelve Mission
    cards, which the cards left outside the hands must allow."""
    galaxy = players * OTHER_HAND[GALAXY]
    missions = max(players * OTHER_HAND[MISSION], players * HAND_SIZE - galaxy_cards)
    if galaxy_cards - galaxy >= END_GALAXY or mission_cards - missions >= END_MISSION:
        return None
    most = max(
        n
        for n in range(1, players)
        if table_contradiction(n, galaxy_cards=galaxy_cards, mission_cards=mission_cards) is None
    )
    return {
        "path": "players",
        "code": "game_cannot_end",
        "detail": f"A final table of {players} players cannot come from a finished game: "
        f"their hands hold at least {galaxy} of the {galaxy_cards} Galaxy cards and "
        f"at least {missions} of the {mission_cards} Missions, so the discard area "
        f"can never reach {END_GALAXY} Galaxy or {END_MISSION} Mission cards and "
        f"the game never ends ({TABLE_RULE}). A finished game has at most {most} "
        "players.",
    }


def _check_hand(position: HandPosition) -> HandBoard:
    """The board of a final hand (STM-R8, STM-R6 Meddlesome Q); raises ImpossiblePosition
    (code ``illegal_hand``; entries ``duplicate_card``, ``too_many_cards``,
    ``too_many_missions``, ``too_few_missions``, ``too_many_galaxy_cards``) when it cannot be
    one. A partial hand is scored as it stands, with a warning; the choices the player fixed are
    checked when it is scored."""
    hand, vocabulary = position.hand, position.vocabulary
    labels, choices = position.labels, position.choices
    errors: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    for index, spec in enumerate(hand):
        if spec.name in seen:
            errors.append(
                {
                    "path": f"hand[{index}]",
                    "code": "duplicate_card",
                    "detail": f"{spec.name} is in the hand twice; every card is unique.",
                }
            )
        seen.setdefault(spec.name, index)
    distinct = [hand[i] for i in sorted(seen.values())]
    missions = [s for s in distinct if s.deck == MISSION]
    galaxy = [s for s in distinct if s.deck == GALAXY]
    holder = next((s for s in distinct if s.effect(HAND_SIZE_EFFECT)), None)
    if holder:
        effect = holder.effect(HAND_SIZE_EFFECT)
        assert effect is not None  # the holder was found by this effect
        size, min_missions, max_missions, max_galaxy = (
            effect["galaxy"] + effect["missions"],
            effect["missions"],
            effect["missions"],
            effect["galaxy"],
        )
        shape = (
            f"{size} cards with {holder.name}: {holder.name}, exactly "
            f"{effect['missions'] - 1} other Mission and {effect['galaxy']} Galaxy cards"
        )
    else:
        size, min_missions, max_missions, max_galaxy = HAND_SIZE, MIN_MISSIONS, MAX_MISSIONS, 6
        shape = "7 cards with one or two Missions"
    holds = f"a final hand holds {shape}."
    if len(hand) > size:
        errors.append(
            {
                "path": "hand",
                "code": "too_many_cards",
                "detail": f"The hand has {len(hand)} cards; {holds}",
            }
        )
    if len(missions) > max_missions:
        errors.append(
            {
                "path": "hand",
                "code": "too_many_missions",
                "detail": f"The hand has {len(missions)} Missions "
                f"({', '.join(s.name for s in missions)}); {holds}",
            }
        )
    elif len(distinct) == size and len(missions) < min_missions:
        errors.append(
            {
                "path": "hand",
                "code": "too_few_missions",
                "detail": f"The hand has {len(missions)} Missions; {holds}",
            }
        )
    elif len(galaxy) > max_galaxy and len(hand) <= size:
        errors.append(
            {
                "path": "hand",
                "code": "too_many_galaxy_cards",
                "detail": f"The hand has {len(galaxy)} Galaxy cards; {holds}",
            }
        )
    if errors:
        raise ImpossiblePosition(
            errors,
            code=ILLEGAL_HAND,
            summary=("This is not a legal final hand; each problem is listed in errors."),
        )
    warnings = []
    if len(distinct) < size:
        warnings.append(
            f"Partial hand: {len(distinct)} of {size} cards ({shape}); scored as it stands."
        )
    return HandBoard(hand, vocabulary, labels, choices, warnings)


# --- The checks ---------------------------------------------------------------------------------


def _evaluate(position: Position, move: Move) -> tuple[list[Check], Check | None]:
    """Run the checks in order; stop at the first that fails. Returns (checks, failure)."""
    checks: list[Check] = []
    for check in _checks(position, move):
        checks.append(check)
        if not check.passed:
            return checks, check
    return checks, None


def _checks(position: Position, move: Move) -> Iterator[Check]:
    """Yield the checks of a move in order (a generator: later checks may assume earlier ones)."""
    action = move.action
    option = {
        TAKE_DISCARD: "take a card from the discard area",
        DRAW_GALAXY: "draw the top Galaxy card",
        DRAW_MISSIONS: "draw the top two Mission cards",
    }[action]

    # One option only.
    if move.other_fields:
        fields = " and ".join(f"move.{name}" for name in move.other_fields)
        yield Check(
            "STM-6.1",
            False,
            f"The move is to {option}, but it also gives {fields}, "
            "which belongs to another option; a turn is exactly one option.",
            "one_option_only",
        )
        return
    yield Check("STM-6.1", True, f"One option: {option}.", "one_option_only")

    # How many cards are drawn and discarded.
    if action == DRAW_MISSIONS:
        if len(move.draw) != 2:
            yield Check(
                "STM-6.1",
                False,
                f"Drawing Missions takes the top two Mission cards; "
                f"the move draws {_cards(len(move.draw))}.",
                "draw_count",
            )
            return
        yield Check("STM-6.1", True, "Two Mission cards drawn.", "draw_count")
    wanted = DISCARDS[action]
    if len(move.discard) != wanted:
        yield Check(
            "STM-6.1",
            False,
            f"After {_option_noun(action)} the player discards "
            f"{_cards(wanted, word=True)}; the move discards "
            f"{_cards(len(move.discard))}.",
            "discard_count",
        )
        return
    yield Check(
        "STM-6.1",
        True,
        f"{_cards(wanted, word=True).capitalize()} discarded, as {_option_noun(action)} requires.",
        "discard_count",
    )
    for what, cards in (("draws", move.draw), ("discards", move.discard)):
        names = [card.name for card in cards]
        twice = next((name for name in names if names.count(name) > 1), None)
        if twice:
            yield Check(
                "STM-6.1",
                False,
                f"The move {what} {twice} twice; every card exists once.",
                "duplicate_card",
            )
            return

    hand_names = [card.name for card in position.hand]
    discard_names = [card.name for card in position.discard_area]

    if action == TAKE_DISCARD:
        taken = _taken(move)
        if taken.name not in discard_names:
            where = " (it is in the hand)" if taken.name in hand_names else ""
            yield Check(
                "STM-6.1",
                False,
                f"{taken.name} is not in the discard area{where}, so "
                f"it cannot be taken from it. The discard area holds "
                f"{_list(discard_names)}.",
                "not_in_discard_area",
            )
            return
        yield Check("STM-6.1", True, f"{taken.name} is in the discard area.", "not_in_discard_area")
        drawn = [taken]
    else:
        if action == DRAW_GALAXY:
            if position.galaxy_deck is None:
                yield _deck_unknown(
                    "Galaxy", "galaxy_deck", "a card cannot be drawn from an empty Galaxy deck"
                )
                return
            if position.galaxy_deck < 1:
                yield Check(
                    "STM-6.1",
                    False,
                    "The Galaxy deck is empty (0 cards), so no Galaxy card can be drawn.",
                    "galaxy_deck_empty",
                )
                return
            yield Check(
                "STM-6.1",
                True,
                f"The Galaxy deck holds {_cards(position.galaxy_deck)}.",
                "galaxy_deck_empty",
            )
        else:
            if position.mission_deck is None:
                yield _deck_unknown(
                    "Mission",
                    "mission_deck",
                    "drawing Missions needs two cards in the Mission deck",
                )
                return
            if position.mission_deck < 2:
                yield Check(
                    "STM-6.1",
                    False,
                    f"The Mission deck holds "
                    f"{_cards(position.mission_deck)}; drawing Missions needs two.",
                    "mission_deck_too_small",
                )
                return
            yield Check(
                "STM-6.1",
                True,
                f"The Mission deck holds {_cards(position.mission_deck)}.",
                "mission_deck_too_small",
            )
        deck, label, code = (
            (GALAXY, "Galaxy", "not_a_galaxy_card")
            if action == DRAW_GALAXY
            else (MISSION, "Mission", "not_a_mission_card")
        )
        for card in move.draw:
            if card.deck != deck:
                other = "Mission" if deck == GALAXY else "Galaxy"
                yield Check(
                    "STM-4.1",
                    False,
                    f"{card.name} is a {other} card, so it cannot "
                    f"come from the {label} deck; the decks stay separate.",
                    code,
                )
                return
        yield Check(
            "STM-4.1",
            True,
            f"{_list([c.name for c in move.draw])} "
            f"{'is a' if len(move.draw) == 1 else 'are'} {label} "
            f"card{'' if len(move.draw) == 1 else 's'}.",
            code,
        )
        for card in move.draw:
            if card.name in hand_names or card.name in discard_names:
                where = "in the hand" if card.name in hand_names else "in the discard area"
                yield Check(
                    "STM-6.1",
                    False,
                    f"{card.name} is already {where}, so it cannot be "
                    f"on top of the {label} deck; every card exists once.",
                    "card_not_in_deck",
                )
                return
        yield Check(
            "STM-6.1",
            True,
            f"{_list([c.name for c in move.draw])} "
            f"{'was' if len(move.draw) == 1 else 'were'} still in the {label} deck.",
            "card_not_in_deck",
        )
        drawn = list(move.draw)

    after_take = hand_names + [card.name for card in drawn]
    verb = "taking" if action == TAKE_DISCARD else "drawing"
    for card in move.discard:
        if card.name not in after_take:
            yield Check(
                "STM-6.1",
                False,
                f"{card.name} is not in the hand after {verb}, so it "
                f"cannot be discarded. The hand then holds {_list(after_take)}.",
                "discard_not_in_hand",
            )
            return
    yield Check(
        "STM-6.1",
        True,
        f"{_list([c.name for c in move.discard])} "
        f"{'is' if len(move.discard) == 1 else 'are'} in the hand after {verb}.",
        "discard_not_in_hand",
    )

    if action == TAKE_DISCARD:
        if move.discard[0].name == taken.name:
            yield Check(
                "STM-6.1",
                False,
                f"The card discarded must differ from the card taken; "
                f"the move takes {taken.name} and discards it again.",
                "same_card",
            )
            return
        yield Check(
            "STM-6.1",
            True,
            f"{move.discard[0].name} differs from the card taken ({taken.name}).",
            "same_card",
        )

    hand_after = _hand_after(position, move)
    missions = [card.name for card in hand_after if card.is_mission]
    discarded = _list([c.name for c in move.discard])
    if not MIN_MISSIONS <= len(missions) <= MAX_MISSIONS:
        yield Check(
            "STM-6.3",
            False,
            f"After discarding {discarded} the hand would hold "
            f"{_missions(missions)}; a turn must end with one or two.",
            "mission_count",
        )
        return
    yield Check(
        "STM-6.3",
        True,
        f"After discarding {discarded} the hand holds "
        f"{_missions(missions)}: one or two is allowed.",
        "mission_count",
    )
    yield Check(
        "STM-5",
        len(hand_after) == HAND_SIZE,
        f"The turn ends with {_cards(len(hand_after))} in hand.",
        "hand_size",
    )


def _deck_unknown(label: str, key: str, why: str) -> Check:
    """The check a draw cannot make without its deck's count: needs information."""
    return Check(
        "STM-6.1",
        False,
        f"How many cards the {label} deck holds was not given, and {why} (STM-6.1): "
        f"give the number of cards left in the {label} deck.",
        NEEDS_CODE,
        unknown=True,
        missing=[
            {"path": f"position.{key}", "detail": f"The number of cards left in the {label} deck."}
        ],
    )


# --- The outcome --------------------------------------------------------------------------------


def _taken(move: Move) -> CardSpec:
    """The card a take_discard move takes: such a move always names one (the service requires
    move.take, and legal_moves gives it)."""
    assert move.take is not None, "a take_discard move names the card it takes"
    return move.take


def _hand_after(position: Position, move: Move) -> list[CardSpec]:
    gained = [_taken(move)] if move.action == TAKE_DISCARD else list(move.draw)
    discarded = {card.name for card in move.discard}
    return [card for card in list(position.hand) + gained if card.name not in discarded]


def _outcome(position: Position, move: Move) -> dict[str, Any]:
    hand = _hand_after(position, move)
    discard_area = [
        card
        for card in position.discard_area
        if not (move.action == TAKE_DISCARD and card.name == _taken(move).name)
    ] + list(move.discard)
    galaxy_deck = (
        None
        if position.galaxy_deck is None
        else position.galaxy_deck - (1 if move.action == DRAW_GALAXY else 0)
    )
    mission_deck = (
        None
        if position.mission_deck is None
        else position.mission_deck - (2 if move.action == DRAW_MISSIONS else 0)
    )
    galaxy, mission = _discard_counts(discard_area)
    before_galaxy, before_mission = _discard_counts(position.discard_area)
    trigger = f"{END_GALAXY} Galaxy or {END_MISSION} Mission cards"
    counts = (
        f"The discard area holds {_plural(galaxy, 'Galaxy card')} and "
        f"{_plural(mission, 'Mission card')}"
    )
    already = position.extra_turn and (before_galaxy >= END_GALAXY or before_mission >= END_MISSION)
    if already:
        game_ends = True
        reason = (
            f"This is the extra turn Time Distortion granted after the end trigger (the "
            f"discard area held {_plural(before_galaxy, 'Galaxy card')} and "
            f"{_plural(before_mission, 'Mission card')}): "
            f"the game ends after it (STM-R7, STM-6.4)."
        )
    elif galaxy >= END_GALAXY or mission >= END_MISSION:
        game_ends = True
        reached = f"{galaxy} Galaxy" if galaxy >= END_GALAXY else f"{mission} Mission"
        reason = (
            f"{counts}: it reached {reached} cards, so the game ends after this turn's "
            f"discards (STM-6.4; the trigger is {trigger})."
        )
    else:
        game_ends = False
        reason = f"{counts}: the game goes on (it ends at {trigger}, STM-6.4)."
    extra = move.action == TAKE_DISCARD and EXTRA_TURN_EFFECT in _taken(move).effects
    extra_reason = None
    if extra:
        extra_reason = (
            f"{_taken(move).name} was taken from the discard area: the player takes an "
            f"extra turn after this one (STM-R7)"
            + (", even though this turn ends the game." if game_ends else ".")
        )
    return {
        "hand": [card.name for card in hand],
        "discard_area": [card.name for card in discard_area],
        "galaxy_deck": galaxy_deck,
        "mission_deck": mission_deck,
        "discard_counts": {"galaxy": galaxy, "mission": mission},
        "game_ends": game_ends,
        "game_ends_reason": reason,
        "extra_turn": extra,
        "extra_turn_reason": extra_reason,
    }


def _legal_reason(move: Move, outcome: dict[str, Any], missions: int) -> str:
    discarded = _list([card.name for card in move.discard])
    if move.action == TAKE_DISCARD:
        did = f"{_taken(move).name} taken from the discard area and {discarded} discarded"
    elif move.action == DRAW_GALAXY:
        did = f"{move.draw[0].name} drawn from the Galaxy deck and {discarded} discarded"
    else:
        did = f"{_list([c.name for c in move.draw])} drawn from the Mission deck and {discarded} discarded"
    reason = (
        f"Legal: {did}; the hand ends with {_cards(len(outcome['hand']))}, "
        f"{missions} of them Mission{'' if missions == 1 else 's'}."
    )
    if outcome["game_ends"]:
        reason += (
            " The game ends: "
            + outcome["game_ends_reason"][0].lower()
            + outcome["game_ends_reason"][1:]
        )
    if outcome["extra_turn"]:
        reason += " " + outcome["extra_turn_reason"]
    return reason


def _warnings(position: Position, move: Move, outcome: dict[str, Any]) -> list[str]:
    warnings = []
    if outcome["game_ends"]:
        hand = _hand_after(position, move)
        for card in hand:
            if HAND_SIZE_EFFECT in card.effects:
                warnings.append(
                    f"The game ends with {card.name} in this hand: at the end of the game it "
                    f"changes the final hand (STM-R6), so score the hand after resolving it."
                )
    return warnings


# --- Wording ------------------------------------------------------------------------------------


def _discard_counts(cards: list[CardSpec]) -> tuple[int, int]:
    galaxy = sum(1 for card in cards if card.deck == GALAXY)
    return galaxy, sum(1 for card in cards if card.deck == MISSION)


def _option_noun(action: str) -> str:
    return {
        TAKE_DISCARD: "taking a card from the discard area",
        DRAW_GALAXY: "drawing the top Galaxy card",
        DRAW_MISSIONS: "drawing the top two Mission cards",
    }[action]


def _cards(count: int, *, word: bool = False) -> str:
    return _plural(count, "card", in_words=word)


def _missions(names: list[str]) -> str:
    text = _plural(len(names), "Mission card")
    return f"{text} ({_list(names)})" if names else text
