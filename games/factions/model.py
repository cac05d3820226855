"""Factions: the catalog, the position and the table lookups that the engine (rulings on a move)
and the scorer (the standings) both read (plain Python, no Django). Kept apart so neither imports
the other for them (issue 24: no import circles)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# --- The catalog, as the engine needs it ----------------------------------------------------------


@dataclass(frozen=True)
class ActionSpec:
    """An action card: its name, its action kind (None when the catalog does not give it) and the
    copies each faction in play contributes (FAC-F1)."""

    name: str
    action: str | None
    copies: int


@dataclass(frozen=True)
class FactionSpec:
    slug: str
    label: str
    units: tuple[str, ...]  # the faction's unit cards, as the catalog gives them


@dataclass(frozen=True)
class Catalog:
    actions: Mapping[str, ActionSpec]  # by card name
    factions: Mapping[str, FactionSpec]  # by slug
    # Units whose faction the catalog does not give: they may be listed in any faction.
    unplaced_units: frozenset[str] = frozenset()
    min_players: int = 2

    def label(self, slug: str) -> str:
        spec = self.factions.get(slug)
        return spec.label if spec else slug

    def unit_faction(self, unit: str) -> str | None:
        for spec in self.factions.values():
            if unit in spec.units:
                return spec.slug
        return None


# --- The position and the move ----------------------------------------------------------------------


@dataclass(frozen=True)
class CardRef:
    """One action card: its name and the faction that contributed it (a faction slug)."""

    card: str
    faction: str

    def as_dict(self) -> dict[str, Any]:
        return {"card": self.card, "faction": self.faction}


@dataclass(frozen=True)
class UnitRef:
    faction: str
    unit: str

    def as_dict(self) -> dict[str, Any]:
        return {"faction": self.faction, "unit": self.unit}


@dataclass
class Unit:
    name: str
    alive: bool


@dataclass
class Faction:
    slug: str
    controller: str
    units: list[Unit] = field(default_factory=list)


@dataclass
class Player:
    name: str
    hand: list[CardRef] = field(default_factory=list)
    lost_turns: int = 0
    faction: str | None = None  # the faction the player chose at setup, when the request says
    # False: the hand may hold cards not listed (another phone's hand, at a table): the listed
    # cards are only those the move shows. What depends on the rest waits for its player.
    hand_complete: bool = True


@dataclass
class Pending:
    card: CardRef
    by: str
    target: UnitRef


@dataclass
class Position:
    factions: list[Faction]
    players: list[Player]  # seat order: play proceeds clockwise (FAC-3)
    turn: str | None = None
    pending: Pending | None = None
    turn_lost: bool = False  # the current turn is a lost one (FAC-R3)
    # What check(position) reads beside the table (not part of the position's identity): the
    # catalog's facts, and whether a player is to move (a ruling: a turn, a game not over, a
    # pending attack that can be) or not (the standings: the game may be over).
    catalog: Catalog | None = field(default=None, compare=False, repr=False)
    to_move: bool = field(default=True, compare=False)


@dataclass
class Move:
    action: str
    card: CardRef | None = None
    target_player: str | None = None
    target_unit: UnitRef | None = None

    def as_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = {"action": self.action}
        if self.card is not None:
            body["card"] = self.card.as_dict()
        if self.target_player is not None:
            body["target_player"] = self.target_player
        if self.target_unit is not None:
            body["target_unit"] = self.target_unit.as_dict()
        return body


# --- Reading a position --------------------------------------------------------------------------------


class PositionReader:
    """Lookups over a position that passed check (or is being checked)."""

    def __init__(self, catalog: Catalog, position: Position):
        self.catalog = catalog
        self.position = position
        self.factions: dict[str, Faction] = {}
        for faction in position.factions:
            self.factions.setdefault(faction.slug, faction)
        self.players: dict[str, Player] = {}
        for player in position.players:
            self.players.setdefault(player.name, player)

    # Names, as people read them.
    def label(self, slug: str) -> str:
        return self.catalog.label(slug)

    def card(self, ref: CardRef) -> str:
        return f"{ref.card} ({self.label(ref.faction)})"

    def unit(self, ref: UnitRef) -> str:
        return f"{ref.unit} ({self.label(ref.faction)})"

    def action(self, ref: CardRef) -> str | None:
        spec = self.catalog.actions.get(ref.card)
        return spec.action if spec else None

    # Control and survival.
    def controller(self, slug: str) -> str | None:
        faction = self.factions.get(slug)
        return faction.controller if faction else None

    def controlled(self, player: str) -> list[Faction]:
        return [f for f in self.factions.values() if f.controller == player]

    def listed(self, faction: Faction) -> set[str]:
        return {unit.name for unit in faction.units}

    def unlisted(self, faction: Faction) -> list[str]:
        spec = self.catalog.factions.get(faction.slug)
        listed = self.listed(faction)
        return [name for name in (spec.units if spec else ()) if name not in listed]

    def unit_state(self, ref: UnitRef) -> bool | None:
        """True (survives), False (defeated) or None (not listed: unknown). The faction must be in
        play."""
        faction = self.factions[ref.faction]
        for unit in faction.units:
            if unit.name == ref.unit:
                return unit.alive
        return None

    def has_survivor(self, faction: Faction) -> bool | None:
        if any(unit.alive for unit in faction.units):
            return True
        return None if self.unlisted(faction) else False

    def in_game(self, player: str) -> bool | None:
        """Still in the game: controls at least one surviving unit (FAC-17, FAC-R9)."""
        states = [self.has_survivor(f) for f in self.controlled(player)]
        if any(state is True for state in states):
            return True
        return None if any(state is None for state in states) else False

    def enemy(self, player: str, ref: CardRef) -> bool:
        """A card whose faction another player controls (FAC-R1)."""
        return self.controller(ref.faction) != player

    def turn_lost(self) -> bool:
        return self.position.turn_lost

    def defender(self) -> str | None:
        pending = self.position.pending
        return self.controller(pending.target.faction) if pending else None

    def pending_text(self) -> str:
        pending = self.position.pending
        if pending is None:
            raise ValueError("No attack is pending; only a pending attack has this text.")
        return f"{pending.by}'s {self.card(pending.card)} on {self.unit(pending.target)}"
