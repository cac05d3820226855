"""Ascent's two pages, check a move and score a hand: each is the shared page of a job
(games.pages.job_page) with a form of its own; the answer shows in the shared result fragments,
on the page and on the saved result's page alike (game.py's `page_result`s)."""

from __future__ import annotations

from typing import Any

from django.http import QueryDict

from cards.models import Game
from games.pages import job_page
from web.page_fields import FormField
from web.page_forms import PageForm, as_dict


def _names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


class PlayForm(PageForm):
    """The hand (names separated by commas), the card on the table, and the move: a card played,
    or a pass ticked."""

    title = "Check a move"

    def __init__(self, game: Game, data: QueryDict | None = None) -> None:
        super().__init__(data)
        self.fields = [
            FormField("hand", "hand", self.text("hand"), "Hand"),
            FormField("table", "table", self.text("table"), "Table"),
            FormField("play", "play", self.text("play"), "Play"),
            FormField("pass", "pass", self.ticked("pass"), "Pass", kind="checkbox"),
        ]

    def body(self) -> dict[str, Any]:
        hand, table, play, passed = self.fields
        self.paths.update(
            {
                "position.hand": hand,
                "position.table": table,
                "move.play": play,
                "move.pass": passed,
                "move": play,
            }
        )
        move: dict[str, Any] = {"play": play.value} if play.value else {}
        if passed.value:
            move["pass"] = True
        return {
            "position": {"hand": _names(hand.value), "table": table.value or None},
            "move": move,
        }


class HandForm(PageForm):
    title = "Score a hand"

    def __init__(self, game: Game, data: QueryDict | None = None) -> None:
        super().__init__(data)
        self.fields = [FormField("hand", "hand", self.text("hand"), "Hand")]

    def body(self) -> dict[str, Any]:
        self.paths["hand"] = self.fields[0]
        return {"hand": _names(self.fields[0].value)}


ruling_page = job_page(slug="ascent", kind="ruling", form=PlayForm, page="fifth_game/page.html")
score_page = job_page(slug="ascent", kind="score", form=HandForm, page="fifth_game/page.html")


def play_link_pairs(game: Game, body: dict[str, Any]) -> list[tuple[str, str]]:
    """A saved ruling's request as the page's fields ("Check again")."""
    position, move = as_dict(body.get("position")), as_dict(body.get("move"))
    pairs = [
        ("hand", ", ".join(position.get("hand") or [])),
        ("table", position.get("table") or ""),
    ]
    return pairs + ([("pass", "on")] if move.get("pass") else [("play", move.get("play") or "")])


def hand_link_pairs(game: Game, body: dict[str, Any]) -> list[tuple[str, str]]:
    return [("hand", ", ".join(body.get("hand") or []))]
