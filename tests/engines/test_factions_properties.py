"""Random Factions games played to the end with the engine (hypothesis, no database).

Each example deals a real game: the deck holds each action card's per-faction copies for every
faction in play (FAC-F1), five cards each, a random first player who draws one (FAC-3, FAC-4).
At every step the legal moves are generated here, from the rules, independently of the engine;
the engine must list exactly those, and rule the one chosen legal. The engine's outcome then
drives the game: the cards it moves build the discard pile; the next player draws (reshuffling
the discard pile into an empty deck). Checked at every step:

* cards are conserved: deck + discard pile + hands + the card on the table = 20 per faction;
* conquest follows FAC-13 / FAC-R7: a faction changes hands only when its last unit falls, to
  the player who delivered that attack, with all its units defeated;
* elimination follows FAC-17 / FAC-R9: a player is out exactly when no faction they control has
  a surviving unit, and then holds no cards;
* the game ends with exactly one player still in it, whom the engine names the winner (FAC-18).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.factions import engine
from games.factions.engine import (
    AMBUSH,
    ATTACK,
    ATTACKS,
    DEFENCE,
    DEFEND,
    DISCARD,
    DOCTOR,
    END_TURN,
    ON_PLAYER,
    PASS,
    PLAY,
    SACK,
    CardRef,
    Faction,
    Move,
    Player,
    Position,
    Unit,
    UnitRef,
)
from games.protocol import ImpossiblePosition
from tests.engines.test_factions_engine import CATALOG, FACTIONS, UNITS

NAMES = ["Ana", "Ben", "Cleo", "Dev"]
MAX_MOVES = 3000  # far beyond any game the aggressive players below play


def kind(ref: CardRef) -> str:
    return CATALOG.actions[ref.card].action


def deal(players: int, rng: random.Random) -> tuple[Position, list[CardRef], Counter]:
    factions = FACTIONS[:players]
    deck = [
        CardRef(spec.name, slug)
        for slug in factions
        for spec in CATALOG.actions.values()
        for _ in range(spec.copies)
    ]
    everything = Counter(deck)
    assert len(deck) == 20 * players
    rng.shuffle(deck)
    names = NAMES[:players]
    position = Position(
        factions=[
            Faction(slug, names[i], [Unit(u, True) for u in UNITS[slug]])
            for i, slug in enumerate(factions)
        ],
        players=[
            Player(name, [deck.pop() for _ in range(5)], 0, factions[i])
            for i, name in enumerate(names)
        ],
        turn=rng.choice(names),
    )
    player(position, position.turn).hand.append(deck.pop())
    return position, deck, everything


def player(position: Position, name: str) -> Player:
    return next(p for p in position.players if p.name == name)


def controller(position: Position, slug: str) -> str:
    return next(f.controller for f in position.factions if f.slug == slug)


def in_game(position: Position, name: str) -> bool:
    return any(u.alive for f in position.factions if f.controller == name for u in f.units)


# --- The legal moves, from the rules --------------------------------------------------------------


def rules_legal_moves(position: Position) -> list[Move]:
    """Every legal move, straight from the rules text and rulings (not from the engine)."""
    pending = position.pending
    if pending is not None:  # the defender answers (FAC-6, FAC-R4)
        defender = player(position, controller(position, pending.target.faction))
        moves = [Move(PASS)]
        if kind(pending.card) == ATTACK:
            moves += [Move(DEFEND, card=ref) for ref in set(defender.hand) if kind(ref) == DEFENCE]
        return moves
    if position.turn_lost:  # FAC-R3: no draw, play or discard
        return [Move(PASS), Move(END_TURN)]
    me = player(position, position.turn)
    moves = []
    for ref in set(me.hand):
        action = kind(ref)
        if action in ATTACKS:  # FAC-R5
            moves += [
                Move(PLAY, card=ref, target_unit=UnitRef(f.slug, u.name))
                for f in position.factions
                if f.controller != me.name
                for u in f.units
                if u.alive
            ]
        elif action == DOCTOR:  # FAC-R6
            moves += [
                Move(PLAY, card=ref, target_unit=UnitRef(f.slug, u.name))
                for f in position.factions
                if f.controller == me.name
                for u in f.units
                if not u.alive
            ]
        elif action in ON_PLAYER:  # an opponent still in the game
            moves += [
                Move(PLAY, card=ref, target_player=p.name)
                for p in position.players
                if p.name != me.name and in_game(position, p.name)
            ]
        moves.append(Move(DISCARD, card=ref))  # any card, any time in the turn (FAC-4)
    if len(me.hand) <= engine.HAND_LIMIT:  # FAC-4, FAC-5
        moves += [Move(PASS), Move(END_TURN)]
    return moves


def keys(moves) -> set[str]:
    return {json.dumps(m.as_dict() if isinstance(m, Move) else m, sort_keys=True) for m in moves}


def choose(position: Position, moves: list[Move], rng: random.Random) -> Move:
    """Aggressive players, so that games end: attack whenever possible; defend half the time."""
    moves = sorted(moves, key=lambda m: json.dumps(m.as_dict(), sort_keys=True))
    if position.pending is not None:
        return rng.choice(moves)
    attacks = [m for m in moves if m.action == PLAY and kind(m.card) in (ATTACK, AMBUSH)]
    if attacks and rng.random() < 0.9:
        return rng.choice(attacks)
    plays = [m for m in moves if m.action == PLAY]
    if plays and rng.random() < 0.5:
        return rng.choice(plays)
    return rng.choice(moves)


def taken_index(position: Position, move: Move, rng: random.Random) -> int | None:
    """Chance's pick for a SACK: an index in the hand the card is taken from."""
    if move.action == PLAY and kind(move.card) == SACK:
        size = len(player(position, move.target_player).hand)
    elif (
        move.action == DISCARD
        and kind(move.card) == SACK
        and controller(position, move.card.faction) != position.turn
    ):
        size = len(player(position, position.turn).hand) - 1
    else:
        return None
    return rng.randrange(size) if size > 0 else None


def cards_in_play(position: Position, deck: list[CardRef], pile: list[CardRef]) -> Counter:
    held = [ref for p in position.players for ref in p.hand]
    table = [position.pending.card] if position.pending else []
    return Counter(deck + pile + held + table)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(min_value=2, max_value=4), rng=st.randoms(use_true_random=False))
def test_random_games_are_played_to_the_end(players, rng):
    position, deck, everything = deal(players, rng)
    pile: list[CardRef] = []
    winner = None
    for _step in range(MAX_MOVES):
        expected = rules_legal_moves(position)
        expected_keys = keys(expected)
        board = engine.check(replace(position, catalog=CATALOG))  # every position reached can exist
        assert keys(board.legal_moves()) == expected_keys
        move = choose(position, expected, rng)
        ruling = board.rule(move)
        assert ruling.verdict == "legal", (ruling.code, ruling.reason)
        assert all(check.passed for check in ruling.checks)
        # A move the engine considered but rejected is never ruled legal.
        rejected = [
            m
            for m in engine._candidates(board)
            if json.dumps(m.as_dict(), sort_keys=True) not in expected_keys
        ]
        if rejected:
            other = board.rule(rng.choice(rejected))
            assert other.verdict in ("illegal", "needs_information")
            assert keys(other.alternatives) <= expected_keys

        before = position
        applied = engine.apply_move(CATALOG, position, move, taken=taken_index(position, move, rng))
        outcome = applied.outcome
        assert applied.position is not None  # every unit is listed, chance's pick is given
        position = applied.position
        for moved in outcome["cards_moved"]:
            if moved["to"] == {"place": "discard_pile"}:
                pile.append(CardRef(**moved["card"]))

        # Conquest (FAC-13, FAC-R7).
        attacker = before.pending.by if before.pending else before.turn
        for old, new in zip(before.factions, position.factions, strict=True):
            if old.controller != new.controller:
                assert not any(u.alive for u in new.units)
                assert new.controller == attacker
                assert {"faction": new.slug, "from": old.controller, "to": attacker} == {
                    k: c[k]
                    for c in outcome["conquests"]
                    if c["faction"] == new.slug
                    for k in ("faction", "from", "to")
                }
        assert len(outcome["conquests"]) == sum(
            o.controller != n.controller
            for o, n in zip(before.factions, position.factions, strict=True)
        )
        # Elimination (FAC-17, FAC-R9).
        newly_out = [
            p.name
            for p in position.players
            if in_game(before, p.name) and not in_game(position, p.name)
        ]
        assert outcome["eliminated"] == newly_out
        for p in position.players:
            if not in_game(position, p.name):
                assert p.hand == []

        left = [p.name for p in position.players if in_game(position, p.name)]
        if outcome["winner"] is not None:
            winner = outcome["winner"]
            assert left == [winner]
            break
        assert len(left) >= 2

        # The next turn: its player draws one card, unless the turn is lost (FAC-4, FAC-R3).
        if outcome["next_turn"] is not None:
            assert outcome["next_turn"]["player"] == position.turn
            assert in_game(position, position.turn)
            if outcome["next_turn"]["draws"]:
                if not deck:
                    deck, pile = pile, []
                    rng.shuffle(deck)
                if deck:
                    player(position, position.turn).hand.append(deck.pop())
        # Cards are conserved.
        assert cards_in_play(position, deck, pile) == everything
    assert winner is not None, "the game did not end"
    assert cards_in_play(position, deck, pile) == everything
    assert [p.name for p in position.players if in_game(position, p.name)] == [winner]
    # The engine refuses to rule once the game is over, and the standings name the winner.
    with pytest.raises(ImpossiblePosition, match="the game is over"):
        engine.check(replace(position, catalog=CATALOG))
    result = engine.check(replace(position, catalog=CATALOG, to_move=False)).score()
    assert result.winner == winner
    assert sorted(result.eliminated) == sorted(n for n in NAMES[:players] if n != winner)
