"""Whom a Factions table waits for (the top of /t/<code>, issue 29): its setup (any seat), then
the player whose turn it is (their move, checked at the table), or the defender while an ATTACK
awaits its answer (only the defender's phone knows its hand: the host answers only for a seat
no phone holds); once a player wins, the host starts the next game."""

from __future__ import annotations

from games.table_state import NextEntry, State


def next_entry(state: State, players: list[str]) -> NextEntry:
    game = state["game_number"]
    if state["winner"]:
        return NextEntry(
            line=f"{state['winner']} wins game {game}.",
            host_next="new_game",
            host_words="Start the next game",
        )
    position = state["position"]
    if position is None:
        return NextEntry(
            line=f"Game {game}: the table is not set up yet (the factions, who "
            "controls each, who starts).",
            anyone=True,
            own="Set up the table",
            place="score",
        )
    folded = [name.casefold() for name in players]
    pending = position.get("pending")
    if pending:
        attacker: str = pending["by"]
        # The defender: the attacked faction's controller (as table_state.mover says).
        faction = pending["target_unit"]["faction"]
        defender: str = next(f["controller"] for f in position["factions"] if f["name"] == faction)
        unit = pending["target_unit"]["unit"]
        return NextEntry(
            line=f"{defender} answers {attacker}'s attack on {unit}.",
            seats=(folded.index(defender.casefold()) + 1,),
            own=f"Answer {attacker}'s attack",
            for_seat=f"Answer {attacker}'s attack for {{name}}",
            place="#answer-heading",
            private=True,
        )
    turn: str = position["turn"]
    lost = " (a lost turn)" if position.get("turn_lost") else ""
    return NextEntry(
        line=f"Move {state['moves'] + 1}: {turn}'s turn{lost}.",
        seats=(folded.index(turn.casefold()) + 1,),
        own="Enter your move",
        for_seat="Enter {name}'s move",
        place="ruling",
    )
