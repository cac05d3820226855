"""The catalog's attribute filters and card representation, held to their reference forms.

PostgreSQL filters with JSON containment (a GIN index serves it); every database can filter with
the attribute index table. Both must give the same cards for the same query, so on a database
that has containment the two are compared over every filterable value of the shipped catalog and
over random combinations of them. The card list renders cards by hand for speed; it is compared
with what the serializer's declared fields produce.
"""

from __future__ import annotations

import random

import pytest
from django.db import connection
from rest_framework import serializers

from cards import selectors
from cards.api.serializers import CardSerializer
from cards.models import AttributeDefinition, Card, CardAttributeValue, CardRuling, Game

from .factories import CardRulingFactory


def _filter_options(game: Game) -> dict[str, list[str]]:
    """Every value each filterable attribute takes in the game, plus its declared choices."""
    options: dict[str, set[str]] = {}
    for spec in game.attribute_specs():
        if spec.filterable and spec.kind != "abilities":
            options[spec.key] = set(spec.choice_values)
    rows = CardAttributeValue.objects.filter(card__game=game, key__in=list(options))
    for key, value in rows.values_list("key", "value").distinct():
        options[key].add(value)
    return {key: sorted(values) for key, values in options.items() if values}


def _ids(game: Game, condition) -> list[int]:
    return sorted(Card.objects.filter(game=game).filter(condition).values_list("pk", flat=True))


def _random_filters(rng: random.Random, options: dict[str, list[str]]) -> dict[str, list[str]]:
    keys = rng.sample(sorted(options), rng.randint(1, min(3, len(options))))
    return {
        key: rng.sample(options[key], rng.randint(1, min(2, len(options[key])))) for key in keys
    }


@pytest.mark.skipif(
    not connection.features.supports_json_field_contains,
    reason="JSON containment is the PostgreSQL path; this database filters with the index table "
    "only, which every other filter test exercises (make test-postgres runs this one).",
)
def test_containment_and_index_table_give_the_same_cards(catalog):
    rng = random.Random(5)
    compared = 0
    for game in Game.objects.all():
        specs = game.attribute_specs()
        options = _filter_options(game)
        single = [{key: [value]} for key, values in options.items() for value in values]
        for filters in single + [_random_filters(rng, options) for _ in range(60)]:
            by_containment = _ids(
                game, selectors.attribute_containment(filters=filters, specs=specs)
            )
            by_index = _ids(game, selectors.attribute_index_match(filters=filters))
            assert by_containment == by_index, (game.slug, filters)
            compared += 1
    assert compared > 300


def test_integer_filters_read_a_number_however_it_is_written(api, catalog):
    def names(query):
        response = api.get(f"/api/games/star-realms-academy/cards/?{query}")
        assert response.status_code == 200, response.json()
        return {card["name"] for card in response.json()["results"]}

    assert names("cost=1") == {"Ram"}
    assert names("cost=01") == names("cost=%2B1") == {"Ram"}


def test_a_filterable_text_attribute_takes_any_text_nul_included(api, catalog):
    # PostgreSQL refuses NUL in a query; a filter value is cleaned like the search text.
    game = Game.objects.get(slug="star-trek-missions")
    AttributeDefinition.objects.filter(game=game, key="number").update(filterable=True)
    card = Card.objects.filter(game=game).order_by("name").first()
    number = card.attributes["number"]
    for query in (f"number={number}", f"number={number}%00"):
        response = api.get(f"/api/games/star-trek-missions/cards/?{query}")
        assert response.status_code == 200, response.json()
        assert [c["name"] for c in response.json()["results"]] == [card.name]


def _declared_fields(card: Card, attribute_keys: list[str]) -> dict:
    serializer = CardSerializer(context={"attribute_keys": attribute_keys})
    data = serializers.ModelSerializer.to_representation(serializer, card)
    ordered = {}
    for key, value in data.items():
        ordered[key] = value
        if key == "copies":
            ordered.update({k: (card.attributes or {}).get(k) for k in attribute_keys})
    return ordered


def test_card_representation_matches_the_declared_fields(catalog):
    card = Card.objects.filter(game__slug="star-realms-academy").order_by("name").first()
    CardRulingFactory(card=card, rule_id="SRA-R1")
    CardRulingFactory(card=card, rule_id="")
    compared = 0
    for game in Game.objects.all():
        keys = [spec.key for spec in game.attribute_specs()]
        for card in (
            Card.objects.filter(game=game).select_related("game").prefetch_related("rulings")
        ):
            assert CardSerializer(card, context={"attribute_keys": keys}).data == _declared_fields(
                card, keys
            ), card.name
            assert list(CardSerializer(card, context={"attribute_keys": keys}).data) == list(
                _declared_fields(card, keys)
            )
            compared += 1
    assert compared == Card.objects.count()
    assert CardRuling.objects.filter(card__game__slug="star-realms-academy").count() >= 2
