"""Ascent's two pages, check a play and score a hand: a plain form posted to the services the API
calls; the answer is shown with the shared result fragments."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from cards.models import Game
from common.api_errors import ApiError
from results.views import ruling_view, score_view

from . import services


def _names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def check_play(request: HttpRequest) -> HttpResponse:
    game = get_object_or_404(Game, slug="ascent")
    context: dict = {"game": game, "title": "Check a play", "fields": ["hand", "table", "play"]}
    if request.method == "POST":
        body = {"position": {"hand": _names(request.POST.get("hand", "")),
                             "table": request.POST.get("table") or None},
                "move": {"play": request.POST.get("play", "")}}
        try:
            response = services.rule_play(game=game, body=body)
            context["ruling"] = ruling_view(game, response)
            context["saved_url"] = response["url"]
        except ApiError as error:
            context["problems"] = [entry["detail"] for entry in error.errors]
    return render(request, "ascent/page.html", context)


def score(request: HttpRequest) -> HttpResponse:
    game = get_object_or_404(Game, slug="ascent")
    context: dict = {"game": game, "title": "Score a hand", "fields": ["hand"]}
    if request.method == "POST":
        body = {"hand": _names(request.POST.get("hand", ""))}
        try:
            response = services.score_hand(game=game, body=body)
            context["score"] = score_view(game, response)
            context["saved_url"] = response["url"]
        except ApiError as error:
            context["problems"] = [entry["detail"] for entry in error.errors]
    return render(request, "ascent/page.html", context)


def play_link_pairs(game: Game, body: dict) -> list[tuple[str, str]]:
    position = body.get("position") or {}
    return [("hand", ", ".join(position.get("hand") or [])), ("table", position.get("table") or ""),
            ("play", (body.get("move") or {}).get("play") or "")]
