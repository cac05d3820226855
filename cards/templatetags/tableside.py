"""Template helpers of the pages: the site navigation and a few display filters."""

from __future__ import annotations

import json
from typing import Any

from django import template
from django.template import Context

from cards.models import Game

register = template.Library()


@register.inclusion_tag("partials/nav_games.html", takes_context=True)
def nav_games(context: Context) -> dict[str, Any]:
    """One link per game; the game the page belongs to is marked as the current one."""
    current = context.get("game")
    current_slug = getattr(current, "slug", None)
    games = Game.objects.only("slug", "name", "position").order_by("position", "name")
    request = context.get("request")
    return {"games": games, "current_slug": current_slug, "path": getattr(request, "path", "")}


@register.filter
def player_range(game: Game) -> str:
    """'2–4 players', '2 players' or '2+ players' (no upper limit)."""
    low, high = game.min_players, game.max_players
    if high is None:
        return f"{low}+ players"
    if high == low:
        return f"{low} player" + ("" if low == 1 else "s")
    return f"{low}–{high} players"


@register.filter
def option_value(value: object) -> str:
    """A game option's default value as a person reads it."""
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, dict):
        return ", ".join(f"{key}: {option_value(item)}" for key, item in value.items())
    if isinstance(value, list):
        return ", ".join(option_value(item) for item in value)
    if value is None:
        return "None"
    if isinstance(value, str):
        return value
    return json.dumps(value)
