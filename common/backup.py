"""Whole-database backup and restore: cards, their history, rule sections, saved results and
accounts, as one gzipped JSON file (Django's serialisation, natural keys for content types)."""

from __future__ import annotations

import gzip
import io
import json
import zlib
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


class BackupProblem(Exception):
    """A backup that cannot be restored, said in one line (the database is left as it was)."""


def backup_read(*, path: Path) -> str:
    """The backup's JSON text, once it is known to be a whole gzip file holding a list of
    Django's serialised objects; BackupProblem saying what is wrong with it otherwise."""
    try:
        with gzip.open(path, "rt", encoding="utf-8") as file:
            content = file.read()
    except gzip.BadGzipFile as error:
        raise BackupProblem(f"{path} is not a gzip file or is corrupt ({error}); a backup is "
                            f"the .json.gz file `make backup` writes.") from None
    except EOFError:
        raise BackupProblem(f"{path} is truncated: its compressed data ends early.") from None
    except zlib.error as error:
        raise BackupProblem(f"{path} is corrupt: its compressed data is damaged ({error}).") from None
    except UnicodeDecodeError:
        raise BackupProblem(f"{path} does not hold UTF-8 text, so it is not a backup.") from None
    except OSError as error:
        raise BackupProblem(f"{path} cannot be read: {error.strerror or error}.") from None
    try:
        data = json.loads(content)
    except json.JSONDecodeError as error:
        raise BackupProblem(f"{path} does not hold valid JSON ({error.msg} at line {error.lineno}, "
                            f"column {error.colno}).") from None
    if not isinstance(data, list) or not all(
        isinstance(item, dict) and isinstance(item.get("model"), str) and "fields" in item
        for item in data
    ):
        raise BackupProblem(f"{path} is JSON but not a Tableside backup (a list of records, each "
                            f"with a model and fields).")
    return content


def backup_restore(*, path: Path) -> None:
    """Replace the database's contents with the backup's, in one transaction: if anything in the
    file cannot be loaded, the database is left exactly as it was (and BackupProblem says why)."""
    content = backup_read(path=path)
    plain = path.with_suffix("")  # loaddata reads a file whose name ends in .json
    if plain.suffix != ".json":
        plain = plain.with_suffix(".json")
    tmp = plain.with_name(f".restore-{plain.name}")
    tmp.write_text(content, encoding="utf-8")
    try:
        with transaction.atomic():
            call_command("flush", interactive=False, verbosity=0)
            call_command("loaddata", str(tmp), verbosity=0)
    except Exception as error:  # noqa: BLE001 - whatever loaddata raises, it is said in one line
        reason = " ".join(str(error).split()) or type(error).__name__
        if len(reason) > 300:
            reason = reason[:299] + "…"
        raise BackupProblem(f"{path} could not be loaded: {reason}") from error
    finally:
        tmp.unlink(missing_ok=True)
