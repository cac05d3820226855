"""Star Realms Academy turn breakdowns for the API and the pages: parse the body (the position of
API.md plus "actions"), resolve the card names, rule on every action in order, save the result.

Request body: ``{"active": {...}, "opponent": {...}, "shop_row": [names], "actions": [moves]}``,
each part as the rulings request has it (games.star_realms_academy.rulings). Errors: 400
``invalid_input`` (entries by path, such as ``actions[2].card``) and 400 ``impossible_position``.

Response (API.md's score body): ``total`` (the Health the opponent lost this turn), ``steps``
(one per action ruled, with the running ``coins``, ``combat``, ``draws``, ``health``,
``opponent_health`` and ``bases``; ``points`` is the Health that action took), ``warnings``,
``start`` (the numbers before the first action), ``final`` (the position after the turn),
``winner`` (or null), ``turn_over``, ``stopped_at`` (the index of the action the breakdown stopped
at, or null) and ``ruling`` (the full ruling body of that action, or null).
"""

from __future__ import annotations

from cards.models import Game
from common.api_errors import error_entry
from common.body_checks import unknown_fields
from common.card_names import invalid_input
from games.protocol import ImpossiblePosition
from games.responses import impossible_position, ruling_response
from games.star_realms_academy import engine
from games.star_realms_academy.rulings import POSITION_FIELDS, RequestParser
from results.services import result_save

GAME = "star-realms-academy"
BODY_FIELDS = (*POSITION_FIELDS, "actions")
MAX_ACTIONS = 100


def score_star_realms_academy(*, game: Game, body) -> dict:
    position, moves = parse_request(game=game, body=body)
    try:
        breakdown = engine.check(position, path="").score(moves)
    except ImpossiblePosition as impossible:
        raise impossible_position(impossible.errors) from None
    ruling = None
    if breakdown.ruling is not None:
        ruling = ruling_response(game=game, ruling=breakdown.ruling)
    response = {
        "game": game.slug,
        "total": breakdown.total,
        "steps": [step.as_dict() for step in breakdown.steps],
        "warnings": breakdown.warnings,
        "start": breakdown.start,
        "final": breakdown.final,
        "winner": breakdown.winner,
        "turn_over": breakdown.turn_over,
        "stopped_at": breakdown.stopped_at,
        "ruling": ruling,
    }
    return result_save(game=game, kind="score", request_body=body, response_body=response)


def parse_request(*, game: Game, body) -> tuple[engine.Position, list[engine.Move]]:
    parser = RequestParser(game)
    if not isinstance(body, dict):
        raise invalid_input([error_entry(path="body", code="invalid_type",
                                         detail="The request body must be a JSON object.")])
    parser.errors += unknown_fields(body, BODY_FIELDS, "")
    position = parser.position({k: v for k, v in body.items() if k in POSITION_FIELDS},
                               prefix="")
    moves: list[engine.Move] = []
    actions = body.get("actions")
    if "actions" not in body:
        parser.errors.append(error_entry(path="actions", code="required",
                                         detail="actions is required: the turn's moves in order "
                                                "(a list)."))
    elif not isinstance(actions, list):
        parser.errors.append(error_entry(path="actions", code="invalid_type",
                                         detail="actions must be a list of moves, in order."))
    elif len(actions) > MAX_ACTIONS:
        parser.errors.append(error_entry(path="actions", code="too_many",
                                         detail=f"actions lists {len(actions)} moves; a turn is "
                                                f"broken down {MAX_ACTIONS} at most."))
    else:
        for index, raw in enumerate(actions):
            path = f"actions[{index}]"
            if not isinstance(raw, dict):
                parser.errors.append(error_entry(path=path, code="invalid_type",
                                                 detail=f"{path} must be a move object "
                                                        f"{{\"action\", …}}."))
                continue
            move = parser.move(raw, path=path)
            if move is not None:
                moves.append(move)
    parser.raise_errors()
    if position is None:  # parser.position gives None only with an error entry
        raise AssertionError("a request without a position has raised its errors")
    return position, moves
