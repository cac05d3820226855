"""How Star Trek: Missions' rulings read on its check-a-turn page and on /r/<id>: the shared shape
of a ruling (results.contexts.ruling_context), with its moves worded (take or draw, then discard) and
its outcome's fields named (the hand, the discard area and the decks after the turn)."""

from __future__ import annotations

import json
from typing import Any

from cards.models import Game
from games.wording import listing
from results import contexts as results_contexts


def ruling_view(game: Game, body: dict[str, Any]) -> dict[str, Any]:
    """A ruling response body, with what the template (results/_ruling.html) needs."""
    view = results_contexts.ruling_context(game, body)
    view["alternatives"] = group_moves(body.get("alternatives") or [])
    outcome = body.get("outcome")
    view["outcome"] = outcome_context(outcome) if isinstance(outcome, dict) else None
    return view


MOVE_GROUPS = {
    "take_discard": "Take from the discard area",
    "draw_galaxy": "Draw from the Galaxy deck",
    "draw_missions": "Draw from the Mission deck",
}


def group_moves(moves: list[Any]) -> list[dict[str, Any]]:
    """Moves as sentences, grouped by action in the order they come. A move (take or draw, then
    discard) read one line per card taken or drawn, with every discard that
    goes with it, so the shape shows at a glance (issue 23: 18 take-and-discard moves read as 3
    lines); each group says how many moves it holds."""
    groups: list[dict[str, Any]] = []
    for move in moves:
        action = move.get("action") if isinstance(move, dict) else None
        label = MOVE_GROUPS.get(str(action), "Moves")
        if not groups or groups[-1]["label"] != label:
            groups.append({"label": label, "moves": [], "count": 0, "lines": {}})
        group = groups[-1]
        group["count"] += 1
        first = _gained(move) if action in MOVE_GROUPS else None
        if first is None:
            group["moves"].append(describe_move(move))
            continue
        if first not in group["lines"]:
            group["lines"][first] = []
            group["moves"].append(first)  # its place; the line is written below
        discard = move.get("discard")
        group["lines"][first].append(discard if isinstance(discard, list) else [discard])
    for group in groups:
        lines = group.pop("lines")
        group["moves"] = [
            _with_discards(move, lines[move]) if move in lines else move for move in group["moves"]
        ]
    return groups


def _gained(move: dict[str, Any]) -> str:
    """What a move takes or draws, as the start of its sentence."""
    action = move.get("action")
    if action == "take_discard":
        return f"Take {move.get('take')}"
    if action == "draw_galaxy":
        return f"Draw {move.get('draw')}"
    return f"Draw {_names(move.get('draw'))}"


def _with_discards(first: str, discards: list[list[Any]]) -> str:
    """ "Take Tricorder, then discard one of: Bridge, Away Team" (pairs apart with ";")."""
    if len(discards) == 1:
        return f"{first}, then discard {_names(discards[0])}"
    pairs = any(len(discard) > 1 for discard in discards)
    return f"{first}, then discard one of: " + ("; " if pairs else ", ").join(
        _names(discard) for discard in discards
    )


def describe_move(move: Any) -> str:
    """A move as a sentence; a move of another shape reads as its fields."""
    if not isinstance(move, dict):
        return json.dumps(move, ensure_ascii=False)
    action = move.get("action")
    discard = _names(move.get("discard"))
    if action == "take_discard":
        return f"Take {move.get('take')} from the discard area, discard {discard}"
    if action == "draw_galaxy":
        return f"Draw {move.get('draw')} from the Galaxy deck, discard {discard}"
    if action == "draw_missions":
        return f"Draw {_names(move.get('draw'))} from the Mission deck, discard {discard}"
    return results_contexts.describe_move(move)


OUTCOME_KNOWN = {
    "hand",
    "discard_area",
    "galaxy_deck",
    "mission_deck",
    "discard_counts",
    "game_ends",
    "game_ends_reason",
    "extra_turn",
    "extra_turn_reason",
    "summary",
    "cases",
}


def outcome_context(outcome: dict[str, Any]) -> dict[str, Any]:
    """The outcome's well-known fields by name; any other field as a plain row."""
    return {
        **{key: outcome.get(key) for key in OUTCOME_KNOWN},
        "has_hand": "hand" in outcome,
        "has_decks": "galaxy_deck" in outcome or "mission_deck" in outcome,
        "has_end": "game_ends" in outcome,
        "has_extra": "extra_turn" in outcome,
        "facts_template": "star_trek_missions/_outcome_facts.html",
        "other": [
            (key.replace("_", " ").capitalize(), results_contexts.plain(value))
            for key, value in outcome.items()
            if key not in OUTCOME_KNOWN
        ],
    }


def _names(value: Any) -> str:
    return listing(value) if isinstance(value, list) else str(value)
