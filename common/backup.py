"""Whole-database backup and restore: cards, their history, rule sections, saved results and
accounts, as one gzipped file (Django's serialisation, natural keys for content types).

The file's first line is a manifest: which project wrote it, how many records of each model it
holds, and the SHA-256 of the records that follow. A restore checks all of it (a file holding
only `[]`, or a backup cut short, names what is missing) before it touches the database.
This is `make backup` for SQLite; on PostgreSQL production backups use pg_dump (docs/DEPLOYING.md,
Deploying).
"""

from __future__ import annotations

import datetime
import gzip
import hashlib
import io
import json
import os
import shutil
import tempfile
import zlib
from collections import Counter
from pathlib import Path
from typing import Any

from django.apps import apps
from django.core.management import call_command
from django.db import transaction

# Rebuilt by migrations on any database; their ids differ from one database to the next, so the
# dump names them by natural key instead of carrying them. Sessions, the throttle's counters and
# the admin lockout's attempts are minutes-long state of the running service, not data to restore.
EXCLUDED = ["contenttypes", "auth.permission", "sessions", "common.throttlecounter", "axes"]
PROJECT = "tableside"
FORMAT = 1
# A backup of this project always holds these (a catalog without games is not one of ours).
REQUIRED_MODELS = ("cards.game", "cards.card")


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
    records = buffer.getvalue()
    counts = Counter(item["model"] for item in json.loads(records))
    manifest = {
        "project": PROJECT,
        "format": FORMAT,
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "records": sum(counts.values()),
        "counts": dict(sorted(counts.items())),
        "sha256": hashlib.sha256(records.encode("utf-8")).hexdigest(),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8") as file:
        file.write(json.dumps(manifest, sort_keys=True) + "\n")
        file.write(records)
    return path


class BackupProblem(Exception):
    """A backup that cannot be restored, said in one line (the database is left as it was)."""


def backup_read(*, path: Path) -> str:
    """The backup's records (JSON text), once the file is known to be a whole backup of this
    project: a whole gzip file, its manifest, records matching the manifest's checksum and
    counts; BackupProblem saying what is wrong with it otherwise."""
    try:
        with gzip.open(path, "rt", encoding="utf-8") as file:
            content = file.read()
    except gzip.BadGzipFile as error:
        raise BackupProblem(
            f"{path} is not a gzip file or is corrupt ({error}); a backup is "
            f"the .json.gz file `make backup` writes."
        ) from None
    except EOFError:
        raise BackupProblem(f"{path} is truncated: its compressed data ends early.") from None
    except zlib.error as error:
        raise BackupProblem(
            f"{path} is corrupt: its compressed data is damaged ({error})."
        ) from None
    except UnicodeDecodeError:
        raise BackupProblem(f"{path} does not hold UTF-8 text, so it is not a backup.") from None
    except OSError as error:
        raise BackupProblem(f"{path} cannot be read: {error.strerror or error}.") from None
    first, _, records = content.partition("\n")
    manifest = _manifest(path, first)
    if hashlib.sha256(records.encode("utf-8")).hexdigest() != manifest["sha256"]:
        raise BackupProblem(
            f"{path} is not whole: its records do not match the checksum of its "
            f"manifest (changed or cut short since `make backup` wrote it)."
        )
    try:
        data = json.loads(records)
    except (json.JSONDecodeError, RecursionError) as error:
        where = (
            f" ({error.msg} at line {error.lineno + 1}, column {error.colno})"
            if isinstance(error, json.JSONDecodeError)
            else ""
        )
        raise BackupProblem(f"{path} does not hold valid JSON{where}.") from None
    if not isinstance(data, list) or not all(
        isinstance(item, dict) and isinstance(item.get("model"), str) and "fields" in item
        for item in data
    ):
        raise BackupProblem(
            f"{path} is JSON but not a Tableside backup (a list of records, each "
            f"with a model and fields)."
        )
    counts = Counter(item["model"] for item in data)
    if dict(counts) != manifest["counts"]:
        differ = sorted(set(counts) | set(manifest["counts"]))
        shown = ", ".join(
            f"{model} {counts.get(model, 0)} of {manifest['counts'].get(model, 0)}"
            for model in differ
            if counts.get(model, 0) != manifest["counts"].get(model, 0)
        )
        raise BackupProblem(
            f"{path} is not whole: its records differ from its manifest's counts ({shown})."
        )
    return records


def _manifest(path: Path, line: str) -> dict[str, Any]:
    """The manifest on the backup's first line, checked to be this project's."""
    try:
        manifest = json.loads(line)
    except (json.JSONDecodeError, RecursionError):
        manifest = None
    if isinstance(manifest, list) or line.lstrip().startswith("["):
        raise BackupProblem(
            f"{path} has no manifest, so it cannot be checked to be a whole "
            f"backup: `make backup` writes one on its first line."
        )
    if not isinstance(manifest, dict):
        raise BackupProblem(
            f"{path} does not start with a Tableside backup's manifest, so it is "
            f"not a backup of this project."
        )
    if manifest.get("project") != PROJECT:
        raise BackupProblem(
            f"{path} is not a Tableside backup (its manifest names the project "
            f"{str(manifest.get('project'))[:60]!r})."
        )
    if manifest.get("format") != FORMAT:
        raise BackupProblem(
            f"{path} is a backup in format {str(manifest.get('format'))[:20]}; "
            f"this version reads format {FORMAT}."
        )
    counts = manifest.get("counts")
    if (
        not isinstance(counts, dict)
        or not isinstance(manifest.get("sha256"), str)
        or not all(
            isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in counts.values()
        )
    ):
        raise BackupProblem(f"{path} has a damaged manifest (no counts or checksum).")
    unknown = sorted(model for model in counts if not _known_model(model))
    if unknown:
        raise BackupProblem(
            f"{path} holds records of models this project does not have: {', '.join(unknown[:5])}."
        )
    missing = [model for model in REQUIRED_MODELS if not counts.get(model)]
    if missing:
        raise BackupProblem(
            f"{path} is not a whole backup: it holds no {', '.join(missing)} records."
        )
    return manifest


def _known_model(label: object) -> bool:
    if not isinstance(label, str) or label.count(".") != 1:
        return False
    try:
        apps.get_model(label)
    except (LookupError, ValueError):
        return False
    return True


def backup_restore(*, path: Path) -> None:
    """Replace the database's contents with the backup's, in one transaction: if anything in the
    file cannot be loaded, the database is left exactly as it was (and BackupProblem says why).

    loaddata reads a file: it is written into a new private directory (mkdtemp: mode 0700, a name
    nobody could plant a link at beforehand), created exclusively (O_EXCL, O_NOFOLLOW, mode 0600),
    and both are removed afterwards."""
    content = backup_read(path=path)
    folder = Path(tempfile.mkdtemp(prefix="tableside-restore-"))
    tmp = folder / "backup.json"
    try:
        descriptor = os.open(
            tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600
        )
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(content)
        with transaction.atomic():
            call_command("flush", interactive=False, verbosity=0)
            call_command("loaddata", str(tmp), verbosity=0)
    except Exception as error:  # noqa: BLE001 - whatever loaddata raises, it is said in one line
        reason = " ".join(str(error).split()) or type(error).__name__
        if len(reason) > 300:
            reason = reason[:299] + "…"
        raise BackupProblem(f"{path} could not be loaded: {reason}") from error
    finally:
        shutil.rmtree(folder, ignore_errors=True)
