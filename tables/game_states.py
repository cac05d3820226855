"""What a table carries from answer to answer, per game: its first state and how each event kind
changes it. The answers themselves come from each game's own score service (found through
games.registry, as the score endpoint finds it): a table never scores a hand its own way.

A game's entry: `initial(players)` gives the first state; `kinds` maps each event kind to a
function (game, state, seat, body, by_host) -> (new state, the game's answer or None). A function
raises ApiError for a refused event (nothing changes then: the caller's transaction rolls back,
saved result included).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cards.models import Game
from common.api_errors import ApiError, error_entry
from games.package import RULING, SCORE
from games.services import answer

State = dict[str, Any]
Apply = Callable[[Game, State, "int | None", dict, bool], "tuple[State, dict | None]"]


@dataclass(frozen=True)
class TableGame:
    initial: Callable[[list[str]], State]
    kinds: dict[str, Apply] = field(default_factory=dict)
    # The kinds only the host may send (no seat acts for them).
    host_kinds: frozenset[str] = frozenset()
    # The kinds that name the seat they act for (its token, or the host's, must be given).
    seat_kinds: frozenset[str] = frozenset()


def score(game: Game, body: dict) -> dict:
    """The game's score job on `body`, through the one flow: its answer, saved, with id and url."""
    return answer(game=game, kind=SCORE, body=body)


def rule(game: Game, body: dict) -> dict:
    """The game's ruling job on `body`, through the one flow: its ruling, saved, with id and url."""
    return answer(game=game, kind=RULING, body=body)


# --- Star Trek: Missions -------------------------------------------------------------------------


def stm_initial(players: list[str]) -> State:
    return {
        "game_number": 1,
        "players": list(players),
        "hands": [None] * len(players),  # per seat: the hand's total, null until entered
        "cards": [[] for _ in players],  # per seat: the names of the cards entered
        "choices": [{} for _ in players],  # per seat: the choices given with the hand
        "standings": [],
        "winners": [],
        "table_result": None,  # {"id", "url"} of the whole-table score, once every hand is in
        "tally": {name: 0 for name in players},  # games won at this table
    }


def _hand_body(body: dict) -> dict:
    """The seat's hand body: {"hand", "choices"} only (a "players" key would ask for a table)."""
    unknown = sorted(set(body) - {"hand", "choices"})
    if unknown:
        detail = f"A hand event's body has hand and choices; not {', '.join(unknown)}."
        raise ApiError(status_code=400, code="invalid_input", detail=detail,
                       errors=[error_entry(path=f"body.{unknown[0]}", code="unknown_field",
                                           detail=detail)])
    if "hand" not in body:
        detail = "Give the hand: a list of card names."
        raise ApiError(status_code=400, code="invalid_input", detail=detail,
                       errors=[error_entry(path="body.hand", code="missing", detail=detail)])
    return {key: body[key] for key in ("hand", "choices") if key in body}


def stm_hand(game: Game, state: State, seat: int | None, body: dict,
             by_host: bool) -> tuple[State, dict | None]:
    assert seat is not None  # a seat kind: the caller checked
    names: list[str] = state["players"]
    hand_body = _hand_body(body)
    answer = score(game, hand_body)
    entered = [card["name"] for card in answer.get("cards", [])]
    errors = []
    for index, other in enumerate(state["cards"]):
        if index == seat - 1:
            continue
        for position, card in enumerate(entered):
            if card in other:
                errors.append(error_entry(
                    path=f"body.hand[{position}]", code="card_in_two_hands",
                    detail=f"{card} is in {names[index]}'s hand (seat {index + 1}) and in "
                           f"{names[seat - 1]}'s hand (seat {seat}); every card exists once.",
                    card=card, seats=[index + 1, seat], players=[names[index], names[seat - 1]]))
    if errors:
        raise ApiError(status_code=400, code="card_in_two_hands",
                       detail=errors[0]["detail"] if len(errors) == 1 else
                       f"{len(errors)} cards are already in other hands; each is listed in errors.",
                       errors=errors)
    new = copy.deepcopy(state)
    new["hands"][seat - 1] = answer.get("total")
    new["cards"][seat - 1] = entered
    new["choices"][seat - 1] = hand_body.get("choices") or {}
    new["standings"], new["winners"], new["table_result"] = [], [], None
    if all(total is not None for total in new["hands"]):
        whole = score(game, {"players": [
            {"name": name, "hand": cards, "choices": choices}
            for name, cards, choices in zip(names, new["cards"], new["choices"], strict=True)
        ]})
        new["standings"] = whole["standings"]
        new["winners"] = whole["winners"]
        new["table_result"] = {"id": whole["id"], "url": whole["url"]}
    return new, answer


def stm_new_game(game: Game, state: State, seat: int | None, body: dict,
                 by_host: bool) -> tuple[State, dict | None]:
    if not state["winners"]:
        waiting = [name for name, total in zip(state["players"], state["hands"], strict=True)
                   if total is None]
        detail = (f"This game has no standings yet: {', '.join(waiting)} "
                  f"{'has' if len(waiting) == 1 else 'have'} not entered a hand.")
        raise ApiError(status_code=400, code="game_not_finished", detail=detail,
                       errors=[error_entry(path="kind", code="game_not_finished", detail=detail)])
    new = stm_initial(state["players"])
    new["game_number"] = state["game_number"] + 1
    new["tally"] = {name: state["tally"].get(name, 0) + (1 if name in state["winners"] else 0)
                    for name in state["players"]}
    return new, None


# --- Academy Credits ----------------------------------------------------------------------------


def ac_initial(players: list[str]) -> State:
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


def _refuse(path: str, code: str, detail: str, *, top: str = "invalid_input") -> ApiError:
    return ApiError(status_code=400, code=top, detail=detail,
                    errors=[error_entry(path=path, code=code, detail=detail)])


def ac_round(game: Game, state: State, seat: int | None, body: dict,
             by_host: bool) -> tuple[State, dict | None]:
    """One round's end: the round's score body without credits (the table fills each cadet's)
    and without the starter after the first round (the table knows who started)."""
    names: list[str] = state["players"]
    if state["match_winners"]:
        raise _refuse("kind", "match_over", f"The match is over ({', '.join(state['match_winners'])} "
                      "reached the target); the host starts a new match.", top="match_over")
    players = body.get("players")
    if not isinstance(players, list):
        raise _refuse("body.players", "invalid_type", "Give the round's players: a list, in seat "
                      "order.")
    _the_tables_cadets(players, names, at="body.players", what="round")
    if "starter" in body and state["round"] > 0:
        raise _refuse("body.starter", "table_knows", f"The table knows who starts this round "
                      f"({state['starter']}); leave starter out.")
    round_body = {**body, "players": [{**player, "name": name, "credits": state["credits"][name]}
                                      for player, name in zip(players, names, strict=True)]}
    if state["starter"] is not None:
        round_body["starter"] = state["starter"]
    answer = score(game, round_body)
    new = copy.deepcopy(state)
    new["credits"] = {row["player"]: row["credits"] for row in answer["standings"]}
    new["credits"] = {name: new["credits"][name] for name in names}  # seat order
    new["starter"] = answer["next_starter"]
    new["round"] = state["round"] + 1
    new["target"] = answer["target"]
    new["match_winners"] = answer["match_winners"]
    new["last_result"] = {"id": answer["id"], "url": answer["url"]}
    return new, answer


def _the_tables_cadets(players: list, names: list[str], *, at: str, what: str) -> None:
    """A round or a position names the table's cadets in seat order, without their credits
    (the table keeps those)."""
    given = [player.get("name") if isinstance(player, dict) else None for player in players]
    if [str(name).casefold() for name in given] != [name.casefold() for name in names]:
        raise _refuse(at, "players_differ", f"The table's players are {', '.join(names)}, in "
                      f"that order; the {what} names {', '.join(str(name) for name in given)}.")
    for index, player in enumerate(players):
        if "credits" in player:
            raise _refuse(f"{at}[{index}].credits", "table_knows", "The table keeps each "
                          f"cadet's credits; leave them out of the {what}.")


def ac_ruling(game: Game, state: State, seat: int | None, body: dict,
              by_host: bool) -> tuple[State, dict | None]:
    """A ruling asked at the table: the position (players in the table's seat order, without
    credits: the table fills each cadet's) and the move; the state does not change."""
    names: list[str] = state["players"]
    position = body.get("position")
    if not isinstance(position, dict) or not isinstance(position.get("players"), list):
        raise _refuse("body.position.players", "invalid_type", "Give the position with its "
                      "players: a list, in seat order.")
    players = position["players"]
    _the_tables_cadets(players, names, at="body.position.players", what="position")
    filled = {**body, "position": {**position, "players": [
        {**player, "name": name, "credits": state["credits"][name]}
        for player, name in zip(players, names, strict=True)]}}
    return copy.deepcopy(state), rule(game, filled)


def ac_new_match(game: Game, state: State, seat: int | None, body: dict,
                 by_host: bool) -> tuple[State, dict | None]:
    new = ac_initial(state["players"])
    new["match_number"] = state["match_number"] + 1
    return new, None


TABLE_GAMES: dict[str, TableGame] = {
    "academy-credits": TableGame(
        initial=ac_initial,
        kinds={"round": ac_round, "ruling": ac_ruling, "new_match": ac_new_match},
        host_kinds=frozenset({"new_match"}),
        seat_kinds=frozenset({"round", "ruling"}),
    ),
    "star-trek-missions": TableGame(
        initial=stm_initial,
        kinds={"hand": stm_hand, "new_game": stm_new_game},
        host_kinds=frozenset({"new_game"}),
        seat_kinds=frozenset({"hand"}),
    ),
}
