"""Reads from the catalog, shared by the API and the pages. Nothing here writes."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from django.db import connection, transaction
from django.db.models import (
    Case,
    Count,
    Expression,
    F,
    IntegerField,
    Prefetch,
    Q,
    QuerySet,
    Sum,
    Value,
    When,
)
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast, Lower, Replace

from common.numbers import INTEGER_MAX, plain_int

from .attributes import AttributeSpec
from .models import (
    AttributeDefinition,
    Card,
    CardAttributeValue,
    CardRuling,
    Game,
    GameOption,
    RuleSection,
)
from .naming import NamedCard, NameMatch, match_exact, match_fuzzy, normalise, suggest

# Query parameters of the card list that are not attribute filters.
LIST_PARAMETERS = ("q", "ordering", "page", "page_size", "provenance", "format")
PROVENANCES = ("verified", "provisional", "incomplete")


def clean_text(value: str | None) -> str:
    """What a person typed, without NUL characters (PostgreSQL rejects them in a query) and
    bounded in length."""
    return (value or "").replace("\x00", "").strip()[:200]


class GameNotFound(LookupError):
    def __init__(self, slug: str, suggestions: list[str]):
        super().__init__(slug)
        self.slug = slug
        self.suggestions = suggestions


class CardNotFound(LookupError):
    def __init__(self, game: Game, query: str, suggestions: list[str]):
        super().__init__(query)
        self.game = game
        self.query = query
        self.suggestions = suggestions


class RuleNotFound(LookupError):
    def __init__(self, game: Game, rule_id: str, suggestions: list[str]):
        super().__init__(rule_id)
        self.game = game
        self.rule_id = rule_id
        self.suggestions = suggestions


# --- The catalog as the score and ruling services read it ---------------------------------------
# Every score and ruling reads its game's cards, attribute definitions, options and rule sections.
# They change rarely (the admin, an import, the catalog load) and are read on every request, so
# each process keeps them per game, tagged with a version stamp: the row count and latest change of
# each of those four tables for the game, read in one query. An edit made anywhere (any process,
# any app server) changes the stamp, so the next request reads afresh. A request reads the stamp
# once, on its Game instance, so everything it reads comes from one version: fetch the game again
# to see later edits. The cached rows are shared between requests: callers must not modify them.

_CATALOG_TABLES = (Card, AttributeDefinition, GameOption, RuleSection)


@dataclass
class _CatalogVersion:
    stamp: tuple[Any, ...]
    parts: dict[str, object] = field(default_factory=dict)


_CATALOG: dict[int, _CatalogVersion] = {}
_Part = TypeVar("_Part")


def _catalog_stamp(game: Game) -> tuple[Any, ...]:
    stamp = getattr(game, "_catalog_stamp", None)
    if stamp is None:
        quote = connection.ops.quote_name
        columns = []
        for model in _CATALOG_TABLES:
            table = quote(model._meta.db_table)
            columns += [
                f"(SELECT COUNT(*) FROM {table} WHERE game_id = %s)",
                f"(SELECT MAX(updated_at) FROM {table} WHERE game_id = %s)",
            ]
        with connection.cursor() as cursor:
            cursor.execute("SELECT " + ", ".join(columns), [game.pk] * len(columns))
            stamp = tuple(cursor.fetchone())
        game._catalog_stamp = stamp  # type: ignore[attr-defined]  # kept on this Game object only
    return stamp


def catalog_stamp(game: Game) -> tuple[Any, ...]:
    """The version of the game's catalog: row counts and latest changes of its tables, read once
    per request (any edit, through any server, changes it)."""
    return _catalog_stamp(game)


def _catalog_part(game: Game, name: str, load: Callable[[], _Part]) -> _Part:
    stamp = _catalog_stamp(game)
    version = _CATALOG.get(game.pk)
    if version is None or version.stamp != stamp:
        version = _CATALOG[game.pk] = _CatalogVersion(stamp)
    if name not in version.parts:
        version.parts[name] = load()
    return cast(_Part, version.parts[name])  # stored by this very function under `name`


def game_cards(*, game: Game) -> list[Card]:
    """The game's cards by name."""

    def load() -> list[Card]:
        cards = list(Card.objects.filter(game=game).order_by("name"))
        for card in cards:
            card.game = game  # no query per card for card.game
        return cards

    return _catalog_part(game, "cards", load)


def game_attribute_specs(*, game: Game) -> list[AttributeSpec]:
    return _catalog_part(game, "specs", game.attribute_specs)


def game_options(*, game: Game) -> list[GameOption]:
    return _catalog_part(game, "options", lambda: list(game.options.all()))


def game_rule_section(*, game: Game, rule_id: str) -> RuleSection | None:
    """The section with exactly this id, or None."""

    def load() -> dict[str, RuleSection]:
        sections = {}
        for section in game.rule_sections.all():
            section.game = game  # its URL needs the game's slug: no query for it
            sections[section.rule_id] = section
        return sections

    return _catalog_part(game, "rule_sections", load).get(rule_id)


def game_list() -> QuerySet[Game]:
    # Explicit order: Django leaves Meta.ordering out of aggregate queries, and PostgreSQL then
    # returns groups in any order.
    return Game.objects.annotate(
        card_count=Count("cards"), copies_total=Sum("cards__copies")
    ).order_by("position", "name")


def game_get(*, slug: str) -> Game:
    game = Game.objects.filter(slug=slug).first()
    if game is None:
        slugs = list(Game.objects.values_list("slug", flat=True))
        close = [s for s in slugs if normalise(slug) and normalise(slug)[:4] in normalise(s)]
        raise GameNotFound(slug, close or slugs)
    return game


def rule_sections(*, game: Game) -> list[RuleSection]:
    return list(game.rule_sections.all())


def rule_get(*, game: Game, rule_id: str) -> RuleSection:
    section = game.rule_sections.filter(rule_id__iexact=clean_text(rule_id)).first()
    if section is None:
        ids = list(game.rule_sections.values_list("rule_id", flat=True))
        prefix = rule_id.upper().split(".")[0]
        raise RuleNotFound(game, rule_id, [i for i in ids if i.startswith(prefix)][:10] or ids[:10])
    return section


@dataclass
class FilterError:
    parameter: str
    code: str
    detail: str
    suggestions: list[str] = field(default_factory=list)


@dataclass
class CardQuery:
    """A validated card-list request: search text, attribute filters and ordering."""

    q: str = ""
    filters: dict[str, list[str]] = field(default_factory=dict)
    provenance: str = ""
    ordering: str = "name"
    errors: list[FilterError] = field(default_factory=list)


def ordering_options(specs: list[AttributeSpec]) -> list[str]:
    keys = ["name", "copies", "provenance"] + [
        spec.key for spec in specs if spec.kind in ("integer", "text", "choice")
    ]
    return [prefix + key for key in keys for prefix in ("", "-")]


def parse_card_query(*, specs: list[AttributeSpec], params: Mapping[str, Any]) -> CardQuery:
    """Check every query parameter against the game's attributes; a bad one is an error, not
    silently ignored, so a typo never shows an unfiltered list as if it were filtered."""
    query = CardQuery(q=clean_text(params.get("q")))
    by_key = {spec.key: spec for spec in specs if spec.filterable}
    getlist = params.getlist if hasattr(params, "getlist") else lambda k: [params[k]]
    for name in params:
        if name in LIST_PARAMETERS:
            continue
        spec = by_key.get(name)
        if spec is None:
            known = list(by_key) + list(LIST_PARAMETERS[:-1])
            query.errors.append(
                FilterError(
                    name,
                    "unknown_parameter",
                    f"'{name}' is not a filter of this game.",
                    suggest_words(name, known),
                )
            )
            continue
        values = [clean_text(v) for v in getlist(name) if clean_text(v)]
        problems = [p for p in (_filter_value_error(spec, value) for value in values) if p]
        query.errors.extend(problems)
        if spec.kind == "integer" and not problems:
            # One spelling per number ("03" and "+3" are 3), as the index stores it.
            values = [str(_filter_number(value)) for value in values]
        if values:
            query.filters[name] = values
    provenance = (params.get("provenance") or "").strip()
    if provenance and provenance not in PROVENANCES:
        query.errors.append(
            FilterError(
                "provenance",
                "invalid_filter",
                f"Provenance must be one of {', '.join(PROVENANCES)}; got '{provenance}'.",
                list(PROVENANCES),
            )
        )
    else:
        query.provenance = provenance
    ordering = (params.get("ordering") or "name").strip()
    options = ordering_options(specs)
    if ordering not in options:
        query.errors.append(
            FilterError(
                "ordering",
                "invalid_ordering",
                f"Cannot order by '{ordering}'; use one of {', '.join(options)}.",
                suggest_words(ordering, options),
            )
        )
    else:
        query.ordering = ordering
    return query


def suggest_words(word: str, options: list[str]) -> list[str]:
    return suggest(word, [NamedCard(name=o, slug=o) for o in options], limit=3)


def _filter_number(value: str) -> int | None:
    """An integer attribute's filter value: ASCII digits (common.numbers), signed "-" or "+"."""
    if value.startswith("+"):
        return plain_int(value[1:], most=INTEGER_MAX)
    return plain_int(value, least=-INTEGER_MAX)


def _filter_value_error(spec: AttributeSpec, value: str) -> FilterError | None:
    if spec.kind == "integer":
        if _filter_number(value) is None:
            return FilterError(
                spec.key, "invalid_filter", f"{spec.label} must be a whole number; got '{value}'."
            )
        return None
    if spec.kind in ("choice", "multi_choice") and value not in spec.choice_values:
        options = list(spec.choice_values)
        return FilterError(
            spec.key,
            "invalid_filter",
            f"'{value}' is not a {spec.label.lower()} of this game; use one of {', '.join(options)}.",
            suggest_words(value, options) or options[:10],
        )
    return None


def card_list(*, game: Game, query: CardQuery, specs: list[AttributeSpec]) -> QuerySet[Card]:
    cards = Card.objects.filter(game=game)
    if query.q:
        match = Q(name__icontains=query.q) | Q(text__icontains=query.q)
        key = normalise(query.q)
        if key:
            # Names read as the score pages read them (cards.naming.normalise): 'kehleyr' finds
            # Ambassador K'Ehleyr, 'jean luc' Captain Jean-Luc Picard.
            cards = cards.annotate(name_key=name_key("name"))
            match |= Q(name_key__contains=key)
        cards = cards.filter(match)
    if query.filters:
        if connection.features.supports_json_field_contains:
            cards = cards.filter(attribute_containment(filters=query.filters, specs=specs))
        else:
            cards = cards.filter(attribute_index_match(filters=query.filters))
    if query.provenance:
        cards = cards.filter(provenance=query.provenance)
    return (
        _ordered(cards, query.ordering, specs)
        .select_related("game")
        .prefetch_related(dated_rulings_prefetch())
    )


# What cards.naming.normalise drops from a name besides case and accents: the punctuation and
# spaces names are written with. The database compares the name without them to the normalised
# search text (a name with other symbols still matches by its plain icontains).
NAME_PUNCTUATION = (" ", "'", "\u2019", "-", ".", ",", ":", "!", "?", "(", ")", "&", "/", '"')


def name_key(field_name: str) -> Expression:
    """The name in lower case without NAME_PUNCTUATION, as a database expression."""
    expression: Expression = Lower(field_name)
    for mark in NAME_PUNCTUATION:
        expression = Replace(expression, Value(mark), Value(""))
    return expression


def dated_rulings_prefetch() -> Prefetch[str, QuerySet[CardRuling], str]:
    # Into a plain list (Card.dated_rulings reads it): cheaper than a related manager and its
    # queryset for every card of a page.
    return Prefetch(
        "rulings", queryset=CardRuling.objects.order_by("date", "pk"), to_attr="ruling_list"
    )


# Values of one attribute widen the list (OR); different attributes narrow it (AND). Both functions
# below say exactly that, and a test holds them to the same answers.


def attribute_index_match(*, filters: dict[str, list[str]]) -> Q:
    """The filters as lookups in the attribute index table: one subquery per attribute. Works on
    every database."""
    condition = Q()
    for key, values in filters.items():
        condition &= Q(
            pk__in=CardAttributeValue.objects.filter(key=key, value__in=values).values("card_id")
        )
    return condition


def attribute_containment(*, filters: dict[str, list[str]], specs: list[AttributeSpec]) -> Q:
    """The filters as JSON containment on the card's attributes, for databases that have it
    (PostgreSQL answers it from a GIN index, migration 0005). Attributes filtered by one value go
    into a single containment, so the index intersects them in one scan."""
    kinds = {spec.key: spec.kind for spec in specs}

    def contained(key: str, value: str) -> object:
        if kinds[key] == "integer":
            return _filter_number(value)
        if kinds[key] == "multi_choice":
            return [value]  # the card's list holds this value, among others
        return value

    single = {key: contained(key, values[0]) for key, values in filters.items() if len(values) == 1}
    condition = Q(attributes__contains=single) if single else Q()
    for key, values in filters.items():
        if len(values) > 1:
            any_value = Q()
            for value in values:
                any_value |= Q(attributes__contains={key: contained(key, value)})
            condition &= any_value
    return condition


def _ordered(cards: QuerySet[Card], ordering: str, specs: list[AttributeSpec]) -> QuerySet[Card]:
    descending = ordering.startswith("-")
    key = ordering.lstrip("-")
    if key in ("name", "copies", "provenance"):
        return cards.order_by(ordering, "name") if key != "name" else cards.order_by(ordering)
    spec = next(s for s in specs if s.key == key)
    value: Expression = KeyTextTransform(key, "attributes")
    if spec.kind == "integer":
        value = Cast(value, IntegerField())
    # A JSON null (an unknown value) reads as the text 'null' on SQLite: make it SQL NULL so
    # unknown values sort last on every database.
    unknown = Q(**{f"attributes__{key}": None}) | Q(**{f"attributes__{key}__isnull": True})
    cards = cards.annotate(sort_value=Case(When(unknown, then=Value(None)), default=value))
    expression = (
        F("sort_value").desc(nulls_last=True)
        if descending
        else F("sort_value").asc(nulls_last=True)
    )
    return cards.order_by(expression, "name")


def card_get(*, game: Game, slug: str) -> Card:
    card = (
        Card.objects.filter(game=game, slug=slug)
        .select_related("game")
        .prefetch_related(dated_rulings_prefetch())
        .first()
    )
    if card is None:
        raise CardNotFound(game, slug, suggest(slug, _named_cards(game)))
    return card


def _named_cards(game: Game) -> list[NamedCard]:
    return [NamedCard(name=n, slug=s) for n, s in game.cards.values_list("name", "slug")]


def card_named(*, game: Game, exact: str | None = None, fuzzy: str | None = None) -> Card:
    """One card by name: exact (any case, or the slug) or fuzzy. Raises CardNotFound with
    suggestions when nothing or several cards match."""
    candidates = _named_cards(game)
    match: NameMatch = (
        match_exact(exact, candidates)
        if exact is not None
        else match_fuzzy(fuzzy or "", candidates)
    )
    if match.card is None:
        raise CardNotFound(game, exact if exact is not None else fuzzy or "", match.suggestions)
    return card_get(game=game, slug=match.card.slug)


# --- "Did you mean …?" for a search that found nothing -------------------------------------------
# Only asked when the plain search (icontains) finds no card, and bounded however large the game:
# the database picks at most FUZZY_CANDIDATES names that share letters with what was typed
# (PostgreSQL: trigram similarity, served by migration 0003's GIN indexes; elsewhere: names holding
# one of its three-letter pieces), then cards.naming ranks those few as every name field does.
FUZZY_CANDIDATES = 200
FUZZY_PIECES = 12  # three-letter pieces of the typed text looked for, at most
# pg_trgm's thresholds for the candidates (defaults 0.3 and 0.6): 'picrad' shares only 3 of its 7
# trigrams with 'PICARD', a word similarity of 0.43.
TRIGRAM_SIMILARITY = 0.3
TRIGRAM_WORD_SIMILARITY = 0.4


def search_suggestions(*, game: Game, q: str, limit: int = 5) -> list[NamedCard]:
    """Cards whose name looks like the search text, best first; [] when nothing does."""
    text = clean_text(q)[:100]
    if not normalise(text):
        return []
    if connection.vendor == "postgresql":
        candidates = _trigram_candidates(game, text)
    else:
        candidates = _piece_candidates(game, text)
    if not candidates:
        return []
    by_name = {card.name: card for card in candidates}
    return [by_name[name] for name in suggest(text, candidates, limit=limit)]


def _trigram_candidates(game: Game, text: str) -> list[NamedCard]:
    table = connection.ops.quote_name(Card._meta.db_table)
    with transaction.atomic(), connection.cursor() as cursor:
        # Local to this transaction: the next statement's % and <% use them.
        cursor.execute(
            "SELECT set_config('pg_trgm.similarity_threshold', %s, true), "
            "set_config('pg_trgm.word_similarity_threshold', %s, true)",
            [str(TRIGRAM_SIMILARITY), str(TRIGRAM_WORD_SIMILARITY)],
        )
        cursor.execute(
            f"SELECT name, slug FROM {table} WHERE game_id = %s "
            "AND (UPPER((name)::text) %% UPPER(%s) OR UPPER(%s) <%% UPPER((name)::text)) "
            "ORDER BY GREATEST(similarity(UPPER((name)::text), UPPER(%s)), "
            "word_similarity(UPPER(%s), UPPER((name)::text))) DESC, name LIMIT %s",
            [game.pk, text, text, text, text, FUZZY_CANDIDATES],
        )
        rows = cursor.fetchall()
    return [NamedCard(name=name, slug=slug) for name, slug in rows]


def _pieces(text: str) -> list[str]:
    """The three-letter pieces of each word typed (a shorter word whole), first ones first."""
    pieces: list[str] = []
    for word in re.split(r"[^a-z0-9]+", normalise_words(text)):
        grams = [word] if len(word) < 3 else [word[i : i + 3] for i in range(len(word) - 2)]
        pieces += [gram for gram in grams if gram and gram not in pieces]
    return pieces[:FUZZY_PIECES]


def normalise_words(text: str) -> str:
    """Like cards.naming.normalise, but keeping a space between words."""
    return " ".join(normalise(word) for word in str(text).split())


def _piece_candidates(game: Game, text: str) -> list[NamedCard]:
    pieces = _pieces(text)
    if not pieces:
        return []
    condition = Q()
    shared: Expression = Value(0)
    for piece in pieces:
        condition |= Q(name__icontains=piece)
        shared = shared + Case(When(name__icontains=piece, then=Value(1)), default=Value(0))
    rows = (
        game.cards.filter(condition)
        .annotate(shared=shared)
        .order_by("-shared", "name")  # the names sharing most pieces first, as trigrams rank
        .values_list("name", "slug")
    )
    return [NamedCard(name=name, slug=slug) for name, slug in rows[:FUZZY_CANDIDATES]]


def card_autocomplete(*, game: Game, q: str, limit: int = 20) -> list[str]:
    """Names that start with (first) or contain what was typed; never raises."""
    text = clean_text(q)[:100]
    if not text:
        return list(game.cards.order_by("name").values_list("name", flat=True)[:limit])
    starts = list(
        game.cards.filter(name__istartswith=text)
        .order_by("name")
        .values_list("name", flat=True)[:limit]
    )
    if len(starts) < limit:
        contains = (
            game.cards.filter(name__icontains=text)
            .exclude(name__istartswith=text)
            .order_by("name")
            .values_list("name", flat=True)[: limit - len(starts)]
        )
        starts.extend(contains)
    if not starts:
        key = normalise(text)
        starts = [c.name for c in _named_cards(game) if key and key in normalise(c.name)][:limit]
    return starts
