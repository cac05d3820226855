"""Data migrations that carry a corrected shipped rule to databases loaded before it, leaving an
admin's own edit alone (load_catalog never overwrites what is in the database)."""

import importlib

import pytest
from django.apps import apps

from cards.models import Card, CardRuling

pytestmark = pytest.mark.django_db

STM_RULINGS_10_AND_11 = importlib.import_module("cards.migrations.0007_stm_rulings_10_and_11")


def as_loaded_before(change: dict) -> Card:
    """The card as a database loaded before STM-R10/R11 holds it."""
    card = Card.objects.get(game__slug="star-trek-missions", slug=change["slug"])
    Card.objects.filter(pk=card.pk).update(rule=change["old_rule"], text=change["old_text"])
    CardRuling.objects.filter(card=card, rule_id__in=["STM-R10", "STM-R11"]).delete()
    return card


def test_an_old_database_gets_rulings_10_and_11_and_back(catalog):
    cards = [as_loaded_before(change) for change in STM_RULINGS_10_AND_11.CHANGES]
    STM_RULINGS_10_AND_11.forwards(apps, None)
    for card, change in zip(cards, STM_RULINGS_10_AND_11.CHANGES, strict=True):
        card.refresh_from_db()
        assert card.rule == change["new_rule"] and card.text == change["new_text"]
        # The text is exactly what the model renders from the new rule.
        card.refresh_derived()
        assert card.text == change["new_text"]
        assert card.rulings.filter(rule_id__in=["STM-R10", "STM-R11"]).count() == 1
    confrontation = Card.objects.get(slug="space-confrontation")
    assert "6 for each other Command and other Combat" in confrontation.text

    STM_RULINGS_10_AND_11.backwards(apps, None)
    for card, change in zip(cards, STM_RULINGS_10_AND_11.CHANGES, strict=True):
        card.refresh_from_db()
        assert (card.rule, card.text) == (change["old_rule"], change["old_text"])
        assert not card.rulings.filter(rule_id__in=["STM-R10", "STM-R11"]).exists()


def test_an_admins_own_rule_is_left_alone(catalog):
    change = STM_RULINGS_10_AND_11.CHANGES[0]
    card = as_loaded_before(change)
    edited = {**change["old_rule"], "bonuses": change["old_rule"]["bonuses"][:1]}
    Card.objects.filter(pk=card.pk).update(rule=edited)
    STM_RULINGS_10_AND_11.forwards(apps, None)
    card.refresh_from_db()
    assert card.rule == edited and card.text == change["old_text"]
