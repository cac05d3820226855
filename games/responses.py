"""Shared by the game packages (Django side): an engine's Ruling as API.md's ruling response body, with
the quoted rule section."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from cards.models import Game, RuleSection
from cards.selectors import game_rule_section
from games.protocol import Ruling


def rule_quote(section: RuleSection | None, *, game: Game, rule_id: str) -> dict[str, Any]:
    """{"id", "title", "text", "url"} of a rule section; a section missing from the catalog
    still gets its id and the address its anchor would have."""
    if section is None:
        url = reverse("pages:game", kwargs={"game": game.slug}) + "#rule-" + rule_id
        return {"id": rule_id, "title": "", "text": "", "url": url}
    section.game = game  # get_absolute_url needs the slug: no query for it
    return {
        "id": section.rule_id,
        "title": section.title,
        "text": section.text,
        "url": section.get_absolute_url(),
    }


def ruling_response(*, game: Game, ruling: Ruling) -> dict[str, Any]:
    """The ruling body of API.md (without "id" and "url", which saving the result adds), quoting
    the rule section the verdict rests on."""
    section = game_rule_section(game=game, rule_id=ruling.rule)
    return {
        "game": game.slug,
        "verdict": ruling.verdict,
        "code": ruling.code,
        "reason": ruling.reason,
        "rule": rule_quote(section, game=game, rule_id=ruling.rule),
        "checks": [
            {"rule": check.rule, "passed": check.passed, "detail": check.detail}
            for check in ruling.checks
        ],
        "alternatives": list(ruling.alternatives),
        "outcome": ruling.outcome,
        "missing": list(ruling.missing),
        "warnings": list(ruling.warnings),
    }
