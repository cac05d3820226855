"""A saved or fresh ruling or score shaped for the templates: the body plus rule links, card
links and its values as words. The permalink page (results.views) and the games' pages (the
check-a-turn page shows its ruling with the same partial) both read these."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from django.urls import reverse

from cards.models import Card, Game, RuleSection

from .quoting import rule_quote

VERDICTS = {
    "legal": ("Legal", "✓"),
    "illegal": ("Illegal", "✗"),
    "needs_information": ("Needs information", "?"),
}


def code_words(code: str) -> str:
    return code.replace("_", " ").capitalize()


# --- Shaping a ruling or a score for the templates ---------------------------------------------


def _rule_links(game: Game, rule_ids: Iterable[str | None]) -> dict[str, dict[str, Any]]:
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


def ruling_context(game: Game, body: dict[str, Any]) -> dict[str, Any]:
    """A ruling response body, with what the template needs to show it readably."""
    verdict = body.get("verdict", "")
    label, symbol = VERDICTS.get(verdict, (code_words(verdict), "•"))
    checks = body.get("checks") or []
    links = _rule_links(game, [check.get("rule") for check in checks])
    outcome = body.get("outcome")
    rule = body.get("rule") or {}
    failed = " ".join(str(check.get("detail") or "") for check in checks if not check.get("passed"))
    return {
        "body": body,
        "verdict": verdict,
        "verdict_label": label,
        "verdict_symbol": symbol,
        "rule": rule,
        "rule_quote": rule_quote(rule, f"{body.get('reason') or ''} {failed}")
        if isinstance(rule, dict)
        else {"text": "", "whole": True},
        "checks": [{**check, "link": links.get(check.get("rule"))} for check in checks],
        "alternatives": group_moves(body.get("alternatives") or []),
        "outcome": outcome_context(outcome) if isinstance(outcome, dict) else None,
        "missing": [describe_missing(item) for item in body.get("missing") or []],
        "warnings": body.get("warnings") or [],
    }


def group_moves(moves: list[Any]) -> list[dict[str, Any]]:
    """Alternatives as one group of sentences; a game words its own moves in its presenter."""
    if not moves:
        return []
    return [
        {"label": "Moves", "moves": [describe_move(move) for move in moves], "count": len(moves)}
    ]


def describe_move(move: object) -> str:
    """A move as its fields: a game without wording of its own."""
    if not isinstance(move, dict):
        return json.dumps(move, ensure_ascii=False)
    return ", ".join(f"{key}: {plain(value)}" for key, value in move.items())


def describe_missing(item: object) -> str:
    if isinstance(item, dict):
        return item.get("detail") or ", ".join(f"{k}: {plain(v)}" for k, v in item.items())
    return plain(item)


def outcome_context(outcome: dict[str, Any]) -> dict[str, Any]:
    """The outcome's summary lines, and every other field as a plain row (a game names its own
    fields in its presenter)."""
    return {
        "summary": outcome.get("summary"),
        "other": [
            (key.replace("_", " ").capitalize(), plain(value))
            for key, value in outcome.items()
            if key != "summary"
        ],
    }


def score_context(game: Game, body: dict[str, Any]) -> dict[str, Any]:
    """A score response body, with rule links for its steps and card links for its cards."""
    steps = body.get("steps") or []
    cards = body.get("cards") or []
    links = _rule_links(game, [step.get("rule") for step in steps])
    names = {step.get("card") for step in steps} | {card.get("name") for card in cards}
    slugs: dict[str | None, str] = dict(
        Card.objects.filter(game=game, name__in=[n for n in names if n]).values_list("name", "slug")
    )

    def card_url(name: str | None) -> str:
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
        if isinstance(choices, dict)
        else [],
        "other": [
            (key.replace("_", " ").capitalize(), plain(value))
            for key, value in body.items()
            if key not in {"game", "total", "steps", "cards", "warnings", "choices", "id", "url"}
        ],
    }


def plain(value: object) -> str:
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
