"""Property test (hypothesis): random complete rounds of Academy Credits played with the engine.

A simulator keeps the real table (the shuffled 22-card deck, the set-aside card, every hand). At
each turn the cadet to move draws, the engine lists the legal plays of the position, one is
chosen at random, ruled on, and its outcome applied to the table. Throughout:

* every play the engine generates as legal is ruled legal, and a random other play is ruled
  legal only if it is among them;
* every one of the 22 cards is accounted for (set aside, deck, hands, face up), copy by copy;
* the round ends exactly when the rules say (AC-6.1): when one cadet is left or the deck is empty
  at the end of a turn, never earlier, and the score accepts the final table;
* without the deck count a play keeps its legality, and a legal one asks for the count unless it
  leaves one cadet standing.
"""

from collections import Counter
from collections.abc import Callable
from dataclasses import replace

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from games.academy_credits import engine as ac
from tests.engines.test_academy_credits_catalog import cards, option

DECK = [spec for spec in cards() for _ in range(spec.copies)]
NAMES = ["Ana", "Ben", "Cy", "Dee"]
COPIES = Counter(spec.name for spec in DECK)


class RoundSimulator:
    def __init__(self, count: int, order: list[int], starter: int):
        deck = [DECK[i] for i in order]
        self.set_aside = deck.pop(0)  # AC-2.2: one card face down, whatever the count (AC-R9)
        self.names = NAMES[:count]
        self.hands = {name: [deck.pop(0)] for name in self.names}  # AC-2.3
        self.deck = deck
        self.discards = {name: [] for name in self.names}
        self.in_round = {name: True for name in self.names}
        self.shielded = {name: False for name in self.names}
        self.marked: str | None = None
        self.turn = self.names[starter]
        self.set_aside_drawn = False

    def every_card(self) -> Counter:
        cards_ = list(self.deck) + ([] if self.set_aside_drawn else [self.set_aside])
        for name in self.names:
            cards_ += self.hands[name] + self.discards[name]
        return Counter(spec.name for spec in cards_)

    def position(self) -> ac.Position:
        players = [
            ac.Cadet(
                name=name,
                in_round=self.in_round[name],
                shielded=self.shielded[name],
                marked=self.marked == name,
                discards=list(self.discards[name]),
                hand=None if name == self.turn or not self.in_round[name] else self.hands[name][0],
            )
            for name in self.names
        ]
        return ac.Position(
            players=players,
            turn=self.turn,
            hand=list(self.hands[self.turn]),
            deck_count=len(self.deck),
            cards=list(cards()),
            options={"charles_vance_bonus": "literal"},
        )

    def start_turn(self) -> ac.Position:
        """The cadet to move draws, so holds two cards (AC-3.1), and their protection ends
        (AC-5.1): the position of their play."""
        self.hands[self.turn].append(self.deck.pop(0))
        self.shielded[self.turn] = False
        return self.position()

    def apply(self, move: ac.Move, outcome: dict, keep: Callable[[int], int]) -> None:
        """A legal play's outcome done at the table; ``keep`` picks the card The Doctor keeps
        among the n in hand. The turn passes as the outcome says."""
        player = self.turn
        self.discards[player].append(take(self.hands[player], move.play.name))
        if outcome["trade"]:
            other = move.target
            mine, theirs = self.hands[player], self.hands[other]
            assert outcome["trade"]["player_gets"] == theirs[0].name
            self.hands[player], self.hands[other] = theirs, mine
        for entry in outcome["discarded"]:
            card = take(self.hands[entry["player"]], entry["card"])
            self.discards[entry["player"]].append(card)
        for name in outcome["eliminated"]:
            self.in_round[name] = False
            assert self.hands[name] == [], f"{name} is out but still holds a card"
        for draw in outcome["draws"]:
            drawn = []
            for _ in range(draw["count"]):
                if draw["from"] == "deck":
                    drawn.append(self.deck.pop(0))
                else:
                    assert not self.set_aside_drawn and not self.deck
                    drawn.append(self.set_aside)
                    self.set_aside_drawn = True
            hand = self.hands[draw["player"]]
            hand += drawn
            if move.play.effect == ac.DRAW:  # The Doctor: keep one, the rest to the bottom
                kept = hand.pop(keep(len(hand)))
                self.deck += hand
                self.hands[draw["player"]] = [kept]
        for name in self.names:
            self.shielded[name] = name in outcome["protected"]
        self.marked = outcome["marked"]
        self.turn = outcome["next_turn"] or self.turn

    def alive(self) -> list[str]:
        return [name for name in self.names if self.in_round[name]]

    def next_after(self, name: str) -> str:
        start = self.names.index(name)
        following = self.names[start + 1 :] + self.names[: start + 1]
        return next(n for n in following if self.in_round[n])


def take(hand: list, name: str):
    for index, spec in enumerate(hand):
        if spec.name == name:
            return hand.pop(index)
    raise AssertionError(f"{name} is not in the hand {[c.name for c in hand]}")


def all_plays(position: ac.Position) -> list[ac.Move]:
    """Every fully specified play one could ask about (legal or not)."""
    moves = []
    guesses = [c for c in cards()]
    for spec in position.hand:
        if spec.effect in ac.NO_TARGET:
            moves.append(ac.Move(spec, confirm=spec.effect == ac.ELIMINATES))
            continue
        moves.append(ac.Move(spec))
        for cadet in position.players:
            if spec.effect == ac.GUESS:
                moves += [ac.Move(spec, cadet.name, g) for g in guesses]
            else:
                moves.append(ac.Move(spec, cadet.name))
    return moves


def play_turn(table: RoundSimulator, data) -> bool:
    """One turn; returns whether the round ended."""
    player = table.turn
    assert len(table.alive()) >= 2 and table.deck, "a turn began after the round had ended"
    position = table.start_turn()

    board = ac.check(position)
    assert board.warnings == []  # the 22 cards add up: no warning
    legal = board.legal_moves()
    assert legal, "a cadet always has a legal play"
    for candidate in legal:
        ruling = board.rule(candidate)
        assert ruling.verdict == "legal", (candidate, ruling.reason)
    legal_dicts = [m.as_dict() for m in legal]
    probe = data.draw(st.sampled_from(all_plays(position)), label="probe")
    probe_ruling = board.rule(probe)
    if probe_ruling.verdict == "legal" and not probe_ruling.warnings:
        assert probe.as_dict() in legal_dicts, probe
    if probe_ruling.verdict == "illegal":
        assert probe_ruling.alternatives == legal_dicts
    # Without the deck count (issue 15): the same legality; a legal play asks for the count
    # unless one cadet is left standing whatever the deck holds.
    blind = ac.check(replace(position, deck_count=None)).rule(probe)
    if probe_ruling.verdict == "legal":
        if blind.verdict == "legal":
            assert blind.outcome["round_ends"] is True and len(blind.outcome["in_round"]) == 1
            assert probe_ruling.outcome["in_round"] == blind.outcome["in_round"]
        else:
            assert (blind.verdict, blind.code) == ("needs_information", "deck_count_required")
            assert len(probe_ruling.outcome["in_round"]) > 1
    else:
        assert (blind.verdict, blind.code) == (probe_ruling.verdict, probe_ruling.code)
        assert blind.alternatives == probe_ruling.alternatives

    move = data.draw(st.sampled_from(legal), label="play")
    event(f"played {move.play.effect}")
    ruling = board.rule(move)
    outcome = ruling.outcome
    assert outcome["cases"] == []  # every hand is known: nothing is conditional

    table.apply(move, outcome, keep=lambda n: data.draw(st.integers(0, n - 1), label="keep"))

    # Every card accounted for, copy by copy.
    assert table.every_card() == COPIES
    assert sum(table.every_card().values()) == 22
    for name in table.alive():
        assert len(table.hands[name]) == 1
    assert outcome["deck_count"] == len(table.deck)
    assert outcome["in_round"] == table.alive()

    # The round ends exactly when the rules say (AC-6.1).
    ends = len(table.alive()) == 1 or not table.deck
    assert outcome["round_ends"] is ends, outcome["round_end_reason"]
    if ends:
        assert outcome["next_turn"] is None
        event("last cadet standing" if len(table.alive()) == 1 else "deck-out showdown")
        return True
    assert outcome["next_turn"] == table.next_after(player) == table.turn
    return False


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    count=st.integers(2, 4),
    order=st.permutations(range(len(DECK))),
    starter=st.integers(0, 3),
    data=st.data(),
)
def test_random_rounds_are_ruled_consistently_to_their_end(count, order, starter, data):
    table = RoundSimulator(count, list(order), starter % count)
    assert table.every_card() == COPIES
    for _turn in range(40):
        if play_turn(table, data):
            break
    else:
        raise AssertionError("the round did not end within 40 turns")

    # The final table is a round's end that check accepts and the board scores.
    players = [
        ac.Cadet(
            name=name,
            in_round=table.in_round[name],
            discards=list(table.discards[name]),
            hand=table.hands[name][0] if table.in_round[name] else None,
        )
        for name in table.names
    ]
    round_end = ac.Position(
        players,
        None,
        [],
        len(table.deck),
        list(cards()),
        options={"credits_target": option("credits_target")},
    )
    result = ac.check(round_end).score()
    assert result.round_winners
    assert set(result.round_winners) <= set(table.alive())
    assert result.total == len(result.awards)
