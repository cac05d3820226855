"""The one flow from a request to a saved answer: every game's every job, for the API, the pages,
the tables and whatever else asks (a test holds that nothing else saves a result).

    answer(game=game, kind="ruling" | "score", body=body) -> the response body of API.md, saved
    (with "id" and "url"; inside results.services.unsaved(), without them)

1. The body is read against the job's declared request models (Job.request_models: where there
   are several, the first whose required fields the body all has), in the context the job gives
   (Job.reading: the game's card names, its options…): a 400 invalid_input names every problem.
2. The job's `ask` turns the request into the engine's position (and the move, or the moves);
3. the game's engine checks the position once, `check(position) -> Board` (games.protocol);
4. the job's own part, in the app named for it: adjudicator/services.py has the board rule on
   the move (`board.rule(move)`) and gives API.md's ruling body; scoring/services.py has it
   score (`board.score(moves)`) and gives the score's "game", "total", "steps" and "warnings";
5. the game's own fields are added to that answer (the job's `answer_fields`);
6. it is saved (results.services.result_save).

The flow owns what every game shares: an engine's refusal (games.protocol.Refused, e.g.
ImpossiblePosition) is a 400 with the refusal's code whose entries' paths gain where the position
sits in the body (Job.position_at: "position" in a ruling request); facts a score lacks
(MissingFacts) a 400 invalid_input; the warnings are the reading's, then the engine's, then the
reading's later ones.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cards.models import Game
from common.api_errors import ApiError
from common.games import GameEntry, game_package
from common.requests import RequestModel, invalid_body, read_body
from games.package import RULING, SCORE, Asked, Job
from games.protocol import Board, MissingFacts, Refused
from results.services import result_save

KINDS = (RULING, SCORE)


def answer(*, game: Game, kind: str, body: object) -> dict[str, Any]:
    """The answer of `game`'s job `kind` ("ruling" or "score") to the request `body`, saved.
    Raises ApiError for a 400 (and LookupError for a game or job GAMES does not have)."""
    package, job = _job(game.slug, kind)
    context = job.context(game)
    request = read(job, body, context)
    try:
        asked = job.asked(game, request, context)
        board = package.check(asked.position)
        result, response = _job_part(kind)(game, board, asked)
        response.update(job.fields(game, request, asked, result))
    except Refused as refused:
        raise refusal(refused, at=job.position_at) from None
    except MissingFacts as missing:
        raise invalid_body(placed(missing.missing, at=job.position_at)) from None
    return result_save(game=game, kind=kind, request_body=body, response_body=response)


# Each job's own part, once the position is checked: (game, board, asked) -> (the engine's result,
# the answer's body). The apps named for the jobs hand theirs over when Django starts
# (adjudicator/apps.py: the board rules on the move; scoring/apps.py: the board scores), so each
# job's part lives in its app while this flow, which the games' pages and the tables call, never
# imports those apps (the "games" import contract).
JobPart = Callable[[Game, Board[Any], Asked], tuple[Any, dict[str, Any]]]
JOB_PARTS: dict[str, JobPart] = {}


def register_job(kind: str, part: JobPart) -> None:
    """The app of job `kind` hands over its part of the flow (its AppConfig.ready)."""
    JOB_PARTS[kind] = part


def _job_part(kind: str) -> JobPart:
    part = JOB_PARTS.get(kind)
    if part is None:
        raise LookupError(
            f"No app registered the {kind} job's part of the flow: is its app "
            "(scoring, adjudicator) in INSTALLED_APPS?"
        )
    return part


def public_copy(
    *, game: Game, kind: str, request_body: dict[str, Any], response_body: dict[str, Any]
) -> dict[str, Any]:
    """A copy of an answer this flow gave, with the cards a seat holds hidden withheld (a table's
    history links it for every phone, issue 29; the game's `public_answer` made it from the whole
    answer): saved as a result of the same job, so every result is still saved here."""
    _job(game.slug, kind)  # a job the game has: LookupError otherwise
    return result_save(game=game, kind=kind, request_body=request_body, response_body=response_body)


def rule(*, game: Game, body: object) -> dict[str, Any]:
    """The ruling job's answer (the pages' and the tables' service; its name keys their cache)."""
    return answer(game=game, kind=RULING, body=body)


def score(*, game: Game, body: object) -> dict[str, Any]:
    """The score job's answer (the pages' and the tables' service; its name keys their cache)."""
    return answer(game=game, kind=SCORE, body=body)


SERVICES = {RULING: rule, SCORE: score}


def read(job: Job, body: object, context: dict[str, Any]) -> Any:
    """The body as the job's request model (the first whose required fields it all has, else the
    first); a 400 invalid_input (or the model's own refusal of it) naming every problem."""
    models: list[type[RequestModel]] = list(job.request_models)
    if not models:
        raise LookupError(
            "The job declares no request model (Job.request_models): the flow "
            "reads every body against one."
        )
    model = models[0]
    if isinstance(body, dict):
        model = next(
            (
                candidate
                for candidate in models
                if all(
                    name in body
                    for name, field in candidate.model_fields.items()
                    if field.is_required()
                )
            ),
            model,
        )
    try:
        return read_body(model, body, context=context)
    except ApiError as error:
        raise model.refused(error) from None


def refusal(refused: Refused, *, at: str) -> ApiError:
    """The 400 of an engine's refusal: its code, its entries placed in the body, and the one
    problem's detail or the refusal's summary."""
    errors = placed(refused.errors, at=at)
    if len(errors) == 1:
        detail = errors[0]["detail"]
    else:
        detail = refused.summary or (
            "This position cannot exist: " + " ".join(entry["detail"] for entry in errors)
        )
    return ApiError(status_code=400, code=refused.code, detail=detail, errors=errors)


def placed(errors: list[dict[str, Any]], *, at: str) -> list[dict[str, Any]]:
    """Error entries whose paths (relative to the position) start where the position sits in the
    body: "hand" at "position" is "position.hand"; the position itself is `at` ("body" when the
    body is the position)."""
    return [{**entry, "path": join_path(at, entry.get("path", ""))} for entry in errors]


def join_path(at: str, path: str) -> str:
    if at and path:
        return f"{at}.{path}"
    return at or path or "body"


def _job(slug: str, kind: str) -> tuple[GameEntry, Job]:
    package = game_package(slug)
    job: Job | None = package.job(kind) if package else None
    if package is None or job is None:
        raise LookupError(f"GAMES gives {slug} no {kind} job")
    return package, job


__all__ = [
    "Asked",
    "KINDS",
    "SERVICES",
    "answer",
    "join_path",
    "placed",
    "read",
    "refusal",
    "register_job",
    "rule",
    "score",
]
