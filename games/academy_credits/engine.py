"""Academy Credits: is this play legal, and what does it do? (plain Python, no Django import)

A position is the table at the moment the cadet whose turn it is has drawn (AC-3.1): every cadet
in seat order (in the round or out, shielded by Jay-Den Kraag, marked by Caleb Mir, the cards face
up in front of them, the card in hand when it is known), the two cards of the cadet to move and
the cards left in the deck after that draw (the set-aside card is not counted in it). A move is
the card played, its target (a cadet), its guess (a card) and whether the player confirmed.

Card behaviour comes from each card's effect kind (the catalog's ``effect`` attribute), never
from its name:

=========================  ===========  ======================================================
effect                     target       what it does (rule)
=========================  ===========  ======================================================
``bonus_credit_if_sole``   none         nothing now; counts for the bonus at the round's end
                                        (AC-6.3, AC-R7)
``guess_card``             another      name a card (not a ``guess_card`` card); a target who
                                        holds it is out (AC-R4, AC-4.3)
``look_at_hand``           another      the player sees the target's card (AC-R3)
``compare_hands``          another      the lower card is out; a tie does nothing (AC-R3)
``protection``             none         the player cannot be targeted until the start of their
                                        next turn (AC-5.1)
``force_discard``          any          the target (the player too) discards their card without
                                        effect and draws a new one, the set-aside card when
                                        the deck is empty; discarding an ``eliminates_holder``
                                        card puts them out, with no redraw (AC-R4, AC-5.3)
``draw_two_keep_one``      none         draw up to two, keep one card of the hand, the others
                                        to the bottom; no effect on an empty deck (AC-R4, AC-5.4)
``trade_hands``            another      trade hands (AC-R4)
``mark_target``            any          mark a cadet still in and not protected (AC-R6)
``must_play_over``         none         nothing; it must be played when held with a
                                        ``trade_hands`` or ``force_discard`` card (AC-4.1)
``eliminates_holder``      none         its player is out (AC-R4); allowed, but the game asks
                                        to confirm (AC-4)
=========================  ===========  ======================================================

The rulings of the open points this engine applies (``rules/academy-credits.md``):

* AC-R5: a card that needs another cadet, when every other cadet still in is protected or out,
  is played with no target and no effect; a ``force_discard`` card must then target its player.
* AC-R6: the mark lasts until the next card played *at another cadet* (a target that is not its
  player); that card must target the marked cadet if it can (the marked cadet is in, not
  protected, and not the player unless the card may target its player), otherwise its target is free; either way the mark clears. A
  card aimed at its own player, or at nobody, leaves the mark in place. Tableside's reading
  where the text is silent: one cadet is marked at a time, so a new mark replaces the old one.
* AC-R6 for the marked player: when the cadet to move is the marked cadet, a card that may
  target its own player (``may_target_player``: its effect kind, ``force_discard`` or
  ``mark_target``) can target the marked cadet, so played at another cadet it must target its
  player instead; a card that needs another cadet cannot target the marked player, so its target
  is free (and the mark clears).
* A cadet's own protection ends at the start of their turn (AC-5.1), so a position that shows
  the cadet to move shielded cannot exist (``turn_protected``).
* The deck count is asked only when the answer needs it: legality never depends on it, so an
  illegal play is ruled without it; a legal play is answered ``deck_count_required`` unless it
  leaves one cadet standing in every case (the round then ends whatever the deck holds).
* A move that names no target when exactly one target is legal is ruled with that target (and a
  warning saying so); with several, the ruling needs the target (``needs_information``).

Verdicts and codes (``Ruling.code``; the checks stop at the first that fails):

========================  ==================  =================================================
code                      verdict, rule       the play …
========================  ==================  =================================================
``legal_play``            legal, per effect   is legal; ``outcome`` says what happens
``no_effect_no_target``   legal, AC-R5        needs another cadet but none can be targeted
``no_effect_empty_deck``  legal, AC-5.4       draws from an empty deck: no effect
``eliminates_player``     legal, AC-4         eliminates its player (warns unless ``confirm``)
``not_in_hand``           illegal, AC-3.2     plays a card that is not one of the two in hand
``must_play_nahla_ake``   illegal, AC-4.1     plays a ``trade_hands``/``force_discard`` card
                                              while holding a ``must_play_over`` card
``target_absent``         illegal, AC-3.3     targets nobody at the table
``target_self``           illegal, per effect targets its own player with a card that needs
                                              another cadet
``target_eliminated``     illegal, AC-4.2     targets a cadet who is out
``target_protected``      illegal, AC-4.2     targets a cadet protected by Jay-Den Kraag
``must_target_marked``    illegal, AC-4.4     ignores Caleb Mir's mark (AC-R6); AC-R6 itself
                                              when the marked cadet is the player
``cannot_name_lura_thok`` illegal, AC-4.3     names a ``guess_card`` card as the guess
``effect_unknown``        needs_information   plays a card whose effect the catalog does not
                                              know (never guessed)
``target_required``       needs_information   needs a target and several are legal
``guess_required``        needs_information   needs a guess and gives none
``deck_count_required``   needs_information   is legal, but what it does depends on the cards
                          (AC-6.1, AC-5.3,    left in the deck, which the position does not
                          AC-5.4)             give (``missing`` asks for them)
========================  ==================  =================================================

An illegal play lists ``alternatives``: every legal play of the position (hand order, then
targets in seat order, then guesses by value). A legal play's ``outcome`` says what happens as
far as the position tells; where it depends on a card nobody knows, ``cases`` states each
possibility ("if Ben holds Tarima Sadel (10): …").

``check`` checks a position once and gives its board (``AcademyBoard``), which rules on plays
when a cadet is to move and scores the round (games.academy_credits.scorer) at a round's end,
where no cadet is to move (the score request's players, deck count, options and starter; its
paths have no "position." prefix). A position that cannot exist raises ``ImpossiblePosition`` (a
400) with one entry per contradiction, each with its path in the request:

=======================  ========================================================================
code                     the position …
=======================  ========================================================================
``too_many_cadets``      seats more cadets than the game allows (4)
``too_few_cadets``       seats fewer than the game needs (2)
``duplicate_cadet``      seats two cadets with the same name
``turn_absent``          gives the turn to a cadet who is not at the table
``turn_out``             gives the turn to a cadet who is out of the round
``turn_protected``       shows the cadet to move shielded: protection ends at the start of their
                         turn (AC-5.1)
``round_over``           has fewer than two cadets in the round: the round is over (AC-6.1)
``hand_size``            gives the cadet to move other than two cards (AC-3.1)
``turn_hand_mismatch``   shows the cadet to move holding a card that is not one of the two
``hand_of_eliminated``   shows a card in the hand of a cadet who is out (AC-6.4)
``eliminated_without_discard``  shows a cadet who is out with no card face up: an eliminated
                         cadet discards their card face up (AC-6.4)
``match_over``           shows a cadet who already holds the credits target of the options in
                         force: the match is over (AC-6.5)
``too_many_copies``      shows more copies of a card than the deck has (hands, discards and the
                         move's card counted; AC-R2)
``too_many_cards``       accounts for more cards than the deck has (set-aside card, deck, hands
                         and discards; AC-2, AC-R9)
``several_marked``       marks more than one cadet (AC-R6)
``mark_without_card``    marks a cadet though no ``mark_target`` card is face up
``shield_without_card``  shields a cadet who has no ``protection`` card face up in front of them
``eliminated_still_in``  shows a cadet still in the round with an ``eliminates_holder`` card
                         (Tarima Sadel) face up in front of them: playing or discarding it puts
                         its cadet out (AC-R12)
``shield_of_eliminated``  shields a cadet who is out of the round: protection ends at the start
                         of one's own turn and nobody knocks out a protected cadet (AC-R12)
``no_cadet_left``        (a round's end) has nobody still in the round (AC-6.1)
``round_not_over``       (a round's end) has two or more cadets in and cards left in the deck
``unknown_starter``      (a round's end) names a starter who is not at the table
=======================  ========================================================================

The turn, the hand, the marks and the shields of cadets still in are checked only when a cadet is
to move (the score does not depend on marks and shields); a cadet who is out is never shielded
(AC-R12), whenever the position is. The cards seen count the set-aside card when a cadet is to
move, and at a round's end while the deck still holds cards: it is drawn only from an empty deck
(AC-5.3, AC-R12), so only a round that emptied the deck may have drawn it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from games.academy_credits.model import (
    BONUS,
    COMPARE,
    DRAW,
    ELIMINATES,
    FORCE,
    GUESS,
    LOOK,
    MARK,
    MUST_PLAY,
    PROTECT,
    TRADE,
    Cadet,
    CardSpec,
    Position,
    credits_target,
)
from games.academy_credits.scorer import RoundScore, score_round
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

_list = partial(listing, empty="nobody")  # an empty list here is of cadets

# --- Effect kinds (the catalog's "effect" attribute, named in games.academy_credits.model) ----------

EFFECTS = (BONUS, GUESS, LOOK, COMPARE, PROTECT, FORCE, DRAW, TRADE, MARK, MUST_PLAY, ELIMINATES)

TARGETS_OTHER = frozenset({GUESS, LOOK, COMPARE, TRADE})  # "choose another cadet"
TARGETS_ANY = frozenset({FORCE, MARK})  # any cadet, the player included
NO_TARGET = frozenset({BONUS, PROTECT, DRAW, MUST_PLAY, ELIMINATES})
# AC-4.1: a must_play_over card must be played rather than a card with one of these effects.
PLAYED_OVER = frozenset({TRADE, FORCE})
# The rule each effect rests on (the legal ruling cites it).
EFFECT_RULE = {
    BONUS: "AC-6.3",
    GUESS: "AC-R4",
    LOOK: "AC-R3",
    COMPARE: "AC-R3",
    PROTECT: "AC-5.1",
    FORCE: "AC-R4",
    DRAW: "AC-R4",
    TRADE: "AC-R4",
    MARK: "AC-R6",
    MUST_PLAY: "AC-R4",
    ELIMINATES: "AC-R4",
}
SET_ASIDE = 1  # one card set aside face down, whatever the number of cadets (AC-2.2, AC-R9)
# Face up, out, shielded: what a cadet's cards in front say of them, and the set-aside card
# while the deck holds cards.
FACE_UP_RULE = "AC-R12"

LEGAL_CODES = ("legal_play", "no_effect_no_target", "no_effect_empty_deck", "eliminates_player")
ILLEGAL_CODES = (
    "not_in_hand",
    "must_play_nahla_ake",
    "target_absent",
    "target_self",
    "target_eliminated",
    "target_protected",
    "must_target_marked",
    "cannot_name_lura_thok",
)
NEEDS_INFORMATION_CODES = (
    "effect_unknown",
    "target_required",
    "guess_required",
    "deck_count_required",
)
IMPOSSIBLE_CODES = (
    "too_many_cadets",
    "too_few_cadets",
    "duplicate_cadet",
    "turn_absent",
    "turn_out",
    "round_over",
    "hand_size",
    "turn_hand_mismatch",
    "hand_of_eliminated",
    "too_many_copies",
    "too_many_cards",
    "several_marked",
    "mark_without_card",
    "shield_without_card",
    "turn_protected",
    "eliminated_without_discard",
    "match_over",
    "eliminated_still_in",
    "shield_of_eliminated",
)  # a play's; the end of a round also has these:
ROUND_IMPOSSIBLE_CODES = ("no_cadet_left", "round_not_over", "unknown_starter")


@dataclass(frozen=True)
class Move:
    play: CardSpec
    target: str | None = None
    guess: CardSpec | None = None
    confirm: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "play": self.play.name,
            "target": self.target,
            "guess": self.guess.name if self.guess else None,
            "confirm": self.confirm,
        }


# --- The position -------------------------------------------------------------------------------


def check(position: Position) -> AcademyBoard:
    """The position checked once, as its board: a play to rule on when a cadet is to move, the
    end of a round to score when none is. Raises ImpossiblePosition naming every contradiction
    (paths are the position's own: the one flow, games.services, places them in the body); the
    board's warnings are what the check noticed without refusing the position. The card of the
    play to rule on (``position.played``) counts among the copies when it is not in the hand."""
    players, deck = position.players, position.deck_count
    count = len(players)
    to_move = position.turn is not None
    errors: list[dict[str, Any]] = []

    def error(path: str, code: str, detail: str) -> None:
        errors.append({"path": path, "code": code, "detail": detail})

    # The table: the cadets, their names, the cadets who are out.
    low, high = position.min_players, position.max_players
    if count > high:
        error(
            "players",
            "too_many_cadets",
            f"The table seats {count} cadets; Academy Credits is for {low} to {high}.",
        )
    elif count < low:
        error(
            "players",
            "too_few_cadets",
            f"The table seats {count} cadet{'' if count == 1 else 's'}; Academy Credits is for "
            f"{low} to {high}.",
        )
    seen: dict[str, int] = {}
    for index, cadet in enumerate(players):
        key = cadet.name.casefold()
        if key in seen:
            error(
                f"players[{index}].name",
                "duplicate_cadet",
                f"Two cadets are called {cadet.name} (seats {seen[key] + 1} and {index + 1}); "
                "every cadet needs a name of their own.",
            )
        else:
            seen[key] = index
        if not cadet.in_round and cadet.hand is not None:
            error(
                f"players[{index}].hand",
                "hand_of_eliminated",
                f"{cadet.name} is out of the round, so holds no card: eliminated cadets "
                f"discard their card face up (AC-6.4); put {cadet.hand.name} among "
                f"{cadet.name}'s discards.",
            )
        elif not cadet.in_round and not cadet.discards:
            error(
                f"players[{index}].discards",
                "eliminated_without_discard",
                f"{cadet.name} is out of the round but has no card face up: an eliminated "
                f"cadet discards their card face up (AC-6.4), so at least that card is in "
                f"front of {cadet.name}. Add it to {cadet.name}'s cards in front.",
            )
        eliminating = next((card for card in cadet.discards if card.effect == ELIMINATES), None)
        if cadet.in_round and eliminating is not None:
            error(
                f"players[{index}].in_round",
                "eliminated_still_in",
                f"{eliminating.label} is face up in front of {cadet.name}, but {cadet.name} is "
                f"shown still in the round: a cadet who plays or discards {eliminating.label} "
                f"is out of the round ({FACE_UP_RULE}). Mark {cadet.name} as out, or take "
                f"{eliminating.label} from {cadet.name}'s cards in front.",
            )
        if not cadet.in_round and cadet.shielded:
            error(
                f"players[{index}].shielded",
                "shield_of_eliminated",
                f"{cadet.name} is out of the round but shown shielded: protection lasts until "
                "the start of one's own turn, and nobody can knock out a protected cadet, so a "
                f"cadet who is out is never shielded ({FACE_UP_RULE}). Clear {cadet.name}'s "
                "shield.",
            )
    target = credits_target(position)
    for index, cadet in enumerate(players):
        if target is not None and cadet.credits >= target:
            error(
                f"players[{index}].credits",
                "match_over",
                f"{cadet.name} already has {cadet.credits} "
                f"credit{'' if cadet.credits == 1 else 's'}, at or above the target of "
                f"{target}: the match is over (AC-6.5), so no round is played after it.",
            )

    # The turn, and who is still in.
    mover = _mover(position)
    if to_move and mover is None:
        error(
            "turn",
            "turn_absent",
            f"It is {position.turn}'s turn, but no cadet of that name is at the table "
            f"({_list([c.name for c in players])}).",
        )
    elif mover is not None and not mover.in_round:
        error(
            "turn",
            "turn_out",
            f"It is {mover.name}'s turn, but {mover.name} is out of the round: eliminated "
            "cadets sit out the rest of the round (AC-6.4).",
        )
    elif mover is not None and mover.shielded:
        error(
            f"players[{players.index(mover)}].shielded",
            "turn_protected",
            f"{mover.name} is shown shielded, but it is {mover.name}'s turn: Jay-Den Kraag "
            "protects only until the start of the cadet's next turn (AC-5.1), so "
            f"{mover.name}'s protection has ended. Clear {mover.name}'s shield.",
        )
    in_round = [c.name for c in players if c.in_round]
    if to_move and len(in_round) < 2 and count >= low:
        left = "nobody is" if not in_round else f"only {in_round[0]} is"
        error(
            "players",
            "round_over",
            f"{left.capitalize()} still in the round, so the round is over (AC-6.1): no turn "
            "follows. Score the round instead.",
        )
    elif not to_move and not in_round and count:
        error(
            "players",
            "no_cadet_left",
            "Nobody is still in the round; a round always ends "
            "with at least one cadet in it (AC-6.1).",
        )
    elif not to_move and len(in_round) >= 2 and deck:
        error(
            "deck_count",
            "round_not_over",
            f"{len(in_round)} cadets are still in and {deck} card{'' if deck == 1 else 's'} "
            f"{'is' if deck == 1 else 'are'} left in the deck: the round is not over (it ends "
            "when one cadet is left or the deck runs out, AC-6.1).",
        )
    hand_names = [card.name for card in position.hand]
    if to_move and len(position.hand) != 2:
        error(
            "hand",
            "hand_size",
            f"The cadet to move holds {_cards(len(position.hand))}; after the draw a cadet "
            "holds exactly two (AC-3.1).",
        )
    if (
        mover is not None
        and mover.in_round
        and mover.hand is not None
        and mover.hand.name not in hand_names
    ):
        error(
            f"players[{players.index(mover)}].hand",
            "turn_hand_mismatch",
            f"{mover.name} is shown holding {mover.hand.name}, which is not one of the two "
            f"cards of the hand ({_list(hand_names)}).",
        )

    # Copies, card by card, and the cards in all.
    what = "position" if to_move else "round"
    counts, where = _seen_cards(position, mover)
    played = position.played
    if played is not None and played.name not in hand_names:
        counts[played.name] = counts.get(played.name, 0) + 1
        where.setdefault(played.name, []).append("played by the move")
    by_name = {card.name: card for card in position.cards}
    for name, seen_count in counts.items():
        card = by_name.get(name)
        if card is not None and seen_count > card.copies:
            errors.append(
                {
                    "path": "" if to_move else "players",
                    "code": "too_many_copies",
                    "detail": f"The {what} shows {seen_count} copies of {card.label} "
                    f"({_list(_grouped(where[name]))}), but the deck has "
                    f"{card.copies} (AC-R2).",
                }
            )
    total = sum(card.copies for card in position.cards)
    # Every cadet in the round holds a card, known or not.
    in_hands = len(position.hand) + sum(1 for c in players if c.in_round and c is not mover)
    discarded = sum(len(c.discards) for c in players)
    # By a round's end the set-aside card may have been drawn, but only from an empty deck
    # (AC-5.3): while the deck holds cards it is still set aside (AC-R12).
    still_set_aside = not to_move and bool(deck)
    set_aside = SET_ASIDE if to_move or still_set_aside else 0
    accounted = set_aside + (deck or 0) + in_hands + discarded
    parts = ([f"{SET_ASIDE} set aside"] if set_aside else []) + [
        "the deck not counted" if deck is None else f"{deck} in the deck",
        f"{in_hands} in hands",
        f"{discarded} face up",
    ]
    if accounted > total:
        why = (
            ": while the deck holds cards the set-aside card has not been drawn, so it is "
            f"still set aside (AC-2.1, {FACE_UP_RULE})"
            if still_set_aside
            else f" (AC-2.1{', AC-2.2' if to_move else ''})"
        )
        error(
            "players" if deck is None else "deck_count",
            "too_many_cards",
            f"The {what} accounts for {accounted} cards ({', '.join(parts)}), but the deck has "
            f"{total}{why}.",
        )

    # Marks and shields need their card face up; the score does not depend on them.
    marked = [(i, c) for i, c in enumerate(players) if c.marked] if to_move else []
    mark_cards = [card for card in position.cards if card.effect == MARK]
    if len(marked) > 1:
        error(
            f"players[{marked[1][0]}].marked",
            "several_marked",
            f"{_list([c.name for _, c in marked])} are all marked; one cadet is marked at a "
            "time (AC-R6: a mark lasts until the next card played at another cadet).",
        )
    elif marked and not any(card.effect == MARK for c in players for card in c.discards):
        names = _list([card.label for card in mark_cards]) if mark_cards else "a marking card"
        error(
            f"players[{marked[0][0]}].marked",
            "mark_without_card",
            f"{marked[0][1].name} is marked, but no {names} is face up in front of any cadet: "
            "only that card marks a cadet (AC-5.2).",
        )
    protect_cards = [card for card in position.cards if card.effect == PROTECT]
    for index, cadet in enumerate(players):
        if (
            to_move
            and cadet.shielded
            and cadet.in_round
            and cadet is not mover
            and not any(card.effect == PROTECT for card in cadet.discards)
        ):
            names = _list([card.label for card in protect_cards]) or "a protection card"
            error(
                f"players[{index}].shielded",
                "shield_without_card",
                f"{cadet.name} is shown shielded, but no {names} is face up in front of "
                f"{cadet.name}: only playing it protects a cadet (AC-5.1).",
            )
    if position.starter is not None and position.starter not in [c.name for c in players]:
        error(
            "starter",
            "unknown_starter",
            f"{position.starter} is not at the table; the "
            f"cadets are {_list([c.name for c in players])}.",
        )
    if errors:
        raise ImpossiblePosition(errors)

    warnings: list[str] = []
    if to_move and accounted < total and deck is not None:
        gap = total - accounted
        two = (
            (" In a game of two, nothing is removed face up: only the one set-aside card (AC-R9).")
            if count == 2
            else ""
        )
        warnings.append(
            f"The position accounts for {accounted} of the {total} cards ({', '.join(parts)}): "
            f"{gap} card{' is' if gap == 1 else 's are'} missing from the discards or the deck "
            f"count, so what the position tells about unseen cards may be off.{two}"
        )
    return AcademyBoard(position, warnings)


def _seen_cards(
    position: Position, mover: Cadet | None
) -> tuple[dict[str, int], dict[str, list[str]]]:
    """How many copies of each card the position shows, and where."""
    counts: dict[str, int] = {}
    where: dict[str, list[str]] = {}

    def add(card: CardSpec, place: str) -> None:
        counts[card.name] = counts.get(card.name, 0) + 1
        where.setdefault(card.name, []).append(place)

    mover_name = mover.name if mover else position.turn
    for card in position.hand:
        add(card, f"in {mover_name}'s hand")
    for cadet in position.players:
        if cadet.hand is not None and cadet is not mover:
            add(cadet.hand, f"in {cadet.name}'s hand")
        for card in cadet.discards:
            add(card, f"in front of {cadet.name}")
    return counts, where


def unseen(position: Position) -> dict[str, int]:
    """Copies of each card nobody can see: in the deck, set aside or in an unknown hand."""
    counts, _ = _seen_cards(position, _mover(position))
    return {card.name: card.copies - counts.get(card.name, 0) for card in position.cards}


# --- The ruling ---------------------------------------------------------------------------------


class AcademyBoard:
    """A position check() accepted (a games.protocol.Board): with a cadet to move it lists and
    rules on plays; at the end of a round it scores the round (games.academy_credits.scorer)."""

    def __init__(self, position: Position, warnings: list[str]) -> None:
        self.position = position
        self.warnings = warnings

    def legal_moves(self) -> list[Move]:
        """Every legal play of the position, fully specified (targets and guesses named, Tarima
        Sadel confirmed): hand order, then targets in seat order, then guesses by value."""
        position = self.position
        if position.turn is None:
            return []
        guesses = sorted(
            (c for c in position.cards if c.effect is not None and c.effect != GUESS),
            key=lambda c: (c.value if c.value is not None else 99, c.name),
        )
        moves: list[Move] = []
        seen: set[str] = set()
        for card in position.hand:
            if card.name in seen or card.effect is None:
                continue
            seen.add(card.name)
            candidates: list[Move] = []
            if card.effect in NO_TARGET:
                candidates.append(Move(card, confirm=card.effect == ELIMINATES))
            else:
                targets = legal_targets(position, card)
                if not targets:
                    candidates.append(Move(card))
                for target in targets:
                    if card.effect == GUESS:
                        candidates += [Move(card, target=target, guess=g) for g in guesses]
                    else:
                        candidates.append(Move(card, target=target))
            for candidate in candidates:
                if _judge(position, candidate).verdict == LEGAL:
                    moves.append(candidate)
        return moves

    def rule(self, move: Move) -> Ruling:
        position = self.position
        if position.turn is None:
            raise ValueError("The end of a round has no cadet to move: score it instead.")
        judgement = _judge(position, move)
        checks = [Check(rule=c.rule, passed=c.passed, detail=c.detail) for c in judgement.checks]
        warnings = self.warnings + judgement.warnings
        if judgement.verdict == ILLEGAL:
            return Ruling(
                verdict=ILLEGAL,
                code=judgement.code,
                reason=judgement.detail,
                rule=judgement.rule,
                checks=checks,
                alternatives=[m.as_dict() for m in self.legal_moves()],
                warnings=warnings,
            )
        unknown_deck = position.deck_count is None
        if judgement.verdict == NEEDS_INFORMATION:
            missing = list(judgement.missing)
            if unknown_deck and judgement.code in ("target_required", "guess_required"):
                missing.append(_deck_count_missing(position))  # the outcome will need it too
            return Ruling(
                verdict=NEEDS_INFORMATION,
                code=judgement.code,
                reason=judgement.detail,
                rule=judgement.rule,
                checks=checks,
                missing=missing,
                warnings=warnings,
            )
        if unknown_deck:
            return _without_deck_count(position, judgement, checks, warnings)
        outcome = _outcome(position, judgement.move, judgement.code)
        reason = f"Legal: {outcome['summary'][0]}"
        if len(outcome["summary"]) > 1:
            reason += " " + outcome["summary"][1]
        return Ruling(
            verdict=LEGAL,
            code=judgement.code,
            reason=reason,
            rule=judgement.rule,
            checks=checks,
            outcome=outcome,
            warnings=warnings,
        )

    def score(self, moves: Sequence[Move] = ()) -> RoundScore:
        """The credits of the round (raises MissingFacts for a showdown card it lacks)."""
        if self.position.turn is not None or moves:
            raise NotScored("Academy Credits scores a round at its end, with no cadet to move.")
        return score_round(self.position)


DECK_PROBE = 1  # any count: a play that leaves one cadet standing ends the round whatever it is


def _without_deck_count(
    position: Position, judgement: _Judgement, checks: list[Check], warnings: list[str]
) -> Ruling:
    """A legal play in a position that does not say how many cards are left in the deck. The
    play is legal whatever the deck holds; what it does depends on the count (the round ends
    when the deck runs out, The Doctor draws from it, Darem Reymi's redraw comes from it) unless
    the play leaves one cadet standing in every case: that outcome is given, the rest asks for
    the count (``deck_count_required``)."""
    move = judgement.move
    outcome = _outcome(replace(position, deck_count=DECK_PROBE), move, judgement.code)
    worlds = outcome["cases"] or [outcome]
    if all(world["in_round"] is not None and len(world["in_round"]) == 1 for world in worlds):
        outcome["deck_count"] = None
        for case in outcome["cases"]:
            case["deck_count"] = None
        reason = f"Legal: {outcome['summary'][0]}"
        if len(outcome["summary"]) > 1:
            reason += " " + outcome["summary"][1]
        return Ruling(
            verdict=LEGAL,
            code=judgement.code,
            reason=reason,
            rule=judgement.rule,
            checks=checks,
            outcome=outcome,
            warnings=warnings,
        )
    card = move.play
    if card.effect == DRAW:
        rule, why = "AC-5.4", f"{card.name} draws up to two cards, and none from an empty deck"
    elif card.effect == FORCE and move.target is not None:
        rule, why = (
            "AC-5.3",
            (
                "the cadet who discards draws from the deck, or takes the "
                "set-aside card when the deck is empty"
            ),
        )
    else:
        rule, why = "AC-6.1", "the round ends when the deck runs out at the end of a turn"
    aimed = f" at {move.target}" if move.target else ""
    named = f", naming {move.guess.label}," if move.guess and card.effect == GUESS else ""
    reason = (
        f"Playing {card.label}{aimed}{named} is legal, but what happens depends on how "
        f"many cards are left in the deck: {why} ({rule})."
    )
    return Ruling(
        verdict=NEEDS_INFORMATION,
        code="deck_count_required",
        reason=reason,
        rule=rule,
        checks=checks,
        missing=[_deck_count_missing(position)],
        warnings=warnings,
    )


def _deck_count_missing(position: Position) -> dict[str, Any]:
    return {
        "path": "position.deck_count",
        "detail": f"How many cards are left in the deck, after {position.turn}'s draw this "
        "turn? (The set-aside card does not count.)",
    }


def legal_targets(position: Position, card: CardSpec) -> list[str]:
    """The cadets the card may be aimed at, in seat order, the mark and AC-R5 applied. Empty for
    a card that needs no target, and for one that needs another cadet when none can be
    targeted (it is then played with no effect)."""
    if card.effect not in TARGETS_OTHER and card.effect not in TARGETS_ANY:
        return []
    player = _player(position)
    open_ = [c.name for c in position.players if c.in_round and not _protected(position, c)]
    others = [name for name in open_ if name != player]
    marked = _marked_target(position, card)
    if card.effect in TARGETS_OTHER:
        if not others:
            return []
        return [marked] if marked else others
    if not others:
        return [player]  # AC-R5: Darem Reymi must target its player; the mark can go on self
    if marked:
        return [name for name in open_ if name in (player, marked)]
    return open_


def _mover(position: Position) -> Cadet | None:
    return next((c for c in position.players if c.name == position.turn), None)


def _player(position: Position) -> str:
    """The cadet to move, whose play is ruled on (the board rules only where there is one)."""
    if position.turn is None:
        raise ValueError("A play is ruled on only in a position with a cadet to move.")
    return position.turn


def _protected(position: Position, cadet: Cadet) -> bool:
    """Shielded, unless it is the cadet's own turn: protection ends then (AC-5.1)."""
    return cadet.shielded and cadet.in_round and cadet.name != position.turn


def _marked(position: Position) -> Cadet | None:
    return next((c for c in position.players if c.marked), None)


def may_target_player(card: CardSpec) -> bool:
    """Whether the card may be aimed at its own player: from its effect kind (card data), never
    its name (AC-R4: Darem Reymi "yourself included"; the others "another cadet")."""
    return card.effect in TARGETS_ANY


def _marked_target(position: Position, card: CardSpec) -> str | None:
    """The marked cadet, if a card played at another cadet must be aimed at them (AC-R6: "if
    the marked cadet can be targeted by it"): in the round, not protected, and, when the marked
    cadet is the player, only for a card that may target its player."""
    marked = _marked(position)
    if marked is None or not marked.in_round or _protected(position, marked):
        return None
    if marked.name == position.turn and not may_target_player(card):
        return None
    return marked.name


@dataclass
class _Judgement:
    verdict: str
    code: str
    rule: str
    detail: str
    checks: list[Check]
    move: Move
    missing: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _judge(position: Position, move: Move) -> _Judgement:
    checks: list[Check] = []
    warnings: list[str] = []
    player = _player(position)
    card = move.play
    hand = position.hand

    def stop(
        verdict: str, code: str, rule: str, detail: str, missing: list[dict[str, Any]] | None = None
    ) -> _Judgement:
        if verdict == ILLEGAL:
            checks.append(Check(rule, False, detail))
        return _Judgement(verdict, code, rule, detail, checks, move, missing or [], warnings)

    # The turn (AC-3.1) and the card played (AC-3.2).
    checks.append(
        Check(
            "AC-3.1",
            True,
            f"It is {player}'s turn: {player} is in the round and "
            f"holds two cards after the draw, {_list([c.label for c in hand])}.",
        )
    )
    names = [c.name for c in hand]
    if card.name not in names:
        return stop(
            ILLEGAL,
            "not_in_hand",
            "AC-3.2",
            f"{card.label} is not in {player}'s hand, so it cannot be played; the hand "
            f"holds {_list([c.label for c in hand])}.",
        )
    other = hand[1] if names[0] == card.name else hand[0]
    checks.append(
        Check(
            "AC-3.2",
            True,
            f"{card.label} is one of the two cards in hand; {player} keeps {other.label}.",
        )
    )
    if card.effect is None:
        detail = (
            f"The catalog does not know what {card.name} does (its effect is unknown), so "
            f"Tableside cannot rule on playing it; an admin can transcribe it."
        )
        return stop(
            NEEDS_INFORMATION,
            "effect_unknown",
            "AC-3.4",
            detail,
            [{"path": f"cards.{card.name}.effect", "detail": detail}],
        )

    # AC-4.1: Nahla Ake over Jett Reno or Darem Reymi.
    over = _names_with(position, PLAYED_OVER)
    musts = _names_with(position, {MUST_PLAY})
    if card.effect in PLAYED_OVER and other.effect == MUST_PLAY:
        return stop(
            ILLEGAL,
            "must_play_nahla_ake",
            "AC-4.1",
            f"The hand holds {other.label} with {card.label}, so {other.name} must be played.",
        )
    if card.effect in PLAYED_OVER and other.effect is None:
        detail = (
            f"The catalog does not know what {other.name} does, so Tableside cannot tell "
            f"whether it must be played instead of {card.name} (AC-4.1)."
        )
        return stop(
            NEEDS_INFORMATION,
            "effect_unknown",
            "AC-4.1",
            detail,
            [{"path": f"cards.{other.name}.effect", "detail": detail}],
        )
    if card.effect == MUST_PLAY and other.effect in PLAYED_OVER:
        checks.append(
            Check(
                "AC-4.1",
                True,
                f"{card.label} is played, as it must be when held with {other.label}.",
            )
        )
    else:
        checks.append(
            Check(
                "AC-4.1",
                True,
                f"The hand does not hold {musts or 'Nahla Ake'} "
                f"together with {over or 'Jett Reno or Darem Reymi'}.",
            )
        )

    target = move.target
    marked = _marked(position)
    marked_target = _marked_target(position, card)
    if card.effect in NO_TARGET:
        checks.append(Check("AC-3.3", True, f"{card.name} needs no target and no guess."))
        if target is not None:
            warnings.append(f"{card.name} targets nobody; the target {target} is ignored.")
            move = Move(card, None, move.guess, move.confirm)
        if move.guess is not None:
            warnings.append(f"{card.name} takes no guess; the guess {move.guess.name} is ignored.")
            move = Move(card, None, None, move.confirm)
        return _after_target(position, move, checks, warnings, no_target=False)

    seated = {c.name: c for c in position.players}
    open_others = [
        c.name
        for c in position.players
        if c.in_round and not _protected(position, c) and c.name != player
    ]
    legal = legal_targets(position, card)
    needs_other = card.effect in TARGETS_OTHER
    no_target = needs_other and not open_others
    blocked = _blocked(position, player)
    if target is None:
        if no_target:
            checks.append(
                Check(
                    "AC-R5",
                    True,
                    f"No other cadet can be targeted ({blocked}): "
                    f"{card.name} is played with no target and no effect.",
                )
            )
            if move.guess is not None:
                warnings.append(
                    f"With no target, {card.name} has no effect; the guess "
                    f"{move.guess.name} is ignored."
                )
                move = Move(card, None, None, move.confirm)
            return _after_target(position, move, checks, warnings, no_target=True)
        if len(legal) == 1:
            target = legal[0]
            warnings.append(
                f"The move names no target; the only cadet {card.name} can target "
                f"is {target}, so the ruling takes {target} as the target."
            )
            move = Move(card, target, move.guess, move.confirm)
        else:
            detail = (
                f"{card.label} needs a target: {_list(legal)} "
                f"{'can' if len(legal) > 1 else 'could'} be targeted; say which."
            )
            return stop(
                NEEDS_INFORMATION,
                "target_required",
                "AC-3.3",
                detail,
                [{"path": "move.target", "detail": detail, "choices": legal}],
            )
    else:
        if target not in seated:
            return stop(
                ILLEGAL,
                "target_absent",
                "AC-3.3",
                f"{target} is not at the table; the cadets are {_list(list(seated))}.",
            )
        aimed = seated[target]
        if target == player and needs_other:
            if no_target:
                return stop(
                    ILLEGAL,
                    "target_self",
                    "AC-R5",
                    f"{card.name} needs another cadet and no other cadet can be targeted "
                    f"({blocked}): it is played with no target and no effect, not at "
                    f"{player}.",
                )
            return stop(
                ILLEGAL,
                "target_self",
                EFFECT_RULE[card.effect],
                f"{card.name} must target another cadet, not its player, {player}.",
            )
        if not aimed.in_round:
            return stop(
                ILLEGAL,
                "target_eliminated",
                "AC-4.2",
                f"{target} is out of the round and cannot be targeted."
                + _instead(position, card, legal, no_target),
            )
        if _protected(position, aimed):
            return stop(
                ILLEGAL,
                "target_protected",
                "AC-4.2",
                f"{target} is protected by Jay-Den Kraag until the start of their next "
                f"turn and cannot be targeted." + _instead(position, card, legal, no_target),
            )
        checks.append(
            Check(
                "AC-4.2",
                True,
                f"{target} is in the round and not protected."
                if target != player
                else f"{player} targets themself, which {card.name} allows.",
            )
        )
    if card.effect in TARGETS_ANY and not open_others:
        checks.append(
            Check(
                "AC-R5",
                True,
                f"No other cadet can be targeted ({blocked}), so "
                f"{card.name} can only target its player, {player}.",
            )
        )
    # The mark (AC-4.4, AC-R6).
    if marked is not None:
        at_other = target != player
        if not at_other and marked.name == player:
            checks.append(
                Check(
                    "AC-R6",
                    True,
                    f"{card.name} is aimed at its own player, "
                    f"{player}, the marked cadet, as the mark requires; it is not "
                    "played at another cadet, so the mark stays in place.",
                )
            )
        elif not at_other:
            checks.append(
                Check(
                    "AC-R6",
                    True,
                    f"{card.name} is aimed at its own player, not at "
                    f"another cadet, so {marked.name}'s mark does not bind it and "
                    "stays in place.",
                )
            )
        elif marked_target is not None and marked_target == player:
            return stop(
                ILLEGAL,
                "must_target_marked",
                "AC-R6",
                f"{player} is marked by Caleb Mir, and {card.name} can target its own "
                f"player, so the mark binds it: a card played at another cadet must "
                f"target the marked cadet if it can, so {card.name} must target "
                f"{player}, not {target}.",
            )
        elif marked_target is not None and target != marked_target:
            return stop(
                ILLEGAL,
                "must_target_marked",
                "AC-4.4",
                f"{marked_target} is marked by Caleb Mir and can be targeted, so a card "
                f"played at another cadet must target {marked_target}, not {target}.",
            )
        elif marked_target is not None:
            checks.append(
                Check(
                    "AC-4.4",
                    True,
                    f"{target} is the marked cadet, as the mark "
                    "requires; the mark then clears (AC-R6).",
                )
            )
        else:
            checks.append(
                Check(
                    "AC-R6",
                    True,
                    f"{marked.name} is marked but cannot be targeted "
                    f"by this card ({_why_not(position, marked)}), so the target is "
                    "free; the mark then clears.",
                )
            )
    if card.effect == GUESS:
        if move.guess is None:
            choices = [
                c.name
                for c in sorted(position.cards, key=lambda c: c.value or 0)
                if c.effect != GUESS
            ]
            detail = f"{card.name} needs a guess: the card {player} names ({_list(choices)})."
            return stop(
                NEEDS_INFORMATION,
                "guess_required",
                "AC-R4",
                detail,
                [{"path": "move.guess", "detail": detail, "choices": choices}],
            )
        if move.guess.effect == GUESS or move.guess.name == card.name:
            return stop(
                ILLEGAL,
                "cannot_name_lura_thok",
                "AC-4.3",
                f"{card.name} cannot name {move.guess.name}: the guess must be a card "
                f"other than {_names_with(position, {GUESS}) or card.name}.",
            )
        checks.append(
            Check(
                "AC-4.3", True, f"The guess, {move.guess.label}, is a card other than {card.name}."
            )
        )
    elif move.guess is not None:
        warnings.append(f"{card.name} takes no guess; the guess {move.guess.name} is ignored.")
        move = Move(card, move.target if move.target else target, None, move.confirm)
    if move.target is None:
        move = Move(card, target, move.guess, move.confirm)
    return _after_target(position, move, checks, warnings, no_target=False)


def _after_target(
    position: Position, move: Move, checks: list[Check], warnings: list[str], *, no_target: bool
) -> _Judgement:
    card = move.play
    player = _player(position)
    if card.effect is None:
        raise ValueError("A card whose effect is unknown is ruled effect_unknown before this.")
    code, rule = "legal_play", EFFECT_RULE[card.effect]
    if no_target:
        code, rule = "no_effect_no_target", "AC-R5"
    elif card.effect == ELIMINATES:
        checks.append(
            Check(
                "AC-4",
                True,
                f"Playing {card.name} is allowed, but it eliminates "
                f"its player, {player}" + (" (confirmed)." if move.confirm else "."),
            )
        )
        if not move.confirm:
            warnings.append(
                f"Playing {card.name} eliminates {player}: the game asks {player} to "
                'confirm (AC-4). Send "confirm": true once they have.'
            )
        code, rule = "eliminates_player", "AC-4"
    elif card.effect == DRAW:
        deck = position.deck_count
        if deck is None:
            pass  # the ruling asks for the count (deck_count_required)
        elif deck == 0:
            checks.append(
                Check("AC-5.4", True, f"The deck is empty, so {card.name} has no effect.")
            )
            code, rule = "no_effect_empty_deck", "AC-5.4"
        elif deck == 1:
            checks.append(
                Check(
                    "AC-5.4",
                    True,
                    f"One card is left in the deck: {card.name} draws just that one (AC-R4).",
                )
            )
        else:
            checks.append(
                Check("AC-5.4", True, f"The deck holds {deck} cards: {card.name} draws two.")
            )
    elif card.effect == FORCE:
        if position.deck_count == 0:
            checks.append(
                Check(
                    "AC-5.3",
                    True,
                    f"The deck is empty: {move.target} draws the "
                    "set-aside card after discarding, unless the card discarded is "
                    f"{_names_with(position, {ELIMINATES}) or 'Tarima Sadel'}.",
                )
            )
            rule = "AC-5.3"
        elif move.target == player and not any(
            c.in_round and not _protected(position, c) and c.name != player
            for c in position.players
        ):
            rule = "AC-R5"
    return _Judgement(LEGAL, code, rule, "", checks, move, [], warnings)


def _instead(position: Position, card: CardSpec, legal: list[str], no_target: bool) -> str:
    if no_target:
        return f" No other cadet can be targeted, so {card.name} is played with no target (AC-R5)."
    if legal == [position.turn]:
        return (
            f" No other cadet can be targeted, so {card.name} must target its player, "
            f"{position.turn} (AC-R5)."
        )
    if legal:
        return f" {card.name} can target {_list(legal)}."
    return ""


def _blocked(position: Position, player: str) -> str:
    parts = []
    for cadet in position.players:
        if cadet.name == player:
            continue
        if not cadet.in_round:
            parts.append(f"{cadet.name} is out")
        elif _protected(position, cadet):
            parts.append(f"{cadet.name} is protected")
    return _list(parts) if parts else "no other cadet is in the round"


def _why_not(position: Position, cadet: Cadet) -> str:
    if not cadet.in_round:
        return f"{cadet.name} is out"
    if _protected(position, cadet):
        return f"{cadet.name} is protected"
    return f"{cadet.name} is the player"


def _names_with(position: Position, effects: Collection[str]) -> str:
    cards = sorted(
        (c for c in position.cards if c.effect in effects),
        key=lambda c: c.value if c.value is not None else 99,
    )
    labels = [c.label for c in cards]
    if not labels:
        return ""
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " or " + labels[-1]


# --- The outcome --------------------------------------------------------------------------------


@dataclass
class _World:
    """What happens, for one value of the target's card (or with it unknown)."""

    eliminated: list[str] = field(default_factory=list)
    discarded: list[dict[str, Any]] = field(default_factory=list)
    draws: list[dict[str, Any]] = field(default_factory=list)
    deck_count: int = 0
    set_aside_drawn: bool = False
    lines: list[str] = field(default_factory=list)

    def key(self) -> tuple[object, ...]:
        """What the world comes to, to be compared with another's."""
        return (
            tuple(self.eliminated),
            tuple(tuple(sorted(d.items())) for d in self.discarded),
            tuple(tuple(sorted(d.items())) for d in self.draws),
            self.deck_count,
            self.set_aside_drawn,
            tuple(self.lines),
        )


def _outcome(position: Position, move: Move, code: str) -> dict[str, Any]:
    card = move.play
    player = _player(position)
    names = [c.name for c in position.hand]
    kept = position.hand[1] if names[0] == card.name else position.hand[0]
    target = move.target
    seated = {c.name: c for c in position.players}
    effect = card.effect
    has_effect = code not in ("no_effect_no_target", "no_effect_empty_deck") and effect not in (
        BONUS,
        MUST_PLAY,
    )

    # What the play says, whatever the cards.
    aimed = f" at {target}" if target else ""
    named = f", naming {move.guess.label}" if move.guess and effect == GUESS else ""
    summary = [f"{player} plays {card.label}{aimed}{named}."]

    # Shields and the mark after the play.
    protected = [c.name for c in position.players if _protected(position, c)]
    if effect == PROTECT:
        protected.append(player)
        protected = [c.name for c in position.players if c.name in protected]
    marked_before = _marked(position)
    marked_after = marked_before.name if marked_before else None
    mark_cleared = False
    if target is not None and target != player and marked_before is not None:
        marked_after, mark_cleared = None, True
    if effect == MARK and target is not None:
        if marked_before is not None and marked_before.name != target:
            mark_cleared = True
        marked_after = target

    target_card = None
    if target is not None:
        target_card = kept if target == player else seated[target].hand
    depends = (
        has_effect
        and target is not None
        and target != player
        and target_card is None
        and effect in (GUESS, COMPARE, FORCE)
    )
    if depends:
        pool = unseen(position)
        possible = [
            c
            for c in sorted(
                position.cards, key=lambda c: (c.value if c.value is not None else 99, c.name)
            )
            if pool.get(c.name, 0) > 0
        ]
        groups: list[tuple[list[CardSpec], _World]] = []
        for candidate in possible:
            world = _resolve(position, move, kept, candidate, has_effect, hypothetical=True)
            for group in groups:
                if group[1].key() == world.key():
                    group[0].append(candidate)
                    break
            else:
                groups.append(([candidate], world))
        worlds = [world for _, world in groups]
    else:
        world = _resolve(position, move, kept, target_card, has_effect)
        groups, worlds = [], [world]

    if depends and effect == GUESS and len(groups) == 1:
        worlds[0].lines.append(
            f"Every copy of {_guess(move).label} is accounted for elsewhere, "
            f"so {target} cannot hold it."
        )
        groups = []
    cases: list[dict[str, Any]] = []
    for holds, world in groups:
        others = [c for other, _ in groups if other is not holds for c in other]
        cases.append(_case(position, move, world, holds, others, kept))
    common = worlds[0]
    same = all(w.key() == common.key() for w in worlds)
    summary += common.lines if same else []
    if effect == PROTECT:
        summary.append(f"{player} is protected until the start of their next turn (AC-5.1).")
    # A mark clears only where there was one: mark_cleared implies marked_before.
    if effect == MARK and target is not None:
        moved = (
            f"The mark moves from {marked_before.name} to {target}: "
            if mark_cleared and marked_before is not None
            else f"{target} is marked: "
        )
        summary.append(
            moved + f"the next card played at another cadet must target {target} if it can (AC-R6)."
        )
    elif mark_cleared and marked_before is not None:
        summary.append(f"{marked_before.name}'s mark clears (AC-R6).")
    if effect == BONUS:
        summary.append(
            f"No effect now; at the end of the round {card.name} counts for the "
            f"bonus credit if {player} is the only cadet to have played or discarded "
            "one (AC-6.3)."
        )
    if effect == MUST_PLAY:
        summary.append(f"{card.name} has no effect (AC-R4).")
    if code == "no_effect_no_target":
        summary.append("No other cadet can be targeted, so it has no effect (AC-R5).")
    if code == "no_effect_empty_deck":
        summary.append("The deck is empty, so it has no effect (AC-5.4).")
    if effect == LOOK and has_effect and target:
        seen = target_card.label if target_card else f"{target}'s card"
        summary.append(f"{player} sees {seen}; nobody else does.")
    if effect == TRADE and has_effect and target:
        got = target_card.label if target_card else f"{target}'s card"
        summary.append(
            f"{player} and {target} trade hands: {player} takes {got}, {target} takes {kept.label}."
        )
    looks = (
        [{"player": player, "at": target, "card": target_card.name if target_card else None}]
        if effect == LOOK and has_effect and target
        else []
    )
    trade = (
        {
            "players": [player, target],
            "player_gets": target_card.name if target_card else None,
            "target_gets": kept.name,
        }
        if effect == TRADE and has_effect and target
        else None
    )

    # Unknown (None) when the cases disagree.
    ends: bool | None
    in_round: list[str] | None
    ends, reason, in_round, next_turn = _round_end(position, common)
    if not same:
        summary.append(
            f"What happens depends on {target}'s card, which the position does not "
            f"show: see the cases."
        )
        for case in cases:
            summary.append(_sentence(case["if"]) + ": " + " ".join(case["summary"]))
        ends_values = {case["round_ends"] for case in cases}
        ends = ends_values.pop() if len(ends_values) == 1 else None
        if ends is None:
            reason = f"It depends on {target}'s card: see the cases."
        else:
            reasons = {case["round_end_reason"] for case in cases}
            reason = (
                reasons.pop()
                if len(reasons) == 1
                else ("In every case the round " + ("ends." if ends else "goes on."))
            )
        rounds = {tuple(case["in_round"]) for case in cases}
        in_round = list(rounds.pop()) if len(rounds) == 1 else None
        nexts = {case["next_turn"] for case in cases}
        next_turn = nexts.pop() if len(nexts) == 1 else None
        eliminated = [
            n for n in cases[0]["eliminated"] if all(n in case["eliminated"] for case in cases)
        ]
        decks = {case["deck_count"] for case in cases}
        deck_after = decks.pop() if len(decks) == 1 else None
        drawn_aside = {case["set_aside_drawn"] for case in cases}
        set_aside = drawn_aside.pop() if len(drawn_aside) == 1 else None
        discarded = [
            d for d in cases[0]["discarded"] if all(d in case["discarded"] for case in cases)
        ]
        draws = [d for d in cases[0]["draws"] if all(d in case["draws"] for case in cases)]
    else:
        eliminated, deck_after = list(common.eliminated), common.deck_count
        set_aside, discarded, draws = common.set_aside_drawn, common.discarded, common.draws
        summary.append(reason)
    return {
        "summary": summary,
        "player": player,
        "played": card.name,
        "effect": effect,
        "target": target,
        "guess": move.guess.name if move.guess and effect == GUESS else None,
        "has_effect": has_effect,
        "eliminated": eliminated,
        "discarded": discarded,
        "protected": protected,
        "marked": marked_after,
        "mark_cleared": mark_cleared,
        "looks": looks,
        "trade": trade,
        "draws": draws,
        "deck_count": deck_after,
        "set_aside_drawn": set_aside,
        "in_round": in_round,
        "round_ends": ends,
        "round_end_reason": reason,
        "next_turn": next_turn,
        "cases": cases,
        "options": dict(position.options),
    }


def _resolve(
    position: Position,
    move: Move,
    kept: CardSpec,
    target_card: CardSpec | None,
    has_effect: bool,
    *,
    hypothetical: bool = False,
) -> _World:
    """What the play does with the target's card taken as `target_card` (None: unknown). A
    hypothetical card (one case of several) is worded as "the target's card" and recorded as
    None, so the cases with the same result fall together."""
    card, player, target = move.play, _player(position), move.target
    effect = card.effect
    deck = position.deck_count
    if deck is None:
        raise ValueError(
            "The outcome needs the deck count; the ruling probes with one when the "
            "position does not give it."
        )
    world = _World(deck_count=deck)
    known_card = target_card if not hypothetical else None
    theirs = f"{target}'s {known_card.label}" if known_card is not None else f"{target}'s card"
    their_name = known_card.name if known_card is not None else None
    if not has_effect:
        return world
    if effect == ELIMINATES:
        world.eliminated.append(player)
        world.discarded.append(
            {"player": player, "card": kept.name, "reason": "eliminated: discards the card in hand"}
        )
        world.lines.append(
            f"{player} is out of the round (AC-R4) and discards {kept.label} face up (AC-6.4)."
        )
    elif effect == GUESS and target:
        guess = _guess(move)
        if target_card is not None and target_card.name == guess.name:
            world.eliminated.append(target)
            world.discarded.append(
                {
                    "player": target,
                    "card": guess.name,
                    "reason": "eliminated: discards the card in hand",
                }
            )
            world.lines.append(f"{target} holds {guess.label} and is out of the round.")
        else:
            world.lines.append(f"{target} does not hold {guess.label}: nothing happens.")
    elif effect == COMPARE and target:
        mine, yours = kept.value, target_card.value if target_card else None
        if mine is None or yours is None:
            world.lines.append(
                f"{player} and {target} compare hands in private; the catalog "
                "does not know a value, so Tableside cannot say who is out."
            )
        elif mine > yours:
            world.eliminated.append(target)
            world.discarded.append(
                {
                    "player": target,
                    "card": their_name,
                    "reason": "eliminated: discards the card in hand",
                }
            )
            world.lines.append(
                f"{player}'s {kept.label} beats {theirs}: {target} is out of the round."
            )
        elif mine < yours:
            world.eliminated.append(player)
            world.discarded.append(
                {
                    "player": player,
                    "card": kept.name,
                    "reason": "eliminated: discards the card in hand",
                }
            )
            world.lines.append(
                f"{_sentence(theirs)} beats {player}'s {kept.label}: {player} is out of the round."
            )
        else:
            world.lines.append(f"{player}'s {kept.label} ties with {theirs}: nothing happens.")
    elif effect == FORCE and target:
        if target_card is not None and target_card.effect == ELIMINATES:
            world.eliminated.append(target)
            world.discarded.append(
                {"player": target, "card": target_card.name, "reason": "forced discard"}
            )
            world.lines.append(
                f"{target} discards {target_card.label} and is out of the round, "
                "with no new card (AC-R4, AC-5.3)."
            )
        else:
            world.discarded.append(
                {"player": target, "card": their_name, "reason": "forced discard"}
            )
            if deck > 0:
                world.draws.append({"player": target, "count": 1, "from": "deck"})
                world.deck_count = deck - 1
                source = "a new card from the deck"
            else:
                world.draws.append({"player": target, "count": 1, "from": "set_aside"})
                world.set_aside_drawn = True
                source = "the set-aside card, as the deck is empty (AC-5.3)"
            discarded = known_card.label if known_card is not None else "their card"
            world.lines.append(
                f"{target} discards {discarded} face up without its effect and draws {source}."
            )
    elif effect == DRAW:
        drawn = min(2, deck)
        if drawn:
            world.draws.append({"player": player, "count": drawn, "from": "deck"})
            world.lines.append(
                f"{player} draws {_cards(drawn, word=True)}, keeps one of the {drawn + 1} cards "
                f"then in hand ({kept.label} and the card{'s' if drawn > 1 else ''} drawn) and "
                f"puts the other{'s' if drawn > 1 else ''} on the bottom of the deck, which "
                f"still holds {deck} (AC-R4)."
            )
    return world


def _guess(move: Move) -> CardSpec:
    """The card a guess_card play names (_judge asks for it before the play has an effect)."""
    if move.guess is None:
        raise ValueError("A guess_card play with an effect names its guess.")
    return move.guess


def _case(
    position: Position,
    move: Move,
    world: _World,
    holds: list[CardSpec],
    others: list[CardSpec],
    kept: CardSpec,
) -> dict[str, Any]:
    target = move.target
    values = [c.value for c in holds if c.value is not None]
    if move.play.effect == COMPARE and kept.value is not None and len(values) == len(holds):
        cards = _list([c.label for c in holds], "or")
        if max(values) < kept.value:
            shown = f"{target}'s card is lower than {kept.value} ({cards})"
        elif min(values) > kept.value:
            shown = f"{target}'s card is higher than {kept.value} ({cards})"
        else:
            shown = f"{target}'s card is also {kept.value} ({cards})"
        condition = f"if {shown}"
    elif len(holds) == 1:
        condition = f"if {target} holds {holds[0].label}"
    elif len(holds) > len(others) and others:
        condition = (
            f"if {target} holds any other card (not {_list([c.label for c in others], 'or')})"
        )
    else:
        condition = f"if {target} holds {_list([c.label for c in holds], 'or')}"
    discarded = [dict(d) for d in world.discarded]
    if len(holds) == 1:
        for entry in discarded:
            if entry["player"] == target and entry["card"] is None:
                entry["card"] = holds[0].name
    ends, reason, in_round, next_turn = _round_end(position, world)
    return {
        "if": condition,
        "player": target,
        "holds": [c.name for c in holds],
        "summary": world.lines + [reason],
        "eliminated": list(world.eliminated),
        "discarded": discarded,
        "draws": list(world.draws),
        "deck_count": world.deck_count,
        "set_aside_drawn": world.set_aside_drawn,
        "in_round": in_round,
        "round_ends": ends,
        "round_end_reason": reason,
        "next_turn": next_turn,
    }


def _round_end(position: Position, world: _World) -> tuple[bool, str, list[str], str | None]:
    """(round ends, why, cadets still in, who plays next) after the play (AC-6.1)."""
    in_round = [c.name for c in position.players if c.in_round and c.name not in world.eliminated]
    if len(in_round) == 1:
        return (
            True,
            (
                f"Only {in_round[0]} is left in the round: the round ends and "
                f"{in_round[0]} wins it (AC-6.1)."
            ),
            in_round,
            None,
        )
    if world.deck_count == 0:
        return (
            True,
            (
                f"The deck is empty at the end of the turn: the round ends, and "
                f"{_list(in_round)} reveal their cards; the highest wins (AC-6.1, "
                "AC-6.2)."
            ),
            in_round,
            None,
        )
    seats = [c.name for c in position.players]
    start = seats.index(_player(position))
    following = seats[start + 1 :] + seats[: start + 1]
    next_turn = next(name for name in following if name in in_round)
    return (
        False,
        (
            f"The round goes on: {_cards(world.deck_count)} left in the deck, "
            f"{len(in_round)} cadets in; {next_turn} plays next (AC-3.4)."
        ),
        in_round,
        next_turn,
    )


# --- Wording ------------------------------------------------------------------------------------


def _cards(count: int, *, word: bool = False) -> str:
    return _count(count, "card", in_words=word)


def _grouped(places: list[str]) -> list[str]:
    counts: dict[str, int] = {}
    for place in places:
        counts[place] = counts.get(place, 0) + 1
    return [place if n == 1 else f"{n} {place}" for place, n in counts.items()]
