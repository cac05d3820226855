"""make backup / make restore: the whole database round-trips, and a bad backup changes nothing."""

import gzip
import hashlib
import json
import os
from collections import Counter

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


def test_backup_and_restore_round_trip_the_whole_database(
    api, catalog, tmp_path, django_user_model
):
    django_user_model.objects.create_superuser("editor", "editor@example.org", "secret-pass-123")
    reno = Card.objects.get(game__slug="academy-credits", slug="jett-reno")
    reno.copies = 2
    reno.provenance_note = "Counted twice on our deck."
    reno.save()
    api.post(
        "/api/games/star-trek-missions/score/",
        {"hand": ["Lieutenant Worf", "Commander Kurn"]},
        format="json",
    )
    before = snapshot()
    path = backup_write(path=tmp_path / "backup.json.gz")

    Card.objects.filter(game__slug="factions").delete()
    reno.copies = 5
    reno.save()
    backup_restore(path=path)

    assert snapshot() == before
    result_id = before["results"][0][0]
    assert api.get(f"/api/results/{result_id}/").json() == before["results"][0][1]


def with_manifest(path, records: str, **changes):
    """A backup file whose manifest matches `records` (its counts and checksum), as `make backup`
    would write it, with `changes` made to the manifest."""
    counts = Counter(item["model"] for item in json.loads(records))
    manifest = {
        "project": "tableside",
        "format": 1,
        "created": "2026-12-01T00:00:00+00:00",
        "records": sum(counts.values()),
        "counts": dict(counts),
        "sha256": hashlib.sha256(records.encode()).hexdigest(),
        **changes,
    }
    with gzip.open(path, "wt") as file:
        file.write(json.dumps(manifest) + "\n" + records)


BAD_RECORDS = (
    '[{"model": "cards.game", "fields": {"name": "x"}}, '
    '{"model": "cards.card", "fields": {"name": "No game"}}]'
)


def test_a_restore_that_fails_leaves_the_database_unchanged(catalog, tmp_path):
    before = snapshot()
    broken = tmp_path / "broken.json.gz"
    with_manifest(broken, BAD_RECORDS)
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
    data[middle : middle + 64] = bytes(255 - b for b in data[middle : middle + 64])
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
    with_manifest(path, BAD_RECORDS)


def _only_an_empty_list(path, good):
    with gzip.open(path, "wt") as file:
        file.write("[]")


def _records_without_a_manifest(path, good):
    with gzip.open(good, "rt") as file:
        records = file.read().partition("\n")[2]
    with gzip.open(path, "wt") as file:
        file.write(records)


def _a_record_dropped(path, good):
    with gzip.open(good, "rt") as file:
        manifest, _, records = file.read().partition("\n")
    kept = json.loads(records)[:-1]
    with gzip.open(path, "wt") as file:
        file.write(manifest + "\n" + json.dumps(kept))


def _a_record_dropped_and_the_checksum_redone(path, good):
    with gzip.open(good, "rt") as file:
        manifest, _, records = file.read().partition("\n")
    kept = json.dumps(json.loads(records)[:-1])
    stated = json.loads(manifest)
    stated["sha256"] = hashlib.sha256(kept.encode()).hexdigest()
    with gzip.open(path, "wt") as file:
        file.write(json.dumps(stated) + "\n" + kept)


def _another_projects(path, good):
    with gzip.open(good, "rt") as file:
        manifest, _, records = file.read().partition("\n")
    with_manifest(path, records, project="some-other-site")


def _no_cards(path, good):
    with_manifest(path, '[{"model": "cards.game", "fields": {"name": "x"}}]')


@pytest.mark.parametrize(
    "make, says",
    [
        (_truncated, "is truncated"),
        (_corrupt, "corrupt"),
        (_not_gzip, "is not a gzip file"),
        (_not_json, "does not start with a Tableside backup's manifest"),
        (_wrong_json, "not a Tableside backup"),
        (_wrong_records, "could not be loaded"),
        # Issue 22: a partial file is refused before the database is touched.
        (_only_an_empty_list, "has no manifest"),
        (_records_without_a_manifest, "has no manifest"),
        (_a_record_dropped, "do not match the checksum"),
        (_a_record_dropped_and_the_checksum_redone, "differ from its manifest's counts"),
        (_another_projects, "is not a Tableside backup"),
        (_no_cards, "holds no cards.card records"),
    ],
)
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
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'untouched.sqlite3'}",
    }
    done = subprocess.run(
        [sys.executable, "manage.py", "restore_database", str(bad)],
        cwd=Path(__file__).resolve().parent.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        f"CommandError: {bad} is truncated: its compressed data ends early. Nothing was changed."
    ]


def test_the_manifest_counts_every_record_and_checks_them(catalog, tmp_path):
    path = backup_write(path=tmp_path / "backup.json.gz")
    with gzip.open(path, "rt") as file:
        manifest, _, records = file.read().partition("\n")
    stated = json.loads(manifest)
    assert stated["project"] == "tableside"
    assert stated["counts"]["cards.card"] == Card.objects.count()
    assert stated["records"] == len(json.loads(records))
    assert stated["sha256"] == hashlib.sha256(records.encode()).hexdigest()


def test_the_temporary_file_is_private_removed_and_no_planted_symlink_is_followed(
    catalog, tmp_path, monkeypatch
):
    """One restore (the database written and read back whole: the costly part) for both facts
    about its temporary file."""
    from common import backup

    seen = {}
    original = backup.call_command

    def spying(name, *args, **kwargs):
        if name == "loaddata":
            file = args[0]
            seen["file"] = file
            seen["file_mode"] = os.stat(file).st_mode & 0o777
            seen["dir_mode"] = os.stat(os.path.dirname(file)).st_mode & 0o777
            seen["link"] = os.path.islink(file)
        return original(name, *args, **kwargs)

    monkeypatch.setattr(backup, "call_command", spying)
    path = backup_write(path=tmp_path / "backup.json.gz")
    # Where the restore used to write its temporary file: beside the backup, under a name anyone
    # who can write there could guess and plant a link at.
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    (tmp_path / ".restore-backup.json").symlink_to(victim)
    backup_restore(path=path)
    assert victim.read_text() == "precious"
    assert seen["file_mode"] == 0o600 and seen["dir_mode"] == 0o700 and not seen["link"]
    assert not str(seen["file"]).startswith(str(tmp_path))
    assert not os.path.exists(seen["file"]) and not os.path.exists(os.path.dirname(seen["file"]))
