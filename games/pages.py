"""The page of a game's job (a ruling on a move, or a score): one view for every game.

A game's page module gives only what is its own: the form (a common.page_forms.PageForm building
the API's request body) and the page template. The rest comes from the game's entry in GAMES and
the one flow the API calls too (games.services: the page never rules or scores by itself), and the presenter that shapes
its answer for the result fragment, the same one a saved result's page (/r/<id>) uses.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from cards.models import Game
from cards.selectors import GameNotFound, game_get
from common.page_forms import PageForm
from common.page_results import (
    evaluate_on_page,
    form_errors,
    is_htmx_submit,
    page_input,
    render_result_page,
)
from games.package import Job, Presenter
from games.registry import game_package
from games.services import SERVICES  # the one flow; the games' own pages find it here too


def catalog_not_loaded(request: HttpRequest) -> HttpResponse:
    return render(request, "404.html", {"message": "This game's cards are not in the catalog yet: "
                                        "an administrator loads them (manage.py load_catalog)."},
                  status=404)


def job_page(
    *,
    slug: str,
    kind: str,
    form: Callable[[Game, Any], PageForm],
    page: str,
    page_context: Callable[[Game], dict] | None = None,
) -> Callable[[HttpRequest], HttpResponse]:
    """The view of one job's page. `form(game, data)` builds the form from what was submitted
    (None: the empty form); `page_context(game)` adds what only the whole page needs (the card
    lists of its <datalist>s), left out of an htmx answer.

    A form may find problems of its own before the service is asked (`local_errors`, e.g. a seat
    with cards but no name): the page then answers 400 with them and the service is not called."""

    @require_http_methods(["GET", "HEAD", "POST"])  # HEAD: a GET without its body
    def view(request: HttpRequest) -> HttpResponse:
        job, presenter = _job(slug, kind)
        try:
            game = game_get(slug=slug)
        except GameNotFound:
            return catalog_not_loaded(request)
        data = page_input(request)  # posted, or the input in the address
        built = form(game, data)
        context: dict[str, Any] = {"game": game, "form": built, presenter.name: None,
                                   "error": None}
        status = 200
        if data is not None:
            body = built.body()
            local = getattr(built, "local_errors", [])
            if local:
                status = 400
                context["error"] = {"detail": local[0]["message"], "code": "invalid_input",
                                    "entries": local}
            else:
                status = evaluate_on_page(
                    request, context, service=SERVICES[kind], game=game, body=body,
                    show=lambda answer: {presenter.name: presenter.shape(game, answer, body)},
                    show_errors=lambda error: form_errors(error, built),
                )
        if page_context is not None and not is_htmx_submit(request):
            context.update(page_context(game))
        return render_result_page(request, context, status=status, page=page,
                                  fragment=presenter.fragment)

    return view


def _job(slug: str, kind: str) -> tuple[Job, Presenter]:
    """The job of GAMES a page does, and how it shows the answer (found when the page is asked,
    so a game added to GAMES later is found too)."""
    package = game_package(slug)
    job = package.job(kind) if package else None
    if job is None or job.presenter is None:
        raise LookupError(f"GAMES gives {slug} no {kind} job with a presenter")
    return job, job.presenter
