"""Star Realms Academy: is this move legal, and what does it do? (plain Python, no Django import)

A position is the middle of one player's turn (API.md): the active player's Health, Coins, hand,
ships in play, bases (with their damage and the abilities used this turn), the combat pool and the
Ally abilities already used; the opponent's Health, Coins and bases (with damage); the shop row. A
move is one action of SRA-5: ``play`` a card from the hand, ``use_base`` (a base's primary),
``use_ally``, ``buy`` from the shop row, ``attack`` (a base of the opponent, or their Health) or
``end_turn``.

Card behaviour is data: each card is a ``CardSpec`` built by the service from the catalog (kind,
faction, cost, primary and ally abilities such as ``{"coin": 2, "draw": 1}``, defense) with each
field's provenance. No card is special-cased by name. A value the catalog holds as unknown is never
guessed: a ruling that needs it answers ``needs_information`` (code ``card_value_unknown``, rule
SRA-F2) and ``missing`` names the card, the field and the link where an admin fills it in (the
service passes that link in as data). A ruling that uses a provisional (inferred) value says so in
``warnings``.

How the rules are applied (SRA-R1 … SRA-R11):

* Coins never exceed 8: Coins gained past 8 are lost, with a warning naming how many (SRA-R1).
  Health never exceeds 15; Health gained past it is not gained, with a warning (SRA-R2).
* Combat gained forms a pool (SRA-R3). An attack names one target: a base of the opponent or
  ``"health"``, and an ``amount`` (default: what the target can take). Health can be attacked only
  when the opponent has no base in play (SRA-7). Tokens on a base stay until it falls; it falls
  once its tokens reach its defense and goes to its owner's discard pile. Combat a base does not
  need to fall stays in the pool for other bases, or Health once none is left (SRA-R11: a check
  and a warning say so). With several copies of the named base, the first listed is attacked.
* A ship's primary happens when it is played (SRA-6); a base enters play with its primary unused,
  to be used once per turn (``use_base``, SRA-7, SRA-R4). An Ally ability is ready once another
  card of the same faction is in play (ships in play and the player's bases), and is used once per
  turn per card (SRA-9, SRA-R4). Unaligned cards (Scout, Viper) have no faction to ally with, and
  the catalog gives them no Ally ability. Two cards the rulebook itself puts in one faction (the
  card's verified rule, ``same_faction_as``: Imperial Frigate and Corvette, SRA-9.1) make each
  other's Ally ready whatever their faction is called, with no provisional warning; a readiness
  that rests on inferred factions (either way) warns about each one it compares.
* Buying pays the cost from Coins, puts the card in the buyer's discard pile and refills the shop
  row from the shop deck (SRA-10, SRA-R5); the move may name the refill (``refill``), else that
  slot is unknown. Buying a card in no known space while a space is unknown is
  ``needs_information`` (``refill_not_named``, SRA-R10: the unknown space may hold it), unless
  the Coins do not pay for it or every copy of it is elsewhere (illegal either way). A card whose
  cost does not apply (null with no provenance: the starting cards) is never sold.
* Copies (SRA-2, SRA-3.3) are held wherever a card enters the position: the position as given,
  a refill, a drawn card played by name. A card that leaves the shop row or play this turn (bought,
  destroyed, discarded at the end of the turn) is still one of the game's copies, in a discard
  pile; shuffled back into the deck by a draw, it may be the card drawn.
* Drawing (Draw abilities, and three cards at the end of the turn) takes cards from the deck; when
  the deck (``deck``, a count, if given) runs out, the discard pile is shuffled into a new deck
  (SRA-11.4). Cards drawn are not named: the hand holds them as ``drawn`` cards, and playing a card
  that is not among the named ones takes it as one of those drawn cards.
* SRA-R9: a draw is stated only as far as the position fixes it. Without the counts, the fewest
  cards the deck and discard pile hold together are the counts given, the player's starting cards
  (5 Scouts and 1 Viper, never bought nor lost) the position does not show in the hand or in play,
  and the cards put into the discard pile this turn. A draw of more than that fewest is legal,
  and takes as many as the counts decide: ``drawn`` and ``draws`` (and the Draw an ability
  ``gained``) are then ``{"at_least", "at_most"}`` instead of a number, the reason says "draws up
  to 3", a check cites SRA-R9 and a warning asks for the counts. A card played as drawn when the
  draws may have taken none is ``needs_information`` (``deck_count_required``, ``missing`` naming
  ``active.deck`` and ``active.discard_pile``, paths relative to the position).
* Ending the turn puts the ships in play into the discard pile, loses the combat pool, draws three
  cards and passes the turn (SRA-11); cards left in the hand stay there (the rulebook discards only
  the ships in play). Bringing the opponent's Health to 0 wins the game (SRA-12, SRA-R7): no action
  follows.

Codes of a ruling (``Ruling.code``):

========================  =================  ===================================================
code                      verdict            meaning
========================  =================  ===================================================
``ship_played``           legal              a ship is played; its primary happens (SRA-6)
``base_played``           legal              a base is played; it stays until destroyed (SRA-7)
``base_used``             legal              a base's primary is used (SRA-R4)
``ally_used``             legal              an Ally ability is used (SRA-9)
``card_bought``           legal              a card is bought into the discard pile (SRA-10)
``attack_made``           legal              combat is put on a base or on Health (SRA-R3)
``opponent_defeated``     legal              the attack brings the opponent's Health to 0 (SRA-12)
``turn_ended``            legal              the turn ends (SRA-11)
``card_value_unknown``    needs_information  the ruling needs a card value nobody has transcribed
``deck_count_required``   needs_information  plays a card as drawn, and the draws may have taken
                                             none: the counts decide (SRA-R9)
``refill_not_named``      needs_information  buys a card in no known space of the shop row, and
                                             a refill was not named: it may be there (SRA-R10)
``game_over``             illegal            the opponent's Health is already 0 (SRA-12)
``turn_over``             illegal            the turn has already ended (SRA-11.3)
``not_in_hand``           illegal            plays a card that is not in the hand (SRA-5.1)
``too_many_copies``       illegal            plays (as drawn) or refills a card the game has no
                                             more copies of (SRA-2)
``not_your_base``         illegal            uses the primary of a card that is not one of the
                                             player's bases in play (SRA-7)
``not_in_play``           illegal            uses the Ally ability of a card not in play (SRA-9)
``no_ally_ability``       illegal            uses the Ally ability of a card that has none (SRA-9)
``already_used``          illegal            uses an ability a second time this turn (SRA-R4)
``ally_not_ready``        illegal            no other card of the same faction is in play (SRA-9)
``not_in_shop_row``       illegal            buys a card that is not in the shop row (SRA-10)
``not_a_shop_card``       illegal            refills the shop row with a card never sold (SRA-R5)
``not_enough_coins``      illegal            buys a card that costs more than the Coins (SRA-10)
``no_combat``             illegal            attacks with an empty combat pool (SRA-8.4)
``not_enough_combat``     illegal            attacks with more Combat than the pool (SRA-R3)
``no_such_base``          illegal            attacks a base the opponent does not have (SRA-7)
``base_shields_health``   illegal            attacks Health while the opponent has a base (SRA-7)
========================  =================  ===================================================

``check(position)`` gives the position's ``TurnBoard`` (games.protocol's Board: ``legal_moves``,
``rule``, ``push`` to apply a legal move, ``score`` for a whole turn). A position that cannot
exist raises ``ImpossiblePosition`` (a 400) with one entry per contradiction, each with its path
in the request:

=========================  =====================================================================
code                       the position …
=========================  =====================================================================
``health_above_cap``       gives a player more than 15 Health (SRA-R2)
``game_over``              gives a player 0 Health: the game has already ended (SRA-12)
``coins_above_cap``        gives a player more than 8 Coins (SRA-R1)
``too_many_copies``        holds more copies of a card than the game has (SRA-2), or more of a
                           starting card than one player's starting deck (SRA-3.3)
``shop_row_size``          has more than five cards in the shop row (SRA-4.4)
``not_a_shop_card``        has a card that is never sold (a starting card) in the shop row
``not_a_base``             lists a card whose kind is Ship among the bases
``not_a_ship``             lists a card whose kind is Base among the ships in play
``base_destroyed``         has damage on a base at or past its defense: it would have fallen
``used_not_in_play``       says an ability of a card was used, but no such card (or not that
                           many) is in play
``no_such_ability``        says an Ally ability was used by a card that has none
``combat_without_source``  has a combat pool larger than the abilities used this turn (ships in
                           play, base and Ally abilities used) can give (SRA-R8); when abilities
                           of unknown value could give it, every ruling is ``needs_information``
                           naming them (rule SRA-R8)
=========================  =====================================================================
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, NoReturn, TypeVar

from games.protocol import ILLEGAL, LEGAL, NEEDS_INFORMATION, Check, ImpossiblePosition, Ruling
from games.star_realms_academy.provisional import provisional_warning
from games.star_realms_academy.scorer import Breakdown, break_down
from games.wording import count as _count
from games.wording import listing as _list

COIN_CAP = 8  # SRA-R1
HEALTH_CAP = 15  # SRA-R2, SRA-3.2
END_TURN_DRAW = 3  # SRA-11.2
STARTING_DECK = 6  # SRA-3.3, SRA-R6: each player's own 5 Scouts and 1 Viper, never bought or lost
SHOP_ROW_SIZE = 5  # SRA-4.4
PLAYERS = 2  # the starting cards are shared out between two players (SRA-1.7, SRA-3.3)
POOL_RULE = "SRA-R8"  # a combat pool has a source: abilities used this turn
DRAW_RULE = "SRA-R9"  # say only what the position fixes: a draw the counts decide
REFILL_RULE = "SRA-R10"  # a refill not named: its space is unknown
BEYOND_DEFENSE_RULE = "SRA-R11"  # Combat a base does not need stays in the pool

SHIP, BASE = "ship", "base"
UNALIGNED = "unaligned"  # no faction: allies with nothing
EFFECTS = ("coin", "combat", "health", "draw")  # the order effects are applied and described
PRIMARY, ALLY = "primary", "ally"
ABILITIES = (PRIMARY, ALLY)
HEALTH_TARGET = "health"

PLAY, USE_BASE, USE_ALLY, BUY, ATTACK, END_TURN = (
    "play",
    "use_base",
    "use_ally",
    "buy",
    "attack",
    "end_turn",
)
ACTIONS = (PLAY, USE_BASE, USE_ALLY, BUY, ATTACK, END_TURN)
# The fields each action uses besides "action" (the service refuses the others).
ACTION_FIELDS = {
    PLAY: ("card",),
    USE_BASE: ("card",),
    USE_ALLY: ("card",),
    BUY: ("card", "refill"),
    ATTACK: ("target", "amount"),
    END_TURN: (),
}

FIELD_LABELS = {
    "faction": "faction",
    "kind": "kind",
    "cost": "cost",
    "primary": "primary ability",
    "ally": "ally ability",
    "defense": "defense",
}

LEGAL_CODES = (
    "ship_played",
    "base_played",
    "base_used",
    "ally_used",
    "card_bought",
    "attack_made",
    "opponent_defeated",
    "turn_ended",
)
NEEDS_INFORMATION_CODE = "card_value_unknown"
COUNTS_CODE = "deck_count_required"  # SRA-R9: only the counts tell whether a card was drawn
REFILL_CODE = "refill_not_named"  # SRA-R10: the card may be in a space whose refill is unnamed
NEEDS_INFORMATION_CODES = (NEEDS_INFORMATION_CODE, COUNTS_CODE, REFILL_CODE)
ILLEGAL_CODES = (
    "game_over",
    "turn_over",
    "not_in_hand",
    "too_many_copies",
    "not_your_base",
    "not_in_play",
    "no_ally_ability",
    "already_used",
    "ally_not_ready",
    "not_in_shop_row",
    "not_a_shop_card",
    "not_enough_coins",
    "no_combat",
    "not_enough_combat",
    "no_such_base",
    "base_shields_health",
)
IMPOSSIBLE_CODES = (
    "health_above_cap",
    "game_over",
    "coins_above_cap",
    "too_many_copies",
    "shop_row_size",
    "not_a_shop_card",
    "not_a_base",
    "not_a_ship",
    "base_destroyed",
    "used_not_in_play",
    "no_such_ability",
    "combat_without_source",
)


# --- Input --------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class CardSpec:
    """What the engine knows of a card, from the catalog. A value of None is unknown when its
    provenance says "unknown"; with no provenance at all it does not apply (a ship's defense, a
    starting card's cost)."""

    name: str
    copies: int
    faction: str | None = None
    kind: str | None = None
    cost: int | None = None
    primary: Mapping[str, int] | None = None
    ally: Mapping[str, int] | None = None
    defense: int | None = None
    provenance: Mapping[str, str] = field(default_factory=dict)
    faction_label: str = ""
    admin_url: str = ""  # where an admin fills in its unknown values (built by the service)
    card_url: str = ""
    # Cards the rulebook itself puts in this card's faction (the card's verified rule), and the
    # rule that says so: their sameness is certain even while the faction's name is inferred.
    same_faction_as: tuple[str, ...] = ()
    same_faction_source: str = ""

    @property
    def for_sale(self) -> bool:
        """False for a card whose cost does not apply (the starting cards are never bought)."""
        return not (self.cost is None and self.provenance.get("cost") in (None, ""))

    def is_provisional(self, key: str) -> bool:
        return self.provenance.get(key) == "provisional"

    @property
    def faction_name(self) -> str:
        return self.faction_label or (self.faction or "")

    def stated_same_faction(self, other: CardSpec) -> str:
        """The rule id by which the rulebook puts the two cards in one faction, or ""."""
        if other.name in self.same_faction_as:
            return self.same_faction_source
        if self.name in other.same_faction_as:
            return other.same_faction_source
        return ""


@dataclass
class BaseIn:
    card: CardSpec
    damage: int = 0
    used: tuple[str, ...] = ()  # "primary", "ally": used this turn (the active player's bases)


@dataclass
class Side:
    name: str
    health: int
    coins: int = 0
    hand: list[CardSpec] = field(default_factory=list)
    in_play: list[CardSpec] = field(default_factory=list)  # ships played this turn
    bases: list[BaseIn] = field(default_factory=list)
    combat: int = 0
    # Abilities used this turn by cards in play: (card, "ally" | "primary").
    used: list[tuple[CardSpec, str]] = field(default_factory=list)
    deck: int | None = None  # cards left in the draw deck, when known
    discard_pile: int | None = None  # cards in the discard pile, when known
    drawn: int = 0  # cards in the hand that were drawn and not named


@dataclass
class Position:
    active: Side
    opponent: Side
    shop_row: list[CardSpec] = field(default_factory=list)


@dataclass
class Move:
    action: str
    card: CardSpec | None = None
    target: CardSpec | None = None  # a base of the opponent; None with target_health
    target_health: bool = False
    amount: int | None = None
    refill: CardSpec | None = None  # buy: the card that refilled the shop row

    @property
    def shown_card(self) -> str | None:
        """The card a turn's step shows: the one played, used or bought, or the base attacked."""
        card = self.target if self.action == ATTACK else self.card
        return None if card is None else card.name

    def as_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = {"action": self.action}
        if self.card is not None:
            body["card"] = self.card.name
        if self.action == ATTACK:
            body["target"] = (
                HEALTH_TARGET if self.target_health else (self.target.name if self.target else None)
            )
            if self.amount is not None:
                body["amount"] = self.amount
        if self.refill is not None:
            body["refill"] = self.refill.name
        return body


# --- The state of a turn ------------------------------------------------------------------------


@dataclass
class _Ship:
    card: CardSpec
    ally_used: bool = False


@dataclass
class _Base:
    card: CardSpec
    damage: int = 0
    used: set[str] = field(default_factory=set)


@dataclass
class _Player:
    name: str
    health: int
    coins: int
    hand: list[CardSpec]
    ships: list[_Ship]
    bases: list[_Base]
    combat: int
    deck: int | None
    discard_pile: int | None
    drawn: int  # the most cards in the hand that were drawn and not named
    draws: int = 0  # the most cards drawn this turn, in all
    # The fewest of each, and the fewest cards the deck and discard pile hold together: equal to
    # the most while the counts (or the cards the position names) fix every draw (SRA-R9).
    drawn_min: int = 0
    draws_min: int = 0
    supply_min: int = 0
    discarded: list[str] = field(default_factory=list)  # put into the discard pile this turn
    # Cards named this turn that a reshuffle put (or, the deck's size unknown, may have put) into
    # the deck: still in the game, and one of them may be a card drawn since (SRA-2, SRA-11.4).
    in_deck: list[str] = field(default_factory=list)

    def clone(self) -> _Player:
        return _Player(
            name=self.name,
            health=self.health,
            coins=self.coins,
            hand=list(self.hand),
            ships=[_Ship(s.card, s.ally_used) for s in self.ships],
            bases=[_Base(b.card, b.damage, set(b.used)) for b in self.bases],
            combat=self.combat,
            deck=self.deck,
            discard_pile=self.discard_pile,
            drawn=self.drawn,
            draws=self.draws,
            drawn_min=self.drawn_min,
            draws_min=self.draws_min,
            supply_min=self.supply_min,
            discarded=list(self.discarded),
            in_deck=list(self.in_deck),
        )

    def to_discard_pile(self, count: int) -> None:
        """Cards go to the player's discard pile: it holds them, and they may be drawn."""
        if self.discard_pile is not None:
            self.discard_pile += count
        self.supply_min += count

    def in_play(self) -> list[tuple[CardSpec, _Ship | _Base]]:
        """Every card in play: (card, its _Ship or _Base)."""
        return [(s.card, s) for s in self.ships] + [(b.card, b) for b in self.bases]


def check(position: Position) -> TurnBoard:
    """The position's board, checked once: raises ImpossiblePosition naming every contradiction
    (error paths are the position's own, e.g. ``active.health``: the one flow, games.services,
    places them in the request body)."""
    errors = _contradictions(position)
    if errors:
        raise ImpossiblePosition(errors)
    return TurnBoard(
        active=_player(position.active, opponent=False),
        opponent=_player(position.opponent, opponent=True),
        shop_row=list(position.shop_row),
        unexplained=_pool_unexplained(position),
    )


@dataclass
class TurnBoard:
    """One player's turn from a checked position (built by ``check``): ``rule`` rules on a move
    and leaves the board as it is; ``push`` also applies a legal move, so moves are ruled one
    after another on the state the ones before them left."""

    active: _Player
    opponent: _Player
    shop_row: list[CardSpec | None]  # None: an unknown refill
    winner: str | None = None
    turn_over: bool = False
    # SRA-R8: the combat pool only cards of unknown value could explain (the reason, and the
    # missing values): every ruling on the position then needs that information.
    unexplained: tuple[str, list[dict[str, Any]]] | None = None
    applied: int = 0  # the legal moves pushed so far: the index in the turn of the next one
    # SRA-R10: each space of the shop row whose refill was not named, with the card whose buy
    # emptied it and that buy's index in the turn.
    emptied: dict[int, tuple[str, int]] = field(default_factory=dict)

    @property
    def warnings(self) -> list[str]:
        """Empty: the check accepts a position whole or refuses it; each ruling warns of the
        provisional values it uses."""
        return []

    def clone(self) -> TurnBoard:
        return replace(
            self,
            active=self.active.clone(),
            opponent=self.opponent.clone(),
            shop_row=list(self.shop_row),
            emptied=dict(self.emptied),
        )

    def rule(self, move: Move) -> Ruling:
        return self._ruled(move)[0]

    def push(self, move: Move) -> Ruling:
        ruling, after = self._ruled(move)
        if after is not None:
            self.__dict__.update(after.__dict__)
            self.applied += 1
        return ruling

    def score(self, moves: Sequence[Move] = ()) -> Breakdown:
        """The turn's breakdown from this position; the board stays as it is."""
        return break_down(self.clone(), moves)

    def _ruled(self, move: Move, *, alternatives: bool = True) -> tuple[Ruling, TurnBoard | None]:
        """The ruling on a move, and the state after it when it is legal."""
        if move.action not in ACTIONS:
            raise ValueError(f"Unknown action {move.action!r}; the service validates it first.")
        if self.unexplained is not None:
            detail, missing = self.unexplained
            return Ruling(
                verdict=NEEDS_INFORMATION,
                code=NEEDS_INFORMATION_CODE,
                reason=f"{detail} Tableside does not guess: an admin can enter "
                f"{'it' if len(missing) == 1 else 'them'} from the physical card, and the "
                f"ruling can then be made.",
                rule=POOL_RULE,
                checks=[Check(rule=POOL_RULE, passed=False, detail=detail)],
                missing=missing,
            ), None
        after = self.clone()
        ruler = _Ruler()
        try:
            code, rule, reason, extra = _HANDLERS[move.action](after, move, ruler)
        except _Illegal as illegal:
            return Ruling(
                verdict=ILLEGAL,
                code=illegal.code,
                reason=illegal.reason,
                rule=illegal.rule,
                checks=ruler.checks,
                alternatives=[m.as_dict() for m in self.legal_moves()] if alternatives else [],
                warnings=ruler.warnings,
            ), None
        except _Missing as missing:
            return Ruling(
                verdict=NEEDS_INFORMATION,
                code=missing.code,
                reason=missing.reason,
                rule=missing.rule,
                checks=ruler.checks,
                missing=missing.items,
                warnings=ruler.warnings,
            ), None
        outcome = after.summary()
        outcome.update(extra)
        return Ruling(
            verdict=LEGAL,
            code=code,
            reason=reason,
            rule=rule,
            checks=ruler.checks,
            outcome=outcome,
            warnings=ruler.warnings,
        ), after

    def legal_moves(self) -> list[Move]:
        """The legal moves of this state (one per distinct card or target), in action order."""
        player, opponent = self.active, self.opponent
        cards = (
            (PLAY, player.hand),
            (USE_BASE, [b.card for b in player.bases]),
            (USE_ALLY, [card for card, _ in player.in_play()]),
            (BUY, [c for c in self.shop_row if c is not None]),
        )
        candidates = [
            Move(action, card=card)
            for action, listed in cards
            for card in _first_by_name(listed, lambda c: c.name)
        ]
        if player.combat > 0 and opponent.bases:
            for base in _first_by_name(opponent.bases, lambda b: b.card.name):
                amount = player.combat
                if base.card.defense is not None:  # no more than the base can take
                    amount = min(amount, base.card.defense - base.damage)
                candidates.append(Move(ATTACK, target=base.card, amount=amount))
        elif player.combat > 0:
            candidates.append(Move(ATTACK, target_health=True, amount=player.combat))
        candidates.append(Move(END_TURN))
        return [
            move for move in candidates if self._ruled(move, alternatives=False)[0].verdict == LEGAL
        ]

    def position(self) -> dict[str, Any]:
        """The state in the position shape of API.md (plus deck, discard_pile and drawn)."""
        active, opponent = self.active, self.opponent
        body_active: dict[str, Any] = {
            "name": active.name,
            "health": active.health,
            "coins": active.coins,
            "hand": [card.name for card in active.hand],
            "in_play": [ship.card.name for ship in active.ships],
            "bases": [
                {
                    "card": b.card.name,
                    "damage": b.damage,
                    "used": [a for a in ABILITIES if a in b.used],
                }
                for b in active.bases
            ],
            "combat": active.combat,
            "used": [ship.card.name for ship in active.ships if ship.ally_used],
            "drawn": _count_or_range(active.drawn_min, active.drawn),
        }
        if active.deck is not None:
            body_active["deck"] = active.deck
        if active.discard_pile is not None:
            body_active["discard_pile"] = active.discard_pile
        body_opponent: dict[str, Any] = {
            "name": opponent.name,
            "health": opponent.health,
            "coins": opponent.coins,
            "bases": [{"card": b.card.name, "damage": b.damage} for b in opponent.bases],
        }
        if opponent.discard_pile is not None:
            body_opponent["discard_pile"] = opponent.discard_pile
        return {
            "active": body_active,
            "opponent": body_opponent,
            "shop_row": [card.name for card in self.shop_row if card is not None],
        }

    def summary(self) -> dict[str, Any]:
        """The running numbers a person follows, and the position."""
        return {
            "coins": self.active.coins,
            "combat": self.active.combat,
            "health": self.active.health,
            "opponent_health": self.opponent.health,
            "draws": _count_or_range(self.active.draws_min, self.active.draws),
            "bases": self.base_damage(),
            "shop_row_unknown": sum(1 for card in self.shop_row if card is None),
            "winner": self.winner,
            "turn_over": self.turn_over,
            "position": self.position(),
        }

    def numbers(self) -> dict[str, Any]:
        """The running numbers a turn's breakdown shows after each action."""
        return {
            "coins": self.active.coins,
            "combat": self.active.combat,
            "draws": _count_or_range(self.active.draws_min, self.active.draws),
            "health": self.active.health,
            "opponent_health": self.opponent.health,
            "bases": self.base_damage(),
        }

    def base_damage(self) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = []
        for owner, player in (("active", self.active), ("opponent", self.opponent)):
            for base in player.bases:
                rows.append(
                    {
                        "owner": owner,
                        "player": player.name,
                        "card": base.card.name,
                        "damage": base.damage,
                        "defense": base.card.defense,
                    }
                )
        return rows


def _player(side: Side, *, opponent: bool) -> _Player:
    ships = [_Ship(card) for card in side.in_play]
    bases = [_Base(b.card, b.damage, set(b.used)) for b in side.bases]
    for card, ability in side.used:
        ship = next((s for s in ships if s.card.name == card.name and not s.ally_used), None)
        if ship is not None and ability == ALLY:
            ship.ally_used = True
            continue
        if ability == PRIMARY and any(s.card.name == card.name for s in ships):
            continue  # a ship's primary is used as it is played: nothing to record
        base = next((b for b in bases if b.card.name == card.name and ability not in b.used), None)
        if base is not None:
            base.used.add(ability)
    drawn = 0 if opponent else side.drawn
    return _Player(
        name=side.name,
        health=side.health,
        coins=side.coins,
        hand=[] if opponent else list(side.hand),
        ships=ships,
        bases=bases,
        combat=0 if opponent else side.combat,
        deck=side.deck,
        discard_pile=side.discard_pile,
        drawn=drawn,
        drawn_min=drawn,
        supply_min=_supply_min(side, drawn),
    )


def _supply_min(side: Side, drawn: int) -> int:
    """The fewest cards the player's deck and discard pile hold together (SRA-R9): the counts
    given, and the starting cards the position does not show elsewhere. A player's own 5 Scouts
    and 1 Viper are never bought nor lost (SRA-3.3), so each one not named in the hand or in play
    (nor possibly one of the unnamed drawn cards) is in the deck or the discard pile."""
    named = sum(1 for card in [*side.hand, *side.in_play] if not card.for_sale)
    unseen = max(0, STARTING_DECK - named - drawn)
    return max((side.deck or 0) + (side.discard_pile or 0), unseen)


# --- The position -------------------------------------------------------------------------------


def _contradictions(position: Position) -> list[dict[str, Any]]:
    """Every contradiction of the position, as API error entries."""
    errors: list[dict[str, Any]] = []

    def error(where: str, code: str, detail: str) -> None:
        errors.append({"path": where, "code": code, "detail": detail})

    sides = (("active", position.active), ("opponent", position.opponent))
    for key, side in sides:
        if side.health > HEALTH_CAP:
            error(
                f"{key}.health",
                "health_above_cap",
                f"{side.name} has {side.health} Health; Health never goes above {HEALTH_CAP} "
                f"(SRA-R2).",
            )
        elif side.health == 0:
            error(
                f"{key}.health",
                "game_over",
                f"{side.name} has 0 Health: the game ended when it reached zero (SRA-12), so no "
                f"turn follows.",
            )
        if side.coins > COIN_CAP:
            error(
                f"{key}.coins",
                "coins_above_cap",
                f"{side.name} has {side.coins} Coins; a player never has more than {COIN_CAP} "
                f"(SRA-R1).",
            )

    # Copies: every card the position shows, against the game's copies.
    places: dict[str, list[tuple[str, str]]] = {}
    cards: dict[str, CardSpec] = {}
    active, opponent = position.active, position.opponent

    def seen(card: CardSpec, where: str, label: str) -> None:
        places.setdefault(card.name, []).append((where, label))
        cards[card.name] = card

    for i, card in enumerate(active.hand):
        seen(card, f"active.hand[{i}]", f"{active.name}'s hand")
    for i, card in enumerate(active.in_play):
        seen(card, f"active.in_play[{i}]", f"{active.name}'s ships in play")
    for i, base in enumerate(active.bases):
        seen(base.card, f"active.bases[{i}].card", f"{active.name}'s bases")
    for i, base in enumerate(opponent.bases):
        seen(base.card, f"opponent.bases[{i}].card", f"{opponent.name}'s bases")
    for i, card in enumerate(position.shop_row):
        seen(card, f"shop_row[{i}]", "the shop row")
    for name, where in places.items():
        card = cards[name]
        if len(where) > card.copies:
            error(
                where[card.copies][0],
                "too_many_copies",
                f"The position holds {len(where)} copies of {name} ({_where(where)}); the game "
                f"has {card.copies} (SRA-2).",
            )
            continue
        if not card.for_sale:
            per_player = card.copies // PLAYERS
            for owner, label in ((active, "active."), (opponent, "opponent.")):
                own = [w for w in where if w[0].startswith(label)]
                if len(own) > per_player:
                    error(
                        own[per_player][0],
                        "too_many_copies",
                        f"{owner.name} has {len(own)} copies of {name}; each player's starting "
                        f"deck holds {per_player} of the {card.copies} and they are never "
                        f"bought (SRA-3.3).",
                    )

    if len(position.shop_row) > SHOP_ROW_SIZE:
        error(
            "shop_row",
            "shop_row_size",
            f"The shop row holds {len(position.shop_row)} cards; it has {SHOP_ROW_SIZE} spaces "
            f"(SRA-4.4).",
        )
    for i, card in enumerate(position.shop_row):
        if not card.for_sale:
            error(
                f"shop_row[{i}]",
                "not_a_shop_card",
                f"{card.name} is a starting card, never sold: it cannot be in the shop row "
                f"(SRA-4.3).",
            )

    for key, side in sides:
        for i, base in enumerate(side.bases):
            card = base.card
            if card.kind == SHIP:
                error(
                    f"{key}.bases[{i}].card",
                    "not_a_base",
                    f"{card.name} is a Ship{_provisional_note(card, 'kind')}, not a Base: it "
                    f"cannot be among {side.name}'s bases (SRA-6).",
                )
            elif card.defense is not None and base.damage >= card.defense:
                error(
                    f"{key}.bases[{i}].damage",
                    "base_destroyed",
                    f"{card.name} has {base.damage} damage and a defense of {card.defense}: it "
                    f"would have been destroyed once its tokens reached {card.defense} (SRA-7).",
                )
        for i, card in enumerate(side.in_play):
            if card.kind == BASE:
                error(
                    f"{key}.in_play[{i}]",
                    "not_a_ship",
                    f"{card.name} is a Base{_provisional_note(card, 'kind')}: list it among "
                    f"the bases, not the ships in play (SRA-7).",
                )

    # Abilities used: each names a card in play, no more often than it is there.
    ships = Counter(card.name for card in active.in_play)
    bases = [(b.card.name, set(b.used)) for b in active.bases]
    for i, (card, ability) in enumerate(active.used):
        if ability == ALLY and card.ally == {}:
            error(
                f"active.used[{i}]",
                "no_such_ability",
                f"{card.name} has no Ally ability, so it cannot have used one (SRA-9).",
            )
            continue
        if ships.get(card.name, 0) > 0 and (ability == ALLY or ability == PRIMARY):
            if ability == ALLY:
                ships[card.name] -= 1
            continue
        slot = next((b for b in bases if b[0] == card.name and ability not in b[1]), None)
        if slot is not None:
            slot[1].add(ability)
            continue
        error(
            f"active.used[{i}]",
            "used_not_in_play",
            f"The position says {card.name}'s {ability} ability was used, but "
            + (
                f"{active.name} has no more copies of {card.name} in play to have used it"
                if any(c.name == card.name for c in active.in_play)
                or any(b.card.name == card.name for b in active.bases)
                else f"{card.name} is not in play"
            )
            + " (SRA-R4).",
        )
    for i, base in enumerate(active.bases):
        if ALLY in base.used and base.card.ally == {}:
            error(
                f"active.bases[{i}].used",
                "no_such_ability",
                f"{base.card.name} has no Ally ability, so it cannot have used one (SRA-9).",
            )
    if not errors:
        known, sources, unknown = _pool_sources(active)
        if active.combat > known and not unknown:
            given = (
                f"the abilities used this turn give at most {known} ({_list(sources)})"
                if sources
                else "nothing is in play and no base ability was used this turn"
            )
            error(
                "active.combat",
                "combat_without_source",
                f"{active.name} has {active.combat} Combat in the pool, but {given}: a Combat "
                f"pool comes only from abilities used this turn, and the ships that gave it "
                f"stay in play until the end of the turn ({POOL_RULE}).",
            )
    return errors


def _pool_sources(side: Side) -> tuple[int, list[str], list[tuple[CardSpec, str]]]:
    """What the abilities used this turn give to the combat pool (SRA-R8): the most Combat their
    known values give, each source with its value, and the (card, field) of each used ability
    whose value is unknown. A ship's primary was used as it was played; an Ally ability and a
    base's primary only if the position says so."""
    player = _player(side, opponent=False)
    used: list[tuple[CardSpec, str]] = [(ship.card, PRIMARY) for ship in player.ships]
    used += [(ship.card, ALLY) for ship in player.ships if ship.ally_used]
    used += [
        (base.card, ability)
        for base in player.bases
        for ability in ABILITIES
        if ability in base.used
    ]
    known, sources, unknown = 0, [], []
    for card, key in used:
        abilities = card.primary if key == PRIMARY else card.ally
        if abilities is None:
            if (card, key) not in unknown:
                unknown.append((card, key))
            continue
        combat = abilities.get("combat") or 0
        known += combat
        sources.append(
            f"{card.name}'s {FIELD_LABELS[key]}: " + (f"{combat} Combat" if combat else "no Combat")
        )
    return known, sources, unknown


def _pool_unexplained(position: Position) -> tuple[str, list[dict[str, Any]]] | None:
    """(why, the missing values) when only abilities of unknown value could explain the combat
    pool (SRA-R8); None when the known values explain it (the check refuses a pool nothing can
    explain)."""
    active = position.active
    known, sources, unknown = _pool_sources(active)
    if active.combat <= known or not unknown:
        return None
    missing: list[dict[str, Any]] = []
    for card, key in unknown:
        if all(m["card"] != card.name or m["field"] != key for m in missing):
            missing.append(_missing_item(card, key))
    names = _list([f"{m['card']}'s {FIELD_LABELS[m['field']]}" for m in missing])
    one = len(missing) == 1
    given = (
        f"the abilities of known value give {known} ({_list(sources)})"
        if sources
        else "no ability of known value gives any"
    )
    detail = (
        f"{active.name} has {active.combat} Combat in the pool; {given}, and whether "
        f"{names} explain{'s' if one else ''} the rest is not known: {names} "
        f"{'is' if one else 'are'} not transcribed yet, and a Combat pool comes only from "
        f"abilities used this turn ({POOL_RULE})."
    )
    return detail, missing


def _where(places: list[tuple[str, str]]) -> str:
    counts = Counter(label for _path, label in places)
    return ", ".join(f"{n} in {label}" for label, n in counts.items())


def _provisional_note(card: CardSpec, key: str) -> str:
    if card.is_provisional(key):
        return " (provisional: inferred, not transcribed; an admin can correct it)"
    return ""


# --- Ruling on moves ----------------------------------------------------------------------------

# What a handler returns for a legal move: (code, rule, reason, what it adds to the outcome).
_Outcome = tuple[str, str, str, dict[str, Any]]
_T = TypeVar("_T")


class _Illegal(Exception):
    def __init__(self, code: str, rule: str, reason: str):
        super().__init__(reason)
        self.code, self.rule, self.reason = code, rule, reason


class _Missing(Exception):
    def __init__(
        self,
        reason: str,
        items: list[dict[str, Any]],
        *,
        code: str = NEEDS_INFORMATION_CODE,
        rule: str = "SRA-F2",
    ):
        super().__init__(reason)
        self.reason, self.items, self.code, self.rule = reason, items, code, rule


class _Ruler:
    """Collects the checks and warnings of one ruling."""

    def __init__(self) -> None:
        self.checks: list[Check] = []
        self._warnings: list[str] = []
        self._provisional: list[str] = []  # "Survey Ship's kind (Ship)", in the order used

    @property
    def warnings(self) -> list[str]:
        """The ruling's warnings, the provisional values it uses said once, last."""
        return self._warnings + (
            [provisional_warning(self._provisional)] if self._provisional else []
        )

    def passed(self, rule: str, detail: str) -> None:
        self.checks.append(Check(rule=rule, passed=True, detail=detail))

    def fail(self, code: str, rule: str, detail: str) -> NoReturn:
        self.checks.append(Check(rule=rule, passed=False, detail=detail))
        raise _Illegal(code, rule, detail)

    def warn(self, text: str) -> None:
        if text not in self._warnings:
            self._warnings.append(text)

    def use(self, card: CardSpec, key: str) -> None:
        """Note that the ruling uses a card's value; a provisional one is said once."""
        item = f"{card.name}'s {FIELD_LABELS[key]} ({_value_text(card, key)})"
        if card.is_provisional(key) and item not in self._provisional:
            self._provisional.append(item)

    def need(self, what: str, wanted: list[tuple[CardSpec, str]], *, use: bool = True) -> None:
        """Stop with needs_information if any of the values is unknown; else note their use
        (unless the caller notes it itself, once it knows what the ruling rests on)."""
        missing: list[dict[str, Any]] = []
        for card, key in wanted:
            if getattr(card, key) is None:
                if all(m["card"] != card.name or m["field"] != key for m in missing):
                    missing.append(_missing_item(card, key))
            elif use:
                self.use(card, key)
        if missing:
            names = _list([f"{m['card']}'s {FIELD_LABELS[m['field']]}" for m in missing])
            one = len(missing) == 1
            detail = (
                f"{names} {'is' if one else 'are'} not known yet (printed on the card, "
                f"not transcribed): {what} cannot be ruled on without "
                f"{'it' if one else 'them'}."
            )
            self.checks.append(Check(rule="SRA-F2", passed=False, detail=detail))
            raise _Missing(
                f"{detail[0].upper()}{detail[1:]} Tableside does not guess: an admin "
                f"can enter {'it' if one else 'them'} from the physical card, and the "
                f"ruling can then be made.",
                missing,
            )


def _missing_item(card: CardSpec, key: str) -> dict[str, Any]:
    detail = f"{card.name}'s {FIELD_LABELS[key]} is not known yet."
    if card.admin_url:
        detail += f" An admin can enter it at {card.admin_url}."
    return {
        "card": card.name,
        "field": key,
        "label": FIELD_LABELS[key],
        "detail": detail,
        "admin_url": card.admin_url,
        "card_url": card.card_url,
    }


def _start(turn: TurnBoard, ruler: _Ruler) -> None:
    if turn.winner is not None:
        ruler.fail(
            "game_over",
            "SRA-12",
            f"The game is over: {turn.winner} brought {turn.opponent.name}'s Health to 0 "
            f"and won (SRA-12); no action follows.",
        )
    if turn.turn_over:
        ruler.fail(
            "turn_over",
            "SRA-11.3",
            f"{turn.active.name}'s turn is over: it is {turn.opponent.name}'s turn now (SRA-11.3).",
        )


def _named(card: CardSpec | None, move: Move) -> CardSpec:
    """The card a move names; the service refuses a move without it before the engine runs."""
    if card is None:
        raise ValueError(f"A {move.action} move names a card; the service validates it first.")
    return card


def _known(value: _T | None) -> _T:
    """A card value the ruler's ``need`` has checked: it stops the ruling on an unknown one."""
    if value is None:
        raise AssertionError("_Ruler.need lets no unknown value through")
    return value


def _play(turn: TurnBoard, move: Move, ruler: _Ruler) -> _Outcome:
    _start(turn, ruler)
    player, card = turn.active, _named(move.card, move)
    index = next((i for i, c in enumerate(player.hand) if c.name == card.name), None)
    if index is not None:
        ruler.passed(
            "SRA-5.1",
            f"{card.name} is in {player.name}'s hand; playing a card costs nothing (SRA-5.1).",
        )
        player.hand.pop(index)
    elif player.drawn > 0 and card.name in player.in_deck:
        # A card named this turn went back into the deck with a reshuffle: the drawn card may be
        # that very card, so no copy is added.
        _surely_drawn(player, card, ruler)
        ruler.passed(
            "SRA-5.1",
            f"{card.name} is not among the named cards of {player.name}'s "
            f"hand: it is taken as one of the {_drawn_text(player)} drawn "
            f"this turn and not named (the {card.name} shuffled back into "
            f"the deck: not a further copy, SRA-2, SRA-11.4).",
        )
        player.in_deck.remove(card.name)
        player.drawn -= 1
        player.drawn_min -= 1
    elif player.drawn > 0:
        if card.for_sale:
            total, limit, rule = _count_in(turn, card.name), card.copies, "SRA-2"
            where = "elsewhere in the position"
        else:  # a starting card: only the player's own deck holds it (SRA-3.3)
            total, limit, rule = _count_own(player, card.name), card.copies // PLAYERS, "SRA-3.3"
            where = f"among {player.name}'s cards (each starting deck holds {limit})"
        if total + 1 > limit:
            ruler.fail(
                "too_many_copies",
                rule,
                f"{card.name} is not among the named cards of {player.name}'s hand, and "
                f"it cannot be one of the {_drawn_text(player)} drawn: all {limit} "
                f"copies are already {where} "
                f"({_copies_where(turn, card.name, None if card.for_sale else player)}) "
                f"({rule}).",
            )
        _surely_drawn(player, card, ruler)
        ruler.passed(
            "SRA-5.1",
            f"{card.name} is not among the named cards of {player.name}'s "
            f"hand: it is taken as one of the {_drawn_text(player)} drawn "
            f"this turn and not named.",
        )
        player.drawn -= 1
        player.drawn_min -= 1
    else:
        hand = _list([c.name for c in player.hand]) if player.hand else "no named cards"
        ruler.fail(
            "not_in_hand",
            "SRA-5.1",
            f"{card.name} is not in {player.name}'s hand (it holds {hand}): only cards "
            f"in the hand can be played (SRA-5.1).",
        )
    wanted = [(card, "kind")]
    if card.kind is None or card.kind == SHIP:
        wanted.append((card, "primary"))
    ruler.need(f"playing {card.name}", wanted)
    if card.kind == BASE:
        player.bases.append(_Base(card))
        ruler.passed(
            "SRA-7",
            f"{card.name} is a Base: it enters play and stays until destroyed; "
            f"its primary may be used once this turn (SRA-7).",
        )
        return (
            "base_played",
            "SRA-7",
            f"Legal: {player.name} plays {card.name}, a Base: it stays in play until "
            f"destroyed, and its primary can be used once this turn.",
            {"gained": {}},
        )
    player.ships.append(_Ship(card))
    ruler.passed(
        "SRA-6",
        f"{card.name} is a Ship: its primary ({_abilities(card.primary)}) happens at once (SRA-6).",
    )
    gained, notes = _gain(turn, _known(card.primary), ruler)
    return (
        "ship_played",
        "SRA-6",
        f"Legal: {player.name} plays {card.name} and gets {_got(_known(card.primary), gained)}"
        f"{notes}.",
        {"gained": gained},
    )


def _drawn_text(player: _Player) -> str:
    """The unnamed cards drawn: "2 cards", or "1 to 3 cards" when the counts decide (SRA-R9)."""
    if player.drawn_min == player.drawn:
        return _cards(player.drawn)
    return _up_to(player.drawn_min, player.drawn)


def _surely_drawn(player: _Player, card: CardSpec, ruler: _Ruler) -> None:
    """Stop with needs_information when the card played as drawn may not have been drawn: the
    draws this turn took as many cards as the counts decide, and they may have taken none
    (SRA-R9)."""
    if player.drawn_min > 0:
        return
    detail = (
        f"{card.name} is not among the named cards of {player.name}'s hand, so it can only "
        f"be one of the cards drawn this turn; but the draws took {_drawn_text(player)}, "
        f"as many as the deck and discard pile counts decide, which the position does not "
        f"give: whether {player.name} holds a drawn card depends on them ({DRAW_RULE})."
    )
    ruler.checks.append(Check(rule=DRAW_RULE, passed=False, detail=detail))
    raise _Missing(
        f"{detail} Give the counts (deck and discard_pile) at the start of the turn, "
        f"and the move can be ruled on.",
        _counts_missing(player),
        code=COUNTS_CODE,
        rule=DRAW_RULE,
    )


def _counts_missing(player: _Player) -> list[dict[str, Any]]:
    """The counts that fix a draw, as ``missing`` entries (paths relative to the position)."""
    return [
        {
            "path": "active.deck",
            "field": "deck",
            "label": "deck count",
            "detail": f"How many cards are in {player.name}'s deck at the start of the turn?",
        },
        {
            "path": "active.discard_pile",
            "field": "discard_pile",
            "label": "discard pile count",
            "detail": f"How many cards are in {player.name}'s discard pile at the start of the "
            f"turn?",
        },
    ]


def _use_base(turn: TurnBoard, move: Move, ruler: _Ruler) -> _Outcome:
    _start(turn, ruler)
    player, card = turn.active, _named(move.card, move)
    copies = [b for b in player.bases if b.card.name == card.name]
    if not copies:
        if any(c.name == card.name for c in player.hand):
            why = f"{card.name} is in {player.name}'s hand: play it first"
        elif any(s.card.name == card.name for s in player.ships):
            why = f"{card.name} is a ship in play, not a base: its primary happened when played"
        elif any(b.card.name == card.name for b in turn.opponent.bases):
            why = f"{card.name} is {turn.opponent.name}'s base, not {player.name}'s"
        else:
            why = f"{player.name} has no {card.name} in play"
        bases = _list([b.card.name for b in player.bases]) if player.bases else "none"
        ruler.fail(
            "not_your_base",
            "SRA-7",
            f"{why}; only a base of one's own in play can use its primary (SRA-7). "
            f"{player.name}'s bases: {bases}.",
        )
    ruler.passed("SRA-7", f"{card.name} is one of {player.name}'s bases in play.")
    base = next((b for b in copies if PRIMARY not in b.used), None)
    if base is None:
        ruler.fail(
            "already_used",
            "SRA-R4",
            f"{card.name}'s primary was already used this turn"
            + (f" (by each of the {len(copies)} copies)" if len(copies) > 1 else "")
            + ": a base's primary is used once per turn (SRA-R4).",
        )
    ruler.passed("SRA-R4", f"{card.name}'s primary has not been used this turn.")
    ruler.need(f"using {card.name}'s primary", [(card, "primary")])
    base.used.add(PRIMARY)
    gained, notes = _gain(turn, _known(card.primary), ruler)
    return (
        "base_used",
        "SRA-R4",
        f"Legal: {player.name} uses {card.name}'s primary once this turn and gets "
        f"{_got(_known(card.primary), gained)}{notes}.",
        {"gained": gained},
    )


def _use_ally(turn: TurnBoard, move: Move, ruler: _Ruler) -> _Outcome:
    _start(turn, ruler)
    player, card = turn.active, _named(move.card, move)
    copies = [item for c, item in player.in_play() if c.name == card.name]
    if not copies:
        where = (
            " (it is in the hand: play it first)"
            if any(c.name == card.name for c in player.hand)
            else ""
        )
        ruler.fail(
            "not_in_play",
            "SRA-9",
            f"{card.name} is not in play{where}: only a card in play can use its Ally "
            f"ability (SRA-9).",
        )
    ruler.passed("SRA-9", f"{card.name} is in play.")
    if card.ally == {}:
        ruler.use(card, "ally")
        ruler.fail("no_ally_ability", "SRA-9", f"{card.name} has no Ally ability (SRA-9).")
    unused = [item for item in copies if not _ally_used(item)]
    if not unused:
        ruler.fail(
            "already_used",
            "SRA-R4",
            f"{card.name}'s Ally ability was already used this turn"
            + (f" (by each of the {len(copies)} copies)" if len(copies) > 1 else "")
            + ": each card's Ally ability is used once per turn (SRA-9, SRA-R4).",
        )
    ruler.passed("SRA-R4", f"{card.name}'s Ally ability has not been used this turn.")
    item = unused[0]
    others = [c for c, other in player.in_play() if other is not item]
    # A partner the rulebook puts in the card's faction first (whatever the faction's name),
    # then one whose faction and the card's are both transcribed, then one that only the
    # inferred (provisional) factions match.
    stated = [c for c in others if card.stated_same_faction(c)]
    if not stated:
        ruler.need(f"whether {card.name}'s Ally ability is ready", [(card, "faction")], use=False)
    if not stated and card.faction == UNALIGNED:
        ruler.use(card, "faction")
        ruler.fail(
            "ally_not_ready",
            "SRA-9",
            f"{card.name} is unaligned: it has no faction, so no card can make its Ally "
            f"ability ready (SRA-9).",
        )
    matching = [c for c in others if c.faction is not None and c.faction == card.faction]
    certain = [
        c
        for c in matching
        if not c.is_provisional("faction") and not card.is_provisional("faction")
    ]
    if stated:
        partner = stated[0]
        source = card.stated_same_faction(partner)
        ruler.passed(
            source,
            f"{partner.name} is also in play, and the rulebook puts it in "
            f"{card.name}'s faction ({source}), so {card.name}'s Ally ability "
            f"is ready (SRA-9).",
        )
    elif matching:
        partner = (certain or matching)[0]
        ruler.use(card, "faction")
        ruler.use(partner, "faction")
        ruler.passed(
            "SRA-9",
            f"{partner.name} ({card.faction_name}) is also in play, so "
            f"{card.name}'s Ally ability is ready (SRA-9).",
        )
    else:
        unknown = [c for c in others if c.faction is None]
        if unknown:
            ruler.need(
                f"whether {card.name}'s Ally ability is ready", [(c, "faction") for c in unknown]
            )
        # The verdict rests on the factions compared: warn for the inferred ones.
        ruler.use(card, "faction")
        for other in others:
            ruler.use(other, "faction")
        in_play = _list([c.name for c in others]) if others else "nothing else"
        ruler.fail(
            "ally_not_ready",
            "SRA-9",
            f"No other {card.faction_name} card is in play (also in play: {in_play}), so "
            f"{card.name}'s Ally ability is not ready (SRA-9).",
        )
    ruler.need(f"using {card.name}'s Ally ability", [(card, "ally")])
    if isinstance(item, _Ship):
        item.ally_used = True
    else:
        item.used.add(ALLY)
    gained, notes = _gain(turn, _known(card.ally), ruler)
    return (
        "ally_used",
        "SRA-9",
        f"Legal: {card.name}'s Ally ability is ready ({_ally_because(card, partner)}); "
        f"{player.name} uses it once this turn and gets "
        f"{_got(_known(card.ally), gained)}{notes}.",
        {"gained": gained},
    )


def _ally_because(card: CardSpec, partner: CardSpec) -> str:
    source = card.stated_same_faction(partner)
    if source:
        return f"{partner.name} is in play too, of the same faction by the rulebook, {source}"
    return f"{partner.name} is also {card.faction_name}"


def _ally_used(item: _Ship | _Base) -> bool:
    return item.ally_used if isinstance(item, _Ship) else ALLY in item.used


def _buy(turn: TurnBoard, move: Move, ruler: _Ruler) -> _Outcome:
    _start(turn, ruler)
    player, card = turn.active, _named(move.card, move)
    index = next(
        (i for i, c in enumerate(turn.shop_row) if c is not None and c.name == card.name), None
    )
    if index is None:
        row = [c.name for c in turn.shop_row if c is not None]
        unknown = len(turn.shop_row) - len(row) + max(0, SHOP_ROW_SIZE - len(turn.shop_row))
        if turn.emptied and card.for_sale:
            _maybe_in_unknown_space(turn, card, row, ruler)
        note = (
            f" The row's other {_cards(unknown)} {'is' if unknown == 1 else 'are'} not named:"
            f' name a refill when buying ("refill").'
            if unknown
            else ""
        )
        ruler.fail(
            "not_in_shop_row",
            "SRA-10",
            f"{card.name} is not in the shop row ({_list(row) if row else 'no named cards'}"
            f"): cards are bought from the shop row (SRA-10).{note}",
        )
    ruler.passed("SRA-10", f"{card.name} is in the shop row.")
    ruler.need(f"buying {card.name}", [(card, "cost")])
    cost = _known(card.cost)
    if player.coins < cost:
        ruler.fail(
            "not_enough_coins",
            "SRA-10",
            f"{card.name} costs {_coins(cost)}; {player.name} has {_coins(player.coins)} (SRA-10).",
        )
    ruler.passed(
        "SRA-10",
        f"{card.name} costs {_coins(cost)}; {player.name} has "
        f"{_coins(player.coins)}, {_coins(player.coins - cost)} after.",
    )
    refill_note = ""
    if move.refill is not None:
        refill = move.refill
        if not refill.for_sale:
            ruler.fail(
                "not_a_shop_card",
                "SRA-R5",
                f"{refill.name} is a starting card, never sold: it cannot refill the shop "
                f"row (SRA-R5).",
            )
        # The bought card stays one of the game's copies (in the discard pile), so the refill
        # is a copy beyond every one the state already shows.
        if _count_in(turn, refill.name) + 1 > refill.copies:
            ruler.fail(
                "too_many_copies",
                "SRA-2",
                f"{refill.name} cannot refill the shop row: all {refill.copies} copies are "
                f"already accounted for ({_copies_where(turn, refill.name)}"
                + (
                    f"; the {card.name} bought now goes to the discard pile and is still "
                    f"one of them"
                    if refill.name == card.name
                    else ""
                )
                + ") (SRA-2).",
            )
    player.coins -= cost
    turn.shop_row.pop(index)
    turn.shop_row.insert(index, move.refill)
    if move.refill is None:
        turn.emptied[index] = (card.name, turn.applied)
    else:
        turn.emptied.pop(index, None)
    player.discarded.append(card.name)
    player.to_discard_pile(1)
    if move.refill is not None:
        refill_note = f"; {move.refill.name} refills the shop row"
    else:
        refill_note = "; the shop row refills from the shop deck (the new card is not named)"
    ruler.passed(
        "SRA-R5",
        f"{card.name} goes to {player.name}'s discard pile, not into play{refill_note} (SRA-R5).",
    )
    return (
        "card_bought",
        "SRA-10",
        f"Legal: {player.name} pays {_coins(cost)} for {card.name} "
        f"({_coins(player.coins)} left); it goes to the discard pile{refill_note}.",
        {"spent": {"coins": cost}, "to_discard_pile": [card.name]},
    )


def _maybe_in_unknown_space(turn: TurnBoard, card: CardSpec, row: list[str], ruler: _Ruler) -> None:
    """A card in no known space of the shop row, while a space's refill was not named: the
    unknown space may hold it (SRA-R10). Illegal still when it cannot: the buy costs more than
    the Coins, or every copy of the card is elsewhere (SRA-2); else needs_information, naming the
    buys whose refill would tell."""
    spaces = sorted(turn.emptied.items())
    bought = _list([f"{name} (action {n + 1})" for _space, (name, n) in spaces])
    ruler.need(f"buying {card.name}", [(card, "cost")])
    cost, coins = _known(card.cost), turn.active.coins
    if coins < cost:
        ruler.fail(
            "not_enough_coins",
            "SRA-10",
            f"{card.name} costs {_coins(cost)}; {turn.active.name} has {_coins(coins)}, "
            f"whatever refilled the shop row (SRA-10).",
        )
    if _count_in(turn, card.name) >= card.copies:
        ruler.fail(
            "not_in_shop_row",
            "SRA-10",
            f"{card.name} is not in the shop row's named cards "
            f"({_list(row) if row else 'none'}), and the space{'s' if len(spaces) > 1 else ''}"
            f" refilled unnamed after buying {bought} cannot hold one: all {card.copies} "
            f"copies are accounted for ({_copies_where(turn, card.name)}) (SRA-2, SRA-10).",
        )
    one = len(spaces) == 1
    detail = (
        f"{card.name} is not in the shop row's named cards ({_list(row) if row else 'none'}"
        f"), but {'the space' if one else 'the spaces'} emptied by buying {bought} "
        f"{'was' if one else 'were'} refilled from the shop deck with a card not named: "
        f"{'it' if one else 'one of them'} may hold {card.name} ({REFILL_RULE})."
    )
    ruler.checks.append(Check(rule=REFILL_RULE, passed=False, detail=detail))
    raise _Missing(
        f'{detail} Name the refill of that buy ("refill"), and the buy can be ruled on.',
        [
            {
                "path": f"actions[{n}].refill",
                "field": "refill",
                "label": "refill",
                "detail": f"Which card refilled the shop row after {name} was "
                f"bought (action {n + 1})?",
            }
            for _space, (name, n) in spaces
        ],
        code=REFILL_CODE,
        rule=REFILL_RULE,
    )


def _attack(turn: TurnBoard, move: Move, ruler: _Ruler) -> _Outcome:
    _start(turn, ruler)
    player, opponent = turn.active, turn.opponent
    pool = player.combat
    if pool <= 0:
        ruler.fail(
            "no_combat",
            "SRA-8.4",
            f"{player.name} has no Combat in the pool: Combat comes from abilities (SRA-8.4).",
        )
    if move.amount is not None and move.amount > pool:
        ruler.fail(
            "not_enough_combat",
            "SRA-R3",
            f"The attack uses {move.amount} Combat; the pool holds {pool} (SRA-R3).",
        )
    ruler.passed(
        "SRA-R3",
        f"The combat pool holds {pool}"
        + (f"; the attack uses {move.amount}." if move.amount else "."),
    )
    if move.target_health:
        if opponent.bases:
            bases = _list([b.card.name for b in opponent.bases])
            ruler.fail(
                "base_shields_health",
                "SRA-7",
                f"{opponent.name} has {bases} in play: Health can be attacked only when "
                f"no Base stands (SRA-7).",
            )
        ruler.passed("SRA-7", f"{opponent.name} has no base in play, so Health can be attacked.")
        amount = move.amount if move.amount is not None else pool
        before = opponent.health
        lost = min(amount, before)
        opponent.health -= lost
        player.combat -= amount
        ruler.passed(
            "SRA-R3",
            f"{opponent.name} loses {lost} Health: {before} → "
            f"{opponent.health}; the pool holds {player.combat} Combat.",
        )
        extra: dict[str, Any] = {"spent": {"combat": amount}, "health_lost": lost}
        if opponent.health == 0:
            turn.winner = player.name
            ruler.passed("SRA-12", f"{opponent.name}'s Health is 0: {player.name} wins (SRA-12).")
            return (
                "opponent_defeated",
                "SRA-12",
                f"Legal: {amount} Combat to {opponent.name}'s Health brings it from {before} "
                f"to 0: {player.name} wins the game.",
                extra,
            )
        return (
            "attack_made",
            "SRA-R3",
            f"Legal: {player.name} puts {amount} Combat on {opponent.name}'s Health, "
            f"{before} → {opponent.health}; {player.combat} Combat left in the pool.",
            extra,
        )

    card = _named(move.target, move)
    base = next((b for b in opponent.bases if b.card.name == card.name), None)
    if base is None:
        if any(b.card.name == card.name for b in player.bases):
            why = f"{card.name} is {player.name}'s own base"
        else:
            bases = _list([b.card.name for b in opponent.bases]) if opponent.bases else "none"
            why = f"{opponent.name} has no {card.name} in play (their bases: {bases})"
        ruler.fail(
            "no_such_base",
            "SRA-7",
            f"{why}: an attack targets the opponent's bases or, with none, their Health (SRA-7).",
        )
    ruler.passed("SRA-7", f"{card.name} is {opponent.name}'s base, with {base.damage} damage.")
    ruler.need(f"attacking {card.name}", [(card, "defense")])
    defense = _known(card.defense)
    remaining = defense - base.damage
    amount = move.amount if move.amount is not None else min(pool, remaining)
    used = min(amount, remaining)
    base.damage += used
    player.combat -= used
    extra = {"spent": {"combat": used}, "destroyed": []}
    if amount > remaining:
        ruler.warn(
            f"{card.name} needed only {used} Combat to fall; the other {amount - used} "
            f"stays in the pool ({BEYOND_DEFENSE_RULE})."
        )
        ruler.passed(
            BEYOND_DEFENSE_RULE,
            f"{amount} Combat is named for {card.name}, which needs {used} more to "
            f"fall: tokens are placed one per point, so {used} go on it and the other "
            f"{amount - used} stay{'s' if amount - used == 1 else ''} in the pool for "
            f"other bases, or Health once no base is left, until the end of the turn "
            f"({BEYOND_DEFENSE_RULE}).",
        )
    if base.damage >= defense:
        opponent.bases.remove(base)
        opponent.discarded.append(card.name)
        if opponent.discard_pile is not None:
            opponent.discard_pile += 1
        extra["destroyed"] = [card.name]
        extra["to_opponent_discard_pile"] = [card.name]
        ruler.passed(
            "SRA-7",
            f"{card.name} has {_tokens(base.damage)}, equal to its "
            f"defense {defense}: it is destroyed and goes to "
            f"{opponent.name}'s discard pile (SRA-7).",
        )
        after = (
            f"{opponent.name}'s Health can now be attacked"
            if not opponent.bases
            else f"{opponent.name} still has {_list([b.card.name for b in opponent.bases])}"
        )
        return (
            "attack_made",
            "SRA-7",
            f"Legal: {used} Combat on {card.name} (defense {defense}) destroys it; "
            f"{player.combat} Combat left in the pool, and {after}.",
            extra,
        )
    ruler.passed(
        "SRA-7",
        f"{card.name} has {_tokens(base.damage)} of its defense "
        f"{defense}: it stands (tokens stay on it until it falls).",
    )
    return (
        "attack_made",
        "SRA-7",
        f"Legal: {used} Combat on {card.name}: {base.damage} of its defense {defense}, "
        f"so it stands; {player.combat} Combat left in the pool.",
        extra,
    )


def _end_turn(turn: TurnBoard, move: Move, ruler: _Ruler) -> _Outcome:
    _start(turn, ruler)
    player = turn.active
    ships = [s.card.name for s in player.ships]
    player.ships = []
    player.discarded.extend(ships)
    player.to_discard_pile(len(ships))
    ruler.passed(
        "SRA-11.1",
        (
            f"{_list(ships)} go{'es' if len(ships) == 1 else ''} to the discard pile"
            if ships
            else "No ships in play to discard"
        )
        + (
            f"; {_list([b.card.name for b in player.bases])} "
            f"stay{'s' if len(player.bases) == 1 else ''} in play"
            if player.bases
            else ""
        )
        + " (SRA-11.1).",
    )
    lost = player.combat
    player.combat = 0
    if lost:
        ruler.warn(f"{lost} Combat left in the pool is lost at the end of the turn (SRA-R3).")
    ruler.passed(
        "SRA-R3",
        f"The combat pool empties ({lost} Combat lost)." if lost else "The combat pool is empty.",
    )
    least, most, draw_note = _draw(player, END_TURN_DRAW, ruler, rule="SRA-11.2")
    for base in player.bases:
        base.used.clear()
    if player.hand:
        ruler.passed(
            "SRA-11",
            f"{_list([c.name for c in player.hand])} "
            f"stay{'s' if len(player.hand) == 1 else ''} in the hand: the "
            f"rulebook discards only the ships in play (SRA-11.1).",
        )
    turn.turn_over = True
    ruler.passed("SRA-11.3", f"The turn passes to {turn.opponent.name} (SRA-11.3).")
    return (
        "turn_ended",
        "SRA-11",
        f"Legal: {player.name} ends the turn: "
        + (f"{_list(ships)} to the discard pile, " if ships else "")
        + (f"{lost} Combat lost, " if lost else "")
        + f"{draw_note}; {turn.opponent.name} plays next.",
        {"to_discard_pile": ships, "combat_lost": lost, "drawn": _count_or_range(least, most)},
    )


_HANDLERS: dict[str, Callable[[TurnBoard, Move, _Ruler], _Outcome]] = {
    PLAY: _play,
    USE_BASE: _use_base,
    USE_ALLY: _use_ally,
    BUY: _buy,
    ATTACK: _attack,
    END_TURN: _end_turn,
}


def _gain(
    turn: TurnBoard, abilities: Mapping[str, int], ruler: _Ruler
) -> tuple[dict[str, Any], str]:
    """Apply an ability's effects; returns (what was gained, a note for the reason)."""
    player = turn.active
    gained: dict[str, Any] = {}
    notes: list[str] = []
    for effect in EFFECTS:
        amount = abilities.get(effect) or 0
        if amount <= 0:
            continue
        if effect == "coin":
            before = player.coins
            player.coins = min(COIN_CAP, before + amount)
            lost = before + amount - player.coins
            gained["coin"] = player.coins - before
            if lost:
                gained["coins_lost"] = lost
                ruler.warn(
                    f"{lost} Coin{'' if lost == 1 else 's'} beyond the cap of {COIN_CAP} "
                    f"{'is' if lost == 1 else 'are'} lost: {player.name} had "
                    f"{_coins(before)} and gains {amount} (SRA-R1)."
                )
                notes.append(f"{lost} Coin{'' if lost == 1 else 's'} lost to the cap of {COIN_CAP}")
            ruler.passed(
                "SRA-R1",
                f"Coins {before} + {amount} = {before + amount}"
                + (
                    f", capped at {COIN_CAP}: {lost} lost."
                    if lost
                    else f" (the cap is {COIN_CAP})."
                ),
            )
        elif effect == "combat":
            player.combat += amount
            gained["combat"] = amount
            ruler.passed(
                "SRA-R3", f"Combat pool {player.combat - amount} + {amount} = {player.combat}."
            )
        elif effect == "health":
            before = player.health
            player.health = min(HEALTH_CAP, before + amount)
            lost = before + amount - player.health
            gained["health"] = player.health - before
            if lost:
                gained["health_not_gained"] = lost
                ruler.warn(
                    f"{lost} Health beyond the cap of {HEALTH_CAP} is not gained: "
                    f"{player.name} had {before} and gains {amount} (SRA-R2)."
                )
                notes.append(f"{lost} Health lost to the cap of {HEALTH_CAP}")
            ruler.passed(
                "SRA-R2",
                f"Health {before} + {amount} = {before + amount}"
                + (f", capped at {HEALTH_CAP}." if lost else f" (the cap is {HEALTH_CAP})."),
            )
        else:
            least, drawn, _note = _draw(player, amount, ruler, rule="SRA-8.1")
            gained["draw"] = _count_or_range(least, drawn)
            if drawn < amount:
                notes.append(
                    f"its {amount} Draw draws "
                    + ("no card" if drawn == 0 else f"only {_cards(drawn)}")
                    + ": none is left to draw, SRA-11.4"
                )
            elif least < drawn:
                wanted = _note.removeprefix(f"{player.name} draws {_up_to(least, drawn)} (")
                notes.append(
                    f"its {amount} Draw draws {_up_to(least, drawn)}: "
                    f"{wanted.removesuffix(')')}, {DRAW_RULE}"
                )
    return gained, (" (" + "; ".join(notes) + ")") if notes else ""


def _got(abilities: Mapping[str, int], gained: Mapping[str, Any]) -> str:
    """What an ability gave, for a reason: its effects as printed, except a Draw that drew fewer
    cards than it says, or as many as the counts decide (SRA-R9), which the note of _gain tells
    instead ("2 Coins", not "2 Coins and 1 Draw" when no card could be drawn)."""
    amount = abilities.get("draw") or 0
    drew = gained.get("draw", amount)
    if amount and (not isinstance(drew, int) or drew < amount):
        rest = {effect: value for effect, value in abilities.items() if effect != "draw"}
        return abilities_text(rest) if any(rest.values()) else "nothing"
    return abilities_text(abilities)


def _draw(player: _Player, count: int, ruler: _Ruler, *, rule: str) -> tuple[int, int, str]:
    """Draw cards, shuffling the discard pile into a new deck when the deck runs out (SRA-11.4).
    Returns (the fewest cards drawn, the most, a note): the same number when the counts, or the
    cards the position names, fix it; else the range they leave (SRA-R9)."""
    if player.deck is None or (player.deck < count and player.discard_pile is None):
        return _draw_uncounted(player, count, ruler, rule=rule)
    from_deck = min(count, player.deck)
    player.deck -= from_deck
    drawn = from_deck
    parts = [f"{_cards(from_deck)} from the deck"]
    if drawn < count:
        player.in_deck += player.discarded  # the named cards go into the new deck
        player.discarded = []
        if player.discard_pile == 0:
            parts.append(
                "and the discard pile is empty, so there is nothing to shuffle into a "
                "new deck (SRA-11.4)"
            )
            ruler.warn(
                f"{player.name} can draw only {_cards(drawn)} of {count}: "
                + (f"the deck held only {_cards(from_deck)}" if from_deck else "the deck is empty")
                + " and the discard pile is empty, so there was nothing to shuffle "
                "(SRA-11.4)."
            )
        else:
            pile = _known(player.discard_pile)
            player.deck, player.discard_pile = pile, 0
            rest = min(count - drawn, player.deck)
            player.deck -= rest
            drawn += rest
            parts.append(
                f"then the discard pile ({_cards(pile)}) is shuffled into a new deck and "
                f"{_cards(rest)} more drawn (SRA-11.4)"
            )
            if drawn < count:
                ruler.warn(
                    f"{player.name} can draw only {_cards(drawn)} of {count}: "
                    + (f"the deck held {_cards(from_deck)} and " if from_deck else "")
                    + f"the discard pile shuffled into a new deck held {_cards(pile)}, "
                    f"all drawn (SRA-11.4)."
                )
    _drew(player, drawn, drawn)
    note = f"{player.name} draws {_cards(drawn)}"
    ruler.passed(rule, f"{note}: " + ", ".join(parts) + ".")
    return drawn, drawn, note


def _draw_uncounted(
    player: _Player, count: int, ruler: _Ruler, *, rule: str
) -> tuple[int, int, str]:
    """A draw the counts do not fix by themselves: the deck's size is unknown, or the deck runs
    out into a discard pile of unknown size. The cards the position names may still fix it
    (``supply_min``); else the draw takes as many as the counts decide (SRA-R9)."""
    from_deck = player.deck
    least = min(count, player.supply_min)
    # A deck of unknown size may run out and take the discard pile with it: a card named into
    # the discard pile this turn may be among those drawn, and the discard pile's count (if it
    # was given) is no longer known.
    player.in_deck += player.discarded
    player.discarded = []
    player.deck = None
    player.discard_pile = None
    _drew(player, least, count)
    if least == count:
        if from_deck is None:
            note = f"{player.name} draws {_cards(count)}"
            ruler.passed(
                rule,
                f"{note} (when the deck runs out, the discard pile is shuffled "
                f"into a new deck: SRA-11.4).",
            )
        else:
            note = f"{player.name} draws {_cards(count)}"
            ruler.passed(
                rule,
                f"{note}: {_cards(from_deck)} from the deck, then the discard "
                f"pile is shuffled into a new deck and "
                f"{_cards(count - from_deck)} more drawn (SRA-11.4).",
            )
        return count, count, note
    note = (
        f"{player.name} draws {_up_to(least, count)} (give {_counts_wanted(from_deck)} "
        f"to know how many)"
    )
    deck = (
        f"{_cards(from_deck)} from the deck, then the discard pile is shuffled into a new "
        f"deck for the rest"
        if from_deck is not None
        else "from the deck, and when it runs out from the discard pile shuffled into a new deck"
    )
    ruler.passed(rule, f"{player.name} draws {_up_to(least, count)}: {deck} (SRA-11.4).")
    certain = (
        f"put only {_cards(least)} for certain in {player.name}'s deck and discard pile"
        if least
        else f"may all be out of {player.name}'s deck and discard pile"
    )
    ruler.passed(
        DRAW_RULE,
        f"The position {_not_counted(from_deck)}, and the cards it names "
        f"{certain} (a player who kept every card may have both empty): the "
        f"move stays legal and draws {_up_to(least, count)}, as many as the "
        f"counts decide ({DRAW_RULE}).",
    )
    ruler.warn(
        f"How many cards {player.name} draws ({_up_to(least, count)}) depends on "
        f"{_counts_wanted(from_deck)}, which the position does not give ({DRAW_RULE})."
    )
    return least, count, note


def _drew(player: _Player, least: int, most: int) -> None:
    player.draws += most
    player.drawn += most
    player.draws_min += least
    player.drawn_min += least
    player.supply_min = max(0, player.supply_min - most)


def _up_to(least: int, most: int) -> str:
    """A number of cards drawn that the counts decide: "up to 3 cards", "1 to 3 cards"."""
    return f"up to {_cards(most)}" if least == 0 else f"{least} to {most} cards"


def _counts_wanted(deck: int | None) -> str:
    return "the discard pile's count" if deck is not None else "the deck and discard pile counts"


def _not_counted(deck: int | None) -> str:
    return (
        "gives the deck's count but not the discard pile's"
        if deck is not None
        else "counts neither the deck nor the discard pile"
    )


def _count_or_range(least: int, most: int) -> int | dict[str, int]:
    """A count of cards drawn: the number the position fixes, or the range it leaves (SRA-R9)."""
    return most if least == most else {"at_least": least, "at_most": most}


def _places(player: _Player) -> list[tuple[str, list[str]]]:
    """Where a player's named cards are: (a label, the names there)."""
    return [
        (f"in {player.name}'s hand", [c.name for c in player.hand]),
        (
            f"in play for {player.name}",
            [s.card.name for s in player.ships] + [b.card.name for b in player.bases],
        ),
        (f"put in {player.name}'s discard pile this turn", player.discarded),
        (f"named this turn and shuffled into {player.name}'s deck", player.in_deck),
    ]


def _count_where(
    turn: TurnBoard | None, name: str, only: _Player | None = None
) -> list[tuple[str, int]]:
    """How many copies of a card the state shows, place by place: every card named in the
    position or since (bought, destroyed, discarded, shuffled back), so a card that left the
    shop row or play is still one of the game's copies (SRA-2). With ``only``, that player's own
    cards (the turn is then not needed)."""
    if only is not None:
        places = _places(only)
    elif turn is not None:
        places = [place for player in (turn.active, turn.opponent) for place in _places(player)]
        places.append(("in the shop row", [c.name for c in turn.shop_row if c is not None]))
    else:
        raise ValueError("_count_where counts a turn's cards, or one player's (only)")
    counts = [(label, names.count(name)) for label, names in places]
    return [(label, n) for label, n in counts if n]


def _count_in(turn: TurnBoard, name: str) -> int:
    """How many copies of a card the state accounts for (SRA-2)."""
    return sum(n for _label, n in _count_where(turn, name))


def _count_own(player: _Player, name: str) -> int:
    """How many copies of a starting card a player's own cards account for (SRA-3.3)."""
    return sum(n for _label, n in _count_where(None, name, only=player))


def _copies_where(turn: TurnBoard, name: str, only: _Player | None = None) -> str:
    return ", ".join(f"{n} {label}" for label, n in _count_where(turn, name, only))


def _first_by_name(items: list[_T], name: Callable[[_T], str]) -> list[_T]:
    """The first item of each name, in order."""
    firsts: dict[str, _T] = {}
    for item in items:
        firsts.setdefault(name(item), item)
    return list(firsts.values())


# --- Wording ------------------------------------------------------------------------------------


def abilities_text(abilities: Mapping[str, int] | None) -> str:
    """{"coin": 2, "draw": 1} as "2 Coins and 1 Draw"; {} as "nothing"."""
    if abilities is None:
        return "unknown"
    parts = []
    for effect in EFFECTS:
        amount = abilities.get(effect)
        if not amount:
            continue
        if effect == "coin":
            parts.append(_coins(amount))
        elif effect == "draw":
            parts.append(f"{amount} Draw")
        else:
            parts.append(f"{amount} {effect.capitalize()}")
    return _list(parts) if parts else "nothing"


_abilities = abilities_text


def _value_text(card: CardSpec, key: str) -> str:
    value = getattr(card, key)
    if key in (PRIMARY, ALLY):
        return abilities_text(value) if value else "none"
    if key == "faction":
        return card.faction_name
    if key == "kind":
        return str(value).capitalize()
    return str(value)


_coins = partial(_count, noun="Coin")
_tokens = partial(_count, noun="Combat token")
_cards = partial(_count, noun="card")
