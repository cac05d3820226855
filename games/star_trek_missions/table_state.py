"""A Star Trek: Missions table (issue 25, API.md "Tables"): each seat enters its own hand at game
end (all at once, on their own phones); once every seat has one, the standings are the
whole-table score's. A card already in another seat's hand is refused naming both seats. The host's
`new_game` starts the next game at the same table and adds its winners to the tally of games won.

The answers are the game's own score (the `ask` a table hands every event kind): a table never
scores a hand its own way.
"""

from __future__ import annotations

import copy
from types import ModuleType
from typing import Any

from common.api_errors import ApiError, error_entry
from games.package import SCORE
from games.table_state import WITHHELD, Ask, State, TableGame, refuse, saved, withhold

from . import table_glance


def initial(players: list[str]) -> State:
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


def _hand_body(body: dict[str, Any]) -> dict[str, Any]:
    """The seat's hand body: {"hand", "choices"} only (a "players" key would ask for a table)."""
    unknown = sorted(set(body) - {"hand", "choices"})
    if unknown:
        detail = f"A hand event's body has hand and choices; not {', '.join(unknown)}."
        raise refuse(f"body.{unknown[0]}", "unknown_field", detail)
    if "hand" not in body:
        raise refuse("body.hand", "missing", "Give the hand: a list of card names.")
    return {key: body[key] for key in ("hand", "choices") if key in body}


def hand(
    ask: Ask, state: State, seat: int | None, body: dict[str, Any], by_host: bool
) -> tuple[State, dict[str, Any] | None]:
    assert seat is not None  # a seat kind: the caller checked
    names: list[str] = state["players"]
    hand_body = _hand_body(body)
    answer = ask(SCORE, hand_body)
    entered = [card["name"] for card in answer.get("cards", [])]
    errors = []
    for index, other in enumerate(state["cards"]):
        if index == seat - 1:
            continue
        for position, card in enumerate(entered):
            if card in other:
                errors.append(
                    error_entry(
                        path=f"body.hand[{position}]",
                        code="card_in_two_hands",
                        detail=f"{card} is in {names[index]}'s hand (seat {index + 1}) and in "
                        f"{names[seat - 1]}'s hand (seat {seat}); every card exists once.",
                        card=card,
                        seats=[index + 1, seat],
                        players=[names[index], names[seat - 1]],
                    )
                )
    if errors:
        raise ApiError(
            status_code=400,
            code="card_in_two_hands",
            detail=errors[0]["detail"]
            if len(errors) == 1
            else f"{len(errors)} cards are already in other hands; each is listed in errors.",
            errors=errors,
        )
    new = copy.deepcopy(state)
    new["hands"][seat - 1] = answer.get("total")
    new["cards"][seat - 1] = entered
    new["choices"][seat - 1] = hand_body.get("choices") or {}
    new["standings"], new["winners"], new["table_result"] = [], [], None
    if all(total is not None for total in new["hands"]):
        whole = ask(
            SCORE,
            {
                "players": [
                    {"name": name, "hand": cards, "choices": choices}
                    for name, cards, choices in zip(
                        names, new["cards"], new["choices"], strict=True
                    )
                ]
            },
        )
        new["standings"] = whole["standings"]
        new["winners"] = whole["winners"]
        new["table_result"] = saved(whole)
    return new, answer


def new_game(
    ask: Ask, state: State, seat: int | None, body: dict[str, Any], by_host: bool
) -> tuple[State, dict[str, Any] | None]:
    if not state["winners"]:
        waiting = [
            name
            for name, total in zip(state["players"], state["hands"], strict=True)
            if total is None
        ]
        detail = (
            f"This game has no standings yet: {', '.join(waiting)} "
            f"{'has' if len(waiting) == 1 else 'have'} not entered a hand."
        )
        raise refuse("kind", "game_not_finished", detail, top="game_not_finished")
    new = initial(state["players"])
    new["game_number"] = state["game_number"] + 1
    new["tally"] = {
        name: state["tally"].get(name, 0) + (1 if name in state["winners"] else 0)
        for name in state["players"]
    }
    return new, None


def job_request_body(
    table_state: dict[str, Any],
    players: list[str],
    kind: str,
    seat: int | None = None,
    private: bool = False,
) -> dict[str, Any] | None:
    """The game's score body filled in from the table: for a seat, its own hand and choices as
    it entered them (the score page opened from the table comes with them, for a correction;
    empty before it entered one); without a seat, the whole table's hands as entered so far (a
    seat that has not entered one has an empty hand), in seat order. The ruling (a draw or a
    discard during play) asks nothing the table keeps: None."""
    if kind != SCORE:
        return None
    cards = table_state.get("cards") or [[] for _ in players]
    choices = table_state.get("choices") or [{} for _ in players]
    if seat is not None and 1 <= seat <= len(players):
        return {"hand": list(cards[seat - 1]), "choices": dict(choices[seat - 1])}
    return {
        "players": [
            {"name": name, "hand": list(held), "choices": dict(chosen)}
            for name, held, chosen in zip(players, cards, choices, strict=False)
        ]
    }


def held_cards(table_state: dict[str, Any], players: list[str], seat: int | None) -> dict[str, str]:
    """The cards the other seats entered ({card name: player}): the score page opened from the
    table marks them as theirs and never suggests them (every card exists once)."""
    cards = table_state.get("cards") or [[] for _ in players]
    return {
        card: name
        for number, (name, held) in enumerate(zip(players, cards, strict=False), start=1)
        if number != seat
        for card in held
    }


def _names(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    return [str(name) for name in value] if isinstance(value, list) else []


def public_answer(
    request: dict[str, Any], answer: dict[str, Any], state: State
) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """A turn checked at the table (the game's ruling), as every phone may see it (issue 29):
    the cards in the mover's hand and those drawn from a deck are theirs alone until the game's
    end; the card taken from the discard area and the cards discarded are face up ("Spread all
    discarded cards face up so every player can inspect the whole discard area"). The hidden
    ones become "[hidden card]" in every text (the quoted rule left as it is); the alternatives
    (drawn from the whole hand) go; the request keeps the discard area and the move's public
    cards. None when the move names no hidden card. A hand entered at game end (the `hand`
    event) is scored face up, so it is shown as entered."""
    position, move_body = request.get("position"), request.get("move")
    if not isinstance(position, dict) or not isinstance(move_body, dict):
        return None
    public = set(_names(move_body.get("take"))) | set(_names(move_body.get("discard")))
    hidden = {
        name
        for name in _names(position.get("hand")) + _names(move_body.get("draw"))
        if name not in public
    }
    if not hidden:
        return None
    position["hand"] = []
    if "draw" in move_body:
        move_body["draw"] = None
    shown = withhold(
        answer, dict.fromkeys(hidden, "[hidden card]"), drop=frozenset({"alternatives"})
    )
    shown[WITHHELD] = (
        "A hand is its player's own until the game's end: this answer, as every "
        "phone sees it, names the cards taken from or put in the discard area "
        "only. The phone that asked saw it whole."
    )
    return request, shown


TABLE = TableGame(
    initial=initial,
    kinds={"hand": hand, "new_game": new_game},
    host_kinds=frozenset({"new_game"}),
    seat_kinds=frozenset({"hand"}),
    # Every seat enters its hand at game end, all at once: a hand is the seat's own.
    own_kinds=frozenset({"hand"}),
    state_template="star_trek_missions/_table_state.html",
    form_template="star_trek_missions/_table_form.html",
    form_event=lambda posted, players: _table_form().form_event(posted, players),
    form_context=lambda *given: _table_form().form_context(*given),
    live_context=lambda state, players: _table_form().live_context(
        state, job_request_body(state, players, SCORE) or {}
    ),
    next_entry=table_glance.next_entry,
    public_answer=public_answer,
)


def _table_form() -> ModuleType:
    """The hand form's module (the score page's form and its Django side: read when a page
    asks, so the API's table never imports the pages)."""
    from . import table_form

    return table_form


def acting_seat(table_state: dict[str, Any], players: list[str]) -> int | None:
    """No seat acts first at this game's table: the host's browser acts for any (None)."""
    return None


def job_event(
    table_state: dict[str, Any], players: list[str], kind: str, body: dict[str, Any]
) -> tuple[str, dict[str, Any]]:
    """The table's event for the game's job asked at the table (its page opened from the
    table): a hand scored is the seat's `hand` (its cards and choices); anything else (a turn
    checked) is a `ruling` the table records without reading anything into it."""
    if kind == SCORE:
        return "hand", {key: body[key] for key in ("hand", "choices") if key in body}
    return "ruling", body
