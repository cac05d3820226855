"""Which shipped version a catalog row holds (plain Python, no Django), so load_catalog can carry a
corrected rule section or card to a database loaded before the correction, without a hand-written
data migration, and leave alone what an admin edited.

A row's fingerprint is a short hash of the values the shipped catalog gives it (a rule section's
title, parent and text; a card's name, copies, attributes, provenance, note and rule), read the
same way from the catalog file and from the database. Each row keeps the fingerprint of the
version it was loaded or last updated from (`shipped`). On a later load, with the file's version:

- the row equals the file: nothing to do (its `shipped` catches up if needed);
- the row still equals the version it was loaded from: nobody edited it, so it is updated;
- otherwise an admin edited it: it is left alone, and the load reports it when the file brings a
  new version it did not apply.

Rows loaded before fingerprints existed have no `shipped`: such a row is taken as unedited when it
equals one of the versions the project shipped before (EARLIER_FILE, computed once from the
project's history by scripts/catalog-fingerprints).
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

EARLIER_FILE = Path(__file__).resolve().parent / "catalog_versions.json"

CURRENT = "current"  # the row holds the shipped version
UPDATE = "update"  # the row holds an earlier shipped version, unedited: take the new one
EDITED = "edited"  # an admin changed the row: keep it


def fingerprint(values: dict[str, Any]) -> str:
    text = json.dumps(values, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def rule_section_values(item: dict[str, Any]) -> dict[str, Any]:
    """A rule section of a catalog file, as its row holds it."""
    return {"title": item["title"], "parent": item.get("parent") or "", "text": item["text"]}


def card_values(item: dict[str, Any]) -> dict[str, Any]:
    """A card of a catalog file, as load_catalog leaves its row: the rule's provenance only with
    a rule."""
    provenance = dict(item.get("field_provenance", {}))
    if item.get("rule") is None:
        provenance.pop("rule", None)
    return {
        "name": item["name"],
        "copies": item["copies"],
        "attributes": item.get("attributes", {}),
        "field_provenance": provenance,
        "provenance_note": item.get("provenance_note", ""),
        "rule": item.get("rule"),
    }


@cache
def earlier_versions() -> dict[str, dict[str, dict[str, list[str]]]]:
    """{game slug: {"rule_sections" | "cards": {rule id | card slug: [fingerprints]}}}."""
    if not EARLIER_FILE.exists():
        return {}
    data: dict[str, dict[str, dict[str, list[str]]]] = json.loads(
        EARLIER_FILE.read_text(encoding="utf-8")
    )
    return data


def judge(*, row: str, stored: str, shipped: str, earlier: list[str] | tuple[str, ...] = ()) -> str:
    """What to do with a row whose values have fingerprint `row`, loaded from the version
    `stored` (empty: before fingerprints), when the catalog file ships `shipped`."""
    if row == shipped:
        return CURRENT
    if row == stored or (not stored and row in earlier):
        return UPDATE
    return EDITED
