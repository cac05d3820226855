"""Whom an Academy Credits table waits for (the top of /t/<code>, issue 29): the round's end,
which any seat's phone scores; the starter the last round's score named; once the match has its
winners, the host starts a new one."""

from __future__ import annotations

from games.table_state import NextEntry, State, listed


def next_entry(state: State, players: list[str]) -> NextEntry:
    winners: list[str] = state["match_winners"]
    if winners:
        verb = "wins" if len(winners) == 1 else "share"
        return NextEntry(
            line=f"{listed(winners)} {verb} match {state['match_number']}.",
            host_next="new_match",
            host_words="Start a new match",
        )
    number = state["round"] + 1
    starter = state["starter"]
    line = (
        f"Round {number}: {starter} starts."
        if starter
        else f"Round {number} of match {state['match_number']}."
    )
    return NextEntry(
        line=f"{line} At its end, score it.",
        anyone=True,
        own=f"Score round {number}",
        place="#round-form",
    )
