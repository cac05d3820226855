"""The HTTP edge of the one flow: the score and rulings endpoints (scoring/, adjudicator/) find the
game and its job here, check the body is a JSON object and ask games.services.answer. It sits in
games/ (above results and cards, below the endpoints) so every import points down."""

from __future__ import annotations

from rest_framework.request import Request
from rest_framework.response import Response

from cards.api.views import game_or_404
from common.api_errors import ApiError, error_entry
from common.games import game_package, slugs_with
from common.parsers import request_object
from games.services import answer


def run_game_service(request: Request, *, game_slug: str, kind: str, unavailable: str) -> Response:
    """Look up the game (404 unknown_game) and its package's job `kind`, "ruling" or "score"
    (404 not_available: `unavailable` is the detail, with {game} for the game's name), then
    answer the body through the one flow."""
    game = game_or_404(game_slug)
    package = game_package(game.slug)
    job = package.job(kind) if package else None
    if job is None:
        detail = unavailable.format(game=game.name)
        raise ApiError(
            status_code=404,
            code="not_available",
            detail=detail,
            errors=[
                error_entry(
                    path="game", code="not_available", detail=detail, suggestions=slugs_with(kind)
                )
            ],
        )
    body = request_object(request)
    # No transaction around the flow: it reads the catalog and writes one saved result, a
    # single INSERT (atomic on its own); BEGIN and COMMIT were a third of a ruling's statements.
    return Response(answer(game=game, kind=kind, body=body))
