"""A Factions table (issue 25, API.md "Tables"): the position carried move by move.

The table keeps what every player sees: each faction's controller and units (alive or
defeated), each player's lost turns and own faction, whose turn it is (and whether it is a lost
one), an ATTACK awaiting its answer, the conquests and eliminations so far, and the standings.
It does not keep the hands: they are hidden, and a turn starts with a draw nobody else sees; each
move gives them.

* `setup` (a seat, or the host, before the first move): the starting position, the standings
  body of API.md without hands (`factions`, `players` in the table's seat order with their own
  `faction` and `lost_turns`, `turn`: the first player, seat 1 when left out). Answered by the
  game's standings; every unit of each faction in play must be listed (a table does not guess a
  unit's state).
* `move` (the seat of the player to move: the player whose turn it is, or the defender while an
  ATTACK awaits an answer): the ruling body of API.md without what the table knows: `position`
  holds only the players' hands (`players`: [{"name", "hand"}] in seat order), and `move`. The
  game's ruling answers; a legal move's outcome is applied (units defeated or restored,
  conquests, lost turns, eliminations, the attack now pending or answered, the next turn) and the
  standings are the game's own on the new position. An illegal move, or one that needs
  information, is answered and changes nothing.
* `new_game` (the host, once there is a winner): a new game at the same table; the winner goes
  on the tally of games won.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from games.package import RULING, SCORE
from games.table_state import (
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
from games.wording import listing

from . import table_glance

LEGAL = "legal"


def initial(players: list[str]) -> State:
    return {
        "players": list(players),
        "game_number": 1,
        "position": None,  # until the setup event gives it
        "moves": 0,  # legal moves applied in this game
        "conquests": [],  # [{"faction", "from", "to", "move"}]
        "eliminated": [],
        "standings": [],
        "winner": None,
        "last_result": None,
        "tally": {name: 0 for name in players},
    }


def _seat_names(
    given: object, names: list[str], *, at: str, allowed: set[str], knows: frozenset[str]
) -> list[dict[str, Any]]:
    """The players a body gives, one per seat in the table's order, each with only `allowed`."""
    if not isinstance(given, list):
        raise refuse(
            at, "invalid_type", f"Give the players: a list, in seat order ({', '.join(names)})."
        )
    shown = [player.get("name") if isinstance(player, dict) else None for player in given]
    if [str(name).casefold() for name in shown] != [name.casefold() for name in names]:
        raise refuse(
            at,
            "players_differ",
            f"The table's players are {', '.join(names)}, in that "
            f"order; the body names {', '.join(str(name) for name in shown)}.",
        )
    for index, player in enumerate(given):
        only_fields(player, allowed, at=f"{at}[{index}].", what="player here", knows=knows)
    return given


def _position(
    standings: dict[str, Any], players: list[dict[str, Any]], names: list[str], turn: str
) -> dict[str, Any]:
    """The table's position from the game's standings of the setup (canonical faction slugs and
    unit names, as the game's rulings answer with them)."""
    rows = {row["player"]: row for row in standings["standings"]}
    position_factions = []
    own: dict[str, str] = {}
    for name in names:
        for entry in rows[name]["factions"]:
            position_factions.append(
                {
                    "name": entry["faction"],
                    "controller": name,
                    "units": [{"name": unit, "alive": True} for unit in entry["surviving"]]
                    + [{"name": unit, "alive": False} for unit in entry["defeated"]],
                }
            )
            if entry["own"]:
                own[name] = entry["faction"]
    position_players = []
    for name, given in zip(names, players, strict=True):
        player: dict[str, Any] = {"name": name, "lost_turns": given.get("lost_turns") or 0}
        if name in own or given.get("faction"):
            player["faction"] = own.get(name, given.get("faction"))
        position_players.append(player)
    return {
        "factions": position_factions,
        "players": position_players,
        "turn": turn,
        "turn_lost": False,
        "pending": None,
    }


def setup(
    ask: Ask, state: State, seat: int | None, body: dict[str, Any], by_host: bool
) -> tuple[State, dict[str, Any] | None]:
    names: list[str] = state["players"]
    if state["moves"]:
        raise refuse(
            "kind",
            "game_started",
            "The game has started; the host may undo the moves or start the next game.",
            top="game_started",
        )
    only_fields(body, {"factions", "players", "turn"}, at="body.", what="table's setup")
    players = _seat_names(
        body.get("players", [{"name": name} for name in names]),
        names,
        at="body.players",
        allowed={"name", "faction", "lost_turns"},
        knows=frozenset(),
    )
    turn = body.get("turn", names[0])
    folded = {name.casefold(): name for name in names}
    if not isinstance(turn, str) or turn.casefold() not in folded:
        raise refuse(
            "body.turn",
            "unknown_player",
            f"The first player is one of {', '.join(names)}.",
            suggestions=names,
        )
    turn = folded[turn.casefold()]
    answer = ask(
        SCORE,
        {
            "factions": body.get("factions"),
            "players": [
                {**player, "name": name, "hand": []}
                for player, name in zip(players, names, strict=True)
            ],
            "turn": turn,
        },
    )
    unlisted = [
        (row["player"], entry["name"], entry["unlisted"])
        for row in answer["standings"]
        for entry in row["factions"]
        if entry["unlisted"]
    ]
    if unlisted:
        _, faction, missing = unlisted[0]
        raise refuse(
            "body.factions",
            "units_unlisted",
            f"A table starts from every unit of each "
            f"faction in play; {faction} does not list {', '.join(missing)}.",
        )
    new = copy.deepcopy(state)
    new["position"] = _position(answer, players, names, turn)
    new["standings"] = answer["standings"]
    new["eliminated"] = list(answer["eliminated"])
    new["winner"] = answer["winner"]
    new["last_result"] = saved(answer)
    return new, answer


def mover(position: dict[str, Any]) -> str:
    """Who moves next: the defender while an ATTACK awaits its answer, else the turn's player."""
    pending = position.get("pending")
    if pending:
        faction = pending["target_unit"]["faction"]
        controller: str = next(
            f["controller"] for f in position["factions"] if f["name"] == faction
        )
        return controller
    return str(position["turn"])


def ruling_position(
    position: dict[str, Any], hands: list[list[Any]], *, mover: tuple[int, bool] | None = None
) -> dict[str, Any]:
    """The ruling's position: the table's, with the hands the move gives. At the table
    (`mover`: the mover's seat index, and whether its hand is given whole) only the mover's hand
    is the move's to give: every other hand is another phone's, `hand_complete` false, so the
    game rules nothing from what it might hold (an ATTACK waits for the defender's answer)."""
    players = []
    for index, (player, hand) in enumerate(zip(position["players"], hands, strict=True)):
        if mover is None:
            players.append({**player, "hand": hand})
        elif index == mover[0]:
            players.append({**player, "hand": hand, "hand_complete": mover[1]})
        else:
            players.append({**player, "hand": [], "hand_complete": False})
    body: dict[str, Any] = {
        "factions": copy.deepcopy(position["factions"]),
        "players": players,
        "turn": position["turn"],
    }
    if position.get("turn_lost"):
        body["turn_lost"] = True
    if position.get("pending"):
        body["pending"] = copy.deepcopy(position["pending"])
    return body


def apply_outcome(position: dict[str, Any], outcome: dict[str, Any]) -> dict[str, Any]:
    """The position after a legal move, from the ruling's outcome: units defeated or restored,
    conquests, lost turns, eliminations, the attack pending, the next turn."""
    after = copy.deepcopy(position)
    factions = {faction["name"]: faction for faction in after["factions"]}
    players = {player["name"]: player for player in after["players"]}
    for change in outcome.get("units", []):
        for unit in factions[change["faction"]]["units"]:
            if unit["name"] == change["unit"]:
                unit["alive"] = change["change"] == "restored"
    for conquest in outcome.get("conquests", []):
        factions[conquest["faction"]]["controller"] = conquest["to"]
    for lost in outcome.get("turns_lost", []):
        players[lost["player"]]["lost_turns"] = lost["after"]
    for name in outcome.get("eliminated", []):
        players[name]["lost_turns"] = 0  # FAC-R9: out of the game, nothing left to serve
    pending = outcome.get("pending")
    after["pending"] = (
        {key: pending[key] for key in ("card", "by", "target_unit")} if pending else None
    )
    following = outcome.get("next_turn")
    if following:
        after["turn"] = following["player"]
        after["turn_lost"] = bool(following["lost"])
    return after


def standings_body(position: dict[str, Any]) -> dict[str, Any]:
    """The game's standings body of the table's position (no hands: the table keeps none)."""
    body = ruling_position(position, [[] for _ in position["players"]])
    body.pop("pending", None)  # the standings read units and controllers only
    body.pop("turn_lost", None)
    return body


def move(
    ask: Ask, state: State, seat: int | None, body: dict[str, Any], by_host: bool
) -> tuple[State, dict[str, Any] | None]:
    names: list[str] = state["players"]
    position = state["position"]
    if position is None:
        raise refuse(
            "kind",
            "not_set_up",
            "The table has no position yet: send its setup "
            "(the factions, their controllers and units, who starts) first.",
            top="not_set_up",
        )
    if state["winner"]:
        raise refuse(
            "kind",
            "game_over",
            f"The game is over: {state['winner']} won. The host starts the next game.",
            top="game_over",
        )
    to_move = mover(position)
    if seat != names.index(to_move) + 1:
        waiting = (
            " (the attacked player answers the pending attack)" if position.get("pending") else ""
        )
        raise refuse(
            "seat",
            "not_your_turn",
            f"{to_move} (seat {names.index(to_move) + 1}) "
            f"moves next{waiting}; seat {seat} does not.",
            top="not_your_turn",
        )
    only_fields(body, {"position", "move"}, at="body.", what="move at the table")
    given = body.get("position")
    if not isinstance(given, dict):
        raise refuse(
            "body.position",
            "invalid_type",
            'Give the players\' hands: {"players": [{"name", "hand"}, …]} in seat order.',
        )
    only_fields(
        given,
        {"players"},
        at="body.position.",
        what="move's position",
        knows=frozenset({"factions", "turn", "turn_lost", "pending", "options"}),
    )
    players = _seat_names(
        given.get("players"),
        names,
        at="body.position.players",
        allowed={"name", "hand", "hand_complete"},
        knows=frozenset({"lost_turns", "faction"}),
    )
    hands = [player.get("hand", []) for player in players]
    index = names.index(to_move)
    # The mover's own hand only: the others' are their phones' (a DEFENCE is never assumed
    # absent because the attacker's phone does not know it). The defender's answer gives only
    # the card it plays (hand_complete false).
    whole = players[index].get("hand_complete", True)
    answer = ask(
        RULING,
        {
            "position": ruling_position(position, hands, mover=(index, whole)),
            "move": body.get("move"),
        },
    )
    if answer["verdict"] != LEGAL:
        return copy.deepcopy(state), answer  # answered; nothing changes
    outcome = answer.get("outcome") or {}
    new = copy.deepcopy(state)
    new["position"] = apply_outcome(position, outcome)
    new["moves"] = state["moves"] + 1
    standings = ask(SCORE, standings_body(new["position"]))
    labels = {
        entry["faction"]: entry["name"]
        for row in standings["standings"]
        for entry in row["factions"]
    }
    new["conquests"] = state["conquests"] + [
        {
            "faction": c["faction"],
            "name": labels.get(c["faction"], c["faction"]),
            "from": c["from"],
            "to": c["to"],
            "move": new["moves"],
        }
        for c in outcome.get("conquests", [])
    ]
    new["standings"] = standings["standings"]
    new["eliminated"] = list(standings["eliminated"])
    new["winner"] = standings["winner"]
    if new["winner"]:
        new["tally"][new["winner"]] = new["tally"].get(new["winner"], 0) + 1
    new["last_result"] = saved(answer)
    return new, answer


def new_game(
    ask: Ask, state: State, seat: int | None, body: dict[str, Any], by_host: bool
) -> tuple[State, dict[str, Any] | None]:
    return next_game(
        state,
        initial,
        not_finished="This game has no winner yet: more than one "
        "player still controls a surviving unit.",
    )


def job_request_body(
    table_state: dict[str, Any],
    players: list[str],
    kind: str,
    seat: int | None = None,
    private: bool = False,
) -> dict[str, Any] | None:
    """The game's standings (score) body or ruling body from the table's position, hands empty
    (the table keeps none: each player adds their own); before the setup, the players only."""
    position = table_state.get("position")
    if position is None:
        base: dict[str, Any] = {
            "factions": [],
            "players": [{"name": name, "hand": []} for name in players],
        }
    else:
        base = ruling_position(position, [[] for _ in position["players"]])
    if kind == SCORE:
        return base
    if kind == RULING:
        return {"position": base, "move": {}}
    return None


def _folded(value: object) -> str:
    return str(value).strip().casefold()


def _agrees(given: dict[str, Any], table_state: dict[str, Any]) -> None:
    """What a move's position says of what the table keeps agrees with it: controllers, units
    alive or defeated, lost turns, whose turn (names any case; a faction by slug or label)."""
    position = table_state["position"]
    labels = {
        entry["faction"]: entry["name"]
        for row in table_state.get("standings", [])
        for entry in row.get("factions", [])
    }
    kept = {}
    for faction in position["factions"]:
        names = {_folded(faction["name"]), _folded(labels.get(faction["name"], faction["name"]))}
        kept.update({name: faction for name in names})
    for index, faction in enumerate(given.get("factions") or []):
        if not isinstance(faction, dict):
            continue
        at = f"position.factions[{index}]"
        ours = kept.get(_folded(faction.get("name")))
        if ours is None:
            raise disagree(f"{at}.name", f"{faction.get('name')} is not a faction at this table.")
        if "controller" in faction and _folded(faction["controller"]) != _folded(
            ours["controller"]
        ):
            raise disagree(
                f"{at}.controller",
                f"The table has {ours['name']} controlled by "
                f"{ours['controller']}, not {faction['controller']}.",
            )
        alive = {_folded(unit["name"]): unit["alive"] for unit in ours["units"]}
        for number, unit in enumerate(faction.get("units") or []):
            if isinstance(unit, dict) and alive.get(_folded(unit.get("name"))) not in (
                None,
                unit.get("alive"),
            ):
                raise disagree(
                    f"{at}.units[{number}].alive",
                    f"The table has {unit.get('name')} "
                    f"{'alive' if alive[_folded(unit.get('name'))] else 'defeated'}.",
                )
    if (
        "turn" in given
        and given["turn"] is not None
        and _folded(given["turn"]) != _folded(position["turn"])
    ):
        raise disagree(
            "position.turn", f"The table has it {position['turn']}'s turn, not {given['turn']}'s."
        )
    lost = {_folded(player["name"]): player["lost_turns"] for player in position["players"]}
    for index, player in enumerate(given.get("players") or []):
        if isinstance(player, dict) and player.get("lost_turns") not in (
            None,
            lost.get(_folded(player.get("name"))),
        ):
            raise disagree(
                f"position.players[{index}].lost_turns",
                f"The table has "
                f"{player.get('name')} with {lost.get(_folded(player.get('name')))} "
                "lost turns to serve.",
            )


def acting_seat(table_state: dict[str, Any], players: list[str]) -> int | None:
    """The seat a move is sent for now (the mover's: the defender while an ATTACK awaits its
    answer): where the host's browser acts. None before the setup (any seat sends it)."""
    position = table_state.get("position")
    if position is None or table_state.get("winner"):
        return None
    return players.index(mover(position)) + 1


def job_event(
    table_state: dict[str, Any], players: list[str], kind: str, body: dict[str, Any]
) -> tuple[str, dict[str, Any]]:
    """The table's event for the game's job asked at the table: a move checked is the table's
    `move` (what its position says of what the table keeps must agree; the hands and the move go
    on); the standings asked before the first move are the table's `setup` (without hands)."""
    if kind == SCORE:
        setup = {key: body[key] for key in ("factions", "turn") if key in body}
        setup["players"] = [
            {
                key: value
                for key, value in player.items()
                if key in ("name", "faction", "lost_turns") and value is not None
            }
            for player in body.get("players") or []
            if isinstance(player, dict)
        ]
        return "setup", setup
    position = body.get("position")
    given: dict[str, Any] = position if isinstance(position, dict) else {}
    if table_state.get("position") is not None:
        _agrees(given, table_state)
    hands = [
        {"name": player.get("name"), "hand": player.get("hand") or []}
        for player in given.get("players") or []
        if isinstance(player, dict)
    ]
    return "move", {"position": {"players": hands}, "move": body.get("move")}


ANSWER_SEP = "|"


def answer_event(posted: Mapping[str, str], names: list[str]) -> tuple[str, dict[str, Any]]:
    """The defender's answer to a pending ATTACK, from the table page's answer buttons: block
    it with the DEFENCE named ("defend|<card>|<faction>") or let it through ("pass"). The
    defender's hand stays theirs: only the DEFENCE played is listed (hand_complete false)."""
    answer = posted.get("answer", "")
    defender = posted.get("defender", "")
    if answer == "pass":
        hand: list[dict[str, Any]] = []
        move_body: dict[str, Any] = {"action": "pass"}
    elif answer.startswith("defend" + ANSWER_SEP) and answer.count(ANSWER_SEP) == 2:
        _, card, faction = answer.split(ANSWER_SEP)
        hand = [{"card": card, "faction": faction}]
        move_body = {"action": "defend", "card": hand[0]}
    else:
        raise refuse(
            "answer",
            "invalid_choice",
            "Choose an answer: block the attack with a DEFENCE, or let it through.",
        )
    return "move", {
        "position": {
            "players": [
                {"name": name, "hand": hand if name == defender else [], "hand_complete": False}
                for name in names
            ]
        },
        "move": move_body,
    }


def answer_context(state: State, players: list[str]) -> dict[str, Any]:
    """What the table's page shows while an ATTACK awaits its answer: whom the table waits for
    and (on the defender's phone and the host's) the defender's answers, from the catalog's
    DEFENCE cards of the factions in play."""
    position = state.get("position")
    if not position or not position.get("pending") or state.get("winner"):
        return {}
    from .pages import defence_choices  # the catalog's cards: Django's side of the game

    pending = position["pending"]
    defender = mover(position)
    labels = {
        entry["faction"]: entry["name"]
        for row in state.get("standings", [])
        for entry in row.get("factions", [])
    }
    target = pending["target_unit"]
    return {
        "awaiting_answer": {
            "defender": defender,
            "seat": players.index(defender) + 1,
            "by": pending["by"],
            "unit": target["unit"],
            "faction": labels.get(target["faction"], target["faction"]),
            "defences": [
                {
                    "value": ANSWER_SEP.join(("defend", card, faction)),
                    "label": f"Block it with {card} ({labels.get(faction, faction)})",
                }
                for card, faction in defence_choices([f["name"] for f in position["factions"]])
            ],
        }
    }


def _defenders_seat(state: State) -> int | None:
    """The defender's seat while an ATTACK awaits its answer: the next move is that answer
    (defend with a DEFENCE from the hand, or let it through), the defender's phone's to give
    (FAC-R4). None when no attack waits."""
    position = state.get("position")
    if not isinstance(position, dict) or not position.get("pending") or state.get("winner"):
        return None
    return list(state["players"]).index(mover(position)) + 1


def _card_key(ref: object) -> tuple[str, str] | None:
    if (
        isinstance(ref, dict)
        and isinstance(ref.get("card"), str)
        and isinstance(ref.get("faction"), str)
    ):
        return ref["card"], ref["faction"]
    return None


def public_answer(
    request: dict[str, Any], answer: dict[str, Any], state: State
) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """A move's ruling as every phone may see it (issue 29; FAC-9: only a SPY inspects another's
    hand). The move gives its mover's hand; the card it plays, defends or discards is shown to
    all, the rest of the hand is not. What is withheld is chosen by role, whose hand a card is in,
    never by name: the deck holds several copies of each card (FAC-F1: ATTACK ×5, DEFENCE ×5,
    the others ×2 per faction), so a card kept may be a second copy of the card played, which
    stays named while the one kept does not. The hand's cards are withheld where the game lists
    them: a conquest's cards no longer enemy for the conqueror (FAC-14, `no_longer_enemy`: each
    {"withheld": true}, and "a hidden card" in its sentence), a card taken at random from one hand
    to another (FAC-10, FAC-F2: the two players alone see it), the hand an illegal play did not
    find its card in (FAC-4); the lists built from the whole hand go (`alternatives`: every
    legal move of that hand; `revealed`: a hand shown to one player alone, FAC-9). The request
    keeps the played card only. None when the hand held nothing but that card."""
    position = request.get("position")
    move_body = request.get("move")
    played = _card_key(move_body.get("card")) if isinstance(move_body, dict) else None
    players = position.get("players") if isinstance(position, dict) else None
    if not isinstance(players, list):
        return None
    labels = {
        entry["faction"]: entry["name"]
        for row in state.get("standings", [])
        for entry in row.get("factions", [])
    }

    def label(key: tuple[str, str]) -> str:
        return f"{key[0]} ({labels.get(key[1], key[1])})"

    hands: dict[str, list[tuple[str, str]]] = {}  # each hand given, whole, as the move gave it
    kept: dict[str, list[tuple[str, str]]] = {}  # what stays hidden of it: all but the card played
    for player in players:
        if not isinstance(player, dict):
            continue
        cards = [key for key in map(_card_key, player.get("hand") or []) if key is not None]
        name = str(player.get("name"))
        hands[name] = cards
        rest = one_less(cards, played)
        if rest:
            kept[name] = rest
        player["hand"] = (
            [dict(zip(("card", "faction"), played, strict=True))] if (played in cards) else []
        )
        player["hand_complete"] = False
    if not kept:
        return None
    hidden = "a hidden card"
    phrases: dict[str, str] = {}
    for name, rest in kept.items():
        # FAC-4: an illegal play's card not in the hand, which the game lists whole.
        whole = [label(key) for key in hands[name]]
        if played is not None:
            phrases[f"{name}'s hand holds no {label(played)}; it holds {listing(whole)}."] = (
                f"{name}'s hand holds no {label(played)}; it holds {listing([hidden] * len(whole))}."
            )
        # FAC-14: a conquest names the conqueror's cards of the faction conquered.
        for faction in {key[1] for key in rest}:
            friendly = [label(key) for key in rest if key[1] == faction]
            phrases[f"in {name}'s hand, {listing(friendly)}."] = (
                f"in {name}'s hand, {listing([hidden] * len(friendly))}."
            )
        # FAC-10, FAC-F2: a card taken at random from this hand.
        for key in rest:
            phrases[f" takes {label(key)} at random from {name}'s hand"] = (
                f" takes {hidden} at random from {name}'s hand"
            )
    shown = withhold(
        _withheld_by_role(copy.deepcopy(answer), set(kept)),
        phrases,
        drop=frozenset({"alternatives", "revealed"}),
    )
    holders = sorted(kept)
    shown[WITHHELD] = (
        f"{' and '.join(holders)}'s hand is theirs alone (only a SPY inspects "
        "it, FAC-9): this answer, as every phone sees it, names only the card the move plays. The phone "
        "that sent the move saw it whole."
    )
    return request, shown


def _withheld_by_role(value: Any, holders: set[str]) -> Any:
    """The answer with each card of a hidden hand withheld where the game lists it ({"withheld":
    true}): a conquest's `no_longer_enemy` (the conqueror's hand, FAC-14), and a card moved from
    one player's hand to another's (a random take, FAC-10, FAC-F2). A card played, discarded or
    put on the table stays: every phone sees it."""
    if isinstance(value, list):
        return [_withheld_by_role(item, holders) for item in value]
    if not isinstance(value, dict):
        return value
    shown = {key: _withheld_by_role(item, holders) for key, item in value.items()}
    if "no_longer_enemy" in shown and shown.get("to") in holders:
        shown["no_longer_enemy"] = [{WITHHELD: True} for _ in shown["no_longer_enemy"] or []]
    source, to = shown.get("from"), shown.get("to")
    if (
        "card" in shown
        and isinstance(shown.get("card"), dict)
        and isinstance(source, dict)
        and isinstance(to, dict)
        and source.get("player") in holders
        and "player" in to
    ):
        shown["card"] = {WITHHELD: True}
    return shown


TABLE = TableGame(
    initial=initial,
    kinds={"setup": setup, "move": move, "new_game": new_game},
    host_kinds=frozenset({"new_game"}),
    seat_kinds=frozenset({"setup", "move"}),
    state_template="factions/_table_state.html",
    form_template=None,
    form_event=answer_event,
    live_context=answer_context,
    event_template="factions/_table_event.html",
    next_entry=table_glance.next_entry,
    public_answer=public_answer,
    private_answer=lambda state, kind: _defenders_seat(state) if kind == "move" else None,
)
