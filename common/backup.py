"""Whole-database backup and restore: cards, their history, rule sections, saved results and
accounts, as one gzipped JSON file (Django's serialisation, natural keys for content types)."""

from __future__ import annotations

import gzip
import io
from pathlib import Path

from django.core.management import call_command
from django.db import transaction

# Rebuilt by migrations on any database; their ids differ from one database to the next, so the
# dump names them by natural key instead of carrying them. Sessions and the throttle's counters
# are minutes-long state of the running service, not data to restore.
EXCLUDED = ["contenttypes", "auth.permission", "sessions", "common.throttlecounter"]


def backup_write(*, path: Path) -> Path:
    buffer = io.StringIO()
    call_command(
        "dumpdata",
        exclude=EXCLUDED,
        natural_foreign=True,
        natural_primary=True,
        indent=None,
        stdout=buffer,
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8") as file:
        file.write(buffer.getvalue())
    return path


def backup_restore(*, path: Path) -> None:
    """Replace the database's contents with the backup's, in one transaction: if anything in the
    file cannot be loaded, the database is left exactly as it was."""
    with gzip.open(path, "rt", encoding="utf-8") as file:
        content = file.read()
    plain = path.with_suffix("")  # loaddata reads a file whose name ends in .json
    if plain.suffix != ".json":
        plain = plain.with_suffix(".json")
    tmp = plain.with_name(f".restore-{plain.name}")
    tmp.write_text(content, encoding="utf-8")
    try:
        with transaction.atomic():
            call_command("flush", interactive=False, verbosity=0)
            call_command("loaddata", str(tmp), verbosity=0)
    finally:
        tmp.unlink(missing_ok=True)
