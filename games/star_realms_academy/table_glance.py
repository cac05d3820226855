"""Whom a Star Realms Academy table waits for (the top of /t/<code>, issue 29): the active
player's whole turn, entered on "Break down a turn" at the table; once a player wins, the host
starts the next game."""

from __future__ import annotations

from games.table_state import NextEntry, State


def next_entry(state: State, players: list[str]) -> NextEntry:
    if state["winner"]:
        return NextEntry(
            line=f"{state['winner']} wins game {state['game_number']}.",
            host_next="new_game",
            host_words="Start the next game",
        )
    active: str = state["board"]["active"]["name"]
    folded = [name.casefold() for name in players]
    seat = folded.index(active.casefold()) + 1
    return NextEntry(
        line=f"Turn {state['turn']}: {active}'s turn.",
        seats=(seat,),
        own="Enter your turn",
        for_seat="Enter {name}'s turn",
        place="score",
    )
