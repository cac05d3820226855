"""The permalink page of a saved score or ruling, /r/<id>, and the helpers that shape a ruling
or a score for a template (the check-a-turn page shows its ruling with the same partial)."""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from cards.models import Card, Game, RuleSection
from common.games import game_package
from common.links import form_link

from .quoting import rule_quote
from .selectors import ResultNotFound, result_get
from .services import result_opened

VERDICTS = {
    "legal": ("Legal", "✓"),
    "illegal": ("Illegal", "✗"),
    "needs_information": ("Needs information", "?"),
}


def result_page(request: HttpRequest, result_id: str) -> HttpResponse:
    try:
        result = result_get(result_id=result_id)
    except ResultNotFound:
        message = (f"There is no saved result '{result_id[:40]}'. A permalink is ten letters and "
                   "digits after /r/: check it was copied whole.")
        return render(request, "404.html", {"message": message}, status=404)
    result_opened(result_id=result.id)
    body = result.response
    game = result.game
    request_body: dict | None = result.request if isinstance(result.request, dict) else None
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
        context["ruling"] = ruling_view(game, body)
    else:
        context["score"] = score_view(game, body)
    if result.kind == "ruling":
        verdict = body.get("verdict", "")
        context["headline"] = f"Ruling: {VERDICTS.get(verdict, (_words(verdict),))[0]}"
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


def _words(code: str) -> str:
    return code.replace("_", " ").capitalize()


# --- Shaping a ruling or a score for the templates ---------------------------------------------


def _rule_links(game: Game, rule_ids) -> dict[str, dict]:
    """{rule id: {"id", "title", "url"}} for the rule ids cited (one query)."""
    ids = sorted({rule_id for rule_id in rule_ids if rule_id})
    base = reverse("pages:game", kwargs={"game": game.slug})
    titles = dict(
        RuleSection.objects.filter(game=game, rule_id__in=ids).values_list("rule_id", "title")
    )
    return {
        rule_id: {"id": rule_id, "title": titles.get(rule_id, ""), "url": f"{base}#rule-{rule_id}"}
        for rule_id in ids
    }


def ruling_view(game: Game, body: dict) -> dict:
    """A ruling response body, with what the template needs to show it readably."""
    verdict = body.get("verdict", "")
    label, symbol = VERDICTS.get(verdict, (_words(verdict), "•"))
    checks = body.get("checks") or []
    links = _rule_links(game, [check.get("rule") for check in checks])
    outcome = body.get("outcome")
    rule = body.get("rule") or {}
    failed = " ".join(str(check.get("detail") or "") for check in checks
                      if not check.get("passed"))
    return {
        "body": body,
        "verdict": verdict,
        "verdict_label": label,
        "verdict_symbol": symbol,
        "rule": rule,
        "rule_quote": rule_quote(rule, f"{body.get('reason') or ''} {failed}")
        if isinstance(rule, dict) else {"text": "", "whole": True},
        "checks": [{**check, "link": links.get(check.get("rule"))} for check in checks],
        "alternatives": group_moves(body.get("alternatives") or []),
        "outcome": outcome_view(outcome) if isinstance(outcome, dict) else None,
        "missing": [describe_missing(item) for item in body.get("missing") or []],
        "warnings": body.get("warnings") or [],
    }


def group_moves(moves: list) -> list[dict]:
    """Alternatives as one group of sentences; a game words its own moves in its presenter."""
    if not moves:
        return []
    return [{"label": "Moves", "moves": [describe_move(move) for move in moves],
             "count": len(moves)}]


def describe_move(move) -> str:
    """A move as its fields: a game without wording of its own."""
    if not isinstance(move, dict):
        return json.dumps(move, ensure_ascii=False)
    return ", ".join(f"{key}: {plain(value)}" for key, value in move.items())


def describe_missing(item) -> str:
    if isinstance(item, dict):
        return item.get("detail") or ", ".join(f"{k}: {plain(v)}" for k, v in item.items())
    return plain(item)


def outcome_view(outcome: dict) -> dict:
    """The outcome's summary lines, and every other field as a plain row (a game names its own
    fields in its presenter)."""
    return {
        "summary": outcome.get("summary"),
        "other": [(key.replace("_", " ").capitalize(), plain(value))
                  for key, value in outcome.items() if key != "summary"],
    }


def score_view(game: Game, body: dict) -> dict:
    """A score response body, with rule links for its steps and card links for its cards."""
    steps = body.get("steps") or []
    cards = body.get("cards") or []
    links = _rule_links(game, [step.get("rule") for step in steps])
    names = {step.get("card") for step in steps} | {card.get("name") for card in cards}
    slugs = dict(
        Card.objects.filter(game=game, name__in=[n for n in names if n]).values_list("name", "slug")
    )

    def card_url(name):
        slug = slugs.get(name)
        return reverse("pages:card", kwargs={"game": game.slug, "slug": slug}) if slug else ""

    choices = body.get("choices") or {}
    return {
        "body": body,
        "total": body.get("total"),
        "steps": [
            {**step, "link": links.get(step.get("rule")), "card_url": card_url(step.get("card"))}
            for step in steps
        ],
        "cards": [{**card, "url": card_url(card.get("name"))} for card in cards],
        "warnings": body.get("warnings") or [],
        "choices": [(name, plain(choice)) for name, choice in choices.items()]
        if isinstance(choices, dict) else [],
        "other": [
            (key.replace("_", " ").capitalize(), plain(value))
            for key, value in body.items()
            if key not in {"game", "total", "steps", "cards", "warnings", "choices", "id", "url"}
        ],
    }


def plain(value) -> str:
    """A value of a response body as words: none, yes/no, lists and objects spelled out."""
    if isinstance(value, dict):
        if not value:
            return "none"
        return "; ".join(f"{key}: {plain(item)}" for key, item in value.items())
    if isinstance(value, list):
        return ", ".join(plain(item) for item in value) if value else "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    return str(value)
