"""What a game package offers the apps, as one typed object: its slug, its engine, its two jobs
(a ruling on a move, a score), the pages that do them, how a saved result of each is shown again,
its catalog's rule language and card text, and its tables.

`game.py` imports the functions and classes it declares and passes them (`ask=rulings.ask`,
`request_models=(PlayRequest,)`, `check=engine.check`), so mypy checks each against the types
below: a function of the wrong shape is a type error in the game's `game.py`, not a failure at
the first request. The apps find a game through the one accessor, common.games (settings.GAMES,
read when first asked), so importing a GAMES entry's modules never closes an import circle.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

from common.requests import RequestModel
from games.protocol import Board
from games.table_state import State, TableGame

if TYPE_CHECKING:
    from cards.models import Game

RULING = "ruling"
SCORE = "score"

# The reading's context (the game's card names, its options…), handed to `ask`.
Context = dict[str, Any]
# A JSON body (a request's, or an answer's).
Body = dict[str, Any]


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


# (game, the request as its model read it, the reading's context) -> the engine's position.
AskFunction = Callable[["Game", Any, Context], Asked]
# (game, request, asked, the engine's result) -> the game's own fields of the answer.
AnswerFields = Callable[["Game", Any, Asked, Any], dict[str, Any]]
# (game) -> the reading's context.
Reading = Callable[["Game"], Mapping[str, Any]]
# (game, a saved request body) -> the page's fields ("Check again" / "Score again").
LinkPairs = Callable[["Game", Body], list[tuple[str, str]]]
# (game, the answer's body, the request body or None) -> more of a saved result's page.
ResultContext = Callable[["Game", Body, "Body | None"], dict[str, Any]]
# (game, the answer's body) -> the fragment's context; or with the request body too.
ShapeAnswer = Callable[["Game", Body], dict[str, Any]]
ShapeAnswerAndRequest = Callable[["Game", Body, Body], dict[str, Any]]
# The engine's one entry point: the game's own position -> a games.protocol.Board.
CheckFunction = Callable[[Any], Board[Any]]
# Its cards' text from their attributes: render(specs, attributes).
CardText = Callable[[list[Any], dict[str, Any]], str]


@dataclass(frozen=True)
class PageResult:
    """How the game's page shows a saved answer in its fragment (/r/<id> reuses it): `shape`
    takes (game, answer body) — or (game, answer body, request body) with `with_request` — and
    its dict goes under the context name `name`; `fragment` is the template, `stylesheets` the
    game's own."""

    shape: ShapeAnswer | ShapeAnswerAndRequest
    name: str
    fragment: str
    stylesheets: tuple[str, ...] = ()
    with_request: bool = False

    def context(self, game: Game, body: Body, request_body: Body) -> dict[str, Any]:
        if self.with_request:
            return cast(ShapeAnswerAndRequest, self.shape)(game, body, request_body)
        return cast(ShapeAnswer, self.shape)(game, body)


@dataclass(frozen=True)
class Job:
    """One of a game's two jobs, a ruling or a score. The one flow (games.services.answer) does
    every job of every game; a job declares only what is its game's own:

    - `request_models`: the body it reads (where several, the first whose required fields the
      body all has), in the context `reading` gives (by default the game's card names,
      {"cards": CardNameResolver(game)});
    - `ask`: the request as the engine's position (and the move to rule on, or the moves a
      score plays), with the warnings of the reading;
    - `answer_fields`: the game's own fields of the answer beside API.md's (a score's
      "standings", …); a ruling usually has none;
    - `position_at`: where the position sits in the body ("position" in a ruling request, "" in
      a score request whose body is the position): the engine's error paths are relative to it.

    `page` is the URL name of the page that does the job and `label` its link's words;
    `link_pairs` turns a saved request body back into that page's fields ("Check again" / "Score
    again"); `page_result` is how the page shows the answer in its result fragment, on the page
    (games.pages.job_page needs one) and on a saved result's page (None there: the generic
    results/_ruling.html or _score.html)."""

    page: str
    label: str  # the page's link on the home and game pages
    request_models: tuple[type[RequestModel], ...]
    ask: AskFunction
    answer_fields: AnswerFields | None = None
    reading: Reading | None = None
    position_at: str = ""
    link_pairs: LinkPairs | None = None
    page_result: PageResult | None = None
    more_pages: tuple[tuple[str, str], ...] = ()  # (label, URL name) beside the main page
    # Adds to a saved result's page; its "again_pairs", if any, fill the page's "again" link
    # instead of link_pairs.
    result_context: ResultContext | None = None

    def asked(self, game: Game, request: Any, context: Context) -> Asked:
        return self.ask(game, request, context)

    def fields(self, game: Game, request: Any, asked: Asked, result: Any) -> dict[str, Any]:
        """The game's own fields of the answer (none where the job declares none)."""
        return self.answer_fields(game, request, asked, result) if self.answer_fields else {}

    def context(self, game: Game) -> Context:
        if self.reading is not None:
            return dict(self.reading(game))
        from web.card_names import CardNameResolver

        return {"cards": CardNameResolver(game)}

    def pairs(self, game: Game, request_body: Body) -> list[tuple[str, str]] | None:
        return self.link_pairs(game, request_body) if self.link_pairs else None

    def extra_context(self, game: Game, body: Body, request_body: Body | None) -> dict[str, Any]:
        return self.result_context(game, body, request_body) if self.result_context else {}

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


# --- A game's tables (issue 25; games/table_state.py) ------------------------------------------

# (state, players, job kind, the seat asking or None) -> the job's body the table implies.
# (state, players, job kind, the seat asking, whether the page may show that seat's private
# cards) -> the body the table implies, or None.
RequestBodyOf = Callable[[State, list[str], str, "int | None", bool], "Body | None"]
# (state, players, job kind, the job's request) -> (event kind, its body less what the table knows).
EventOf = Callable[[State, list[str], str, Body], tuple[str, Body]]
# (state, players) -> the seat the host's browser acts for now, or None: any.
ActingSeat = Callable[[State, list[str]], "int | None"]
# (state, players, seat) -> the cards other seats hold, {card name: holder's name}.
HeldCards = Callable[[State, list[str], "int | None"], dict[str, str]]
# (a field of the job's page) -> whether it is the table's alone: shown after a conflict as the
# table has it now.
Refilled = Callable[[str], bool]


def nothing_known(
    state: State, players: list[str], kind: str, seat: int | None = None, private: bool = False
) -> Body | None:
    return None


def asked_as_is(state: State, players: list[str], kind: str, body: Body) -> tuple[str, Body]:
    """A game that says nothing of its jobs at a table: a ruling is recorded as it was asked."""
    if kind != RULING:
        raise LookupError(kind)
    return "ruling", body


def any_seat(state: State, players: list[str]) -> int | None:
    return None


def none_held(state: State, players: list[str], seat: int | None) -> dict[str, str]:
    return {}


def no_field(field: str) -> bool:
    """None is the table's alone: where the table fills in a field the player adds to (a hand),
    showing the table's after a conflict would drop what the player typed."""
    return False


@dataclass(frozen=True)
class GameTable:
    """A game's tables: what a table of it carries (`carries`, its TABLE) and how the game's own
    pages open at one: `request_body` (the body the table implies for the seat asking, so the
    game's form opens filled in), `event` (a job's request as the table's event, refusing a body
    that says otherwise), `acting_seat` (the seat the host's browser acts for now) and
    `held_cards` (the cards other seats hold: the page marks them and never suggests them) and
    `refilled` (whether a field of the job's page is the table's alone, shown after a conflict as
    the table has it now: an Academy Credits cadet's credits)."""

    carries: TableGame
    request_body: RequestBodyOf = nothing_known
    event: EventOf = asked_as_is
    acting_seat: ActingSeat = any_seat
    held_cards: HeldCards = none_held
    refilled: Refilled = no_field


@dataclass(frozen=True)
class GamePackage:
    """One entry of GAMES: a game, as its package offers it to the apps."""

    slug: str
    # The package, a Django app (its AppConfig in apps.py; INSTALLED_APPS lists it): its
    # templates/<package name>/ and static/<package name>/ are found by Django's own loaders.
    package: str
    check: CheckFunction  # the engine's check(position) -> a games.protocol.Board
    ruling: Job | None = None
    score: Job | None = None
    # The module of validate_rule(...), render_rule(...), rename_card(...) (cards.rule_languages).
    rule_language: ModuleType | None = None
    # Its module of RULING_DOCS, RULING_EXAMPLES, SCORE_DOCS, SCORE_EXAMPLES (the API schema).
    api_docs: ModuleType | None = None
    # Its cards' text from their attributes (a game with a rule language writes it from the rule
    # instead; cards.rendering).
    card_text: CardText | None = None
    # The pages kept offline from the start and offered as the installed app's shortcuts (web/
    # offline.py): (the shortcut's name, the page's URL name).
    shortcuts: tuple[tuple[str, str], ...] = ()
    # Its tables (games/table_state.py). None: the game has no tables.
    table: GameTable | None = None

    @cached_property
    def directory(self) -> Path:
        import importlib

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
        """Its own templates (under templates/<package name>/), found by Django's app directories
        loader (APP_DIRS) as the package is an app."""
        return self.directory / "templates"

    @property
    def static(self) -> Path:
        """Its own static files (its pages' scripts and stylesheets, under static/<package
        name>/), found by Django's AppDirectoriesFinder as the package is an app."""
        return self.directory / "static"

    def job(self, kind: str) -> Job | None:
        return self.ruling if kind == RULING else self.score if kind == SCORE else None

    def docs(self, name: str) -> Any:
        """RULING_DOCS, RULING_EXAMPLES, SCORE_DOCS or SCORE_EXAMPLES from its api_docs module."""
        empty: Any = [] if name.endswith("EXAMPLES") else ""
        if self.api_docs is None:
            return empty
        return getattr(self.api_docs, name, None) or empty
