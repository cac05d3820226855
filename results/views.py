"""The permalink page of a saved score or ruling, /r/<id>; results.contexts shapes its ruling or
score for the template."""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from common.games import game_package
from common.links import form_link

from .contexts import VERDICTS, code_words, ruling_context, score_context
from .selectors import ResultNotFound, result_get
from .services import result_opened


def result_page(request: HttpRequest, result_id: str) -> HttpResponse:
    try:
        result = result_get(result_id=result_id)
    except ResultNotFound:
        message = (
            f"There is no saved result '{result_id[:40]}'. A permalink is ten letters and "
            "digits after /r/: check it was copied whole."
        )
        return render(request, "404.html", {"message": message}, status=404)
    result_opened(result_id=result.id)
    body = result.response
    game = result.game
    request_body: dict[str, Any] | None = (
        result.request if isinstance(result.request, dict) else None
    )
    context: dict[str, Any] = {
        "game": game,
        "result": result,
        "body": body,
        "share_url": request.build_absolute_uri(result.get_absolute_url()),
        "json_url": reverse("results:api-result", args=[result.id]),
        "request_json": json.dumps(result.request, indent=2, ensure_ascii=False),
        "error": None,
    }
    package = game_package(game.slug)
    job = package.job(result.kind) if package else None
    if job is not None and job.page_result is not None:
        # Shown exactly as the game's own page shows it: its shaping code, its fragment.
        page_result = job.page_result
        context[page_result.name] = page_result.context(game, body, request_body or {})
        context["fragment"] = page_result.fragment
        context["stylesheets"] = page_result.stylesheets
    elif result.kind == "ruling":
        context["ruling"] = ruling_context(game, body)
    else:
        context["score"] = score_context(game, body)
    if result.kind == "ruling":
        verdict = body.get("verdict", "")
        context["headline"] = f"Ruling: {VERDICTS.get(verdict, (code_words(verdict),))[0]}"
        context["again_label"] = "Check again"
    else:
        total = body.get("total")
        context["headline"] = f"Score: {total}" if total is not None else "Score"
        context["again_label"] = "Score again"
    context["again_url"] = job.url() if job else ""
    context["kind_label"] = "ruling" if result.kind == "ruling" else "score"
    if job and context["again_url"] and request_body is not None and job.link_pairs:
        # "Check again" / "Score again" open the game's form filled in from the saved request.
        context["again_url"] = form_link(context["again_url"], job.pairs(game, request_body) or [])
    if job:
        context.update(job.extra_context(game, body, request_body))
    return render(request, "results/page.html", context)
