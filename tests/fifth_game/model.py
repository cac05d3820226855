"""Ascent's position and moves (plain Python, no Django): what the requests are read into and
what the engine checks. The catalog's facts a rule needs travel with each card."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Card:
    """A card as the rules see it: its name, its value, how many copies the game has, and whether
    its value is provisional (not yet checked against the printed card)."""

    name: str
    value: int
    copies: int
    provisional: bool = False

    def __str__(self) -> str:
        return f"{self.name} ({self.value})"


@dataclass(frozen=True)
class Position:
    """One player's hand and the card on the table to beat (None: the table is empty)."""

    hand: tuple[Card, ...]
    table: Card | None = None


@dataclass(frozen=True)
class Play:
    """Play a card from the hand onto the table."""

    card: Card

    def as_dict(self) -> dict[str, object]:
        return {"play": self.card.name}


@dataclass(frozen=True)
class Pass:
    """Play nothing this turn."""

    def as_dict(self) -> dict[str, object]:
        return {"pass": True}


Move = Play | Pass
