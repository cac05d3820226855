"""factory_boy factories for catalog rows that tests build themselves (not the shipped catalog)."""

import datetime

import factory

from cards.models import AttributeDefinition, Card, CardRuling, Game


class GameFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Game
        django_get_or_create = ("slug",)

    slug = factory.Sequence(lambda n: f"test-game-{n}")
    name = factory.Sequence(lambda n: f"Test Game {n}")
    summary = "A game made up for a test."
    min_players = 2
    max_players = 4
    jobs = ["catalog"]


class AttributeDefinitionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = AttributeDefinition

    game = factory.SubFactory(GameFactory)
    key = "colour"
    label = "Colour"
    kind = "choice"
    choices = [{"value": "red", "label": "Red"}, {"value": "blue", "label": "Blue"}]
    filterable = True


class CardFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Card

    game = factory.SubFactory(GameFactory)
    name = factory.Sequence(lambda n: f"Card {n:05d}")
    slug = factory.LazyAttribute(lambda card: card.name.lower().replace(" ", "-"))
    copies = 1
    attributes = factory.LazyFunction(dict)
    field_provenance = factory.LazyFunction(lambda: {"copies": "verified"})


class CardRulingFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = CardRuling

    card = factory.SubFactory(CardFactory)
    date = datetime.date(2026, 11, 29)
    rule_id = ""
    text = "A note made up for a test."
