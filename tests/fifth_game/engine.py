"""Ascent's rules (plain Python, no Django): `check(position)` checks the position once and
answers with a Board (games/protocol.py) that lists the legal moves, rules on a move and scores
the hand. Every decision names its rule and says why, with the values."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from games.protocol import ILLEGAL, LEGAL, Check, ImpossiblePosition, NotScored, Ruling, Step
from games.wording import count, listing

from .model import Card, Move, Pass, Play, Position

# The codes a ruling or a refused position answers with (the API schema lists them).
LEGAL_CODES = ["legal_play", "legal_pass"]
ILLEGAL_CODES = ["card_not_in_hand", "not_higher", "must_play"]
IMPOSSIBLE_CODES = ["too_many_copies"]


def check(position: Position) -> HandBoard:
    """The position as a Board; ImpossiblePosition naming every card with more copies in the
    position than the game has (HC-1). Paths are the position's own ("hand[2]", "table")."""
    errors: list[dict[str, object]] = []
    places = [(f"hand[{index}]", card) for index, card in enumerate(position.hand)]
    if position.table is not None:
        places.append(("table", position.table))
    seen: dict[str, int] = {}
    for path, card in places:
        seen[card.name] = seen.get(card.name, 0) + 1
        if seen[card.name] == card.copies + 1:  # the first copy too many: one entry per card
            errors.append(
                {
                    "path": path,
                    "code": "too_many_copies",
                    "detail": f"{card.name} is in the position {_times(position, card)}; "
                    f"the game has {_copies(card.copies)} (HC-1).",
                }
            )
    if errors:
        raise ImpossiblePosition(errors)
    return HandBoard(position)


def _times(position: Position, card: Card) -> str:
    """ "3 times (2 in the hand, 1 on the table)"."""
    held = sum(1 for other in position.hand if other.name == card.name)
    tabled = int(position.table is not None and position.table.name == card.name)
    where = listing(
        [
            f"{number} {place}"
            for number, place in ((held, "in the hand"), (tabled, "on the table"))
            if number
        ]
    )
    return f"{count(held + tabled, 'time')} ({where})"


def _copies(number: int) -> str:
    return "1 copy" if number == 1 else f"{number} copies"


@dataclass(frozen=True)
class Score:
    """A hand's score: the sum of its values (HC-3), one step a card."""

    total: int
    steps: list[Step] = field(default_factory=list)


class HandBoard:
    """A checked position of Ascent: games.protocol.Board[Move]."""

    def __init__(self, position: Position) -> None:
        self.position = position

    @property
    def warnings(self) -> list[str]:
        """Each card of the position whose value is provisional: the answer rests on it."""
        cards = [*self.position.hand, *([self.position.table] if self.position.table else [])]
        return [
            f"{card.name}'s value ({card.value}) is provisional: it has not been checked "
            f"against the printed card."
            for card in dict.fromkeys(cards)
            if card.provisional
        ]

    def higher(self) -> list[Card]:
        """The cards of the hand that beat the table, lowest first, each once."""
        floor = self.position.table.value if self.position.table else 0
        return sorted(
            {card for card in self.position.hand if card.value > floor},
            key=lambda card: (card.value, card.name),
        )

    def legal_moves(self) -> Sequence[Move]:
        plays: list[Move] = [Play(card) for card in self.higher()]
        return plays or [Pass()]

    def rule(self, move: Move) -> Ruling:
        ruling = self._rule_pass() if isinstance(move, Pass) else self._rule_play(move.card)
        ruling.warnings = self.warnings
        return ruling

    def _alternatives(self) -> list[dict[str, object]]:
        return [move.as_dict() for move in self.legal_moves()]

    def _table(self) -> str:
        return str(self.position.table) if self.position.table else "an empty table"

    def _rule_play(self, play: Card) -> Ruling:
        held = listing([card.name for card in self.position.hand], empty="no cards")
        if play not in self.position.hand:
            detail = f"{play.name} is not in the hand ({held})."
            return Ruling(
                ILLEGAL,
                "card_not_in_hand",
                detail,
                "HC-1",
                [Check("HC-1", False, detail, code="card_not_in_hand")],
                alternatives=self._alternatives(),
            )
        checks = [Check("HC-1", True, f"{play.name} is in the hand ({held}).")]
        table = self.position.table
        if table is not None and play.value <= table.value:
            detail = f"{play} is not higher than {table}."
            checks.append(Check("HC-2", False, detail, code="not_higher"))
            return Ruling(
                ILLEGAL, "not_higher", detail, "HC-2", checks, alternatives=self._alternatives()
            )
        detail = (
            f"{play} is higher than {table}."
            if table is not None
            else f"{play} is the first card on the table."
        )
        checks.append(Check("HC-2", True, detail, code="legal_play"))
        return Ruling(
            LEGAL,
            "legal_play",
            detail,
            "HC-2",
            checks,
            outcome={
                "table": play.name,
                "hand": [card.name for card in _without(self.position.hand, play)],
            },
        )

    def _rule_pass(self) -> Ruling:
        higher = self.higher()
        if higher:
            cards = listing([str(card) for card in higher])
            detail = (
                f"{cards} in the hand {'is' if len(higher) == 1 else 'are'} higher than "
                f"{self.position.table}"
                if self.position.table is not None
                else f"The table is empty and the hand holds {cards}"
            )
            detail += ": a player who can play must play."
            return Ruling(
                ILLEGAL,
                "must_play",
                detail,
                "HC-4",
                [Check("HC-4", False, detail, code="must_play")],
                alternatives=self._alternatives(),
            )
        held = listing([str(card) for card in self.position.hand], empty="no cards")
        detail = f"No card of the hand ({held}) is higher than {self._table()}: the player passes."
        return Ruling(
            LEGAL,
            "legal_pass",
            detail,
            "HC-4",
            [Check("HC-4", True, detail, code="legal_pass")],
            outcome={
                "table": self.position.table.name if self.position.table else None,
                "hand": [card.name for card in self.position.hand],
            },
        )

    def score(self, moves: Sequence[Move] = ()) -> Score:
        """The hand's score as it stands, card by card (HC-3). Ascent scores a hand, not a turn:
        a score after moves is not one it has."""
        if moves:
            raise NotScored("Ascent scores a hand as it stands, not a turn of moves.")
        steps: list[Step] = []
        for card in self.position.hand:
            running = (steps[-1].running_total if steps else 0) + card.value
            steps.append(
                Step(
                    n=len(steps) + 1,
                    rule="HC-3",
                    card=card.name,
                    points=card.value,
                    running_total=running,
                    detail=f"{card.value} for {card.name}",
                )
            )
        return Score(total=steps[-1].running_total if steps else 0, steps=steps)


def _without(hand: tuple[Card, ...], played: Card) -> list[Card]:
    """The hand after one copy of `played` left it."""
    rest = list(hand)
    rest.remove(played)
    return rest
