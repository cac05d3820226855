"""An Academy Credits table (issue 25, API.md "Tables"): each round's end is an event whose body is
the round's score body without credits (the table fills each cadet's) and, after the first
round, without the starter (the table knows who starts); the state carries the credits, the next
starter, the round count, the target and the match winners, all from the game's own round score.
A ruling asked at the table gets each cadet's credits from the table and changes nothing. The
host's `new_match` starts again from zero.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any

from common.numbers import plain_int
from games.package import RULING, SCORE
from games.table_state import Ask, State, TableGame, disagree, refuse, saved


def initial(players: list[str]) -> State:
    return {
        "players": list(players),
        "credits": {name: 0 for name in players},
        "starter": None,  # who starts the next round: the round's score decides it (AC-R10)
        "round": 0,  # rounds scored at this table
        "target": None,  # the match's target, once the first round's score gives it
        "match_winners": [],
        "match_number": 1,
        "last_result": None,
    }


def round_end(ask: Ask, state: State, seat: int | None, body: dict,
              by_host: bool) -> tuple[State, dict | None]:
    """One round's end: the round's score body without credits (the table fills each cadet's)
    and without the starter after the first round (the table knows who started)."""
    names: list[str] = state["players"]
    if state["match_winners"]:
        raise refuse("kind", "match_over", f"The match is over ({', '.join(state['match_winners'])} "
                     "reached the target); the host starts a new match.", top="match_over")
    players = body.get("players")
    if not isinstance(players, list):
        raise refuse("body.players", "invalid_type", "Give the round's players: a list, in seat "
                     "order.")
    _the_tables_cadets(players, names, at="body.players", what="round")
    if "starter" in body and state["round"] > 0:
        raise refuse("body.starter", "table_knows", f"The table knows who starts this round "
                     f"({state['starter']}); leave starter out.")
    round_body = {**body, "players": [{**player, "name": name, "credits": state["credits"][name]}
                                      for player, name in zip(players, names, strict=True)]}
    if state["starter"] is not None:
        round_body["starter"] = state["starter"]
    answer = ask(SCORE, round_body)
    new = copy.deepcopy(state)
    credits = {row["player"]: row["credits"] for row in answer["standings"]}
    new["credits"] = {name: credits[name] for name in names}  # seat order
    new["starter"] = answer["next_starter"]
    new["round"] = state["round"] + 1
    new["target"] = answer["target"]
    new["match_winners"] = answer["match_winners"]
    new["last_result"] = saved(answer)
    return new, answer


def _the_tables_cadets(players: list, names: list[str], *, at: str, what: str) -> None:
    """A round or a position names the table's cadets in seat order, without their credits
    (the table keeps those)."""
    given = [player.get("name") if isinstance(player, dict) else None for player in players]
    if [str(name).casefold() for name in given] != [name.casefold() for name in names]:
        raise refuse(at, "players_differ", f"The table's players are {', '.join(names)}, in "
                     f"that order; the {what} names {', '.join(str(name) for name in given)}.")
    for index, player in enumerate(players):
        if "credits" in player:
            raise refuse(f"{at}[{index}].credits", "table_knows", "The table keeps each "
                         f"cadet's credits; leave them out of the {what}.")


def ruling(ask: Ask, state: State, seat: int | None, body: dict,
           by_host: bool) -> tuple[State, dict | None]:
    """A ruling asked at the table: the position (players in the table's seat order, without
    credits: the table fills each cadet's) and the move; the state does not change."""
    names: list[str] = state["players"]
    position = body.get("position")
    if not isinstance(position, dict) or not isinstance(position.get("players"), list):
        raise refuse("body.position.players", "invalid_type", "Give the position with its "
                     "players: a list, in seat order.")
    players = position["players"]
    _the_tables_cadets(players, names, at="body.position.players", what="position")
    filled = {**body, "position": {**position, "players": [
        {**player, "name": name, "credits": state["credits"][name]}
        for player, name in zip(players, names, strict=True)]}}
    return copy.deepcopy(state), ask(RULING, filled)


def new_match(ask: Ask, state: State, seat: int | None, body: dict,
              by_host: bool) -> tuple[State, dict | None]:
    new = initial(state["players"])
    new["match_number"] = state["match_number"] + 1
    return new, None


def job_request_body(table_state: dict, players: list[str], kind: str,
                     seat: int | None = None) -> dict | None:
    """The game's body filled in from the table: the cadets in seat order with the credits the
    table carries (a round's score also with who starts it, once the table knows); the rest of
    the round or position (discards, hands, the deck, the move) is the players' to enter."""
    credits = table_state.get("credits") or {}
    cadets = [{"name": name, "credits": credits.get(name, 0)} for name in players]
    if kind == SCORE:
        body: dict = {"players": cadets}
        if table_state.get("starter"):
            body["starter"] = table_state["starter"]
        return body
    if kind == RULING:
        return {"position": {"players": cadets}}
    return None


def _listed(text: str) -> list[str]:
    return [part.strip() for part in re.split(r"[,\n]+", text) if part.strip()]


def round_form(posted: Mapping[str, str], players: list[str]) -> dict:
    """The round's end from the table's form (each cadet in or out, discards, the card in hand at
    a showdown, the deck count); the table fills credits and the starter."""
    cadets = []
    for number, name in enumerate(players, start=1):
        entry: dict = {"name": name, "in_round": posted.get(f"in_round_{number}") == "1",
                       "discards": _listed(posted.get(f"discards_{number}", ""))}
        card = posted.get(f"hand_{number}", "").strip()
        if card:
            entry["hand"] = card
        cadets.append(entry)
    deck = posted.get("deck_count", "0").strip()
    # A plain number, or the text as typed: the scorer refuses it (400) at deck_count.
    count = plain_int(deck)
    return {"players": cadets, "deck_count": count if count is not None else deck}


def round_form_rows(table_state: dict, players: list[str], seat: int | None,
                    posted: Mapping[str, Any] | None, events: list[Any]) -> dict[str, Any]:
    """What the round's form shows: each cadet's fields as they were posted (a form refused, or
    sent while another phone changed the table, keeps everything typed), else empty (every cadet
    still in the round)."""
    given = posted if posted is not None and "deck_count" in posted else None
    rows = []
    for number, name in enumerate(players, start=1):
        rows.append({
            "seat": number, "name": name,
            "in_round": given is None or given.get(f"in_round_{number}") == "1",
            "discards": given.get(f"discards_{number}", "") if given is not None else "",
            "hand": given.get(f"hand_{number}", "") if given is not None else "",
        })
    return {"round_rows": rows,
            "deck_count": given.get("deck_count", "0") if given is not None else "0"}


TABLE = TableGame(
    initial=initial,
    kinds={"round": round_end, "ruling": ruling, "new_match": new_match},
    host_kinds=frozenset({"new_match"}),
    seat_kinds=frozenset({"round", "ruling"}),
    state_template="academy_credits/_table_state.html",
    form_template="academy_credits/_table_form.html",
    form_event=lambda posted, players: ("round", round_form(posted, players)),
    form_context=round_form_rows,
)


def _without_credits(players: object, credits: dict, at: str) -> list:
    """The cadets without their credits, after checking each credit given agrees with the
    table's (the form was filled in from them: a changed one is refused, never ignored)."""
    cadets = []
    for index, player in enumerate(players if isinstance(players, list) else []):
        if not isinstance(player, dict):
            cadets.append(player)
            continue
        name, given = player.get("name"), player.get("credits")
        kept = credits.get(name) if isinstance(name, str) else None
        if given is not None and kept is not None and given != kept:
            raise disagree(f"{at}[{index}].credits", f"The table has {name} at {kept} "
                           f"credit{'s' if kept != 1 else ''}, not {given}: the table keeps the "
                           "credits (the host may undo a round).")
        cadets.append({key: value for key, value in player.items() if key != "credits"})
    return cadets


def refilled(field: str) -> bool:
    """The fields of the game's pages at a table that are the table's alone: each cadet's name
    and credits and who starts. After a conflict (another round scored since the page was
    filled in) the page shows them as the table has them now; everything else (who is out, the
    cards in front, the card in hand, the deck) stays as the player typed it."""
    return field == "starter" or (field.startswith("player-")
                                  and field.endswith(("-name", "-credits")))


def acting_seat(table_state: dict, players: list[str]) -> int | None:
    """No seat acts first at this game's table: the host's browser acts for any (None)."""
    return None


def job_event(table_state: dict, players: list[str], kind: str, body: dict) -> tuple[str, dict]:
    """The table's event for the game's job asked at the table: a round's score is the `round`
    (without the credits and, after the first round, the starter, which must agree with the
    table's); a ruling is the table's `ruling` (without the credits)."""
    credits = table_state.get("credits") or {}
    if kind == SCORE:
        event = {**body, "players": _without_credits(body.get("players"), credits, "players")}
        if table_state.get("round") and "starter" in event:
            if event["starter"] != table_state.get("starter"):
                raise disagree("starter", f"The table knows who starts this round "
                               f"({table_state.get('starter')}), not {event['starter']}.")
            del event["starter"]
        return "round", event
    given = body.get("position")
    position = given if isinstance(given, dict) else {}
    cadets = _without_credits(position.get("players"), credits, "position.players")
    return "ruling", {**body, "position": {**position, "players": cadets}}
