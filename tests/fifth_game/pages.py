"""Ascent's two pages, check a play and score a hand: each is the shared page of a job
(games.pages.job_page) with a form of its own; the answer shows in the shared result fragments,
on the page and on the saved result's page alike (game.py's presenters)."""

from __future__ import annotations

from cards.models import Game
from games.pages import job_page
from web.page_fields import FormField
from web.page_forms import PageForm, as_dict


def _names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


class AscentForm(PageForm):
    """One text field per part of the request body; a hand is names separated by commas."""

    title = ""
    names: tuple[str, ...] = ()

    def __init__(self, game: Game, data=None):
        super().__init__(data)
        self.fields = [FormField(name, name, self.text(name), name.capitalize())
                       for name in self.names]


class PlayForm(AscentForm):
    title = "Check a play"
    names = ("hand", "table", "play")

    def body(self) -> dict:
        hand, table, play = self.fields
        self.paths.update({"position.hand": hand, "position.table": table, "move.play": play})
        return {"position": {"hand": _names(hand.value), "table": table.value or None},
                "move": {"play": play.value}}


class HandForm(AscentForm):
    title = "Score a hand"
    names = ("hand",)

    def body(self) -> dict:
        self.paths["hand"] = self.fields[0]
        return {"hand": _names(self.fields[0].value)}


check_play = job_page(slug="ascent", kind="ruling", form=PlayForm, page="ascent/page.html")
score = job_page(slug="ascent", kind="score", form=HandForm, page="ascent/page.html")


def play_link_pairs(game: Game, body: dict) -> list[tuple[str, str]]:
    position = as_dict(body.get("position"))
    return [("hand", ", ".join(position.get("hand") or [])), ("table", position.get("table") or ""),
            ("play", as_dict(body.get("move")).get("play") or "")]
