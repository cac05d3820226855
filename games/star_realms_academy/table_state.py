"""A Star Realms Academy table (issue 25, API.md "Tables"): the board carried from turn to turn.

Each `turn` event is one player's whole turn: its body is the turn's score body (API.md: the
position plus `actions`) without what the table knows. The table knows both players' names,
Health and Coins and their bases (with the Combat tokens on them, which stay until a base falls);
at the start of a turn nothing is in play, the Combat pool is empty and no ability is used. What
it does not know is given with the turn: the active player's `hand` (drawn at the end of their
last turn, unseen by the table), optionally the `deck`, `discard_pile` and `drawn` counts (once
given, the table carries each player's deck and discard pile from the turn's `final` to their next
turn, as it does Health; counts given with a turn replace them), and the
`shop_row` (refilled from the shop deck, unseen: the table's row, the last turn's, is used when
the body leaves it out).

The turn is answered by the game's own turn score, and then:
* it ends with `end_turn`: the turn's `final` becomes the board, with the players' roles swapped
  (the opponent is active next, its bases' abilities unused; the player who ended keeps the
  cards left in hand, kept in `state.kept` for their next turn's form);
* it brings the opponent to 0 Health: `state.winner`, the board is the turn's `final`, and the
  winner goes on the tally of games won at this table (the host's `new_game` starts again);
* it stops at an illegal action, or one that needs a card value nobody has transcribed: the
  answer says so and nothing changes (the turn did not happen as told);
* it is legal but does not end (no `end_turn`): refused (400 `turn_not_over`), nothing changes.

Only the active player's seat (or the host acting for it) sends the turn.
"""

from __future__ import annotations

import copy
from typing import Any

from games.package import RULING, SCORE
from games.table_state import (
    SEALED,
    WITHHELD,
    Ask,
    State,
    TableGame,
    disagree,
    next_game,
    one_less,
    only_fields,
    refuse,
    saved,
    withhold,
)

from . import table_glance

START_HEALTH = 15  # SRA-R6: 15 Health each
SECOND_PLAYER_COINS = 1  # SRA-R6: the second player starts with 1 Coin
# What a turn's body may give of the active player: what the table cannot see.
ACTIVE_GIVEN = {"hand", "deck", "discard_pile", "drawn"}
ACTIVE_KNOWN = frozenset({"name", "health", "coins", "bases", "in_play", "combat", "used"})


def initial(players: list[str]) -> State:
    first, second = players  # the game is for two (the table checked the count)
    return {
        "players": list(players),
        "game_number": 1,
        "turn": 1,  # the number of the turn to play
        "board": {
            "active": {"name": first, "health": START_HEALTH, "coins": 0, "bases": []},
            "opponent": {
                "name": second,
                "health": START_HEALTH,
                "coins": SECOND_PLAYER_COINS,
                "bases": [],
            },
            "shop_row": [],  # unknown until a turn gives it
        },
        "health": {first: START_HEALTH, second: START_HEALTH},
        # How many cards each one left in hand at the end of their turn; which ones is theirs
        # alone (SRA-3.4: "not those in your opponent's hand"), kept sealed for their next turn.
        "kept": {first: 0, second: 0},
        SEALED: {"kept": {first: [], second: []}},
        # Each one's deck and discard pile counts, once a turn gave them (SRA-11: they carry
        # from turn to turn); {} while nobody counted.
        "counts": {first: {}, second: {}},
        "winner": None,
        "last_result": None,
        "tally": {first: 0, second: 0},  # games won at this table
    }


def _side(entry: dict[str, Any]) -> dict[str, Any]:
    """A player as the table carries them at the start of a turn: name, Health, Coins and bases
    (with their damage; a base's abilities are unused at the start of its owner's turn)."""
    return {
        "name": entry["name"],
        "health": entry["health"],
        "coins": entry["coins"],
        "bases": [
            {"card": base["card"], "damage": base.get("damage", 0)}
            for base in entry.get("bases", [])
        ],
    }


def turn_position(
    board: dict[str, Any], given: dict[str, Any] | None = None, shop_row: list[Any] | None = None
) -> dict[str, Any]:
    """The position of API.md at the start of the active player's turn: the table's board and
    what the turn gives (the hand, the counts, the shop row)."""
    active = _side(board["active"])
    active["bases"] = [{**base, "used": []} for base in active["bases"]]
    return {
        "active": {**active, "hand": [], "in_play": [], "combat": 0, "used": [], **(given or {})},
        "opponent": _side(board["opponent"]),
        "shop_row": list(board.get("shop_row", []) if shop_row is None else shop_row),
    }


def next_board(final: dict[str, Any]) -> dict[str, Any]:
    """The board after a turn ends: the turn's final position with the roles swapped."""
    return {
        "active": _side(final["opponent"]),
        "opponent": _side(final["active"]),
        "shop_row": list(final.get("shop_row", [])),
    }


COUNTED = ("deck", "discard_pile")


def with_counts(position: dict[str, Any], counts: dict[str, Any]) -> dict[str, Any]:
    """The position with the counts the table carries: the active player's deck and discard
    pile, the opponent's discard pile (where a base destroyed this turn goes), each where known
    and not given with the turn."""
    active, opponent = position["active"], position["opponent"]
    for key, value in (counts.get(active["name"]) or {}).items():
        if key in COUNTED and active.get(key) is None:
            active[key] = value
    pile = (counts.get(opponent["name"]) or {}).get("discard_pile")
    if pile is not None and opponent.get("discard_pile") is None:
        opponent["discard_pile"] = pile
    return position


def carried_counts(counts: dict[str, Any], final: dict[str, Any]) -> dict[str, Any]:
    """The counts after a turn, from its final position: the active player's deck and discard
    pile (three cards drawn at the end of the turn, reshuffled when the deck ran out: SRA-11),
    the opponent's discard pile; a count the turn did not know stays unknown."""
    new = {name: dict(known) for name, known in counts.items()}
    active, opponent = final["active"], final["opponent"]
    new[active["name"]] = {key: active[key] for key in COUNTED if active.get(key) is not None}
    if opponent.get("discard_pile") is not None:
        new.setdefault(opponent["name"], {})["discard_pile"] = opponent["discard_pile"]
    return new


def _seat_of(state: State, name: str) -> int:
    return [player.casefold() for player in state["players"]].index(name.casefold()) + 1


def turn(
    ask: Ask, state: State, seat: int | None, body: dict[str, Any], by_host: bool
) -> tuple[State, dict[str, Any] | None]:
    board = state["board"]
    if state["winner"]:
        raise refuse(
            "kind",
            "game_over",
            f"The game is over: {state['winner']} won. The host starts the next game.",
            top="game_over",
        )
    active_name = board["active"]["name"]
    if seat != _seat_of(state, active_name):
        raise refuse(
            "seat",
            "not_your_turn",
            f"It is {active_name}'s turn (seat "
            f"{_seat_of(state, active_name)}); seat {seat} does not play it.",
            top="not_your_turn",
        )
    only_fields(
        body,
        {"active", "shop_row", "actions"},
        at="body.",
        what="turn at the table",
        knows=frozenset({"opponent"}),
    )
    given = body.get("active", {})
    if not isinstance(given, dict):
        raise refuse(
            "body.active", "invalid_type", 'Give the active player\'s hand: {"hand": [cards]}.'
        )
    only_fields(
        given, ACTIVE_GIVEN, at="body.active.", what="turn's active player", knows=ACTIVE_KNOWN
    )
    if "hand" not in given:
        raise refuse(
            "body.active.hand",
            "missing",
            f"Give {active_name}'s hand: the table does not see the cards drawn.",
        )
    shop_row = body.get("shop_row")
    position = with_counts(
        turn_position(board, given, shop_row if isinstance(shop_row, list) else None),
        state.get("counts") or {},
    )
    if shop_row is not None and not isinstance(shop_row, list):
        position["shop_row"] = shop_row  # the game's own reading says what is wrong with it
    answer = ask(SCORE, {**position, "actions": body.get("actions")})
    final = answer["final"]
    new = copy.deepcopy(state)
    new["last_result"] = saved(answer)
    if answer["stopped_at"] is None:
        new["counts"] = carried_counts(state.get("counts") or {}, final)
    if answer["winner"]:
        new["board"] = {
            "active": _side(final["active"]),
            "opponent": _side(final["opponent"]),
            "shop_row": list(final.get("shop_row", [])),
        }
        new["winner"] = answer["winner"]
        new["tally"][answer["winner"]] = new["tally"].get(answer["winner"], 0) + 1
    elif answer["stopped_at"] is not None:
        return copy.deepcopy(state), answer  # answered; the turn did not happen as told
    elif not answer["turn_over"]:
        raise refuse(
            "body.actions",
            "turn_not_over",
            "A turn at the table ends with end_turn "
            "(or a win); this one does not, so the table cannot carry it on.",
            top="turn_not_over",
        )
    else:
        new["board"] = next_board(final)
        new["turn"] = state["turn"] + 1
        left = list(final["active"].get("hand", []))
        new["kept"][active_name] = len(left)
        sealed = copy.deepcopy(state.get(SEALED) or {})
        sealed.setdefault("kept", {})[active_name] = left
        new[SEALED] = sealed
    new["health"] = {
        final["active"]["name"]: final["active"]["health"],
        final["opponent"]["name"]: final["opponent"]["health"],
    }
    new["health"] = {name: new["health"][name] for name in state["players"]}
    return new, answer


def ruling(
    ask: Ask, state: State, seat: int | None, body: dict[str, Any], by_host: bool
) -> tuple[State, dict[str, Any] | None]:
    """A move checked at the table (any moment of a turn, which the table does not follow
    action by action): the game's own ruling on the body as given, recorded in the history; the
    state does not change (the turn, once played, is the `turn` event)."""
    return copy.deepcopy(state), ask(RULING, body)


def new_game(
    ask: Ask, state: State, seat: int | None, body: dict[str, Any], by_host: bool
) -> tuple[State, dict[str, Any] | None]:
    return next_game(
        state, initial, not_finished="This game has no winner yet: nobody's Health is at 0."
    )


def job_request_body(
    table_state: dict[str, Any],
    players: list[str],
    kind: str,
    seat: int | None = None,
    private: bool = False,
) -> dict[str, Any] | None:
    """The game's turn (score) or move (ruling) body at the start of the active player's turn,
    from the table's board: Health, Coins, bases and their damage, the shop row as last seen, and
    the cards the active player kept in hand (the three drawn are the player's to add)."""
    board = table_state.get("board")
    if not board:
        return None
    active = board["active"]["name"]
    # The cards kept are the active player's alone (SRA-3.4): filled in for their own seat's
    # phone, or the host's when no phone holds that seat (`private`), never another phone's.
    mine = private and seat is not None and seat == _seat_of({"players": players}, active)
    kept = ((table_state.get(SEALED) or {}).get("kept") or {}).get(active, []) if mine else []
    position = with_counts(
        turn_position(board, {"hand": list(kept)}), table_state.get("counts") or {}
    )
    if kind == SCORE:
        return {**position, "actions": []}
    if kind == RULING:
        return {"position": position, "move": {}}
    return None


def _agrees(given: dict[str, Any], kept: dict[str, Any], at: str, *, start: bool) -> None:
    """What a turn's body says of a player agrees with the table (names and cards any case)."""
    for key in ("name", "health", "coins"):
        if key in given and given[key] is not None:
            same = (
                str(given[key]).casefold() == str(kept[key]).casefold()
                if key == "name"
                else given[key] == kept[key]
            )
            if not same:
                raise disagree(
                    f"{at}.{key}",
                    f"The table has {kept['name']}'s {key} at "
                    f"{kept[key]}, not {given[key]} (the host may undo a turn).",
                )
    if "bases" in given and given["bases"] is not None:
        bases = given["bases"] if isinstance(given["bases"], list) else []
        shown = sorted(
            (str(b.get("card", "")).casefold(), b.get("damage") or 0)
            for b in bases
            if isinstance(b, dict)
        )
        table = sorted((b["card"].casefold(), b["damage"]) for b in kept["bases"])
        if shown != table or len(shown) != len(bases):
            listed = ", ".join(f"{b['card']} ({b['damage']} damage)" for b in kept["bases"])
            raise disagree(
                f"{at}.bases", f"The table has {kept['name']}'s bases as {listed or 'none'}."
            )
    if start:
        for key, empty in (("in_play", []), ("combat", 0), ("used", [])):
            if given.get(key) not in (None, empty):
                raise disagree(
                    f"{at}.{key}",
                    "A turn at the table starts with nothing in play, "
                    "an empty Combat pool and no ability used.",
                )


def _object(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def acting_seat(table_state: dict[str, Any], players: list[str]) -> int | None:
    """The seat a turn is sent for now (the active player's): where the host's browser acts."""
    board = table_state.get("board")
    if not board or table_state.get("winner"):
        return None
    return _seat_of({"players": players}, board["active"]["name"])


def job_event(
    table_state: dict[str, Any], players: list[str], kind: str, body: dict[str, Any]
) -> tuple[str, dict[str, Any]]:
    """The table's event for the game's job asked at the table: a turn broken down is the
    `turn` (what the body says of both players must agree with the table's board; the hand,
    the counts, the shop row and the actions go on); a move checked is a `ruling`."""
    if kind != SCORE:
        return "ruling", body
    board = table_state["board"]
    active = _object(body.get("active"))
    opponent = _object(body.get("opponent"))
    _agrees(active, board["active"], "active", start=True)
    _agrees(opponent, board["opponent"], "opponent", start=False)
    event: dict[str, Any] = {
        "active": {key: active[key] for key in sorted(ACTIVE_GIVEN) if active.get(key) is not None},
        "actions": body.get("actions"),
    }
    if body.get("shop_row") is not None:
        event["shop_row"] = body["shop_row"]
    return "turn", event


def one_less_all(cards: list[str], taken: list[str]) -> list[str]:
    """`cards` without one copy of each card of `taken` (a hand without the cards kept: those
    played, in the hand's order)."""
    rest = list(cards)
    for card in taken:
        rest = one_less(rest, card)
    return rest


def public_answer(
    request: dict[str, Any], answer: dict[str, Any], state: State
) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """A turn (or a move checked) as every phone may see it (issue 29; SRA-3.4: a player looks at
    the cards in their own hand, "but not those in your opponent's hand"). The cards played go
    face up in play; the others in the active player's hand are theirs alone: each list of a
    hand becomes as many {"withheld": true}, their names become "[hidden card]" in every text
    (a name also played stays: a Scout kept reads as the Scout played), the alternatives (drawn
    from the whole hand) go, and the request keeps the cards played, as many of each as were
    played (a second Scout kept is not listed). None when the hand held nothing but the cards
    played."""
    position = request.get("position") if isinstance(request.get("position"), dict) else request
    active = position.get("active") if isinstance(position, dict) else None
    if not isinstance(active, dict) or not isinstance(active.get("hand"), list):
        return None
    listed = request.get("actions")
    actions: list[Any] = listed if isinstance(listed, list) else [request.get("move")]
    played = [
        str(action.get("card"))
        for action in actions
        if isinstance(action, dict) and action.get("action") == "play"
    ]
    hand = [str(card) for card in active["hand"]]
    hidden = hand
    for card in played:
        hidden = one_less(hidden, card)
    if not hidden:
        return None
    # The cards played, as many of each as were played: a copy kept of a card played is kept.
    active["hand"] = one_less_all(hand, hidden)
    names = {card: "[hidden card]" for card in hidden if card not in played}
    shown = withhold(answer, names, drop=frozenset({"alternatives"}))

    def hands(item: Any) -> Any:
        if isinstance(item, dict):
            return {
                key: (
                    [{WITHHELD: True}] * len(value)
                    if key == "hand" and isinstance(value, list)
                    else hands(value)
                )
                for key, value in item.items()
            }
        if isinstance(item, list):
            return [hands(value) for value in item]
        return item

    shown = hands(shown)
    shown[WITHHELD] = (
        "A hand is its player's own (SRA-3.4): this answer, as every phone sees it, "
        "names the cards played only. The phone that sent it saw it whole."
    )
    return request, shown


TABLE = TableGame(
    initial=initial,
    kinds={"turn": turn, "ruling": ruling, "new_game": new_game},
    host_kinds=frozenset({"new_game"}),
    seat_kinds=frozenset({"turn", "ruling"}),
    # A move checked mid-turn reads nothing the table keeps: a seat's own question. A turn is
    # played on the board the previous one left: it names the version it read.
    own_kinds=frozenset({"ruling"}),
    state_template="star_realms_academy/_table_state.html",
    form_template=None,
    event_template="star_realms_academy/_table_event.html",
    next_entry=table_glance.next_entry,
    public_answer=public_answer,
)
