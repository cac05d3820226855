"""Response shapes of the catalog API (API.md). Read-only: the catalog is edited in the admin."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from cards.attributes import AttributeSpec
from cards.models import Card, CardRuling, Game, GameOption, RuleSection


class GameOptionSerializer(serializers.ModelSerializer):
    class Meta:
        model = GameOption
        fields = ["key", "label", "description", "value", "choices"]


class AttributeSerializer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    kind = serializers.CharField()
    choices = serializers.SerializerMethodField()
    filter = serializers.BooleanField(source="filterable")

    @extend_schema_field({"type": "array", "items": {"type": "object"}})
    def get_choices(self, spec: AttributeSpec) -> list[dict[str, Any]]:
        return [{"value": value, "label": label} for value, label in spec.choices]


class GameSerializer(serializers.ModelSerializer):
    players = serializers.SerializerMethodField()
    card_count = serializers.IntegerField(read_only=True)
    copies = serializers.IntegerField(source="copies_total", read_only=True)
    links = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields = ["slug", "name", "summary", "players", "card_count", "copies", "jobs", "links"]

    @extend_schema_field(
        {
            "type": "object",
            "properties": {
                "min": {"type": "integer"},
                "max": {"type": "integer", "nullable": True},
            },
        }
    )
    def get_players(self, game: Game) -> dict[str, Any]:
        return {"min": game.min_players, "max": game.max_players}

    @extend_schema_field({"type": "object", "additionalProperties": {"type": "string"}})
    def get_links(self, game: Game) -> dict[str, Any]:
        return {
            "self": reverse("api-game", kwargs={"game": game.slug}),
            "cards": reverse("api-cards", kwargs={"game": game.slug}),
            "page": game.get_absolute_url(),
            "catalog_page": reverse("pages:catalog", kwargs={"game": game.slug}),
        }


class RuleSectionSummarySerializer(serializers.ModelSerializer):
    id = serializers.CharField(source="rule_id")
    parent = serializers.CharField(source="parent_id_text", allow_blank=True)
    url = serializers.CharField(source="get_absolute_url")

    class Meta:
        model = RuleSection
        fields = ["id", "title", "parent", "url"]


class RuleSectionSerializer(RuleSectionSummarySerializer):
    class Meta(RuleSectionSummarySerializer.Meta):
        fields = ["id", "title", "parent", "text", "url"]


class GameDetailSerializer(GameSerializer):
    rule_sections = RuleSectionSummarySerializer(many=True, source="rule_sections.all")
    options = GameOptionSerializer(many=True, source="options.all")
    attributes = AttributeSerializer(many=True, source="attribute_specs")

    class Meta(GameSerializer.Meta):
        fields = GameSerializer.Meta.fields + ["attributes", "options", "rule_sections"]


class CardRulingSerializer(serializers.ModelSerializer):
    rule = serializers.CharField(source="rule_id", allow_blank=True)

    class Meta:
        model = CardRuling
        fields = ["date", "rule", "text"]


class CardSerializer(serializers.ModelSerializer):
    """A card with the game's attributes flattened in, as API.md fixes: `unknown` lists the
    attributes nobody has transcribed yet; `field_provenance` says how each value is known."""

    game = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    rulings = CardRulingSerializer(many=True, read_only=True)
    url = serializers.CharField(source="get_absolute_url", read_only=True)
    unknown = serializers.SerializerMethodField()

    class Meta:
        model = Card
        fields = [
            "slug",
            "name",
            "game",
            "copies",
            "text",
            "provenance",
            "provenance_note",
            "field_provenance",
            "unknown",
            "rulings",
            "url",
        ]

    @extend_schema_field({"type": "array", "items": {"type": "string"}})
    def get_unknown(self, card: Card) -> list[str]:
        return [key for key, value in (card.field_provenance or {}).items() if value == "unknown"]

    def to_representation(self, card: Card) -> dict[str, Any]:
        # Written out rather than left to the declared fields, which stay for the schema: a page
        # of 50 cards through DRF's per-field machinery cost more than its two queries (bench/).
        # tests/test_catalog_api.py holds this to the declared fields, in their order.
        attributes = card.attributes or {}
        data = {"slug": card.slug, "name": card.name, "game": card.game.slug, "copies": card.copies}
        # The game's attributes sit beside the common fields, after `copies`.
        for key in self.context["attribute_keys"]:
            data[key] = attributes.get(key)
        data.update(
            text=card.text,
            provenance=card.provenance,
            provenance_note=card.provenance_note,
            field_provenance=card.field_provenance,
            unknown=self.get_unknown(card),
            rulings=[
                {"date": ruling.date.isoformat(), "rule": ruling.rule_id, "text": ruling.text}
                for ruling in card.dated_rulings()
            ],
            url=self._card_url(card),
        )
        return data

    def _card_url(self, card: Card) -> str:
        # Card.get_absolute_url, with one reverse() per game rather than per card (reverse cost
        # more than the rest of a card): a slug needs no quoting, so it is spliced into the path.
        stems = self.__dict__.setdefault("_url_stems", {})
        if card.game_id not in stems:
            marker = "card-slug"
            stems[card.game_id] = reverse(
                "pages:card", kwargs={"game": card.game.slug, "slug": marker}
            ).rpartition(marker)
        before, _marker, after = stems[card.game_id]
        return f"{before}{card.slug}{after}"


class PaginatedCardListSerializer(serializers.Serializer):
    """The card list as API.md fixes it: count, next, previous, results."""

    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = CardSerializer(many=True)


class NamesSerializer(serializers.Serializer):
    results = serializers.ListField(child=serializers.CharField())


class ErrorEntrySerializer(serializers.Serializer):
    path = serializers.CharField()
    code = serializers.CharField()
    detail = serializers.CharField()
    suggestions = serializers.ListField(child=serializers.CharField(), required=False)


class ErrorSerializer(serializers.Serializer):
    status = serializers.IntegerField()
    code = serializers.CharField()
    detail = serializers.CharField()
    errors = ErrorEntrySerializer(many=True)
