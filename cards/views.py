"""The web pages: home, a game's rules, its card catalog and each card's page.

The views stay thin: parse the request, call the selectors, shape what the templates show and
render. Nothing here writes. The catalog answers an htmx request (live search) with its results
fragment only; any other request, including htmx's history restore, gets the whole page.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_vary_headers

from common.games import game_package
from common.numbers import plain_int

from .attributes import ABILITY_EFFECTS, AttributeSpec
from .models import Card, CardAttributeValue, Game, RuleSection
from .rendering import card_renderer
from .selectors import (
    PROVENANCES,
    CardNotFound,
    CardQuery,
    FilterError,
    GameNotFound,
    card_get,
    card_list,
    game_get,
    game_list,
    ordering_options,
    parse_card_query,
    rule_sections,
    search_suggestions,
)

PAGE_SIZE = 60
MAX_PAGE_SIZE = 100

# What Tableside does for a game, in the order the pages list them. The score job is named after
# what each game scores; only the catalog has a page so far (the others arrive with later issues).
JOB_ORDER = ("catalog", "score", "rulings")
# Which attributes a tile shows where (presentation only; any game without them still renders).
FACTION_KEYS = ("faction", "affiliation")
TYPE_KEYS = ("kind", "deck", "type", "action")

PROVENANCE_TEXT = {
    "verified": "Verified: the rules or card data state every value.",
    "provisional": "Provisional: some value is inferred, not stated.",
    "incomplete": "Incomplete: some value is not known yet.",
}


# --- Pages -----------------------------------------------------------------------------------


def home(request: HttpRequest) -> HttpResponse:
    games = [GameSummary(game=game, jobs=_jobs(game)) for game in game_list()]
    return render(request, "home.html", {"games": games})


def game(request: HttpRequest, game: str) -> HttpResponse:
    try:
        game_obj = game_get(slug=game)
    except GameNotFound as missing:
        return _game_not_found(request, missing)
    return render(
        request,
        "cards/game.html",
        {
            "game": game_obj,
            "card_count": game_obj.cards.count(),
            "jobs": _jobs(game_obj),
            "options": list(game_obj.options.all()),
            "sections": _section_tree(rule_sections(game=game_obj)),
        },
    )


def catalog(request: HttpRequest, game: str) -> HttpResponse:
    try:
        game_obj = game_get(slug=game)
    except GameNotFound as missing:
        return _game_not_found(request, missing)
    specs = game_obj.attribute_specs()
    query = parse_card_query(specs=specs, params=request.GET)
    page_size, size_errors = _page_size(request.GET)
    errors = query.errors + size_errors

    page = None
    tiles: list[Tile] = []
    if not errors:
        # The tiles never show rulings: drop the selector's prefetch (one query less per page).
        cards = card_list(game=game_obj, query=query, specs=specs).prefetch_related(None)
        page = Paginator(cards, page_size).get_page(request.GET.get("page"))
        tiles = [_tile(card, specs) for card in page.object_list]
    # Only a search that found nothing asks for names that look like it (bounded, see the selector).
    did_you_mean = []
    if page is not None and not page.object_list and query.q:
        did_you_mean = [
            (named.name, reverse("pages:card", kwargs={"game": game_obj.slug, "slug": named.slug}))
            for named in search_suggestions(game=game_obj, q=query.q)
        ]

    context = {
        "game": game_obj,
        "query": query,
        "controls": _filter_controls(game_obj, specs, query),
        "page_size_param": request.GET.get("page_size", ""),
        "errors": [_error_view(request, error) for error in errors],
        "page": page,
        "tiles": tiles,
        "did_you_mean": did_you_mean,
    }
    partial = request.headers.get("HX-Request") == "true" and not request.headers.get(
        "HX-History-Restore-Request"
    )
    template = "cards/_catalog_update.html" if partial else "cards/catalog.html"
    response = render(request, template, context, status=400 if errors else 200)
    # The same address answers with a fragment or a page: caches must tell them apart.
    patch_vary_headers(response, ["HX-Request"])
    return response


def card(request: HttpRequest, game: str, slug: str) -> HttpResponse:
    try:
        game_obj = game_get(slug=game)
    except GameNotFound as missing:
        return _game_not_found(request, missing)
    try:
        card_obj = card_get(game=game_obj, slug=slug)
    except CardNotFound as missing:
        named = dict(
            game_obj.cards.filter(name__in=missing.suggestions).values_list("name", "slug")
        )
        links = [
            (name, reverse("pages:card", kwargs={"game": game_obj.slug, "slug": named[name]}))
            for name in missing.suggestions
            if name in named
        ]
        return _not_found(
            request,
            f"{game_obj.name} has no card '{slug}'.",
            links,
            back=(f"All {game_obj.name} cards", reverse("pages:catalog", args=[game_obj.slug])),
        )
    specs = game_obj.attribute_specs()
    tile = _tile(card_obj, specs)
    return render(
        request,
        "cards/card.html",
        {
            "game": game_obj,
            "card": card_obj,
            "tile": tile,
            "rows": _attribute_rows(card_obj, specs),
            "copies_provenance": (card_obj.field_provenance or {}).get("copies", ""),
            "provenance_text": PROVENANCE_TEXT.get(card_obj.provenance, ""),
            "has_text_renderer": card_renderer(game_obj.slug) is not None,
            "rulings": _rulings(game_obj, card_obj),
        },
    )


# --- Not found ---------------------------------------------------------------------------------


def _game_not_found(request: HttpRequest, missing: GameNotFound) -> HttpResponse:
    names = dict(Game.objects.filter(slug__in=missing.suggestions).values_list("slug", "name"))
    links = [(names[s], reverse("pages:game", args=[s])) for s in missing.suggestions if s in names]
    return _not_found(request, f"There is no game '{missing.slug}'.", links)


def _not_found(
    request: HttpRequest,
    message: str,
    suggestions: list[tuple[str, str]],
    back: tuple[str, str] | None = None,
) -> HttpResponse:
    context = {"message": message, "suggestions": suggestions, "back": back}
    return render(request, "404.html", context, status=404)


# --- Home and game page ------------------------------------------------------------------------


@dataclass
class Job:
    label: str
    url: str = ""  # empty: the page is not built yet


@dataclass
class GameSummary:
    game: Game
    jobs: list[Job]

    @property
    def main(self) -> Job | None:
        """The job a table comes for (issue 23: on the home page, within the first phone
        screen): the game's first page after the catalog, its score job where it has one."""
        return next((job for job in self.jobs[1:] if job.url), None)


def _jobs(game: Game) -> list[Job]:
    jobs = []
    package = game_package(game.slug)
    for job in JOB_ORDER:
        if job not in (game.jobs or []):
            continue
        if job == "catalog":
            jobs.append(Job("Browse the catalog", reverse("pages:catalog", args=[game.slug])))
            continue
        page = package.job("ruling" if job == "rulings" else job) if package else None
        if page is None:
            jobs.append(Job("Score" if job == "score" else "Check a move"))
            continue
        jobs.append(Job(page.label, page.url()))
        jobs += [Job(label, url) for label, url in page.more_urls()]
    return jobs


@dataclass
class RuleNode:
    section: RuleSection
    level: int  # the heading level: h3 for a top-level section, one deeper per nesting
    children: list[RuleNode] = field(default_factory=list)


def _section_tree(sections: list[RuleSection]) -> list[RuleNode]:
    """Nest each section under its parent (by rule id); an unknown parent leaves it at the top."""
    by_id = {section.rule_id: section for section in sections}
    children: dict[str, list[RuleSection]] = {}
    roots = []
    for section in sections:
        parent = section.parent_id_text
        if parent and parent in by_id and parent != section.rule_id:
            children.setdefault(parent, []).append(section)
        else:
            roots.append(section)

    def build(section: RuleSection, level: int, seen: frozenset[str]) -> RuleNode:
        kids = [k for k in children.get(section.rule_id, []) if k.rule_id not in seen]
        return RuleNode(
            section,
            min(level, 6),
            [build(k, level + 1, seen | {k.rule_id}) for k in kids],
        )

    return [build(root, 3, frozenset({root.rule_id})) for root in roots]


# --- Catalog -----------------------------------------------------------------------------------


@dataclass
class Control:
    """One filter of the catalog form: a select of options, or a number input."""

    name: str
    label: str
    options: list[tuple[str, str]]
    selected: str = ""
    number: bool = False
    any_label: str = "Any"


def _filter_controls(game: Game, specs: list[AttributeSpec], query: CardQuery) -> list[Control]:
    integer_keys = [s.key for s in specs if s.filterable and s.kind == "integer"]
    present: dict[str, set[int]] = {}
    if integer_keys:
        rows = (
            CardAttributeValue.objects.filter(card__game=game, key__in=integer_keys)
            .values_list("key", "value")
            .distinct()
        )
        for key, value in rows:
            try:
                present.setdefault(key, set()).add(int(value))
            except ValueError:
                continue

    controls = []
    for spec in specs:
        if not spec.filterable:
            continue
        selected = (query.filters.get(spec.key) or [""])[0]
        if spec.kind in ("choice", "multi_choice"):
            controls.append(Control(spec.key, spec.label, list(spec.choices), selected))
        elif spec.kind == "integer" and present.get(spec.key):
            values = [(str(v), str(v)) for v in sorted(present[spec.key])]
            controls.append(Control(spec.key, spec.label, values, selected))
        elif spec.kind in ("integer", "text"):
            controls.append(
                Control(spec.key, spec.label, [], selected, number=spec.kind == "integer")
            )
    controls.append(
        Control(
            "provenance",
            "Provenance",
            [(p, p.capitalize()) for p in PROVENANCES],
            query.provenance,
        )
    )
    controls.append(
        Control(
            "ordering",
            "Order by",
            [(o, _ordering_label(o, specs)) for o in ordering_options(specs)],
            query.ordering,
            any_label="",
        )
    )
    return controls


def _ordering_label(option: str, specs: list[AttributeSpec]) -> str:
    descending = option.startswith("-")
    key = option.lstrip("-")
    spec = next((s for s in specs if s.key == key), None)
    if key == "name":
        return "Name, Z to A" if descending else "Name, A to Z"
    if key == "copies":
        return "Copies, most first" if descending else "Copies, fewest first"
    if key == "provenance":
        return "Provenance, verified first" if descending else "Provenance, incomplete first"
    label = spec.label if spec else key
    if spec and spec.kind == "integer":
        return f"{label}, highest first" if descending else f"{label}, lowest first"
    return f"{label}, Z to A" if descending else f"{label}, A to Z"


def _page_size(params: QueryDict) -> tuple[int, list[FilterError]]:
    raw = (params.get("page_size") or "").strip()
    if not raw:
        return PAGE_SIZE, []
    # Above the most a page shows is read as the most (a link may ask for "all"); not a number
    # (or past its digits) is refused.
    size = plain_int(raw, least=1)
    if size is None:
        detail = f"Page size must be a whole number from 1 to {MAX_PAGE_SIZE}; got '{raw}'."
        return PAGE_SIZE, [FilterError("page_size", "invalid_page_size", detail)]
    return min(size, MAX_PAGE_SIZE), []


@dataclass
class ErrorView:
    detail: str
    suggestions: list[tuple[str, str]]  # (text, link or "")


def _error_view(request: HttpRequest, error: FilterError) -> ErrorView:
    """A filter error with its suggestions; a suggested value links to the corrected address."""
    links = []
    for suggestion in error.suggestions:
        if error.code == "unknown_parameter":
            links.append((suggestion, ""))
            continue
        params = request.GET.copy()
        params.pop("page", None)
        params[error.parameter] = suggestion
        links.append((suggestion, request.path + "?" + params.urlencode()))
    return ErrorView(error.detail, links)


@dataclass
class Tile:
    """What a card's tile (and the head of its page) shows, worked out once per card."""

    card: Card | None = None
    badge: str = ""
    badge_label: str = ""
    badge_unknown: bool = False
    faction: str = ""
    faction_label: str = ""
    type_label: str = ""


def _tile(card: Card, specs: list[AttributeSpec]) -> Tile:
    attributes = card.attributes or {}
    provenance = card.field_provenance or {}
    tile = Tile(card=card)

    badge_spec = next((s for s in specs if s.kind == "integer"), None) or next(
        (s for s in specs if s.kind == "text"), None
    )
    if badge_spec:
        value = attributes.get(badge_spec.key)
        tile.badge_label = badge_spec.label
        if value is not None and value != "":
            tile.badge = str(value)
        elif provenance.get(badge_spec.key) == "unknown":
            tile.badge, tile.badge_unknown = "?", True

    faction_spec = next((s for s in specs if s.key in FACTION_KEYS), None)
    if faction_spec:
        value = attributes.get(faction_spec.key)
        values = value if isinstance(value, list) else [value] if value else []
        if values:
            tile.faction = values[0]
            tile.faction_label = ", ".join(faction_spec.label_of(v) for v in values)

    type_specs = [s for s in specs if s.key in TYPE_KEYS] or [
        s for s in specs if s.kind == "choice" and s is not faction_spec
    ][:1]
    labels = []
    for spec in type_specs:
        value = attributes.get(spec.key)
        for item in value if isinstance(value, list) else [value] if value else []:
            label = spec.label_of(item)
            if label not in labels:
                labels.append(label)
    tile.type_label = " · ".join(labels)
    return tile


# --- Card page ---------------------------------------------------------------------------------


@dataclass
class AttributeRow:
    label: str
    value: str
    provenance: str  # verified, provisional, unknown or "" (none given)
    state: str  # "known", "unknown" or "not_applicable"


def _attribute_rows(card: Card, specs: list[AttributeSpec]) -> list[AttributeRow]:
    attributes = card.attributes or {}
    provenance = card.field_provenance or {}
    rows = []
    for spec in specs:
        value = attributes.get(spec.key)
        given = provenance.get(spec.key, "")
        if value is None:
            state = "unknown" if given == "unknown" else "not_applicable"
            rows.append(AttributeRow(spec.label, "", given, state))
            continue
        rows.append(AttributeRow(spec.label, _display_value(spec, value), given, "known"))
    return rows


def _display_value(spec: AttributeSpec, value: Any) -> str:
    if spec.kind == "abilities":
        parts = [
            f"{value[effect]} {effect.capitalize()}"
            for effect in ABILITY_EFFECTS
            if effect in value
        ]
        return ", ".join(parts) or "None"
    if spec.kind == "multi_choice":
        return ", ".join(spec.label_of(v) for v in value) or "None"
    if spec.kind == "choice":
        return spec.label_of(value)
    return str(value)


@dataclass
class RulingView:
    date: object
    text: str
    rule_id: str
    rule_title: str = ""
    rule_url: str = ""


def _rulings(game: Game, card: Card) -> list[RulingView]:
    rulings = card.dated_rulings()
    ids = {r.rule_id for r in rulings if r.rule_id}
    titles = (
        dict(game.rule_sections.filter(rule_id__in=ids).values_list("rule_id", "title"))
        if ids
        else {}
    )
    game_url = reverse("pages:game", args=[game.slug])
    views = []
    for ruling in rulings:
        view = RulingView(ruling.date, ruling.text, ruling.rule_id)
        if ruling.rule_id in titles:
            view.rule_title = titles[ruling.rule_id]
            view.rule_url = f"{game_url}#{RuleSection(rule_id=ruling.rule_id).anchor}"
        views.append(view)
    return views
