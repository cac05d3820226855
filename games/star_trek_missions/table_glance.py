"""Whom a Star Trek: Missions table waits for (the top of /t/<code>, issue 29): every seat enters
its hand at game end, all at once; once every hand is in, the game has its winners and the host
starts the next one."""

from __future__ import annotations

from games.table_state import NextEntry, State, listed


def next_entry(state: State, players: list[str]) -> NextEntry:
    game = state["game_number"]
    winners: list[str] = state["winners"]
    if winners:
        line = (
            f"{winners[0]} wins game {game}."
            if len(winners) == 1
            else f"{listed(winners)} share game {game}."
        )
        return NextEntry(line=line, host_next="new_game", host_words="Start the next game")
    waiting = tuple(seat for seat, total in enumerate(state["hands"], start=1) if total is None)
    names = [players[seat - 1] for seat in waiting]
    return NextEntry(
        line=f"Game {game}: still to enter a hand: {listed(names)}.",
        seats=waiting,
        own="Enter your hand",
        for_seat="Enter {name}'s hand",
        place="#hand-form",
    )
