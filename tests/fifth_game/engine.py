"""Ascent's rules (plain Python, no Django): a ruling on a play, a hand's score with its steps."""

from __future__ import annotations

from dataclasses import dataclass

from games.protocol import ILLEGAL, LEGAL, Check, ImpossiblePosition, Ruling, Step
from games.wording import listing

LEGAL_CODES = ["legal_play"]
ILLEGAL_CODES = ["card_not_in_hand", "not_higher"]
IMPOSSIBLE_CODES = ["too_many_copies"]


@dataclass(frozen=True)
class Card:
    name: str
    value: int
    copies: int


@dataclass(frozen=True)
class Position:
    hand: tuple[Card, ...]
    table: Card | None  # the card to beat, if any


def check_position(position: Position) -> None:
    """A card held and on the table together cannot outnumber its copies (HC-1)."""
    counts: dict[str, int] = {}
    for card in (*position.hand, *([position.table] if position.table else [])):
        counts[card.name] = counts.get(card.name, 0) + 1
    errors = [{"path": "position", "code": "too_many_copies",
               "detail": f"{name} is there {count} times; the game has {card.copies}."}
              for card in {*position.hand} for name, count in counts.items()
              if name == card.name and count > card.copies]
    if errors:
        raise ImpossiblePosition(errors)


def legal_plays(position: Position) -> list[Card]:
    floor = position.table.value if position.table else 0
    return sorted({card for card in position.hand if card.value > floor}, key=lambda c: c.value)


def rule_play(position: Position, play: Card) -> Ruling:
    check_position(position)
    checks = []
    held = [card.name for card in position.hand]
    if play not in position.hand:
        detail = f"{play.name} is not in the hand ({listing(held, empty='no cards')})."
        return Ruling(ILLEGAL, "card_not_in_hand", detail, "HC-1", [Check("HC-1", False, detail)],
                      alternatives=[{"play": c.name} for c in legal_plays(position)])
    checks.append(Check("HC-1", True, f"{play.name} is in the hand."))
    if position.table is not None and play.value <= position.table.value:
        detail = (f"{play.name} ({play.value}) is not higher than {position.table.name} "
                  f"({position.table.value}).")
        checks.append(Check("HC-2", False, detail))
        return Ruling(ILLEGAL, "not_higher", detail, "HC-2", checks,
                      alternatives=[{"play": c.name} for c in legal_plays(position)])
    beaten = f"higher than {position.table.name} ({position.table.value})" if position.table \
        else "the first card on the table"
    detail = f"{play.name} ({play.value}) is {beaten}."
    checks.append(Check("HC-2", True, detail))
    return Ruling(LEGAL, "legal_play", detail, "HC-2", checks, outcome={"table": play.name})


def score_hand(hand: list[Card]) -> tuple[int, list[Step]]:
    steps: list[Step] = []
    running = 0
    for card in hand:
        running += card.value
        steps.append(Step(n=len(steps) + 1, rule="HC-3", card=card.name, points=card.value,
                          running_total=running, detail=f"{card.value} for {card.name}"))
    return running, steps


@dataclass
class AscentBoard:
    """A position check() accepted (games.protocol.Board): a ruling on a play, the hand's score."""

    position: Position

    @property
    def warnings(self) -> list[str]:
        return []

    def legal_moves(self) -> list[Card]:
        return legal_plays(self.position)

    def rule(self, move: Card) -> Ruling:
        return rule_play(self.position, move)

    def score(self, moves: tuple[Card, ...] = ()) -> Score:
        total, steps = score_hand(list(self.position.hand))
        return Score(total, steps)


@dataclass
class Score:
    total: int
    steps: list[Step]


def check(position: Position) -> AscentBoard:
    """The position's board (ImpossiblePosition when it cannot exist)."""
    check_position(position)
    return AscentBoard(position)
