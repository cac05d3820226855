"""Academy Credits: the credits of a round and the match standings (plain Python, no Django).

Input: the cadets in seat order at the end of a round (in the round or out, the cards face up in
front of each, the card in hand of those still in, the credits they had before this round), the
cards left in the deck, the game's cards and the readings in force (options). The round was won
(AC-6.1):

* by the **last cadet standing**, when only one cadet is left in the round; or
* in a **deck-out showdown**, when the deck is empty with two or more cadets in: the highest
  card wins (AC-6.2); tied, the larger sum of the cards face up in front of the cadet, played or
  discarded by Darem Reymi (AC-R8); still tied, every tied cadet earns a credit.

Then the **Charles Vance bonus** (AC-6.3, AC-R7): if exactly one cadet played or discarded a
``bonus_credit_if_sole`` card this round, that cadet gains one credit, win or lose. Reading
``literal`` counts every cadet, eliminated or not; ``still_in_round`` only the cadets still in.
The **target** for the number of cadets comes from the ``credits_target`` option (AC-R1); the
first to reach it wins the match, several at once: the higher total wins, equal totals share the
victory (AC-6.5, AC-R11). When the match goes on, the **next starter** is the round's winner;
after a shared win, the tied winner seated first after the previous starter (AC-R10), which
needs the previous starter.

Every comparison and tie-break is a step with its numbers; ``points`` are the credits a step
awards, ``running_total`` the credits awarded so far this round (``total``).

The round's end is checked once by the engine's ``check`` (no cadet to move), whose board calls
``score_round``. Facts the score needs and the request lacks raise games.protocol's
``MissingFacts``: ``required`` (the card of a cadet in the showdown), ``value_unknown`` (a value
the catalog does not know, never guessed).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol

from games.academy_credits.model import BONUS, Cadet, CardSpec, Position, credits_target
from games.protocol import MissingFacts, Step
from games.wording import listing

_list = partial(listing, empty="nobody")  # an empty list here is of cadets

LITERAL = "literal"
STILL_IN_ROUND = "still_in_round"
READINGS = (LITERAL, STILL_IN_ROUND)

LAST_STANDING = "last_cadet_standing"
SHOWDOWN = "deck_out_showdown"


class _Step(Protocol):
    """score_round's step: one line of the breakdown."""

    def __call__(
        self,
        rule: str,
        detail: str,
        *,
        card: str | None = None,
        player: str | None = None,
        points: int = 0,
    ) -> None: ...


class _Award(Protocol):
    """score_round's award: one credit to a cadet, with its step."""

    def __call__(
        self, player: str, rule: str, reason: str, detail: str, card: str | None = None
    ) -> None: ...


@dataclass
class RoundScore:
    total: int
    steps: list[Step]
    ended_by: str  # LAST_STANDING | SHOWDOWN
    round_winners: list[str]
    awards: list[dict[str, Any]]
    standings: list[dict[str, Any]]
    target: int
    match_winners: list[str]
    next_starter: str | None


def score_round(position: Position) -> RoundScore:
    """The credits of a round's end that engine.check accepted (its board's score)."""
    players, starter, target = position.players, position.starter, credits_target(position)
    charles_vance_bonus = position.options.get("charles_vance_bonus") or LITERAL
    if charles_vance_bonus not in READINGS:
        raise ValueError(f"Unknown reading {charles_vance_bonus!r}; the service validates it.")
    if target is None:
        raise ValueError("No credits target for this number of cadets; the service checks it.")
    _missing_facts(players)
    steps: list[Step] = []
    awarded: dict[str, int] = {c.name: 0 for c in players}
    awards: list[dict[str, Any]] = []

    def step(
        rule: str,
        detail: str,
        *,
        card: str | None = None,
        player: str | None = None,
        points: int = 0,
    ) -> None:
        running = (steps[-1].running_total if steps else 0) + points
        steps.append(
            Step(
                n=len(steps) + 1,
                rule=rule,
                card=card,
                detail=detail,
                points=points,
                running_total=running,
                more={"player": player},
            )
        )

    def award(player: str, rule: str, reason: str, detail: str, card: str | None = None) -> None:
        awarded[player] += 1
        awards.append({"player": player, "credits": 1, "reason": reason})
        step(rule, detail, card=card, player=player, points=1)

    in_round = [c for c in players if c.in_round]
    if len(in_round) == 1:
        ended_by = LAST_STANDING
        winner = in_round[0]
        out = [c.name for c in players if not c.in_round]
        step(
            "AC-6.1",
            f"Only {winner.name} is still in the round ({_list(out)} "
            f"{'is' if len(out) == 1 else 'are'} out): the round ends, {winner.name} is the last "
            "cadet standing.",
            player=winner.name,
        )
        winners = [winner.name]
        award(
            winner.name,
            "AC-1",
            "last cadet standing",
            f"{winner.name} earns a credit as the last cadet standing.",
        )
    else:
        ended_by = SHOWDOWN
        winners = _showdown(in_round, step)
        for name in winners:
            if len(winners) == 1:
                award(
                    name,
                    "AC-6.2",
                    "won the deck-out showdown",
                    f"{name} earns a credit for winning the showdown.",
                )
            else:
                award(
                    name,
                    "AC-R8",
                    "shared the deck-out showdown",
                    f"{name} earns a credit: the tied cadets each earn one.",
                )

    _charles_vance(players, position.cards, charles_vance_bonus, step, award)

    count = len(players)
    step("AC-R1", f"{count} cadets: the credits target is {target} (the Credits target option).")
    for cadet in players:
        after = cadet.credits + awarded[cadet.name]
        step(
            "AC-6.5",
            f"{cadet.name}: {cadet.credits} + {awarded[cadet.name]} = {after} "
            f"credit{'' if after == 1 else 's'}.",
            player=cadet.name,
        )
    totals = {c.name: c.credits + awarded[c.name] for c in players}
    reached = [c.name for c in players if totals[c.name] >= target]
    match_winners: list[str] = []
    if not reached:
        best = max(totals.values())
        step(
            "AC-6.5",
            f"Nobody has reached {target} credits (the most is {best}): the match goes on.",
        )
    elif len(reached) == 1:
        match_winners = reached
        step(
            "AC-6.5",
            f"{reached[0]} reaches {totals[reached[0]]} of {target} credits and wins the match.",
            player=reached[0],
        )
    else:
        top = max(totals[name] for name in reached)
        match_winners = [name for name in reached if totals[name] == top]
        listed = _list([f"{name} ({totals[name]})" for name in reached])
        if len(match_winners) == 1:
            step(
                "AC-R11",
                f"{listed} reach {target} together: the higher total wins, "
                f"{match_winners[0]} with {top}.",
                player=match_winners[0],
            )
        else:
            step(
                "AC-R11",
                f"{listed} reach {target} together with equal totals of {top}: "
                f"{_list(match_winners)} share the victory.",
            )

    next_starter = None
    if not match_winners:
        next_starter = _next_starter(players, winners, starter, step)

    order = sorted(range(count), key=lambda i: (-totals[players[i].name], i))
    standings = []
    rank = 0
    previous = None
    for place, index in enumerate(order, start=1):
        cadet = players[index]
        if totals[cadet.name] != previous:
            rank, previous = place, totals[cadet.name]
        standings.append(
            {
                "rank": rank,
                "player": cadet.name,
                "credits_before": cadet.credits,
                "awarded": awarded[cadet.name],
                "credits": totals[cadet.name],
                "to_target": max(0, target - totals[cadet.name]),
            }
        )
    return RoundScore(
        total=steps[-1].running_total if steps else 0,
        steps=steps,
        ended_by=ended_by,
        round_winners=winners,
        awards=awards,
        standings=standings,
        target=target,
        match_winners=match_winners,
        next_starter=next_starter,
    )


def _showdown(in_round: list[Cadet], step: _Step) -> list[str]:
    names = [c.name for c in in_round]
    step(
        "AC-6.1",
        f"The deck is empty with {len(in_round)} cadets still in ({_list(names)}): "
        "the round ends and they reveal their cards (AC-6.2).",
    )
    values: dict[str, int] = {}
    for cadet in in_round:
        hand = cadet.hand
        if hand is None:
            raise ValueError("_missing_facts asks for the card of every cadet in the showdown.")
        values[cadet.name] = _value(hand)
        step("AC-6.2", f"{cadet.name} reveals {hand.label}.", card=hand.name, player=cadet.name)
    best = max(values.values())
    tied = [name for name in names if values[name] == best]
    if len(tied) == 1:
        beaten = _list([f"{name}'s {values[name]}" for name in names if name != tied[0]])
        step(
            "AC-6.2",
            f"The highest value is {best}, {tied[0]}'s, above {beaten}: {tied[0]} wins the round.",
            player=tied[0],
        )
        return tied
    step(
        "AC-6.2",
        f"The highest value is {best}, held by {_list(tied)}: a tie, broken by the "
        "cards in front of each (AC-R8).",
    )
    sums: dict[str, int] = {}
    by_name = {c.name: c for c in in_round}
    for name in tied:
        cadet = by_name[name]
        sums[name] = sum(_value(card) for card in cadet.discards)
        if cadet.discards:
            shown = " + ".join(f"{card.value} ({card.name})" for card in cadet.discards)
            detail = f"The cards in front of {name} add up to {shown} = {sums[name]}."
        else:
            detail = f"{name} has no card in front of them: 0."
        step("AC-R8", detail, player=name)
    top = max(sums.values())
    still = [name for name in tied if sums[name] == top]
    if len(still) == 1:
        beaten = _list([f"{name}'s {sums[name]}" for name in tied if name != still[0]])
        step(
            "AC-R8",
            f"{still[0]}'s {top} beats {beaten}: {still[0]} wins the round.",
            player=still[0],
        )
        return still
    step("AC-R8", f"{_list(still)} are still tied at {top}: every tied cadet earns a credit.")
    return still


def _value(card: CardSpec) -> int:
    """A value the showdown compares: _missing_facts asks for it first."""
    if card.value is None:
        raise ValueError(f"{card.name}'s value is unknown; _missing_facts asks for it first.")
    return card.value


def _charles_vance(
    players: list[Cadet], cards: list[CardSpec], reading: str, step: _Step, award: _Award
) -> None:
    bonus_cards = [card for card in cards if card.effect == BONUS]
    label = _list([card.name for card in bonus_cards], "or") or "Charles Vance"
    rule = "AC-R7"
    who = [c for c in players if any(card.effect == BONUS for card in c.discards)]
    if reading == STILL_IN_ROUND:
        counted = [c for c in who if c.in_round]
        ignored = [c.name for c in who if not c.in_round]
        how = (
            'Reading "still in the round": only cadets still in the round count'
            + (
                f"; {_list(ignored)} {'is' if len(ignored) == 1 else 'are'} out, so "
                f"{'their' if len(ignored) > 1 else 'that'} {label} does not count"
                if ignored
                else ""
            )
            + "."
        )
    else:
        counted = who
        how = "Reading as printed: every cadet counts, eliminated or not."
    if not counted:
        step(
            rule,
            f"No cadet {'still in the round ' if reading == STILL_IN_ROUND and who else ''}"
            f"played or discarded {label} this round: no bonus credit. {how}",
        )
        return
    names = [c.name for c in counted]
    if len(counted) > 1:
        step(
            rule,
            f"{_list(names)} each played or discarded {label}: the bonus goes only to a "
            f"cadet who is the only one, so nobody gains it. {how}",
        )
        return
    cadet = counted[0]
    copies = sum(1 for card in cadet.discards if card.effect == BONUS)
    card_name = next(card.name for card in cadet.discards if card.effect == BONUS)
    step(
        rule,
        f"{cadet.name} is the only cadet who played or discarded {label} "
        f"({copies} in front of {cadet.name}). {how}",
        card=card_name,
        player=cadet.name,
    )
    status = "" if cadet.in_round else ", though out of the round"
    award(
        cadet.name,
        "AC-6.3",
        "Charles Vance bonus",
        f"{cadet.name} gains the bonus credit{status} (win or lose).",
        card=card_name,
    )


def _next_starter(
    players: list[Cadet], winners: list[str], starter: str | None, step: _Step
) -> str | None:
    if len(winners) == 1:
        step("AC-R10", f"{winners[0]} won the round and starts the next one.", player=winners[0])
        return winners[0]
    if starter is None:
        step(
            "AC-R10",
            f"{_list(winners)} shared the round: the tied winner seated first after "
            "this round's starter starts the next; the request does not say who started, so "
            "Tableside cannot tell.",
        )
        return None
    seats = [c.name for c in players]
    start = seats.index(starter)
    following = seats[start + 1 :] + seats[: start + 1]
    chosen = next(name for name in following if name in winners)
    step(
        "AC-R10",
        f"{_list(winners)} shared the round: {chosen} is the tied winner seated first "
        f"after {starter}, who started it, and starts the next.",
        player=chosen,
    )
    return chosen


def _missing_facts(players: list[Cadet]) -> None:
    """Raise MissingFacts for the showdown's cards the request lacks or whose value is unknown."""
    in_round = [c for c in players if c.in_round]
    missing: list[dict[str, Any]] = []
    values: dict[str, int] = {}  # the showdown's cards, once every one is known
    if len(in_round) >= 2:
        for index, cadet in enumerate(players):
            if not cadet.in_round:
                continue
            if cadet.hand is None:
                missing.append(
                    {
                        "path": f"players[{index}].hand",
                        "code": "required",
                        "detail": f"{cadet.name} is still in the deck-out showdown: give "
                        f"the card {cadet.name} reveals (AC-6.2).",
                    }
                )
            elif cadet.hand.value is None:
                missing.append(
                    {
                        "path": f"players[{index}].hand",
                        "code": "value_unknown",
                        "detail": f"The catalog does not know {cadet.hand.name}'s value, "
                        "so the showdown cannot be decided; an admin can "
                        "transcribe it.",
                    }
                )
            else:
                values[cadet.name] = cadet.hand.value
        if not missing:
            best = max(values.values())
            tied = [c for c in in_round if values[c.name] == best]
            if len(tied) > 1:
                for cadet in tied:
                    index = players.index(cadet)
                    for d, card in enumerate(cadet.discards):
                        if card.value is None:
                            missing.append(
                                {
                                    "path": f"players[{index}].discards[{d}]",
                                    "code": "value_unknown",
                                    "detail": f"The catalog does not know {card.name}'s value, so "
                                    "the tie-break cannot be added up (AC-R8).",
                                }
                            )
    if missing:
        raise MissingFacts(missing)
