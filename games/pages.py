"""The page of a game's job (a ruling on a move, or a score): one view for every game.

A game's page module gives only what is its own: the form (a web.page_forms.PageForm building
the API's request body) and the page template. The rest comes from the game's entry in GAMES and
the one flow the API calls too (games.services: the page never rules or scores by itself), and
the job's `page_result`, which shapes its answer for the result fragment, the same one a saved
result's page (/r/<id>) uses.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from cards.models import Game
from cards.selectors import GameNotFound, game_get
from common.games import game_package
from games.package import Job, PageResult
from games.services import SERVICES  # the one flow; the games' own pages find it here too
from web.page_forms import PageForm
from web.page_results import (
    evaluate_on_page,
    form_errors,
    is_htmx_submit,
    page_input,
    render_result_page,
)


def catalog_not_loaded(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "404.html",
        {
            "message": "This game's cards are not in the catalog yet: "
            "an administrator loads them (manage.py load_catalog)."
        },
        status=404,
    )


# --- Asked at a table (issue 25) ---------------------------------------------------------------
@dataclass(frozen=True)
class AskedAt:
    """A job asked at a table (tables/jobs.py serves the page at /t/<code>/ask/…): the form opens
    filled in with what the table knows (`initial`, the page's own fields), and a submitted form
    is answered by `run` — the table's event, which calls this same service and records the
    answer in the table's history — instead of the job's service alone. `context` (the table,
    its link back) is shown above the page by templates/partials/asked_at.html."""

    initial: QueryDict
    run: Callable[..., dict[str, Any]]
    context: dict[str, Any] = field(default_factory=dict)
    # Cards the table knows other seats hold ({card name: holder}): a page that picks cards marks
    # them and never suggests them.
    held: dict[str, str] = field(default_factory=dict)


def job_page(
    *,
    slug: str,
    kind: str,
    form: Callable[[Game, Any], PageForm],
    page: str,
    page_context: Callable[[Game], dict[str, Any]] | None = None,
) -> Callable[[HttpRequest], HttpResponse]:
    """The view of one job's page. `form(game, data)` builds the form from what was submitted
    (None: the empty form); `page_context(game)` adds what only the whole page needs (the card
    lists of its <datalist>s), left out of an htmx answer.

    A form may find problems of its own before the service is asked (`local_errors`, e.g. a seat
    with cards but no name): the page then answers 400 with them and the service is not called."""

    @require_http_methods(["GET", "HEAD", "POST"])  # HEAD: a GET without its body
    def view(request: HttpRequest, *, asked: AskedAt | None = None) -> HttpResponse:
        job, page_result = _job(slug, kind)
        try:
            game = game_get(slug=slug)
        except GameNotFound:
            return catalog_not_loaded(request)
        data = page_input(request)  # posted, or the input in the address
        # At a table, the empty form is the table's: filled in, not yet asked.
        built = form(game, asked.initial if data is None and asked is not None else data)
        context: dict[str, Any] = {
            "game": game,
            "form": built,
            page_result.name: None,
            "error": None,
            "asked_at": asked.context if asked else None,
        }
        # At a table, a submitted answer is the table's event (a GET's is shown, not recorded).
        run = asked.run if asked is not None and request.method == "POST" else SERVICES[kind]
        status = 200
        if data is not None:
            body = built.body()
            local = getattr(built, "local_errors", [])
            if local:
                status = 400
                context["error"] = {
                    "detail": local[0]["message"],
                    "code": "invalid_input",
                    "entries": local,
                }
            else:
                status = evaluate_on_page(
                    request,
                    context,
                    service=run,
                    game=game,
                    body=body,
                    show=lambda answer: {page_result.name: page_result.context(game, answer, body)},
                    show_errors=lambda error: form_errors(error, built),
                )
                refilled = _with_table_fields(data, asked)
                if refilled is not None:
                    # The table moved on since the form was filled in: what the table fills in
                    # is shown as it is now, everything the player entered as it was typed.
                    context["form"] = form(game, refilled)
        if page_context is not None and not is_htmx_submit(request):
            context.update(page_context(game))
        return render_result_page(
            request, context, status=status, page=page, fragment=page_result.fragment
        )

    view.asked_at_table = True  # type: ignore[attr-defined]  # tables/jobs.py serves it at a table
    return view


def _with_table_fields(data: Any, asked: AskedAt | None) -> QueryDict | None:
    """After a conflict at a table (tables/jobs.py sets the context's `table_fields`), the form's
    input with the fields the table fills in replaced by the table's now; None otherwise."""
    fields = asked.context.get("table_fields") if asked is not None else None
    if fields is None or data is None:
        return None
    refilled: QueryDict = data.copy()  # mutable
    given: dict[str, list[str]] = {}
    for name, value in fields:
        given.setdefault(name, []).append(value)
    for name, values in given.items():
        refilled.setlist(name, values)
    return refilled


def _job(slug: str, kind: str) -> tuple[Job, PageResult]:
    """The job of GAMES a page does, and how it shows the answer (found when the page is asked,
    so a game added to GAMES later is found too)."""
    package = game_package(slug)
    job: Job | None = package.job(kind) if package else None
    if job is None or job.page_result is None:
        raise LookupError(f"GAMES gives {slug} no {kind} job with a page_result")
    return job, job.page_result
