"""make backup / make restore: the whole database round-trips, and a bad backup changes nothing."""

import gzip

import pytest
from django.contrib.auth import get_user_model

from cards.models import Card, CardAttributeValue, RuleSection
from common.backup import backup_restore, backup_write
from results.models import SavedResult

pytestmark = pytest.mark.django_db(transaction=True)


def snapshot():
    card = Card.objects.get(game__slug="academy-credits", slug="jett-reno")
    return {
        "cards": Card.objects.count(),
        "index": CardAttributeValue.objects.count(),
        "rules": RuleSection.objects.count(),
        "history": Card.history.count(),
        "results": sorted(SavedResult.objects.values_list("id", "response")),
        "users": sorted(get_user_model().objects.values_list("username", flat=True)),
        "reno": (card.copies, card.provenance_note, card.history.count()),
    }


def test_backup_and_restore_round_trip_the_whole_database(api, catalog, tmp_path, django_user_model):
    django_user_model.objects.create_superuser("editor", "editor@example.org", "secret-pass-123")
    reno = Card.objects.get(game__slug="academy-credits", slug="jett-reno")
    reno.copies = 2
    reno.provenance_note = "Counted twice on our deck."
    reno.save()
    api.post("/api/games/star-trek-missions/score/", {"hand": ["Lieutenant Worf", "Commander Kurn"]},
             format="json")
    before = snapshot()
    path = backup_write(path=tmp_path / "backup.json.gz")

    Card.objects.filter(game__slug="factions").delete()
    reno.copies = 5
    reno.save()
    backup_restore(path=path)

    assert snapshot() == before
    result_id = before["results"][0][0]
    assert api.get(f"/api/results/{result_id}/").json() == before["results"][0][1]


def test_a_restore_that_fails_leaves_the_database_unchanged(catalog, tmp_path):
    before = snapshot()
    broken = tmp_path / "broken.json.gz"
    with gzip.open(broken, "wt") as file:
        file.write('[{"model": "cards.card", "fields": {"name": "No game"}}]')
    with pytest.raises(Exception):  # noqa: B017 - whatever loaddata raises, nothing may change
        backup_restore(path=broken)
    assert snapshot() == before
