"""A Star Trek: Missions table's answer (the score service's `players`, `standings`, `winners`),
shaped for the templates: the headline a person reads first, the standings with ranks and
margins, and each player's breakdown as the single-hand templates show it. Used by the "Score the
table" page and by the saved result's page /r/<id>."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.urls import reverse

from cards.models import Game
from games.wording import listing
from results.contexts import score_context

names_sentence = partial(listing, empty="")


def is_table(body: Any) -> bool:
    return (
        isinstance(body, dict)
        and isinstance(body.get("players"), list)
        and isinstance(body.get("standings"), list)
    )


def headline(body: dict[str, Any]) -> str:
    """ "Ana wins with 66 points." or "Ana and Ben share victory with 13 points each."."""
    winners = body.get("winners") or []
    standings = body.get("standings") or []
    if not winners or not standings:
        return "No winner yet."
    best = standings[0].get("total")
    points = f"{best} point{'' if best == 1 else 's'}"
    if len(winners) == 1:
        return f"{winners[0]} wins with {points}."
    if len(winners) == len(standings):
        return f"Everyone ties: {names_sentence(winners)} share victory with {points} each."
    return f"{names_sentence(winners)} share victory with {points} each."


def ordinal(rank: int) -> str:
    if 10 <= rank % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    return f"{rank}{suffix}"


def standing_rows(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The standings with what a line shows: place ("1st", "=1st" when shared), total, margin,
    whether the player wins."""
    standings = [row for row in body.get("standings") or [] if isinstance(row, dict)]
    winners = set(body.get("winners") or [])
    ranks = [row.get("rank") for row in standings]
    rows = []
    for row in standings:
        rank = row.get("rank")
        shared = isinstance(rank, int) and ranks.count(rank) > 1
        rows.append(
            {
                **row,
                "place": (("=" if shared else "") + ordinal(rank)) if isinstance(rank, int) else "",
                "wins": row.get("name") in winners,
                "behind": "" if not row.get("margin") else f"{row['margin']} behind",
            }
        )
    return rows


def table_context(game: Game, body: dict[str, Any]) -> dict[str, Any]:
    """The table's answer for /r/<id>: headline, standings, each player's breakdown."""
    players = [player for player in body.get("players") or [] if isinstance(player, dict)]
    totals = {row.get("name"): row for row in standing_rows(body)}
    return {
        "body": body,
        # The page title reads "Score: <total>": for a table, who won.
        "total": headline(body).rstrip("."),
        "headline": headline(body),
        "winners": body.get("winners") or [],
        "standings": standing_rows(body),
        "players": [
            {
                "name": player.get("name"),
                "standing": totals.get(player.get("name"), {}),
                "score": score_context(game, player),
            }
            for player in players
        ],
        "warnings": body.get("warnings") or [],
    }


def table_result_context(game: Game, body: dict[str, Any]) -> dict[str, Any]:
    """What /r/<id> shows for a saved table: the standings as its headline and title, through
    the table's own fragment (star_trek_missions/_table.html)."""
    table = table_context(game, body)
    return {
        "table": table,
        "score": table,
        "headline": f"Standings: {table['total']}",
        "fragment": "star_trek_missions/_table.html",
        "stylesheets": ("star_trek_missions/css/pages.css",),
        "again_url": reverse("star_trek_missions:table"),
        "again_label": "Score another table",
    }
