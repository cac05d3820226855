"""What the apps need to know of a game package: its slug, its two jobs (a ruling on a move, a
score), the pages that do them and how a saved result of each is shown again.

Callables are named by dotted path and imported when first used, so reading `GAMES` imports no
view, presenter or Django model (the catalog's models read it for the rule languages).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, cast

RULING = "ruling"
SCORE = "score"


def _resolve(dotted: str | Callable) -> Any:
    """A callable named by dotted path (imported now), or given as it is."""
    if callable(dotted):
        return dotted
    module, _, name = dotted.rpartition(".")
    return getattr(importlib.import_module(module), name)


def _resolve_class(dotted: str) -> Any:
    module, _, name = dotted.rpartition(".")
    return getattr(importlib.import_module(module), name)


@dataclass
class Asked:
    """A request as its game's engine takes it (a job's `ask` gives it to the one flow): the
    position `check(position)` checks; the move a ruling rules on, or the moves a score plays
    (none for most); the warnings of the reading, said before the engine's (`warnings`) or after
    them (`later_warnings`)."""

    position: Any
    move: Any = None
    moves: Sequence[Any] = ()
    warnings: list[str] = field(default_factory=list)
    later_warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Presenter:
    """How the game's page shapes a saved result for its fragment (/r/<id> reuses it): the
    function (dotted path) taking (game, body) — or (game, body, request body) with
    `with_request` — the context name it goes under, the fragment and the game's stylesheets."""

    function: str | Callable
    name: str
    fragment: str
    stylesheets: tuple[str, ...] = ()
    with_request: bool = False

    def shape(self, game: Any, body: dict, request_body: dict) -> dict:
        function = _resolve(self.function)
        if self.with_request:
            return function(game, body, request_body)
        return function(game, body)


@dataclass(frozen=True)
class Job:
    """One of a game's two jobs, a ruling or a score. The one flow (games.services.answer) does
    every job of every game; a job declares only what is its game's own:

    - `request_models`: the body it reads (where several, the first whose required fields the
      body all has), in the context `reading` gives (`(game) -> dict`; by default the game's card
      names, {"cards": CardNameResolver(game)});
    - `ask`: `(game, request, context) -> Asked`, the request as the engine's position (and the
      move to rule on, or the moves a score plays), with the warnings of the reading;
    - `present`: `(game, request, asked, result) -> dict`, the game's own fields of the answer
      beside API.md's (a score's "standings", …); a ruling usually has none;
    - `position_at`: where the position sits in the body ("position" in a ruling request, "" in
      a score request whose body is the position): the engine's error paths are relative to it.

    `page` is the URL name of the page that does the job and `label` its link's words;
    `link_pairs` (dotted path) turns a saved request body back into that page's fields ("Check
    again" / "Score again"); `presenter` shapes the answer for the page's result fragment, on the
    page (games.pages.job_page needs one) and on a saved result's page (None there: the generic
    results/_ruling.html or _score.html)."""

    page: str
    label: str  # the page's link on the home and game pages
    link_pairs: str | Callable | None = None
    presenter: Presenter | None = None
    more_pages: tuple[tuple[str, str], ...] = ()  # (label, URL name) beside the main page
    # Adds to a saved result's page (dotted path, taking (game, body, request body) and returning
    # a dict; its "again_pairs", if any, fill the page's "again" link instead of link_pairs).
    result_context: str | Callable | None = None
    # The request bodies the job reads (dotted paths to common.requests.RequestModel classes):
    # one, or several where the body takes one of several shapes (a hand, or a whole table).
    # The API schema documents them; the one flow (games.services) reads the body against them.
    request_models: tuple[str, ...] = ()
    ask: str | Callable | None = None
    present: str | Callable | None = None
    reading: str | Callable | None = None
    position_at: str = ""

    def request_classes(self) -> list[type]:
        return [_resolve_class(dotted) for dotted in self.request_models]

    def asked(self, game: Any, request: Any, context: dict) -> Asked:
        if self.ask is None:
            raise LookupError("This job declares no `ask`: the flow cannot reach its engine.")
        return _resolve(self.ask)(game, request, context)

    def presented(self, game: Any, request: Any, asked: Asked, result: Any) -> dict:
        return _resolve(self.present)(game, request, asked, result) if self.present else {}

    def context(self, game: Any) -> dict:
        if self.reading is not None:
            return dict(_resolve(self.reading)(game))
        from web.card_names import CardNameResolver

        return {"cards": CardNameResolver(game)}

    def pairs(self, game: Any, request_body: dict) -> list[tuple[str, str]] | None:
        return _resolve(self.link_pairs)(game, request_body) if self.link_pairs else None

    def extra_context(self, game: Any, body: dict, request_body: dict | None) -> dict:
        if not self.result_context:
            return {}
        return _resolve(self.result_context)(game, body, request_body)

    def url(self) -> str:
        return page_url(self.page)

    def more_urls(self) -> list[tuple[str, str]]:
        return [(label, page_url(name)) for label, name in self.more_pages]


def page_url(url_name: str) -> str:
    """The address of a page named in GAMES, or "" when no such page is routed."""
    from django.urls import NoReverseMatch, reverse

    try:
        return reverse(url_name)
    except NoReverseMatch:
        return ""


@dataclass(frozen=True)
class GamePackage:
    """One entry of GAMES: a game, as its package offers it to the apps."""

    slug: str
    package: str  # the dotted name of the package, e.g. "games.academy_credits"
    ruling: Job | None = None
    score: Job | None = None
    engine: str | None = None  # dotted module with check(position) -> a games.protocol.Board
    rule_language: str | None = None  # dotted module: validate_rule(...) and render_rule(...)
    api_docs: str | None = None  # dotted module: RULING_DOCS, RULING_EXAMPLES, SCORE_DOCS, ...
    # Dotted path to render(specs, attributes) -> str: its cards' text from their attributes (a
    # game with a rule language writes it from the rule instead; cards.rendering).
    card_text: str | None = None
    # The pages kept offline from the start and offered as the installed app's shortcuts (web/
    # offline.py): (the shortcut's name, the page's URL name).
    shortcuts: tuple[tuple[str, str], ...] = ()
    # dotted module of what a table of the game carries (issue 25; games/table_state.py): its
    # TABLE (a games.table_state.TableGame) and job_request_body(...). None: no tables.
    table_state: str | None = None

    @cached_property
    def directory(self) -> Path:
        module = importlib.import_module(self.package)
        return Path(next(iter(module.__path__)))

    @property
    def urls(self) -> str:
        """The module of its pages' URLs (its namespace is the package's last name)."""
        return f"{self.package}.urls"

    @property
    def catalog_file(self) -> Path:
        """The catalog it ships (cards, rule texts, options), loaded by `make run`."""
        return self.directory / "catalog.json"

    @property
    def templates(self) -> Path:
        """Its own templates, found by games.template_loader.Loader (under a folder of the
        package's name: templates/<package name>/…)."""
        return self.directory / "templates"

    @property
    def static(self) -> Path:
        """Its own static files (its pages' scripts and stylesheets), found by
        games.static_finder.Finder (under a folder of the package's name: static/<package
        name>/…, as its templates are)."""
        return self.directory / "static"

    def job(self, kind: str) -> Job | None:
        return self.ruling if kind == RULING else self.score if kind == SCORE else None

    def docs(self, name: str) -> Any:
        """RULING_DOCS, RULING_EXAMPLES, SCORE_DOCS or SCORE_EXAMPLES from its api_docs module."""
        if not self.api_docs:
            return [] if name.endswith("EXAMPLES") else ""
        return getattr(importlib.import_module(self.api_docs), name, None) or (
            [] if name.endswith("EXAMPLES") else "")

    def table_module(self) -> Any:
        """The game's table-state module (TABLE, job_request_body), or None."""
        return importlib.import_module(self.table_state) if self.table_state else None

    def table(self) -> Any:
        """What a table of the game carries (a games.table_state.TableGame), or None."""
        module = self.table_module()
        return module.TABLE if module is not None else None
    def check(self, position: Any) -> Any:
        """The game's engine's board of `position` (ImpossiblePosition when it cannot exist)."""
        if not self.engine:
            raise LookupError(f"{self.slug} declares no engine")
        return importlib.import_module(self.engine).check(position)

    def language(self) -> Any:
        return importlib.import_module(self.rule_language) if self.rule_language else None

    def card_renderer(self) -> Any:
        return _resolve(self.card_text) if self.card_text else None


def registered(slug: str) -> GamePackage | None:
    """The entry of GAMES for `slug`, found through settings.GAMES (common.games) rather than by
    importing games.registry: the registry imports every game, whose pages import the job page and
    the one flow, so an import of it from those would close a circle."""
    from common.games import game_package

    return cast("GamePackage | None", game_package(slug))
