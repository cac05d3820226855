"""Academy Credits: the cards, cadets and position that the engine (rulings on a play) and the
scorer (a round's end) both read (plain Python, no Django). Kept apart so neither imports the other
for them (issue 24: no import circles)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# --- Effect kinds (the catalog's "effect" attribute) --------------------------------------------

BONUS = "bonus_credit_if_sole"
GUESS = "guess_card"
LOOK = "look_at_hand"
COMPARE = "compare_hands"
PROTECT = "protection"
FORCE = "force_discard"
DRAW = "draw_two_keep_one"
TRADE = "trade_hands"
MARK = "mark_target"
MUST_PLAY = "must_play_over"
ELIMINATES = "eliminates_holder"
MIN_PLAYERS, MAX_PLAYERS = 2, 4


@dataclass(frozen=True)
class CardSpec:
    """What the engine knows of a card: name, value and effect kind (None when the catalog holds
    them as unknown) and its copies in the deck."""

    name: str
    value: int | None
    effect: str | None
    copies: int = 1

    @property
    def label(self) -> str:
        """ "Jett Reno (7)"; a placeholder name that already ends with its value keeps it once."""
        if self.value is None or self.name.endswith(f"({self.value})"):
            return self.name
        return f"{self.name} ({self.value})"


@dataclass
class Cadet:
    name: str
    in_round: bool = True
    shielded: bool = False
    marked: bool = False
    discards: list[CardSpec] = field(default_factory=list)  # face up in front of the cadet
    hand: CardSpec | None = None  # None: not known (or, for a cadet who is out, none)
    credits: int = 0


@dataclass
class Position:
    players: list[Cadet]  # seat order
    turn: str | None  # the cadet to move; None: the end of a round, to score
    hand: list[CardSpec]  # the two cards of the cadet to move, after the draw
    deck_count: int | None  # cards left in the deck (after that draw); None: not given
    cards: list[CardSpec]  # every card of the game, with its copies
    min_players: int = MIN_PLAYERS
    max_players: int = MAX_PLAYERS
    # The readings in force (echoed in outcomes, applied by the score).
    options: dict[str, Any] = field(default_factory=dict)
    starter: str | None = None  # who started the round (a round's end: AC-R10)
    # The card the play to rule on plays: it counts among the copies when not in the hand.
    played: CardSpec | None = None


def credits_target(position: Position) -> int | None:
    """The credits target of the options in force for the number of cadets (AC-R1), if known."""
    targets = position.options.get("credits_target")
    if not isinstance(targets, dict):
        return None
    target = targets.get(str(len(position.players)))
    return target if isinstance(target, int) and not isinstance(target, bool) else None
