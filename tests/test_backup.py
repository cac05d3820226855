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


# --- A bad file: one line saying what is wrong, nothing changed, a failing exit (issue 12) ----------


def _truncated(path, good):
    data = good.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _corrupt(path, good):
    data = bytearray(good.read_bytes())
    middle = len(data) // 2
    data[middle:middle + 64] = bytes(255 - b for b in data[middle:middle + 64])
    path.write_bytes(bytes(data))


def _not_gzip(path, good):
    path.write_text("this is a shopping list, not a backup\n")


def _not_json(path, good):
    with gzip.open(path, "wt") as file:
        file.write("model,fields\ncards.card,{}\n")


def _wrong_json(path, good):
    with gzip.open(path, "wt") as file:
        file.write('{"hand": ["Lieutenant Worf"]}')


def _wrong_records(path, good):
    with gzip.open(path, "wt") as file:
        file.write('[{"model": "cards.card", "fields": {"name": "No game"}}]')


@pytest.mark.parametrize("make, says", [
    (_truncated, "is truncated"),
    (_corrupt, "corrupt"),
    (_not_gzip, "is not a gzip file"),
    (_not_json, "does not hold valid JSON"),
    (_wrong_json, "not a Tableside backup"),
    (_wrong_records, "could not be loaded"),
])
def test_a_bad_backup_is_refused_in_one_line_and_changes_nothing(catalog, tmp_path, make, says):
    from django.core.management import CommandError, call_command

    good = backup_write(path=tmp_path / "good.json.gz")
    bad = tmp_path / "bad.json.gz"
    make(bad, good)
    before = snapshot()
    with pytest.raises(CommandError) as refused:
        call_command("restore_database", str(bad))
    message = str(refused.value)
    assert "\n" not in message and says in message and str(bad) in message
    assert message.endswith("Nothing was changed.")
    assert snapshot() == before


def test_make_restore_with_a_truncated_file_prints_one_line_and_fails(tmp_path):
    import os
    import subprocess
    import sys
    from pathlib import Path

    bad = tmp_path / "tableside-cut.json.gz"
    with gzip.open(tmp_path / "whole.json.gz", "wt") as file:
        file.write('[{"model": "cards.game", "fields": {"name": "x"}}]' * 50)
    bad.write_bytes((tmp_path / "whole.json.gz").read_bytes()[:40])
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test",
           "DATABASE_URL": f"sqlite:///{tmp_path / 'untouched.sqlite3'}"}
    done = subprocess.run([sys.executable, "manage.py", "restore_database", str(bad)],
                          cwd=Path(__file__).resolve().parent.parent, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        f"CommandError: {bad} is truncated: its compressed data ends early. Nothing was changed."]
