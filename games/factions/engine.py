"""Factions: is this move legal, and what does it lead to? (plain Python, no Django import)

The table (API.md): the factions in play, each with its controller and its units alive or
defeated; the players in seat order (clockwise), each with a hand of action cards (every card
belongs to the faction that contributed it, FAC-F1) and the turns they still lose; whose turn it
is; and, optionally, an ATTACK or AMBUSH awaiting the defender's answer (``pending``).

What a card does comes from the catalog: the service passes a ``Catalog`` of plain specs built from
the card rows (each action card's ``action`` kind and its copies per faction, each faction's label
and units). The engine keys behaviour on the action kind, never on a card or faction name; a card
whose action the catalog does not give (or gives as a kind this engine has no rule for) is never
guessed: a ruling that needs it answers ``needs_information``.

``check(position)`` checks the position (which carries the catalog) once: its board (games.protocol.Board) gives
the legal moves, the ruling on a move and the standings (games.factions.scorer).

How the position is read:

* The position is the table at the moment of the move: the player whose turn it is has drawn
  already (FAC-4, FAC-R8).
* The mover is the player whose turn it is, except for the answer to a pending attack: ``defend``
  (DEFENCE from hand, FAC-R4) or ``pass`` (no DEFENCE: the attack goes through) are moves of the
  controller of the attacked unit's faction. While an attack awaits its answer nothing else may
  happen (FAC-6).
* ``players[].lost_turns`` counts the turns a player will still lose (they stack, FAC-R3), not
  counting a turn being lost right now; ``turn_lost`` (optional, default false) says the current
  turn is a lost one: its player neither draws, plays nor discards (FAC-11, FAC-R3), and ``pass``
  or ``end_turn`` lets it go by, whatever the hand holds (FAC-5 limits only a normal turn). When
  a turn ends, the next player with lost turns to serve starts a lost turn (one fewer to lose).
* An ATTACK whose defender holds no DEFENCE cannot be blocked: it resolves at once. Otherwise it
  waits for the defender's answer (the outcome says what happens either way).
* A unit of a faction in play that the position does not list has an unknown state; a ruling that
  depends on it answers ``needs_information`` (or warns, when only part of the outcome depends
  on it). Nothing is guessed.
* An eliminated player's hand is discarded at once, face up and without the enemy-card
  consequences (FAC-R9), so a player out of the game holds no cards: a position that gives them
  some is impossible (``hand_for_absent_player``, citing FAC-R9).
* The position does not record what the player already did this turn, so the number of plays and
  discards in a turn is not limited beyond the hand limit (FAC-5, FAC-R8).
* SPY or SACK on an opponent with an empty hand is legal and shows or takes nothing (a warning
  says so).

Codes of a legal move (``Ruling.code``):

=======================  ==========  ==============================================================
code                     rule        the move …
=======================  ==========  ==============================================================
``legal_attack``         FAC-6       plays ATTACK on a surviving enemy unit
``legal_ambush``         FAC-12      plays AMBUSH on a surviving enemy unit (no DEFENCE possible)
``legal_doctor``         FAC-8       plays DOCTOR on a defeated unit of a faction the player controls
``legal_spy``            FAC-9       plays SPY on an opponent still in the game
``legal_sack``           FAC-10      plays SACK on an opponent still in the game
``legal_sabotage``       FAC-11      plays SABOTAGE on an opponent still in the game
``legal_defence``        FAC-R4      answers a pending ATTACK with DEFENCE from the defender's hand
``legal_let_through``    FAC-6       answers a pending ATTACK (FAC-12: AMBUSH) without DEFENCE
``legal_discard``        FAC-15      discards a card (FAC-F2 when an enemy SPY, SACK or SABOTAGE
                                     brings its consequence)
``legal_pass``           FAC-4       passes with five cards or fewer
``legal_end_turn``       FAC-5       ends the turn with five cards or fewer
``legal_lost_turn``      FAC-R3      lets a lost turn go by (pass or end_turn)
=======================  ==========  ==============================================================

A legal move's ``outcome``: ``events`` (what happens, in order, in sentences citing their rules),
``cards_moved`` ([{``card`` (null when chance picks it), ``from``, ``to``, ``random``}], each end
``{"player": name}`` or ``{"place": "discard_pile" | "table"}``), ``units`` (defeated or
restored), ``conquests`` ([{``faction``, ``from``, ``to``, ``defeated_units``,
``no_longer_enemy``}]), ``eliminated``, ``winner``, ``turns_lost`` ([{``player``, ``before``,
``after``}]), ``revealed`` (hands shown by SPY), ``pending`` (an ATTACK now awaiting the answer,
with its ``defender``) and ``if_let_through`` (what follows if it is not blocked), ``hand_sizes``,
``may_end_turn`` (null when the move ends the turn or awaits an answer) and ``next_turn``
({``player``, ``lost``, ``draws``} when the turn ends).

Codes of an illegal move (the checks stop at the first that fails):

================================  ========  =====================================================
code                              rule      the move …
================================  ========  =====================================================
``awaiting_answer``               FAC-6     is not an answer, while an attack awaits one
``no_pending_attack``             FAC-7     defends when no attack awaits an answer
``defence_against_ambush``        FAC-R4    defends against an AMBUSH
``not_a_defence``                 FAC-R4    answers an ATTACK with a card that is not DEFENCE
``defence_not_in_defender_hand``  FAC-R4    defends with a card the attacked player does not hold
``turn_lost``                     FAC-R3    plays or discards in a lost turn
``card_not_in_hand``              FAC-4     plays or discards a card the player does not hold
``defence_is_reactive``           FAC-7     plays DEFENCE as a play of its own
``unit_not_in_play``              FAC-R5    targets a unit of a faction not in play (FAC-R6 for
                                            DOCTOR)
``own_faction``                   FAC-R5    attacks or ambushes a unit of a faction the player
                                            controls
``unit_defeated``                 FAC-R5    attacks or ambushes a unit already defeated
``no_defeated_unit``              FAC-R6    plays DOCTOR with no defeated unit in a faction the
                                            player controls
``not_your_faction``              FAC-R6    plays DOCTOR on a faction the player does not control
``unit_alive``                    FAC-R6    plays DOCTOR on a unit that survives
``target_self``                   FAC-9     plays SPY, SACK or SABOTAGE on the player themself
                                            (FAC-10, FAC-11)
``target_eliminated``             FAC-R9    plays SPY, SACK or SABOTAGE on a player out of the game
``pass_over_limit``               FAC-4     passes with more than five cards
``hand_over_limit``               FAC-5     ends a normal turn with more than five cards
================================  ========  =====================================================

Codes of ``needs_information`` (``missing`` names the facts): ``target_required`` (the card
needs ``move.target_unit`` or ``move.target_player``), ``unit_state_unknown`` (the target unit is
not listed in the position), ``player_state_unknown`` (whether the target player is still in the
game depends on unlisted units), ``action_unknown`` (the catalog does not say what the card does),
``hand_not_given`` (the card is not among those listed of a hand not given whole:
``hand_complete`` false) and ``hand_size_unknown`` (passing or ending the turn with a hand not
given whole, whose listed cards are within the limit).

A hand not given whole (``hand_complete`` false: another phone's, at a table) is never ruled from
ignorance: an ATTACK on its player waits for that player's answer, SPY shows it to the spy alone,
SACK takes a card only its two players see, and its size is not stated.

A position that cannot exist raises ``ImpossiblePosition`` with one entry per contradiction:

=============================  ====================================================================
code                           the position …
=============================  ====================================================================
``too_few_players``            has fewer players than the game needs (FAC-3)
``duplicate_faction``          lists a faction twice (with the same controller)
``faction_two_controllers``    lists a faction twice with two controllers
``duplicate_unit``             lists a unit twice in one faction
``unit_in_two_factions``       lists a unit in two factions
``wrong_faction``              lists a unit in a faction the catalog does not give it (FAC-2)
``faction_count``              has a number of factions other than the number of players: each
                               player chose one (FAC-3)
``faction_chosen_twice``       gives two players the same own faction (``players[].faction``)
``faction_not_in_play``        holds a card of, or names as own, a faction that is not in play
                               (the deck holds cards of the factions in play only, FAC-F1)
``too_many_copies``            holds more copies of an action card of one faction than that
                               faction contributes (FAC-F1: its per-faction count, so in all the
                               count × the factions in play)
``hand_for_absent_player``     gives cards to a player out of the game
``turn_of_absent_player``      gives the turn to a player out of the game
``no_player_left``             has no player with a surviving unit
``game_over``                  has one player left: the game is over (FAC-18); ask for standings
``pending_not_an_attack``      has a pending card that is not an ATTACK or AMBUSH
``pending_not_by_turn_player`` has a pending attack by a player whose turn it is not
``pending_in_lost_turn``       has a pending attack in a lost turn
``pending_own_faction``        has a pending attack on a faction its attacker controls
``pending_target_defeated``    has a pending attack on a unit already defeated
=============================  ====================================================================
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from games.factions.model import (
    ActionSpec,
    CardRef,
    Catalog,
    Faction,
    FactionSpec,
    Move,
    Pending,
    Player,
    Position,
    PositionReader,
    Unit,
    UnitRef,
)
from games.factions.scorer import Standings, standings
from games.protocol import (
    ILLEGAL,
    LEGAL,
    NEEDS_INFORMATION,
    Check,
    ImpossiblePosition,
    NotScored,
    Ruling,
)
from games.wording import count as _count
from games.wording import listing
from games.wording import sentence as _sentence

_list = partial(listing, empty="none")

# Action kinds: the values of the catalog's "action" attribute this engine has rules for.
ATTACK = "attack"
DEFENCE = "defence"
DOCTOR = "doctor"
SPY = "spy"
SACK = "sack"
SABOTAGE = "sabotage"
AMBUSH = "ambush"
KNOWN_ACTIONS = (ATTACK, DEFENCE, DOCTOR, SPY, SACK, SABOTAGE, AMBUSH)
ATTACKS = (ATTACK, AMBUSH)
ON_PLAYER = (SPY, SACK, SABOTAGE)
DISCARD_CONSEQUENCES = (SPY, SACK, SABOTAGE)  # FAC-F2: the enemy cards whose discard matters

HAND_LIMIT = 5  # FAC-4, FAC-5

PLAY = "play"
DEFEND = "defend"
DISCARD = "discard"
PASS = "pass"
END_TURN = "end_turn"
ACTIONS = (PLAY, DEFEND, DISCARD, PASS, END_TURN)
CARD_ACTIONS = (PLAY, DEFEND, DISCARD)  # the moves that name a card

PLAY_RULES = {
    ATTACK: "FAC-6",
    AMBUSH: "FAC-12",
    DOCTOR: "FAC-8",
    SPY: "FAC-9",
    SACK: "FAC-10",
    SABOTAGE: "FAC-11",
    DEFENCE: "FAC-7",
}

LEGAL_CODES = (
    "legal_attack",
    "legal_ambush",
    "legal_doctor",
    "legal_spy",
    "legal_sack",
    "legal_sabotage",
    "legal_defence",
    "legal_let_through",
    "legal_discard",
    "legal_pass",
    "legal_end_turn",
    "legal_lost_turn",
)
ILLEGAL_CODES = (
    "awaiting_answer",
    "no_pending_attack",
    "defence_against_ambush",
    "not_a_defence",
    "defence_not_in_defender_hand",
    "turn_lost",
    "card_not_in_hand",
    "defence_is_reactive",
    "unit_not_in_play",
    "own_faction",
    "unit_defeated",
    "no_defeated_unit",
    "not_your_faction",
    "unit_alive",
    "target_self",
    "target_eliminated",
    "pass_over_limit",
    "hand_over_limit",
)
NEEDS_INFORMATION_CODES = (
    "target_required",
    "unit_state_unknown",
    "player_state_unknown",
    "action_unknown",
    "hand_not_given",
    "hand_size_unknown",
)
IMPOSSIBLE_CODES = (
    "too_few_players",
    "duplicate_faction",
    "faction_two_controllers",
    "duplicate_unit",
    "unit_in_two_factions",
    "wrong_faction",
    "faction_count",
    "faction_chosen_twice",
    "faction_not_in_play",
    "too_many_copies",
    "hand_for_absent_player",
    "turn_of_absent_player",
    "no_player_left",
    "game_over",
    "pending_not_an_attack",
    "pending_not_by_turn_player",
    "pending_in_lost_turn",
    "pending_own_faction",
    "pending_target_defeated",
)


# --- The catalog and the position as plain data (their types: games.factions.model) ----------


def build_catalog(
    *,
    faction_choices: Iterable[tuple[str, str]],
    cards: Iterable[tuple[str, int, Mapping[str, Any] | None]],
    min_players: int = 2,
) -> Catalog:
    """The engine's catalog from plain data: the "faction" attribute's choices as (value, label)
    pairs, and the cards as (name, copies, attributes) triples. Action cards are those of kind
    "action"; units those of kind "unit", in the faction their "faction" attribute names (a unit
    naming a faction that is not a choice still forms that faction, labelled by its value)."""
    labels = {value: label for value, label in faction_choices}
    actions: dict[str, ActionSpec] = {}
    units: dict[str, list[str]] = {value: [] for value in labels}
    unplaced: set[str] = set()
    for name, copies, attributes in cards:
        attributes = attributes or {}
        kind = attributes.get("kind")
        if kind == "action":
            actions[name] = ActionSpec(
                name=name, action=attributes.get("action") or None, copies=copies
            )
        elif kind == "unit":
            faction = attributes.get("faction")
            if faction:
                units.setdefault(faction, []).append(name)
            else:
                unplaced.add(name)
    factions = {
        slug: FactionSpec(slug=slug, label=labels.get(slug, slug), units=tuple(names))
        for slug, names in units.items()
    }
    return Catalog(
        actions=actions,
        factions=factions,
        unplaced_units=frozenset(unplaced),
        min_players=min_players,
    )


def position_body(position: Position) -> dict[str, Any]:
    """The position in the request shape of API.md."""
    body: dict[str, Any] = {
        "factions": [
            {
                "name": f.slug,
                "controller": f.controller,
                "units": [{"name": u.name, "alive": u.alive} for u in f.units],
            }
            for f in position.factions
        ],
        "players": [
            {
                "name": p.name,
                "hand": [card.as_dict() for card in p.hand],
                "lost_turns": p.lost_turns,
                **({"faction": p.faction} if p.faction else {}),
                **({} if p.hand_complete else {"hand_complete": False}),
            }
            for p in position.players
        ],
    }
    if position.turn is not None:
        body["turn"] = position.turn
    if position.turn_lost:
        body["turn_lost"] = True
    if position.pending is not None:
        body["pending"] = {
            "card": position.pending.card.as_dict(),
            "by": position.pending.by,
            "target_unit": position.pending.target.as_dict(),
        }
    return body


# --- The position ------------------------------------------------------------------------------------


def check(position: Position) -> FactionsBoard:
    """The checked position as a board, whose warnings say what the position leaves unknown;
    raises ImpossiblePosition naming every contradiction (paths are the position's own, e.g.
    ``factions[0].units[1]``: the one flow, games.services, places them in the body). The
    position carries the catalog's facts (``position.catalog``) and ``position.to_move``: a
    player is to move (the rulings: a turn, a game not over, a pending attack that can be);
    without one (the standings) the game may be over."""
    catalog, to_move = position.catalog, position.to_move
    if catalog is None:
        raise ValueError("The position carries no catalog: build it with its catalog's facts.")
    if to_move and position.turn not in {player.name for player in position.players}:
        raise ValueError(
            f"The turn names {position.turn!r}, who is not one of the players; the "
            f"service validates it first."
        )
    errors: list[dict[str, Any]] = []

    def error(path: str, code: str, detail: str) -> None:
        # The details name places as the ruling's body does ("position.factions[0]…").
        place = "" if path == "position" else path.removeprefix("position.")
        errors.append({"path": place, "code": code, "detail": detail})

    label = catalog.label
    board = FactionsBoard(catalog, position, to_move=to_move)
    warnings = board.warnings
    if len(position.players) < catalog.min_players:
        error(
            "position.players",
            "too_few_players",
            f"The position has {_count(len(position.players), 'player')}; the game needs at "
            f"least {catalog.min_players} (FAC-3).",
        )

    # Factions: each once, with one controller.
    first: dict[str, int] = {}
    for index, faction in enumerate(position.factions):
        if faction.slug in first:
            other = position.factions[first[faction.slug]]
            if other.controller != faction.controller:
                error(
                    f"position.factions[{index}]",
                    "faction_two_controllers",
                    f"{label(faction.slug)} has two controllers: {other.controller} "
                    f"(position.factions[{first[faction.slug]}]) and {faction.controller} "
                    f"(position.factions[{index}]); a faction has one controller (FAC-13).",
                )
            else:
                error(
                    f"position.factions[{index}]",
                    "duplicate_faction",
                    f"{label(faction.slug)} is listed twice (position.factions"
                    f"[{first[faction.slug]}] and position.factions[{index}]).",
                )
        else:
            first[faction.slug] = index
    in_play = set(first)

    # Units: each in one faction, the one the catalog gives it.
    seen_units: dict[str, tuple[str, str]] = {}
    for f_index, faction in enumerate(position.factions):
        for u_index, unit in enumerate(faction.units):
            path = f"position.factions[{f_index}].units[{u_index}]"
            home = catalog.unit_faction(unit.name)
            if unit.name in seen_units:
                where, other_path = seen_units[unit.name]
                if where == faction.slug:
                    error(
                        path,
                        "duplicate_unit",
                        f"{unit.name} is listed twice in {label(faction.slug)} ({other_path} "
                        f"and {path}).",
                    )
                else:
                    error(
                        path,
                        "unit_in_two_factions",
                        f"{unit.name} is listed in {label(where)} ({other_path}) and in "
                        f"{label(faction.slug)} ({path}); a unit belongs to one faction.",
                    )
                continue
            seen_units[unit.name] = (faction.slug, path)
            if home is not None and home != faction.slug:
                error(
                    path,
                    "wrong_faction",
                    f"{unit.name} is a unit of {label(home)}, not of {label(faction.slug)}: "
                    f"each faction has its own units (FAC-2).",
                )
            elif home is None and unit.name in catalog.unplaced_units:
                warnings.append(
                    f"The catalog does not give {unit.name}'s faction; it is taken "
                    f"as listed, in {label(faction.slug)}."
                )

    distinct = len(in_play)
    if position.players and distinct != len(position.players):
        error(
            "position.factions",
            "faction_count",
            f"The position has {_count(distinct, 'faction')} in play for "
            f"{_count(len(position.players), 'player')}; each player chooses one faction "
            f"(FAC-3), so there are as many factions as players (list the players who are "
            f"out of the game too).",
        )

    owners: dict[str, int] = {}
    for index, player in enumerate(position.players):
        if player.faction is None:
            continue
        if player.faction not in in_play:
            error(
                f"position.players[{index}].faction",
                "faction_not_in_play",
                f"{player.name}'s own faction, {label(player.faction)}, is not in play.",
            )
        elif player.faction in owners:
            chooser = position.players[owners[player.faction]].name
            error(
                f"position.players[{index}].faction",
                "faction_chosen_twice",
                f"{chooser} and {player.name} both chose {label(player.faction)}; each player "
                f"chooses a faction of their own (FAC-3).",
            )
        else:
            owners[player.faction] = index

    # Cards: of factions in play, never more copies than the deck holds.
    counts: Counter[CardRef] = Counter()
    where_first: dict[CardRef, str] = {}
    cards: list[tuple[str, CardRef]] = []
    for p_index, player in enumerate(position.players):
        for c_index, ref in enumerate(player.hand):
            cards.append((f"position.players[{p_index}].hand[{c_index}]", ref))
    if position.pending is not None:
        cards.append(("position.pending.card", position.pending.card))
    reported: set[CardRef] = set()
    for path, ref in cards:
        if ref.faction not in in_play:
            error(
                path,
                "faction_not_in_play",
                f"{ref.card} of {label(ref.faction)}: {label(ref.faction)} is not in play, so "
                f"the deck holds none of its cards (FAC-F1).",
            )
            continue
        counts[ref] += 1
        where_first.setdefault(ref, path)
        spec = catalog.actions.get(ref.card)
        if spec is not None and counts[ref] > spec.copies and ref not in reported:
            reported.add(ref)
            total = sum(1 for _p, r in cards if r == ref)
            error(
                path,
                "too_many_copies",
                f"The position holds {total} {ref.card} cards of {label(ref.faction)}, but each "
                f"faction contributes {spec.copies} (FAC-F1: {spec.copies} × "
                f"{_count(distinct, 'faction')} in play = {spec.copies * distinct} in the deck).",
            )

    for faction in position.factions:
        missing = board.unlisted(faction)
        if missing:
            warnings.append(
                f"The position does not list {_list(missing)} of "
                f"{label(faction.slug)}: {'its' if len(missing) == 1 else 'their'} "
                f"state is unknown."
            )

    for index, player in enumerate(position.players):
        if player.hand and board.in_game(player.name) is False:
            error(
                f"position.players[{index}].hand",
                "hand_for_absent_player",
                f"{player.name} controls no surviving unit, so is out of the game (FAC-17, "
                f"FAC-R9), yet holds {_count(len(player.hand), 'card')}: an eliminated "
                f"player's hand is discarded at once, so they never hold cards (FAC-R9).",
            )

    states = {player.name: board.in_game(player.name) for player in position.players}
    alive = [name for name, state in states.items() if state is True]
    unknown = [name for name, state in states.items() if state is None]
    if position.players and not alive and not unknown:
        error(
            "position.factions",
            "no_player_left",
            "No player controls a surviving unit; the last player standing never loses their "
            "last unit (FAC-18).",
        )

    if to_move:
        turn = position.turn
        if turn is not None and states.get(turn) is False:
            error(
                "position.turn",
                "turn_of_absent_player",
                f"It cannot be {turn}'s turn: {turn} controls no surviving unit and is out of "
                f"the game (FAC-17, FAC-R9).",
            )
        if len(alive) == 1 and not unknown and len(position.players) >= catalog.min_players:
            error(
                "position",
                "game_over",
                f"Only {alive[0]} still controls a surviving unit: the game is over and "
                f"{alive[0]} has won (FAC-18), so no move follows. The standings "
                f"(POST …/score/) show it.",
            )
        _check_pending(board, error)

    if errors:
        raise ImpossiblePosition(errors)
    return board


def _check_pending(table: PositionReader, error: Callable[[str, str, str], None]) -> None:
    """The contradictions of an attack awaiting its answer, each told to ``error``."""
    position = table.position
    pending = position.pending
    if pending is None:
        return
    action = table.action(pending.card)
    if action not in ATTACKS:
        kind = "not given by the catalog" if action is None else action.upper()
        error(
            "position.pending.card",
            "pending_not_an_attack",
            f"Only an ATTACK or AMBUSH awaits an answer; the pending card {pending.card.card} "
            f"is {kind if action is None else 'a ' + kind}.",
        )
    if pending.by != position.turn:
        error(
            "position.pending.by",
            "pending_not_by_turn_player",
            f"The pending attack is by {pending.by}, but it is {position.turn}'s turn: cards "
            f"are played in their player's turn (FAC-4).",
        )
    elif table.turn_lost():
        error(
            "position.pending",
            "pending_in_lost_turn",
            f"{pending.by} loses this turn (FAC-R3), so cannot have attacked in it.",
        )
    target = pending.target
    if target.faction in table.factions:
        if table.controller(target.faction) == pending.by:
            error(
                "position.pending.target_unit",
                "pending_own_faction",
                f"{pending.by} controls {table.label(target.faction)}, so cannot have attacked "
                f"{target.unit} (FAC-R5).",
            )
        if table.unit_state(target) is False:
            error(
                "position.pending.target_unit",
                "pending_target_defeated",
                f"{target.unit} is already defeated, so no attack on it can await an answer.",
            )
    else:
        error(
            "position.pending.target_unit",
            "faction_not_in_play",
            f"The pending attack targets {target.unit} of {table.label(target.faction)}, which "
            f"is not in play.",
        )


# --- The ruling ----------------------------------------------------------------------------------------


class FactionsBoard(PositionReader):
    """The table of a position check(...) accepted (its warnings are the check's): its legal
    moves, rulings and standings rest on that one check."""

    def __init__(self, catalog: Catalog, position: Position, *, to_move: bool) -> None:
        super().__init__(catalog, position)
        self.warnings: list[str] = []
        self.to_move = to_move

    def legal_moves(self) -> list[Move]:
        """Every legal move of the position (for the player who moves next), in a stable order:
        answers to a pending attack; else plays in hand order with their targets, discards, pass
        and end_turn. Moves whose legality depends on unknown facts are left out. None without a
        player to move."""
        if not self.to_move:
            return []
        return [move for move in _candidates(self) if _evaluate(self, move)[1] is None]

    def rule(self, move: Move) -> Ruling:
        if not self.to_move:
            raise ValueError("This board was checked with no player to move: it rules no move.")
        if move.action not in ACTIONS:
            raise ValueError(f"Unknown action {move.action!r}; the service validates it first.")
        if move.action in CARD_ACTIONS and move.card is None:
            raise ValueError(f"A {move.action} names its card; the service validates it first.")
        warnings = list(self.warnings)  # each ruling adds its own to the position's
        checks, failure = _evaluate(self, move)
        if failure is not None:  # needs information (its missing facts), or illegal
            return Ruling(
                verdict=NEEDS_INFORMATION if failure.unknown else ILLEGAL,
                code=failure.code,
                reason=failure.detail,
                rule=failure.rule,
                checks=checks,
                missing=failure.missing,
                alternatives=[] if failure.unknown else [m.as_dict() for m in self.legal_moves()],
                warnings=warnings,
            )
        code, rule = _legal_code(self, move)
        applied = apply_move(self.catalog, self.position, move)
        warnings += _move_warnings(self, move) + applied.warnings
        return Ruling(
            verdict=LEGAL,
            code=code,
            reason="Legal. " + " ".join(applied.outcome["events"]),
            rule=rule,
            checks=checks,
            outcome=applied.outcome,
            warnings=warnings,
        )

    def score(self, moves: Sequence[Move] = ()) -> Standings:
        """The standings of the table (Factions scores a table, not a turn's moves)."""
        if moves:
            raise NotScored("Factions has standings of a table, not a score of moves.")
        return standings(self, list(self.warnings))


def _candidates(table: PositionReader) -> list[Move]:
    position = table.position
    if position.pending is not None:
        defender = table.players.get(table.defender() or "")
        answers = [Move(DEFEND, card=ref) for ref in _distinct(defender.hand if defender else [])]
        return answers + [Move(PASS)]
    player = table.players.get(position.turn or "")
    moves: list[Move] = []
    hand = _distinct(player.hand if player else [])
    units = [UnitRef(f.slug, u.name) for f in position.factions for u in f.units]
    for ref in hand:
        action = table.action(ref)
        if action in ATTACKS or action == DOCTOR:
            moves += [Move(PLAY, card=ref, target_unit=unit) for unit in units]
        elif action in ON_PLAYER:
            moves += [Move(PLAY, card=ref, target_player=p.name) for p in position.players]
        else:
            moves.append(Move(PLAY, card=ref))
    moves += [Move(DISCARD, card=ref) for ref in hand]
    return moves + [Move(PASS), Move(END_TURN)]


def _distinct(cards: list[CardRef]) -> list[CardRef]:
    return list(dict.fromkeys(cards))


def _ok(rule: str, detail: str, code: str = "") -> Check:
    return Check(rule, True, detail, code)


def _fail(rule: str, detail: str, code: str) -> Check:
    return Check(rule, False, detail, code)


def _unknown(rule: str, detail: str, code: str, missing: list[dict[str, Any]]) -> Check:
    return Check(rule, False, detail, code, unknown=True, missing=missing)


def _turn(position: Position) -> str:
    """The player whose turn it is (check refuses a position that names nobody)."""
    if position.turn is None:
        raise ValueError("The position names no turn; the service validates it first.")
    return position.turn


def _card(move: Move) -> CardRef:
    """The card a play, defence or discard names (a ruling refuses one that names none)."""
    if move.card is None:
        raise ValueError(f"A {move.action} names its card; the service validates it first.")
    return move.card


def _evaluate(table: PositionReader, move: Move) -> tuple[list[Check], Check | None]:
    """The checks in order, up to the first that fails or cannot be made."""
    checks: list[Check] = []
    for check in _checks(table, move):
        if check.unknown:
            return checks, check
        checks.append(check)
        if not check.passed:
            return checks, check
    return checks, None


def _checks(table: PositionReader, move: Move) -> Iterator[Check]:
    position = table.position
    action = move.action
    pending = position.pending
    if pending is not None:
        defender = table.defender()
        what = table.pending_text()
        ambush = table.action(pending.card) == AMBUSH
        if action not in (DEFEND, PASS):
            answer = (
                "let it through (pass): DEFENCE cannot be played against an AMBUSH"
                if ambush
                else "block it with DEFENCE (defend) or let it through (pass)"
            )
            yield _fail(
                "FAC-6",
                f"{what} awaits {defender}'s answer first: {defender} may "
                f"{answer}. No {_action_word(action)} comes before it.",
                "awaiting_answer",
            )
            return
        yield _ok("FAC-6", f"{what} awaits {defender}'s answer, and the move is that answer.")
        if action == DEFEND:
            if defender is None:
                raise ValueError(
                    "The pending attack targets a faction not in play; "
                    "check refuses such a position first."
                )
            yield from _defend_checks(table, move, pending, defender)
        return
    if action == DEFEND:
        yield _fail(
            "FAC-7",
            "DEFENCE may only be played reactively, when one of your units is "
            "attacked; no ATTACK awaits an answer in this position.",
            "no_pending_attack",
        )
        return

    mover = _turn(position)
    player = table.players[mover]
    if position.turn_lost:
        if action in (PLAY, DISCARD):
            yield _fail(
                "FAC-R3",
                f"{mover} loses this turn (SABOTAGE): no draw, play or discard (FAC-11).",
                "turn_lost",
            )
            return
        yield _ok(
            "FAC-R3",
            f"{mover} loses this turn: it goes by without a draw, play or "
            f"discard, so {'passing' if action == PASS else 'ending it'} is all there is "
            f"to do.",
        )
        return
    yield _ok("FAC-R3", f"It is {mover}'s turn, and it is not a lost one.")

    if action == PLAY:
        yield from _play_checks(table, move, mover)
    elif action == DISCARD:
        ref = _card(move)
        yield from _in_hand(table, mover, ref)
        if not table.enemy(mover, ref):
            yield _ok(
                "FAC-15",
                f"{table.card(ref)} is not an enemy card for {mover}: "
                f"{mover} controls {table.label(ref.faction)} (FAC-R1), so discarding it has "
                f"no special effect.",
            )
        else:
            kind = table.action(ref)
            controller = table.controller(ref.faction)
            if kind is None or kind not in KNOWN_ACTIONS:
                yield _unknown(
                    "FAC-F2",
                    f"{table.card(ref)} is an enemy card for {mover} "
                    f"({table.label(ref.faction)} is controlled by {controller}, "
                    f"FAC-R1), but {_unknown_action(table, ref)}, so whether "
                    f"discarding it brings a consequence (FAC-F2) is unknown.",
                    "action_unknown",
                    [_action_missing(table, ref, "move.card")],
                )
                return
            effect = (
                "a consequence follows (FAC-F2)"
                if kind in DISCARD_CONSEQUENCES
                else "it has no special effect (FAC-15)"
            )
            yield _ok(
                "FAC-R1",
                f"{table.card(ref)} is an enemy card for {mover}: "
                f"{table.label(ref.faction)} is controlled by {controller}; {effect}. "
                f"Discarding is allowed any time in the turn (FAC-4), and a discard to the "
                f"hand limit counts as intentional (FAC-R2).",
            )
    elif not player.hand_complete:
        size = len(player.hand)
        if size > HAND_LIMIT:
            yield _fail(
                "FAC-5",
                f"{mover} holds at least {_count(size, 'card')}; a turn cannot "
                f"end, nor be passed, with more than {HAND_LIMIT} (FAC-R8).",
                "pass_over_limit" if action == PASS else "hand_over_limit",
            )
            return
        yield _unknown(
            "FAC-5",
            f"{mover}'s hand is not given whole, so whether it holds "
            f"{HAND_LIMIT} cards or fewer is unknown.",
            "hand_size_unknown",
            [_hand_missing(table, mover)],
        )
    elif action == PASS:
        size = len(player.hand)
        if size > HAND_LIMIT:
            yield _fail(
                "FAC-4",
                f"{mover} holds {_count(size, 'card')}; passing is allowed only "
                f"with {HAND_LIMIT} or fewer (FAC-R8): play or discard first (FAC-5).",
                "pass_over_limit",
            )
            return
        yield _ok(
            "FAC-4",
            f"{mover} holds {_count(size, 'card')}: {HAND_LIMIT} or fewer, so passing is allowed.",
        )
    else:  # END_TURN
        size = len(player.hand)
        if size > HAND_LIMIT:
            yield _fail(
                "FAC-5",
                f"{mover} holds {_count(size, 'card')}; a turn cannot end with "
                f"more than {HAND_LIMIT}: keep playing or discarding until {HAND_LIMIT} "
                f"or fewer remain (FAC-R8).",
                "hand_over_limit",
            )
            return
        yield _ok("FAC-5", f"{mover} holds {_count(size, 'card')}: the turn may end.")


def _in_hand(table: PositionReader, mover: str, ref: CardRef) -> Iterator[Check]:
    hand = table.players[mover].hand
    if ref not in hand and not table.players[mover].hand_complete:
        yield _unknown(
            "FAC-4",
            f"{mover}'s hand is not given whole, and {table.card(ref)} is "
            f"not among the cards listed.",
            "hand_not_given",
            [_hand_missing(table, mover)],
        )
        return
    if ref not in hand:
        held = _list([table.card(card) for card in hand]) if hand else "no cards"
        yield _fail(
            "FAC-4",
            f"{mover}'s hand holds no {table.card(ref)}; it holds {held}.",
            "card_not_in_hand",
        )
        return
    yield _ok("FAC-4", f"{table.card(ref)} is in {mover}'s hand.")


def _play_checks(table: PositionReader, move: Move, mover: str) -> Iterator[Check]:
    ref = _card(move)
    for check in _in_hand(table, mover, ref):
        yield check
        if not check.passed:
            return
    kind = table.action(ref)
    if kind is None or kind not in KNOWN_ACTIONS:
        yield _unknown(
            "FAC-F1",
            f"{_sentence(_unknown_action(table, ref))}, so playing it cannot be ruled on.",
            "action_unknown",
            [_action_missing(table, ref, "move.card")],
        )
        return
    if kind == DEFENCE:
        yield _fail(
            "FAC-7",
            f"{table.card(ref)} is a DEFENCE: it stays in hand and may only be "
            f"played reactively, when one of {mover}'s units is attacked — never as a "
            f"play of its own (FAC-R4).",
            "defence_is_reactive",
        )
        return
    if kind in ATTACKS:
        yield from _attack_checks(table, move, mover, kind)
    elif kind == DOCTOR:
        yield from _doctor_checks(table, move, mover)
    else:
        yield from _player_target_checks(table, move, mover, kind)


def _attack_checks(table: PositionReader, move: Move, mover: str, kind: str) -> Iterator[Check]:
    name = kind.upper()
    target = move.target_unit
    if target is None:
        yield _unknown(
            "FAC-R5",
            f"{name} targets a surviving unit of a faction {mover} does not "
            f"control; the move does not say which.",
            "target_required",
            [
                {
                    "path": "move.target_unit",
                    "detail": f'The unit {mover}\'s {name} targets: {{"faction", "unit"}}.',
                }
            ],
        )
        return
    if target.faction not in table.factions:
        yield _fail(
            "FAC-R5",
            f"{table.unit(target)} is not in play: "
            f"{table.label(target.faction)} is not one of the factions in play.",
            "unit_not_in_play",
        )
        return
    controller = table.controller(target.faction)
    if controller == mover:
        yield _fail(
            "FAC-R5",
            f"{mover} controls {table.label(target.faction)}, so cannot "
            f"{kind} {target.unit}: {name} targets a unit of a faction the player does "
            f"not control.",
            "own_faction",
        )
        return
    yield _ok(
        "FAC-R5", f"{table.label(target.faction)} is controlled by {controller}, not {mover}."
    )
    state = table.unit_state(target)
    if state is None:
        yield _unknown(
            "FAC-R5",
            f"The position does not list {table.unit(target)}, so whether it survives is unknown.",
            "unit_state_unknown",
            [_unit_missing(table, target)],
        )
        return
    if not state:
        yield _fail(
            "FAC-R5",
            f"{table.unit(target)} is already defeated; {name} targets a surviving unit.",
            "unit_defeated",
        )
        return
    yield _ok("FAC-R5", f"{table.unit(target)} survives, so it can be {kind}ed.")


def _doctor_checks(table: PositionReader, move: Move, mover: str) -> Iterator[Check]:
    controlled = table.controlled(mover)
    defeated = [UnitRef(f.slug, u.name) for f in controlled for u in f.units if not u.alive]
    unknown = [f for f in controlled if table.unlisted(f)]
    names = _list([table.label(f.slug) for f in controlled]) if controlled else "no faction"
    if not defeated and not unknown:
        yield _fail(
            "FAC-R6",
            f"{mover} controls {names}, with no defeated unit: DOCTOR is "
            f"illegal when no such unit is defeated.",
            "no_defeated_unit",
        )
        return
    if defeated:
        yield _ok(
            "FAC-R6",
            f"{mover} controls {names}, with "
            f"{_count(len(defeated), 'defeated unit')} "
            f"({_list([table.unit(u) for u in defeated])}).",
        )
    target = move.target_unit
    if target is None:
        yield _unknown(
            "FAC-R6",
            f"DOCTOR restores one defeated unit of a faction {mover} "
            f"controls; the move does not say which.",
            "target_required",
            [
                {
                    "path": "move.target_unit",
                    "detail": 'The defeated unit DOCTOR restores: {"faction", "unit"}'
                    + (
                        f"; one of {_list([table.unit(u) for u in defeated])}." if defeated else "."
                    ),
                }
            ],
        )
        return
    if target.faction not in table.factions:
        yield _fail(
            "FAC-R6",
            f"{table.unit(target)} is not in play: "
            f"{table.label(target.faction)} is not one of the factions in play.",
            "unit_not_in_play",
        )
        return
    controller = table.controller(target.faction)
    if controller != mover:
        yield _fail(
            "FAC-R6",
            f"{table.label(target.faction)} is controlled by {controller}, not "
            f"{mover}: DOCTOR restores a unit of a faction the player controls (their own "
            f"or a conquered one).",
            "not_your_faction",
        )
        return
    yield _ok("FAC-R6", f"{mover} controls {table.label(target.faction)}.")
    state = table.unit_state(target)
    if state is None:
        yield _unknown(
            "FAC-R6",
            f"The position does not list {table.unit(target)}, so whether "
            f"it is defeated is unknown.",
            "unit_state_unknown",
            [_unit_missing(table, target)],
        )
        return
    if state:
        yield _fail(
            "FAC-R6",
            f"{table.unit(target)} survives: DOCTOR restores a defeated unit.",
            "unit_alive",
        )
        return
    yield _ok("FAC-R6", f"{table.unit(target)} is defeated, so DOCTOR can restore it.")


def _player_target_checks(
    table: PositionReader, move: Move, mover: str, kind: str
) -> Iterator[Check]:
    rule = PLAY_RULES[kind]
    name = kind.upper()
    target = move.target_player
    if target is None:
        yield _unknown(
            rule,
            f"{name} is played on an opponent; the move does not say which.",
            "target_required",
            [
                {
                    "path": "move.target_player",
                    "detail": f"The opponent {mover}'s {name} is played on.",
                }
            ],
        )
        return
    if target == mover:
        yield _fail(
            rule,
            f"{name} is played on an opponent; {mover} cannot play it on {mover}.",
            "target_self",
        )
        return
    state = table.in_game(target)
    if state is None:
        unlisted = [f for f in table.controlled(target) if table.unlisted(f)]
        yield _unknown(
            "FAC-R9",
            f"{target} has no listed surviving unit, and the position does "
            f"not list every unit of {_list([table.label(f.slug) for f in unlisted])}: "
            f"whether {target} is still in the game is unknown.",
            "player_state_unknown",
            [
                {
                    "path": f"position.factions[{table.position.factions.index(f)}].units",
                    "detail": f"The state of {_list(table.unlisted(f))} of {table.label(f.slug)}.",
                }
                for f in unlisted
            ],
        )
        return
    if not state:
        yield _fail(
            "FAC-R9",
            f"{target} controls no surviving unit and is out of the game "
            f"(FAC-17); {name} is played on an opponent still in the game.",
            "target_eliminated",
        )
        return
    yield _ok(rule, f"{target} is an opponent still in the game.")


def _defend_checks(
    table: PositionReader, move: Move, pending: Pending, defender: str
) -> Iterator[Check]:
    if table.action(pending.card) == AMBUSH:
        yield _fail(
            "FAC-R4",
            f"The pending card, {table.card(pending.card)}, is an AMBUSH: "
            f"DEFENCE cannot be played against it (FAC-12); only an ATTACK can be "
            f"blocked.",
            "defence_against_ambush",
        )
        return
    yield _ok(
        "FAC-R4",
        f"The pending card, {table.card(pending.card)}, is an ATTACK, which DEFENCE can block.",
    )
    ref = _card(move)
    kind = table.action(ref)
    if kind is None or kind not in KNOWN_ACTIONS:
        yield _unknown(
            "FAC-R4",
            f"{_sentence(_unknown_action(table, ref))}, so whether it blocks an ATTACK is unknown.",
            "action_unknown",
            [_action_missing(table, ref, "move.card")],
        )
        return
    if kind != DEFENCE:
        yield _fail(
            "FAC-R4",
            f"{table.card(ref)} is a {kind.upper()}, not a DEFENCE: only DEFENCE blocks an ATTACK.",
            "not_a_defence",
        )
        return
    yield _ok("FAC-R4", f"{table.card(ref)} is a DEFENCE.")
    hand = table.players[defender].hand
    if ref not in hand and not table.players[defender].hand_complete:
        yield _unknown(
            "FAC-R4",
            f"{defender}'s hand is not given whole, and {table.card(ref)} "
            f"is not among the cards listed.",
            "hand_not_given",
            [_hand_missing(table, defender)],
        )
        return
    if ref not in hand:
        holders = [p.name for p in table.position.players if p.name != defender and ref in p.hand]
        where = f" ({_list(holders)} holds one)" if holders else ""
        yield _fail(
            "FAC-R4",
            f"Only {defender}, whose {table.unit(pending.target)} is attacked, "
            f"may block the ATTACK, with a DEFENCE from {defender}'s own hand; "
            f"{defender} holds no {table.card(ref)}{where}.",
            "defence_not_in_defender_hand",
        )
        return
    yield _ok(
        "FAC-R4",
        f"{table.card(ref)} is in the hand of {defender}, whose "
        f"{table.unit(pending.target)} is attacked.",
    )


def _legal_code(table: PositionReader, move: Move) -> tuple[str, str]:
    action = move.action
    pending = table.position.pending
    if pending is not None:
        if action == DEFEND:
            return "legal_defence", "FAC-R4"
        ambush = table.action(pending.card) == AMBUSH
        return "legal_let_through", "FAC-12" if ambush else "FAC-6"
    if table.turn_lost():
        return "legal_lost_turn", "FAC-R3"
    if action == PLAY:
        kind = table.action(_card(move))
        if kind is None:
            raise ValueError("A legal play has a known action; its checks stop without one.")
        return f"legal_{kind}", PLAY_RULES[kind]
    if action == DISCARD:
        mover = _turn(table.position)
        ref = _card(move)
        consequence = table.enemy(mover, ref) and table.action(ref) in DISCARD_CONSEQUENCES
        return "legal_discard", "FAC-F2" if consequence else "FAC-15"
    if action == PASS:
        return "legal_pass", "FAC-4"
    return "legal_end_turn", "FAC-5"


def _move_warnings(table: PositionReader, move: Move) -> list[str]:
    """Fields of the move its card does not use."""
    warnings: list[str] = []
    kind = table.action(move.card) if move.card is not None else None
    uses_unit = move.action == PLAY and (kind in ATTACKS or kind == DOCTOR)
    uses_player = move.action == PLAY and kind in ON_PLAYER
    if move.target_unit is not None and not uses_unit:
        warnings.append(
            f"move.target_unit is not used by this move ({_move_words(table, move)}); "
            f"it was ignored."
        )
    if move.target_player is not None and not uses_player:
        target_unit = move.target_unit if uses_unit else None
        owner = table.controller(target_unit.faction) if target_unit is not None else None
        if target_unit is None or owner is None:
            warnings.append(
                f"move.target_player is not used by this move "
                f"({_move_words(table, move)}); it was ignored."
            )
        elif owner != move.target_player:
            warnings.append(
                f"move.target_player says {move.target_player}, but "
                f"{table.unit(target_unit)} belongs to a faction {owner} "
                f"controls; the target unit decides, so it was ignored."
            )
    return warnings


def _move_words(table: PositionReader, move: Move) -> str:
    if move.card is not None:
        return f"{move.action.replace('_', ' ')} {table.card(move.card)}"
    return move.action.replace("_", " ")


def _action_word(action: str) -> str:
    return {PLAY: "play", DISCARD: "discard", END_TURN: "end of the turn"}.get(action, action)


def _unknown_action(table: PositionReader, ref: CardRef) -> str:
    kind = table.action(ref)
    if kind is None:
        return f"the catalog does not say what {ref.card} does (its action is unknown)"
    return f"Tableside has no rule for {ref.card}'s action '{kind}'"


def _action_missing(table: PositionReader, ref: CardRef, path: str) -> dict[str, Any]:
    return {
        "path": path,
        "detail": f"What {ref.card} does: "
        f"{_unknown_action(table, ref)}. An admin can set its action "
        f"in the catalog.",
    }


def _hand_missing(table: PositionReader, name: str) -> dict[str, Any]:
    index = next(i for i, p in enumerate(table.position.players) if p.name == name)
    return {
        "path": f"position.players[{index}].hand",
        "detail": f"The cards in {name}'s hand (the move's card among them).",
    }


def _unit_missing(table: PositionReader, ref: UnitRef) -> dict[str, Any]:
    index = next(i for i, f in enumerate(table.position.factions) if f.slug == ref.faction)
    return {
        "path": f"position.factions[{index}].units",
        "detail": f"Whether {ref.unit} of {table.label(ref.faction)} survives.",
    }


# --- The outcome ----------------------------------------------------------------------------------------


@dataclass
class Applied:
    """A legal move played out. ``position`` is the table after it (before the next player's
    draw), or None when chance decides it (a random card taken) and ``taken`` did not say, or
    when it depends on units the position does not list."""

    position: Position | None
    outcome: dict[str, Any]
    warnings: list[str]


class _Effects:
    def __init__(self, catalog: Catalog, position: Position):
        self.table = PositionReader(catalog, position)
        self.position = position
        self.events: list[str] = []
        self.cards_moved: list[dict[str, Any]] = []
        self.units: list[dict[str, Any]] = []
        self.conquests: list[dict[str, Any]] = []
        self.eliminated: list[str] = []
        self.revealed: list[dict[str, Any]] = []
        self.turns_lost: list[dict[str, Any]] = []
        self.warnings: list[str] = []
        self.determined = True
        self.winner: str | None = None

    def player(self, name: str) -> Player:
        return self.table.players[name]

    def move(
        self,
        ref: CardRef | None,
        source: dict[str, str],
        target: dict[str, str],
        *,
        random: bool = False,
    ) -> None:
        self.cards_moved.append(
            {"card": ref.as_dict() if ref else None, "from": source, "to": target, "random": random}
        )

    def discard_from_hand(self, name: str, ref: CardRef) -> None:
        self.player(name).hand.remove(ref)
        self.move(ref, {"player": name}, {"place": "discard_pile"})

    def take_random(self, taker: str, giver: str, taken: int | None, rule: str, why: str) -> None:
        hand = self.player(giver).hand
        if not self.player(giver).hand_complete:
            # Another phone's hand: which card goes is for the two players to see, so the
            # taker's hand is no longer known whole either.
            self.player(taker).hand_complete = False
            self.move(None, {"player": giver}, {"player": taker}, random=True)
            self.events.append(
                f"{taker} takes one card at random from {giver}'s hand, if it "
                f"holds any ({rule}); only {taker} and {giver} see which."
            )
            return
        if not hand:
            self.events.append(f"{giver}'s hand is empty: {why} takes nothing ({rule}).")
            return
        if taken is None and len(set(hand)) > 1:
            # Which card is chance's: the position after is unknown, the hand sizes are not.
            self.determined = False
            self.player(taker).hand.append(hand.pop(0))
            self.move(None, {"player": giver}, {"player": taker}, random=True)
            self.events.append(
                f"{taker} takes one card at random from {giver}'s hand "
                f"({_count(len(hand) + 1, 'card')}) ({rule})."
            )
            return
        ref = hand[taken if taken is not None else 0]
        hand.remove(ref)
        self.player(taker).hand.append(ref)
        self.move(ref, {"player": giver}, {"player": taker}, random=True)
        self.events.append(
            f"{taker} takes {self.table.card(ref)} at random from {giver}'s hand ({rule})."
        )

    def lose_turn(self, name: str, why: str) -> None:
        player = self.player(name)
        before = player.lost_turns
        player.lost_turns += 1
        self.turns_lost.append({"player": name, "before": before, "after": player.lost_turns})
        stacked = f"; lost turns stack: {before} → {player.lost_turns} (FAC-R3)" if before else ""
        self.events.append(
            f"{name}'s next turn is lost: no draw, play or discard ({why}{stacked})."
        )

    def defeat(self, attacker: str, target: UnitRef, rule: str) -> None:
        table = self.table
        faction = table.factions[target.faction]
        unit = next(u for u in faction.units if u.name == target.unit)
        unit.alive = False
        self.units.append({**target.as_dict(), "change": "defeated"})
        self.events.append(f"{table.unit(target)} is defeated ({rule}).")
        survives = table.has_survivor(faction)
        if survives:
            return
        if survives is None:
            self.determined = False
            self.warnings.append(
                f"{target.unit} was the last listed surviving unit of {table.label(faction.slug)}, "
                f"but the position does not list {_list(table.unlisted(faction))}: if none of "
                f"them survives, {attacker} conquers {table.label(faction.slug)} (FAC-R7)."
            )
            return
        loser = faction.controller
        faction.controller = attacker
        defeated = [u.name for u in faction.units if not u.alive]
        friendly = [ref for ref in self.player(attacker).hand if ref.faction == faction.slug]
        now_enemy = [ref for ref in self.player(loser).hand if ref.faction == faction.slug]
        self.conquests.append(
            {
                "faction": faction.slug,
                "from": loser,
                "to": attacker,
                "defeated_units": defeated,
                "no_longer_enemy": [ref.as_dict() for ref in friendly],
            }
        )
        line = (
            f"{table.label(faction.slug)} has no surviving unit left: {attacker}, who "
            f"delivered the final attack, conquers it from {loser}, with its defeated units "
            f"{_list(defeated)}, which {attacker} may restore with DOCTOR (FAC-13, FAC-R7, "
            f"FAC-14). Its cards are no longer enemy cards for {attacker} (FAC-14)"
        )
        if friendly:
            line += f": in {attacker}'s hand, {_list([table.card(r) for r in friendly])}"
        line += "."
        if now_enemy:
            line += (
                f" For {loser} they are now enemy cards (FAC-R1): "
                f"{_list([table.card(r) for r in now_enemy])}."
            )
        self.events.append(line)
        self.check_elimination(loser)

    def check_elimination(self, name: str) -> None:
        table = self.table
        state = table.in_game(name)
        if state is None:
            self.determined = False
            self.warnings.append(
                f"Whether {name} is eliminated depends on units the position does not list."
            )
            return
        if state:
            return
        player = self.player(name)
        self.eliminated.append(name)
        line = f"{name} controls no surviving unit and is eliminated (FAC-17, FAC-R9)."
        if not player.hand_complete:
            line += (
                f" {name}'s hand is discarded at once, face up, without the enemy-card "
                f"consequences (FAC-R9)."
            )
            for ref in list(player.hand):
                self.discard_from_hand(name, ref)
        elif player.hand:
            line += (
                f" {name}'s hand ({_count(len(player.hand), 'card')}) is discarded at once, "
                f"face up, without the enemy-card consequences (FAC-R9)."
            )
            for ref in list(player.hand):
                self.discard_from_hand(name, ref)
        player.lost_turns = 0
        self.events.append(line)
        states = {p.name: table.in_game(p.name) for p in self.position.players}
        alive = [n for n, s in states.items() if s is True]
        if len(alive) == 1 and None not in states.values():
            self.winner = alive[0]
            self.events.append(
                f"Only {alive[0]} still controls a surviving unit: {alive[0]} wins "
                f"(FAC-18, FAC-R9)."
            )

    def resolve_attack(
        self, by: str, ref: CardRef, target: UnitRef, source: dict[str, str]
    ) -> None:
        """The attack card goes to the discard pile; the unit is defeated."""
        self.move(ref, source, {"place": "discard_pile"})
        rule = "FAC-12" if self.table.action(ref) == AMBUSH else "FAC-6"
        self.defeat(by, target, rule)


def apply_move(
    catalog: Catalog, position: Position, move: Move, *, taken: int | None = None
) -> Applied:
    """Play out a move already ruled legal. ``taken``: the index, in the hand it comes from, of
    the card a SACK (played, or the consequence of an enemy SACK discarded) takes at random."""
    after = _copy(position)
    fx = _Effects(catalog, after)
    table = fx.table
    pending = after.pending
    outcome_pending: dict[str, Any] | None = None
    if_let_through: dict[str, Any] | None = None
    mover = _turn(after)

    if pending is not None:
        defender = table.defender()
        if move.action == DEFEND:
            if defender is None:
                raise ValueError(
                    "The pending attack targets a faction not in play; "
                    "check refuses such a position first."
                )
            ref = _card(move)
            fx.player(defender).hand.remove(ref)
            fx.move(pending.card, {"place": "table"}, {"place": "discard_pile"})
            fx.move(ref, {"player": defender}, {"place": "discard_pile"})
            fx.events.append(
                f"{defender} blocks {table.pending_text()} with "
                f"{table.card(ref)}: {table.unit(pending.target)} survives, "
                f"and both cards are discarded (FAC-6, FAC-R4)."
            )
        else:
            fx.events.append(f"{defender} lets {table.pending_text()} through.")
            fx.resolve_attack(pending.by, pending.card, pending.target, {"place": "table"})
        after.pending = None
        fx.events.append(_limit_line(fx, mover))
    elif table.turn_lost():
        left = fx.player(mover).lost_turns
        fx.events.append(
            f"{mover}'s lost turn goes by: no draw, play or discard (FAC-R3); "
            f"{_more_lost(left)} to serve."
        )
    elif move.action == PLAY:
        ref = _card(move)
        kind = table.action(ref)
        player = fx.player(mover)
        player.hand.remove(ref)
        if kind in ATTACKS:
            target = _target_unit(move)
            defender = table.controller(target.faction)
            if defender is None:
                raise ValueError(
                    "A legal attack targets a faction in play; its checks stop otherwise."
                )
            defences = [r for r in fx.player(defender).hand if table.action(r) == DEFENCE]
            hidden = not fx.player(defender).hand_complete
            if kind == ATTACK and (defences or hidden):
                after.pending = Pending(card=ref, by=mover, target=target)
                fx.move(ref, {"player": mover}, {"place": "table"})
                holds = (
                    f"{defender}'s hand is {defender}'s own to show, so the ATTACK waits "
                    f"for {defender}'s answer: {defender} may block it with a DEFENCE"
                    if hidden and not defences
                    else f"{defender} holds {_count(len(defences), 'DEFENCE card')} and may "
                    f"block it"
                )
                rules = "FAC-6, FAC-R4" if hidden and not defences else "FAC-6"
                fx.events.append(
                    f"{mover} attacks {table.unit(target)} with {table.card(ref)}. "
                    f"{holds} (the ATTACK and the DEFENCE are then discarded); "
                    f"otherwise {target.unit} is defeated ({rules})."
                )
                outcome_pending = {
                    "card": ref.as_dict(),
                    "by": mover,
                    "target_unit": target.as_dict(),
                    "defender": defender,
                }
                let_through = apply_move(catalog, after, Move(PASS))
                if_let_through = {
                    key: let_through.outcome[key]
                    for key in ("events", "units", "conquests", "eliminated", "winner")
                }
            else:
                if kind == ATTACK:
                    fx.events.append(
                        f"{mover} attacks {table.unit(target)} with "
                        f"{table.card(ref)}; {defender} holds no DEFENCE, so the "
                        f"attack cannot be blocked."
                    )
                else:
                    fx.events.append(
                        f"{mover} ambushes {table.unit(target)} with "
                        f"{table.card(ref)}: it strikes at once and DEFENCE cannot "
                        f"be played against it (FAC-12)."
                    )
                fx.resolve_attack(mover, ref, target, {"player": mover})
        else:
            fx.move(ref, {"player": mover}, {"place": "discard_pile"})
            if kind == DOCTOR:
                target = _target_unit(move)
                unit = next(
                    u for u in table.factions[target.faction].units if u.name == target.unit
                )
                unit.alive = True
                fx.units.append({**target.as_dict(), "change": "restored"})
                fx.events.append(
                    f"{mover} plays {table.card(ref)}: {table.unit(target)} is "
                    f"restored and returns to play at once (FAC-8, FAC-R6)."
                )
            elif kind == SPY:
                opponent = _target_player(move)
                shown = list(fx.player(opponent).hand)
                if not fx.player(opponent).hand_complete:
                    # Another phone's hand: shown to the spy alone, never to the table.
                    fx.events.append(
                        f"{mover} plays {table.card(ref)} and inspects "
                        f"{opponent}'s hand: {opponent} shows it to {mover} alone "
                        f"(FAC-9)."
                    )
                else:
                    fx.revealed.append(
                        {"hand_of": opponent, "to": mover, "cards": [r.as_dict() for r in shown]}
                    )
                    fx.events.append(
                        f"{mover} plays {table.card(ref)} and inspects "
                        f"{opponent}'s hand ({_count(len(shown), 'card')}) (FAC-9)."
                    )
                    if not shown:
                        fx.warnings.append(f"{opponent}'s hand is empty: SPY shows nothing.")
            elif kind == SACK:
                opponent = _target_player(move)
                fx.events.append(f"{mover} plays {table.card(ref)} on {opponent}.")
                if not fx.player(opponent).hand:
                    fx.warnings.append(f"{opponent}'s hand is empty: SACK takes nothing.")
                fx.take_random(mover, opponent, taken, "FAC-10", "SACK")
            elif kind == SABOTAGE:
                opponent = _target_player(move)
                fx.events.append(f"{mover} plays {table.card(ref)} on {opponent}.")
                fx.lose_turn(opponent, "FAC-11")
        fx.events.append(_limit_line(fx, mover))
    elif move.action == DISCARD:
        ref = _card(move)
        fx.discard_from_hand(mover, ref)
        kind = table.action(ref)
        controller = table.controller(ref.faction)
        if controller != mover and kind in DISCARD_CONSEQUENCES:
            fx.events.append(
                f"{mover} discards {table.card(ref)}, an enemy {kind.upper()} "
                f"({table.label(ref.faction)} is controlled by {controller}, "
                f"FAC-R1); the discard counts as intentional (FAC-R2)."
            )
            # A card of a faction not in play has no controller: nobody sees or takes a card.
            present = controller is not None and table.in_game(controller) is not False
            if kind == SPY:
                if present:
                    shown = list(fx.player(mover).hand)
                    fx.revealed.append(
                        {"hand_of": mover, "to": controller, "cards": [r.as_dict() for r in shown]}
                    )
                    fx.events.append(
                        f"{mover}'s whole hand ({_count(len(shown), 'card')}) is "
                        f"shown to {controller} (FAC-F2)."
                    )
                else:
                    fx.events.append(
                        f"{controller} is out of the game, so nobody sees {mover}'s hand."
                    )
            elif kind == SACK:
                if present and controller is not None:  # present implies it; said for mypy
                    fx.take_random(controller, mover, taken, "FAC-F2", "the enemy SACK")
                else:
                    fx.events.append(f"{controller} is out of the game, so takes no card.")
            else:
                fx.lose_turn(mover, "FAC-F2")
        elif controller != mover:
            fx.events.append(
                f"{mover} discards {table.card(ref)}, an enemy card with no "
                f"special effect (FAC-15)."
            )
        else:
            fx.events.append(
                f"{mover} discards {table.card(ref)}; {mover} controls "
                f"{table.label(ref.faction)}, so it is not an enemy card (FAC-R1, "
                f"FAC-15)."
            )
        fx.events.append(_limit_line(fx, mover))
    else:  # PASS or END_TURN in a normal turn
        size = len(fx.player(mover).hand)
        verb = "passes" if move.action == PASS else "ends the turn"
        fx.events.append(f"{mover} {verb} with {_count(size, 'card')} in hand.")

    next_turn = None
    ends_turn = pending is None and move.action in (PASS, END_TURN)
    if ends_turn:
        next_turn = _next_turn(fx, mover)
        if next_turn is not None:
            after.turn = next_turn["player"]
            after.turn_lost = next_turn["lost"]
    outcome = {
        "events": fx.events,
        "cards_moved": fx.cards_moved,
        "units": fx.units,
        "conquests": fx.conquests,
        "eliminated": fx.eliminated,
        "winner": fx.winner,
        "turns_lost": fx.turns_lost,
        "revealed": fx.revealed,
        "pending": outcome_pending,
        "if_let_through": if_let_through,
        # Only the hands the position gives whole: another phone's is its own to count.
        "hand_sizes": {p.name: len(p.hand) for p in after.players if p.hand_complete},
        "may_end_turn": (
            None
            if ends_turn
            or after.pending is not None
            or fx.winner
            or not fx.player(mover).hand_complete
            else len(fx.player(mover).hand) <= HAND_LIMIT
        ),
        "next_turn": next_turn,
    }
    return Applied(position=after if fx.determined else None, outcome=outcome, warnings=fx.warnings)


def _target_unit(move: Move) -> UnitRef:
    """The unit a legal ATTACK, AMBUSH or DOCTOR targets (its checks stop without one)."""
    if move.target_unit is None:
        raise ValueError("A legal ATTACK, AMBUSH or DOCTOR names its target unit.")
    return move.target_unit


def _target_player(move: Move) -> str:
    """The opponent a legal SPY, SACK or SABOTAGE targets (its checks stop without one)."""
    if move.target_player is None:
        raise ValueError("A legal SPY, SACK or SABOTAGE names its target player.")
    return move.target_player


def _copy(position: Position) -> Position:
    """A copy the outcome may change (card and unit references are immutable and shared)."""
    pending = position.pending
    return Position(
        factions=[
            Faction(f.slug, f.controller, [Unit(u.name, u.alive) for u in f.units])
            for f in position.factions
        ],
        players=[
            Player(p.name, list(p.hand), p.lost_turns, p.faction, p.hand_complete)
            for p in position.players
        ],
        turn=position.turn,
        pending=Pending(pending.card, pending.by, pending.target) if pending else None,
        turn_lost=position.turn_lost,
    )


def _limit_line(fx: _Effects, mover: str) -> str:
    if fx.winner:
        return "The game is over."
    size = len(fx.player(mover).hand)
    if not fx.player(mover).hand_complete:
        return (
            f"{mover}'s turn goes on once the attack is answered"
            if fx.position.pending
            else f"{mover}'s turn goes on"
        ) + (f"; {mover} may end it with {HAND_LIMIT} cards or fewer in hand (FAC-5).")
    if fx.position.pending is not None:
        return (
            f"{mover} then holds {_count(size, 'card')}; the turn goes on once the attack "
            f"is answered."
        )
    if size > HAND_LIMIT:
        return (
            f"{mover} now holds {_count(size, 'card')}: more than {HAND_LIMIT}, so {mover} "
            f"must keep playing or discarding before the turn can end (FAC-5)."
        )
    return f"{mover} now holds {_count(size, 'card')} and may end the turn (FAC-5)."


def _next_turn(fx: _Effects, mover: str) -> dict[str, Any] | None:
    """The next player clockwise still in the game; a player with lost turns to serve starts a
    lost turn (one fewer left to lose)."""
    players = fx.position.players
    names = [p.name for p in players]
    start = names.index(mover)
    for step in range(1, len(players)):
        candidate = players[(start + step) % len(players)]
        state = fx.table.in_game(candidate.name)
        if state is False:
            continue
        if state is None:
            fx.warnings.append(
                f"{candidate.name} is taken to be still in the game; the position "
                f"does not list every unit {candidate.name} controls."
            )
        lost = candidate.lost_turns > 0
        if lost:
            before = candidate.lost_turns
            candidate.lost_turns -= 1
            fx.turns_lost.append(
                {"player": candidate.name, "before": before, "after": candidate.lost_turns}
            )
            fx.events.append(
                f"Next: {candidate.name}, who loses this turn: no draw, play or "
                f"discard (FAC-R3); {_more_lost(candidate.lost_turns)} to serve "
                f"after it."
            )
        else:
            fx.events.append(
                f"Next: {candidate.name} draws one card to start the turn (FAC-4, FAC-R8)."
            )
        return {"player": candidate.name, "lost": lost, "draws": not lost}
    return None


# --- Wording ---------------------------------------------------------------------------------------------


def _more_lost(count: int) -> str:
    return "no more lost turns" if count == 0 else _count(count, "more lost turn")
