"""Catalog API views: parse the request, call a selector, serialize. No logic of their own."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import Max
from django.db.models.functions import Length
from django.utils.cache import patch_cache_control
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cards import selectors
from cards.models import Game
from cards.naming import LENGTH_FACTOR
from common.api_errors import ApiError, error_entry
from common.numbers import plain_int

from .serializers import (
    CardSerializer,
    ErrorSerializer,
    GameDetailSerializer,
    GameSerializer,
    NamesSerializer,
    PaginatedCardListSerializer,
    RuleSectionSerializer,
)

ERRORS = {400: ErrorSerializer, 404: ErrorSerializer}
CATALOG_MAX_AGE = 60  # seconds; ETags let clients revalidate after that without a full download


class CatalogApi(APIView):
    # Read-only catalog endpoints: cacheable, with an ETag (ConditionalGetMiddleware).

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        response = super().finalize_response(request, response, *args, **kwargs)
        if request.method in ("GET", "HEAD") and response.status_code == 200:
            patch_cache_control(response, public=True, max_age=CATALOG_MAX_AGE)
        return response


def game_or_404(slug: str) -> Game:
    try:
        return selectors.game_get(slug=slug)
    except selectors.GameNotFound as missing:
        raise ApiError(
            status_code=404,
            code="unknown_game",
            detail=f"No game '{slug}'.",
            errors=[
                error_entry(
                    path="game",
                    code="unknown_game",
                    detail=f"No game '{slug}'.",
                    suggestions=missing.suggestions,
                )
            ],
        ) from None


def card_not_found(missing: selectors.CardNotFound, *, path: str) -> ApiError:
    detail = f"No card named '{missing.query}' in {missing.game.name}."
    if missing.suggestions and len(missing.suggestions) > 1 and not detail.endswith("?"):
        detail = f"'{missing.query}' does not name exactly one card in {missing.game.name}."
    return ApiError(
        status_code=404,
        code="unknown_card",
        detail=detail,
        errors=[
            error_entry(
                path=path, code="unknown_card", detail=detail, suggestions=missing.suggestions
            )
        ],
    )


def card_context(game: Game) -> dict[str, Any]:
    return {"attribute_keys": [d.key for d in game.attribute_definitions.all()]}


class CardPagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 100


def page_size_errors(params: Mapping[str, str]) -> list[dict[str, Any]]:
    raw = params.get("page_size")
    if raw is None:
        return []
    if plain_int(raw, least=1, most=CardPagination.max_page_size) is None:
        return [
            error_entry(
                path="query.page_size",
                code="invalid_page_size",
                detail=f"page_size must be a whole number from 1 to "
                f"{CardPagination.max_page_size}; got '{raw}'.",
            )
        ]
    return []


class GameListApi(CatalogApi):
    @extend_schema(summary="Every game", responses={200: GameSerializer(many=True)})
    def get(self, request: Request) -> Response:
        return Response(GameSerializer(selectors.game_list(), many=True).data)


class GameDetailApi(CatalogApi):
    @extend_schema(
        summary="One game with its rule sections and options",
        responses={200: GameDetailSerializer, **ERRORS},
    )
    def get(self, request: Request, game: str) -> Response:
        game_obj = game_or_404(game)
        annotated = (
            selectors.game_list()
            .prefetch_related("rule_sections", "options", "attribute_definitions")
            .get(pk=game_obj.pk)
        )
        return Response(GameDetailSerializer(annotated).data)


class RuleSectionApi(CatalogApi):
    @extend_schema(summary="One rule section", responses={200: RuleSectionSerializer, **ERRORS})
    def get(self, request: Request, game: str, rule_id: str) -> Response:
        game_obj = game_or_404(game)
        try:
            section = selectors.rule_get(game=game_obj, rule_id=rule_id)
        except selectors.RuleNotFound as missing:
            detail = f"{game_obj.name} has no rule section '{rule_id}'."
            raise ApiError(
                status_code=404,
                code="unknown_rule",
                detail=detail,
                errors=[
                    error_entry(
                        path="rule_id",
                        code="unknown_rule",
                        detail=detail,
                        suggestions=missing.suggestions,
                    )
                ],
            ) from None
        return Response(RuleSectionSerializer(section).data)


class CardListApi(CatalogApi):
    @extend_schema(
        summary="The catalog of a game, paginated",
        operation_id="games_cards_list",
        description=(
            "`q` searches names and card text. Every filterable attribute of the game is a query "
            "parameter (see the game's `attributes`): e.g. `?faction=blob&kind=base`, "
            "`?specialty=command` or `?value=7`, as the game's attributes allow. Repeating a "
            "parameter matches any of its values. An unknown parameter or a "
            "value the attribute does not allow is a 400 naming it, with suggestions."
        ),
        parameters=[
            OpenApiParameter("q", str, description="Search in names and text."),
            # Empty is documented because it is accepted: like every empty filter, no filter.
            OpenApiParameter(
                "provenance",
                str,
                enum=["", *selectors.PROVENANCES],
                description="verified, provisional or incomplete; empty for any.",
            ),
            OpenApiParameter(
                "ordering",
                str,
                description="name, copies, provenance or an "
                "attribute key; prefix '-' for descending.",
            ),
            OpenApiParameter("page", int),
            OpenApiParameter("page_size", int, description="1 to 100 (default 50)."),
        ],
        responses={200: PaginatedCardListSerializer, **ERRORS},
    )
    def get(self, request: Request, game: str) -> Response:
        game_obj = game_or_404(game)
        specs = game_obj.attribute_specs()
        query = selectors.parse_card_query(specs=specs, params=request.query_params)
        errors = [
            error_entry(
                path=f"query.{e.parameter}", code=e.code, detail=e.detail, suggestions=e.suggestions
            )
            for e in query.errors
        ] + page_size_errors(request.query_params)
        if errors:
            raise ApiError(
                status_code=400,
                code="invalid_filter",
                detail=errors[0]["detail"]
                if len(errors) == 1
                else "Some query parameters are not valid for this game.",
                errors=errors,
            )
        cards = selectors.card_list(game=game_obj, query=query, specs=specs)
        paginator = CardPagination()
        page = paginator.paginate_queryset(cards, request, view=self)
        context = {"attribute_keys": [spec.key for spec in specs]}
        return paginator.get_paginated_response(
            CardSerializer(page, many=True, context=context).data
        )


class CardDetailApi(CatalogApi):
    @extend_schema(summary="One card", responses={200: CardSerializer, **ERRORS})
    def get(self, request: Request, game: str, slug: str) -> Response:
        game_obj = game_or_404(game)
        try:
            card = selectors.card_get(game=game_obj, slug=slug)
        except selectors.CardNotFound as missing:
            raise card_not_found(missing, path="slug") from None
        return Response(CardSerializer(card, context=card_context(game_obj)).data)


class CardNamedApi(CatalogApi):
    @extend_schema(
        summary="One card by name, exact or fuzzy",
        parameters=[
            OpenApiParameter("exact", str, description="The name in any case, or the slug."),
            OpenApiParameter(
                "fuzzy",
                str,
                description="Forgives case, accents, punctuation, typos and unique prefixes.",
            ),
        ],
        responses={200: CardSerializer, **ERRORS},
    )
    def get(self, request: Request, game: str) -> Response:
        game_obj = game_or_404(game)
        exact, fuzzy = request.query_params.get("exact"), request.query_params.get("fuzzy")
        if (exact is None) == (fuzzy is None) or not (exact or fuzzy or "").strip():
            detail = "Give exactly one of ?exact= or ?fuzzy= with a card name."
            raise ApiError(
                status_code=400,
                code="invalid_input",
                detail=detail,
                errors=[error_entry(path="query", code="missing_name", detail=detail)],
            )
        name_too_long(
            game_obj,
            exact if exact is not None else fuzzy,
            path="query.exact" if exact is not None else "query.fuzzy",
        )
        try:
            card = selectors.card_named(game=game_obj, exact=exact, fuzzy=fuzzy)
        except selectors.CardNotFound as missing:
            raise card_not_found(
                missing, path="query.exact" if exact is not None else "query.fuzzy"
            ) from None
        return Response(CardSerializer(card, context=card_context(game_obj)).data)


def name_too_long(game: Game, text: str, *, path: str) -> None:
    """A 400 `too_long` for text longer than any of the game's names can be (LENGTH_FACTOR times
    the longest name or slug): it is refused before any fuzzy work."""
    longest = game.cards.aggregate(name=Max(Length("name")), slug=Max(Length("slug")))
    limit = LENGTH_FACTOR * max(longest["name"] or 0, longest["slug"] or 0)
    length = len(text.strip())
    if length > limit:
        detail = (
            f"{length} characters is too long for a card name in {game.name}: names are "
            f"looked up to {limit} characters."
        )
        raise ApiError(
            status_code=400,
            code="too_long",
            detail=detail,
            errors=[error_entry(path=path, code="too_long", detail=detail)],
        )


class CardAutocompleteApi(CatalogApi):
    @extend_schema(
        summary="Card names for a search box: at most 20, never an error",
        parameters=[OpenApiParameter("q", OpenApiTypes.STR)],
        responses={200: NamesSerializer},
    )
    def get(self, request: Request, game: str) -> Response:
        game_obj = Game.objects.filter(slug=game).first()
        if game_obj is None:
            return Response({"results": []})
        names = selectors.card_autocomplete(game=game_obj, q=request.query_params.get("q", ""))
        return Response({"results": names})
