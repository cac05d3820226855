"""Import and export of one game's cards, as JSON or CSV. The admin views and the
`import_cards` / `export_cards` commands call these plain functions (keyword-only arguments).

JSON
    ``{"game": {"slug", "name"}, "cards": [card, ...]}``, each card in the shape of the catalog
    files (games/CATALOG.md): ``slug``, ``name``, ``copies``, ``attributes`` (every
    attribute key of the game; null = unknown or not applicable), ``field_provenance``,
    ``provenance_note``, ``rulings`` (``[{"date": "YYYY-MM-DD", "rule": rule id, "text"}]``).
    An import also takes a bare list of cards or a whole catalog file (only its cards are read;
    its ``game.slug`` must be the game imported into). Derived keys of the API shape (``game``,
    ``text``, ``provenance``, ``url``) are ignored; any other unknown key is an error.

CSV (UTF-8, a header row, one row per card)
    ``slug, name, copies, <one column per attribute key, in the game's order>, provenance_note,
    field_provenance``

    * integer, choice and text cells hold the value (choice: its slug); an empty cell is null.
    * multi_choice cells join the values with ``|`` (``klingon|human``); abilities cells list
      ``effect:amount`` joined with ``|`` (``coin:2|draw:1``). An empty cell is the empty list
      (or no effects) when the field's provenance is verified or provisional, and null
      (unknown / not applicable) otherwise.
    * ``field_provenance`` lists ``field:provenance`` joined with ``|``
      (``copies:verified|value:verified|effect:provisional``), as the export writes it. A field
      that is not listed is not given (see Provenance below); an empty cell gives none at all.
    * Only ``slug`` and ``name`` columns are required. A column that is left out leaves that field
      of existing cards alone (``copies`` is then required only by new cards). Rulings are not in
      the CSV: they travel in JSON (or are edited in the admin).

Both formats
    * Cards are matched by slug within the game. Cards absent from the file are left alone: an
      import never deletes a card, nor a ruling (rulings in the file that a card lacks, by date,
      rule and text, are added).
    * Provenance: a field whose value the file changes becomes ``verified`` (``unknown`` when the
      value is cleared), unless the file gives that field a provenance different from its current
      one, which then wins. A field the file's provenance does not list keeps its provenance
      (or gets the automatic one when its value changes); in JSON, ``null`` removes a field's
      entry (a null value that does not apply). New cards take the file's provenance, else
      ``verified`` for every value given. So filling a cell whose provenance says
      ``cost:unknown`` (or deleting that entry) transcribes the physical card: verified.
    * Errors are ``{"row": n, "field": ..., "message": ...}``: ``row`` counts cards from 1 (the
      first data row under the CSV header, or ``cards[0]`` of the JSON); row 0 is the file itself
      (header, JSON syntax). ``field`` is the column: ``slug``, ``name``, ``copies``, an attribute
      key, ``provenance_note``, ``field_provenance``, ``rulings``.
    * A preview lists every card of the file as ``added``, ``changed`` (with each field's
      old -> new) or ``unchanged``. Applying re-validates and writes everything in one
      transaction, or nothing at all.
"""

from __future__ import annotations

import csv
import datetime
import io
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet

from common.numbers import plain_int

from . import attributes as attrs
from .models import Card, CardRuling, Game

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser
    from django.contrib.auth.models import AnonymousUser

    _User = AbstractBaseUser | AnonymousUser  # who made the change (request.user)

FORMATS = ("json", "csv")
LEADING_COLUMNS = ("slug", "name", "copies")
TRAILING_COLUMNS = ("provenance_note", "field_provenance")
CARD_KEYS = (
    "slug",
    "name",
    "copies",
    "attributes",
    "field_provenance",
    "provenance_note",
    "rulings",
)
IGNORED_KEYS = ("game", "text", "provenance", "url")
KNOWN_PROVENANCE = ("verified", "provisional")


class _Empty:
    """A CSV cell left empty for a list-like attribute: [] / {} or null, by its provenance."""

    def __repr__(self) -> str:
        return "<empty cell>"


EMPTY_CELL = _Empty()


# --------------------------------------------------------------------------- shared rules


def merged_provenance(*, old_value: Any, new_value: Any, old: str, given: str | None) -> str:
    """The provenance of one field after an edit ("" = no entry, i.e. not applicable).

    An explicit change of provenance wins; otherwise a changed value was transcribed
    (verified), and a cleared one is no longer known (unknown)."""
    if given is not None and given != old:
        return given
    if not same_value(old_value, new_value):
        return "unknown" if new_value is None else "verified"
    return old


def same_value(old: Any, new: Any) -> bool:
    """Equal, ignoring the order of a multi-choice list (the order carries no meaning)."""
    if isinstance(old, list) and isinstance(new, list):
        return sorted(map(repr, old)) == sorted(map(repr, new))
    if isinstance(old, bool) or isinstance(new, bool):
        return old is new
    return type(old) is type(new) and old == new


def display_value(value: Any) -> str:
    """A short human reading of a stored value, for previews and history."""
    if value is None:
        return "(empty)"
    if isinstance(value, list):
        return " | ".join(map(str, value)) if value else "(none)"
    if isinstance(value, dict):
        return encode_abilities(value) if value else "(none)"
    if value == "":
        return '""'
    return str(value)


def encode_abilities(value: dict[str, Any]) -> str:
    order = {effect: n for n, effect in enumerate(attrs.ABILITY_EFFECTS)}
    items = sorted(value.items(), key=lambda item: order.get(item[0], len(order)))
    return "|".join(f"{effect}:{amount}" for effect, amount in items)


# --------------------------------------------------------------------------- results


@dataclass
class FieldChange:
    field: str
    old: str
    new: str

    def __str__(self) -> str:
        return f"{self.field}: {self.old} -> {self.new}"


@dataclass
class CardChange:
    row: int
    slug: str
    name: str
    status: str  # added | changed | unchanged
    changes: list[FieldChange] = field(default_factory=list)


@dataclass
class ImportPreview:
    game: Game
    file_format: str
    cards: list[CardChange] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def counts(self) -> dict[str, int]:
        counts = {"added": 0, "changed": 0, "unchanged": 0}
        for card in self.cards:
            counts[card.status] += 1
        return counts

    @property
    def has_changes(self) -> bool:
        counts = self.counts
        return bool(counts["added"] or counts["changed"])

    def summary(self) -> str:
        if self.errors:
            return f"{len(self.errors)} error(s): nothing can be imported until they are fixed."
        counts = self.counts
        return (
            f"{self.game.name}: {counts['added']} added, {counts['changed']} changed, "
            f"{counts['unchanged']} unchanged."
        )


class ImportInvalid(Exception):
    """Raised by apply_import when the file does not validate; nothing was written."""

    def __init__(self, preview: ImportPreview):
        super().__init__(preview.summary())
        self.preview = preview


# --------------------------------------------------------------------------- export


def _export_cards(game: Game, cards: QuerySet[Card] | None) -> list[Card]:
    queryset = cards if cards is not None else game.cards.all()
    return list(queryset.filter(game=game).order_by("name").prefetch_related("rulings"))


def card_as_dict(card: Card, specs: list[attrs.AttributeSpec]) -> dict[str, Any]:
    stored = card.attributes or {}
    attributes = {spec.key: stored.get(spec.key) for spec in specs}
    attributes.update({key: value for key, value in stored.items() if key not in attributes})
    return {
        "slug": card.slug,
        "name": card.name,
        "copies": card.copies,
        "attributes": attributes,
        "field_provenance": dict(card.field_provenance or {}),
        "provenance_note": card.provenance_note,
        "rulings": [
            {"date": ruling.date.isoformat(), "rule": ruling.rule_id, "text": ruling.text}
            for ruling in sorted(card.rulings.all(), key=lambda r: (r.date, r.pk))
        ],
    }


def export_cards_json(*, game: Game, cards: QuerySet[Card] | None = None) -> str:
    """The game's cards (or those of `cards`, a queryset) as a JSON document."""
    specs = game.attribute_specs()
    document = {
        "game": {"slug": game.slug, "name": game.name},
        "cards": [card_as_dict(card, specs) for card in _export_cards(game, cards)],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def csv_columns(specs: list[attrs.AttributeSpec]) -> list[str]:
    return [*LEADING_COLUMNS, *(spec.key for spec in specs), *TRAILING_COLUMNS]


def encode_cell(spec: attrs.AttributeSpec, value: Any) -> str:
    if value is None:
        return ""
    if spec.kind == "multi_choice" and isinstance(value, list):
        return "|".join(map(str, value))
    if spec.kind == "abilities" and isinstance(value, dict):
        return encode_abilities(value)
    return str(value)


def encode_provenance(field_provenance: dict[str, Any], specs: list[attrs.AttributeSpec]) -> str:
    order = ["copies", *(spec.key for spec in specs)]
    keys = [key for key in order if key in field_provenance]
    keys += [key for key in field_provenance if key not in order]
    return "|".join(f"{key}:{field_provenance[key]}" for key in keys)


# A spreadsheet reads a cell starting with one of these as a formula (CSV injection: a card named
# "=HYPERLINK(...)" would become a live link). OWASP's advice: prefix such a cell with a single
# quote, which spreadsheets show as a text mark. A cell starting with the quote itself gets one
# more, so the import can drop exactly one and every text comes back as it was.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "'")


def neutralise_cell(value: Any) -> Any:
    """A text cell as written to CSV: quoted when a spreadsheet would run it as a formula."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def restore_cell(cell: str) -> str:
    """A CSV cell as read back: the quote neutralise_cell added dropped."""
    if cell.startswith("'") and cell[1:].startswith(FORMULA_STARTS):
        return cell[1:]
    return cell


def export_cards_csv(*, game: Game, cards: QuerySet[Card] | None = None) -> str:
    """The game's cards (or those of `cards`, a queryset) as CSV, one row per card; text that a
    spreadsheet would take for a formula is neutralised (neutralise_cell)."""
    specs = game.attribute_specs()
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(csv_columns(specs))
    for card in _export_cards(game, cards):
        stored = card.attributes or {}
        writer.writerow(
            neutralise_cell(cell)
            for cell in [
                card.slug,
                card.name,
                card.copies,
                *(encode_cell(spec, stored.get(spec.key)) for spec in specs),
                card.provenance_note,
                encode_provenance(card.field_provenance or {}, specs),
            ]
        )
    return out.getvalue()


def export_cards(*, game: Game, file_format: str, cards: QuerySet[Card] | None = None) -> str:
    if file_format == "json":
        return export_cards_json(game=game, cards=cards)
    if file_format == "csv":
        return export_cards_csv(game=game, cards=cards)
    raise ValueError(f"Unknown format {file_format!r}; use json or csv.")


# --------------------------------------------------------------------------- parsing


@dataclass
class ParsedCard:
    """One card of the file, as given (None = the file does not give that field)."""

    row: int
    slug: str
    name: str
    copies: int | None = None
    attributes: dict[str, Any] = field(default_factory=dict)
    field_provenance: dict[str, str] | None = None
    provenance_note: str | None = None
    rulings: list[dict[str, Any]] | None = None


def detect_format(*, filename: str = "", content: str = "") -> str:
    name = (filename or "").lower()
    if name.endswith(".json"):
        return "json"
    if name.endswith(".csv"):
        return "csv"
    return "json" if content.lstrip("\ufeff \t\r\n")[:1] in ("{", "[") else "csv"


def decode_upload(data: bytes) -> str:
    """Text of an uploaded file; raises ValueError when it is not UTF-8."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(
            f"The file is not UTF-8 text (byte {exc.start} cannot be read); save it as UTF-8."
        ) from exc


class _Errors:
    def __init__(self) -> None:
        self.items: list[dict[str, Any]] = []
        self.rows: set[int] = set()

    def add(self, row: int, field_name: str, message: str) -> None:
        self.items.append({"row": row, "field": field_name, "message": message})
        self.rows.add(row)


def _parse_provenance_cell(cell: str, row: int, errors: _Errors) -> dict[str, str] | None:
    text = cell.strip()
    if not text:
        return None
    mapping: dict[str, str] = {}
    for part in text.split("|"):
        key, sep, value = part.partition(":")
        key, value = key.strip(), value.strip()
        if not sep or not key or not value:
            errors.add(
                row,
                "field_provenance",
                f"Write field_provenance as field:provenance joined by |, e.g. "
                f"copies:verified|cost:unknown; got {part.strip()!r}.",
            )
            return None
        if key in mapping:
            errors.add(row, "field_provenance", f"field_provenance lists {key!r} twice.")
            return None
        mapping[key] = value
    return mapping


def _parse_abilities_cell(
    spec: attrs.AttributeSpec, cell: str, row: int, errors: _Errors
) -> dict[str, int] | None:
    value: dict[str, int] = {}
    for part in cell.split("|"):
        effect, sep, amount = part.partition(":")
        effect, amount = effect.strip(), amount.strip()
        try:
            number = int(amount) if sep else None
        except ValueError:
            number = None
        if not effect or number is None:
            errors.add(
                row,
                spec.key,
                f"{spec.label}: write each effect as effect:amount joined by |, "
                f"e.g. coin:2|draw:1; got {part.strip()!r}.",
            )
            return None
        if effect in value:
            errors.add(row, spec.key, f"{spec.label} lists {effect} twice.")
            return None
        value[effect] = number
    return value


def _parse_cell(spec: attrs.AttributeSpec, cell: str, row: int, errors: _Errors) -> Any:
    stripped = cell.strip()
    if spec.kind == "text":
        return cell if stripped else None
    if spec.kind in ("multi_choice", "abilities") and not stripped:
        return EMPTY_CELL
    if not stripped:
        return None
    if spec.kind == "integer":
        try:
            return int(stripped)
        except ValueError:
            errors.add(row, spec.key, f"{spec.label} must be a whole number; got {stripped!r}.")
            return None
    if spec.kind == "multi_choice":
        return [item.strip() for item in stripped.split("|") if item.strip()]
    if spec.kind == "abilities":
        return _parse_abilities_cell(spec, stripped, row, errors)
    return stripped


def _parse_copies(raw: Any, row: int, errors: _Errors) -> int | None:
    if isinstance(raw, str):
        number = plain_int(raw.strip())
        raw = number if number is not None else raw.strip()
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < 1:
        errors.add(row, "copies", f"Copies must be a whole number of at least 1; got {raw!r}.")
        return None
    copies: int = raw
    return copies


def _parse_csv(
    *, content: str, specs: list[attrs.AttributeSpec], errors: _Errors
) -> list[ParsedCard]:
    reader = csv.reader(io.StringIO(content.lstrip("\ufeff")))
    header = next(reader, None)
    if not header or not any(cell.strip() for cell in header):
        errors.add(0, "file", "The file is empty: it needs a header row (slug, name, copies, ...).")
        return []
    header = [cell.strip() for cell in header]
    expected = csv_columns(specs)
    for column in header:
        if column not in expected:
            errors.add(
                0,
                column or "(blank column)",
                f"{column!r} is not a column of this game's cards; the columns are "
                f"{', '.join(expected)}.",
            )
    for column in {c for c in header if header.count(c) > 1}:
        errors.add(0, column, f"The column {column!r} appears twice in the header.")
    for column in ("slug", "name"):
        if column not in header:
            errors.add(0, column, f"The header has no {column!r} column; it is required.")
    if errors.items:
        return []
    by_key = {spec.key: spec for spec in specs}
    parsed: list[ParsedCard] = []
    row = 0
    for cells in reader:
        if not any(cell.strip() for cell in cells):
            continue  # blank lines are not cards
        row += 1
        if len(cells) > len(header):
            errors.add(
                row, "file", f"The row has {len(cells)} cells but the header {len(header)} columns."
            )
            continue
        cells = [restore_cell(cell) for cell in cells]
        values = dict(zip(header, cells + [""] * (len(header) - len(cells)), strict=True))
        card = ParsedCard(row=row, slug=values["slug"].strip(), name=values["name"])
        if "copies" in values:
            card.copies = _parse_copies(values["copies"], row, errors)
        for key, cell in values.items():
            if key in by_key:
                card.attributes[key] = _parse_cell(by_key[key], cell, row, errors)
        if "provenance_note" in values:
            card.provenance_note = values["provenance_note"]
        if "field_provenance" in values:
            card.field_provenance = _parse_provenance_cell(values["field_provenance"], row, errors)
        parsed.append(card)
    return parsed


def _parse_rulings(raw: Any, row: int, errors: _Errors) -> list[dict[str, Any]] | None:
    if not isinstance(raw, list):
        errors.add(row, "rulings", "Rulings must be a list of {date, rule, text} objects.")
        return None
    rulings = []
    for n, item in enumerate(raw, start=1):
        if not isinstance(item, dict):
            errors.add(row, "rulings", f"Ruling {n} must be an object with date, rule and text.")
            continue
        unknown = sorted(set(item) - {"date", "rule", "text"})
        if unknown:
            errors.add(row, "rulings", f"Ruling {n} has unknown keys: {', '.join(unknown)}.")
        try:
            date = datetime.date.fromisoformat(str(item.get("date", "")))
        except ValueError:
            errors.add(
                row,
                "rulings",
                f"Ruling {n}: the date must be YYYY-MM-DD; got {item.get('date')!r}.",
            )
            continue
        text, rule = item.get("text"), item.get("rule") or ""
        if not isinstance(text, str) or not text.strip():
            errors.add(row, "rulings", f"Ruling {n} has no text.")
            continue
        if not isinstance(rule, str) or len(rule) > 20:
            errors.add(row, "rulings", f"Ruling {n}: the rule must be a rule id such as AC-4.1.")
            continue
        rulings.append({"date": date, "rule": rule, "text": text})
    return rulings


def _parse_json(*, content: str, game: Game, errors: _Errors) -> list[ParsedCard]:
    try:
        data = json.loads(content.lstrip("\ufeff"))
    except json.JSONDecodeError as exc:
        errors.add(0, "file", f"Not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno}).")
        return []
    except RecursionError:
        errors.add(
            0,
            "file",
            "The JSON is nested too deeply to be a card file (a card file is "
            "a list of cards, each a few levels deep).",
        )
        return []
    if isinstance(data, dict):
        file_game = data.get("game")
        slug = file_game.get("slug") if isinstance(file_game, dict) else None
        if slug is not None and slug != game.slug:
            errors.add(0, "game", f"The file is for the game {slug!r}, not {game.slug!r}.")
            return []
        items = data.get("cards")
        if not isinstance(items, list):
            errors.add(0, "cards", 'The file needs a "cards" list (or be a list of cards itself).')
            return []
    elif isinstance(data, list):
        items = data
    else:
        errors.add(0, "file", 'The file must hold {"cards": [...]} or a list of cards.')
        return []
    parsed: list[ParsedCard] = []
    for row, item in enumerate(items, start=1):
        if not isinstance(item, dict):
            errors.add(row, "card", "Each card must be an object with slug, name, copies, ...")
            continue
        for key in item:
            if key not in CARD_KEYS and key not in IGNORED_KEYS:
                errors.add(
                    row, key, f"{key!r} is not a card field; the fields are {', '.join(CARD_KEYS)}."
                )
        slug, name = item.get("slug"), item.get("name")
        card = ParsedCard(
            row=row,
            slug=slug.strip() if isinstance(slug, str) else "",
            name=name if isinstance(name, str) else "",
        )
        if slug is not None and not isinstance(slug, str):
            errors.add(row, "slug", f"The slug must be text; got {slug!r}.")
        if name is not None and not isinstance(name, str):
            errors.add(row, "name", f"The name must be text; got {name!r}.")
        if "copies" in item:
            card.copies = _parse_copies(item["copies"], row, errors)
        if "attributes" in item:
            if isinstance(item["attributes"], dict):
                card.attributes = dict(item["attributes"])
            else:
                errors.add(row, "attributes", "Attributes must be an object of key to value.")
        if "field_provenance" in item:
            if isinstance(item["field_provenance"], dict):
                card.field_provenance = dict(item["field_provenance"])
            else:
                errors.add(row, "field_provenance", "field_provenance must be an object.")
        if "provenance_note" in item:
            note = item["provenance_note"]
            if isinstance(note, str) or note is None:
                card.provenance_note = note or ""
            else:
                errors.add(row, "provenance_note", "The provenance note must be text.")
        if "rulings" in item:
            card.rulings = _parse_rulings(item["rulings"], row, errors)
        parsed.append(card)
    return parsed


# --------------------------------------------------------------------------- planning


@dataclass
class _Plan:
    parsed: ParsedCard
    card: Card | None
    status: str
    values: dict[str, Any]
    new_rulings: list[dict[str, Any]]


def _resolve_empty(
    spec: attrs.AttributeSpec, old_value: Any, given_prov: str | None, old_prov: str
) -> Any:
    provenance = given_prov if given_prov is not None else old_prov
    if provenance in KNOWN_PROVENANCE:
        return [] if spec.kind == "multi_choice" else {}
    return None


def _ruling_key(date: datetime.date, rule: str, text: str) -> tuple[datetime.date, str, str]:
    return (date, rule or "", text.strip())


def _field_errors(card: Card) -> dict[str, list[str]]:
    try:
        card.clean_fields(exclude=["game", "attributes", "field_provenance", "provenance", "text"])
    except ValidationError as exc:
        return exc.message_dict
    return {}


def _plan_card(
    *,
    game: Game,
    specs: list[attrs.AttributeSpec],
    parsed: ParsedCard,
    card: Card | None,
    errors: _Errors,
) -> _Plan:
    row = parsed.row
    old_attributes = dict(card.attributes or {}) if card else {}
    old_provenance = dict(card.field_provenance or {}) if card else {}
    given = parsed.field_provenance

    def given_for(key: str) -> str | None:
        if given is None or key not in given:
            return None  # not given: the automatic rule applies
        return given[key] or ""  # null / "" removes the entry

    attributes = dict(old_attributes)
    known = {spec.key for spec in specs}
    for spec in specs:
        old_value = old_attributes.get(spec.key)
        if spec.key in parsed.attributes:
            value = parsed.attributes[spec.key]
            if value is EMPTY_CELL:
                value = _resolve_empty(
                    spec, old_value, given_for(spec.key), old_provenance.get(spec.key, "")
                )
            attributes[spec.key] = old_value if same_value(old_value, value) else value
        elif card is None:
            attributes[spec.key] = None
    for key, value in parsed.attributes.items():
        if key not in known:
            attributes[key] = value  # reported by validate_attributes as not an attribute

    copies = parsed.copies if parsed.copies is not None else (card.copies if card else None)
    if (
        card is None
        and parsed.copies is None
        and not any(e["row"] == row and e["field"] == "copies" for e in errors.items)
    ):
        errors.add(row, "copies", "Copies are required for a new card.")

    provenance: dict[str, str] = {}
    fields = ["copies", *(spec.key for spec in specs)]
    old_values = {"copies": card.copies if card else None, **old_attributes}
    new_values = {"copies": copies, **attributes}
    for key in fields:
        result = merged_provenance(
            old_value=old_values.get(key),
            new_value=new_values.get(key),
            old=old_provenance.get(key, ""),
            given=given_for(key),
        )
        if key == "copies" and copies is None:
            result = old_provenance.get(key, "")
        if result:
            provenance[key] = result
        elif new_values.get(key) is not None and (
            given_for(key) is not None or not same_value(old_values.get(key), new_values.get(key))
        ):
            errors.add(
                row, key, f"{key} has a value, so it needs a provenance: verified or provisional."
            )
    extra = {k: v for k, v in old_provenance.items() if k not in fields}
    extra.update({k: v for k, v in (given or {}).items() if k not in fields})
    provenance.update(extra)  # reported by validate_field_provenance

    note = parsed.provenance_note
    if note is None:
        note = card.provenance_note if card else ""

    values = {
        "name": parsed.name,
        "copies": copies,
        "attributes": attributes,
        "field_provenance": provenance,
        "provenance_note": note,
    }

    # Validation: the same rules as the model and the admin, reported per field.
    if not parsed.slug:
        errors.add(row, "slug", "The slug is missing.")
    if not parsed.name.strip():
        errors.add(row, "name", "The name is missing.")
    probe = Card(
        game=game,
        slug=parsed.slug or "x",
        name=parsed.name or "x",
        copies=copies or 1,
        provenance_note=note,
    )
    for field_name, messages in _field_errors(probe).items():
        for message in messages:
            errors.add(row, field_name, message)
    for key, message in attrs.validate_attributes(specs, attributes).items():
        errors.add(row, key, message)
    for key, message in attrs.validate_field_provenance(specs, attributes, provenance).items():
        errors.add(row, "copies" if key == "copies" else key, message)

    rule_ids = None
    new_rulings: list[dict[str, Any]] = []
    if parsed.rulings:
        existing = {
            _ruling_key(r.date, r.rule_id, r.text) for r in (card.rulings.all() if card else [])
        }
        for ruling in parsed.rulings:
            ruling_key = _ruling_key(ruling["date"], ruling["rule"], ruling["text"])
            if ruling_key in existing:
                continue
            existing.add(ruling_key)
            if ruling["rule"]:
                if rule_ids is None:
                    rule_ids = set(game.rule_sections.values_list("rule_id", flat=True))
                if ruling["rule"] not in rule_ids:
                    errors.add(
                        row,
                        "rulings",
                        f"A ruling cites rule {ruling['rule']!r}, which {game.name} has no "
                        f"section for.",
                    )
            new_rulings.append(ruling)

    if card is None:
        status = "added"
    else:
        unchanged = (
            card.name == values["name"]
            and card.copies == values["copies"]
            and card.provenance_note == values["provenance_note"]
            and (card.attributes or {}) == attributes
            and (card.field_provenance or {}) == provenance
            and not new_rulings
        )
        status = "unchanged" if unchanged else "changed"
    return _Plan(parsed=parsed, card=card, status=status, values=values, new_rulings=new_rulings)


def _describe(plan: _Plan, specs: list[attrs.AttributeSpec]) -> list[FieldChange]:
    card, values = plan.card, plan.values
    changes: list[FieldChange] = []
    if card is None:
        changes.append(FieldChange("copies", "(new)", display_value(values["copies"])))
        for spec in specs:
            value = values["attributes"].get(spec.key)
            if value is not None:
                changes.append(FieldChange(spec.key, "(new)", display_value(value)))
    else:
        for name in ("name", "copies", "provenance_note"):
            if getattr(card, name) != values[name]:
                changes.append(
                    FieldChange(
                        name, display_value(getattr(card, name)), display_value(values[name])
                    )
                )
        old_attributes = card.attributes or {}
        for key in dict.fromkeys([*old_attributes, *values["attributes"]]):
            old, new = old_attributes.get(key), values["attributes"].get(key)
            if old != new or (key in old_attributes) != (key in values["attributes"]):
                changes.append(FieldChange(key, display_value(old), display_value(new)))
        old_provenance = card.field_provenance or {}
        for key in dict.fromkeys([*old_provenance, *values["field_provenance"]]):
            old, new = old_provenance.get(key), values["field_provenance"].get(key)
            if old != new:
                changes.append(
                    FieldChange(f"provenance of {key}", old or "(none)", new or "(none)")
                )
    for ruling in plan.new_rulings:
        changes.append(
            FieldChange("rulings", "", f"+ {ruling['date']} {ruling['rule']}: {ruling['text']}")
        )
    return changes


def _check_names(
    *, game: Game, existing: dict[str, Card], plans: list[_Plan], errors: _Errors
) -> None:
    """Names are unique per game once the whole file is applied. A clash is blamed on the rows
    that give a card the name, not on a card that already has it."""
    firsts: dict[str, _Plan] = {}
    for plan in plans:
        firsts.setdefault(plan.parsed.slug, plan)  # a repeated slug is an error of its own
    claims: dict[str, list[tuple[int, str, _Plan | None]]] = {}
    for slug, card in existing.items():
        if slug not in firsts:
            claims.setdefault(card.name, []).append((0, slug, None))
    for plan in firsts.values():
        name = plan.values["name"]
        keeps = plan.card is not None and plan.card.name == name
        claims.setdefault(name, []).append(
            (0 if keeps else plan.parsed.row, plan.parsed.slug, plan)
        )
    for name, owners in claims.items():
        if not name or len(owners) < 2:
            continue
        owners.sort(key=lambda owner: owner[0])
        first_slug = owners[0][1]
        for _rank, slug, claimant in owners[1:]:
            if claimant is not None:
                errors.add(
                    claimant.parsed.row,
                    "name",
                    f"{game.name} would have two cards named {name!r} (slugs {first_slug} and "
                    f"{slug}).",
                )


def _prepare(*, game: Game, content: str, file_format: str) -> tuple[ImportPreview, list[_Plan]]:
    if file_format not in FORMATS:
        raise ValueError(f"Unknown format {file_format!r}; use json or csv.")
    specs = game.attribute_specs()
    errors = _Errors()
    if file_format == "csv":
        parsed = _parse_csv(content=content, specs=specs, errors=errors)
    else:
        parsed = _parse_json(content=content, game=game, errors=errors)

    seen: dict[str, int] = {}
    for item in parsed:
        if item.slug and item.slug in seen:
            errors.add(
                item.row, "slug", f"The slug {item.slug!r} is also on row {seen[item.slug]}."
            )
        elif item.slug:
            seen[item.slug] = item.row

    existing = {card.slug: card for card in game.cards.prefetch_related("rulings")}
    plans = [
        _plan_card(game=game, specs=specs, parsed=item, card=existing.get(item.slug), errors=errors)
        for item in parsed
    ]

    _check_names(game=game, existing=existing, plans=plans, errors=errors)

    preview = ImportPreview(game=game, file_format=file_format)
    preview.errors = sorted(errors.items, key=lambda e: (e["row"], e["field"]))
    preview.cards = [
        CardChange(
            row=plan.parsed.row,
            slug=plan.parsed.slug,
            name=plan.values["name"],
            status=plan.status,
            changes=_describe(plan, specs) if plan.status != "unchanged" else [],
        )
        for plan in plans
    ]
    return preview, plans


def preview_import(*, game: Game, content: str, file_format: str) -> ImportPreview:
    """What importing `content` would do: per card added / changed / unchanged, and errors."""
    preview, _plans = _prepare(game=game, content=content, file_format=file_format)
    return preview


def _apply_card(*, game: Game, plan: _Plan, user: _User | None = None, reason: str = "") -> Card:
    card = plan.card or Card(game=game, slug=plan.parsed.slug)
    for name, value in plan.values.items():
        setattr(card, name, value)
    # The attributes django-simple-history reads for the history row it writes (untyped there).
    if user is not None:
        card._history_user = user  # type: ignore[attr-defined]
    card._change_reason = reason  # type: ignore[attr-defined]
    card.save()
    for item in plan.new_rulings:
        ruling = CardRuling(card=card, date=item["date"], rule_id=item["rule"], text=item["text"])
        if user is not None:
            ruling._history_user = user  # type: ignore[attr-defined]
        ruling._change_reason = reason  # type: ignore[attr-defined]
        ruling.save()
    return card


def apply_import(
    *, game: Game, content: str, file_format: str, user: _User | None = None
) -> ImportPreview:
    """Validate again and write every added or changed card in one transaction: all or nothing.

    Raises ImportInvalid (nothing written) when any row has an error."""
    reason = f"Imported from {file_format.upper()}"
    with transaction.atomic():
        preview, plans = _prepare(game=game, content=content, file_format=file_format)
        if preview.errors:
            raise ImportInvalid(preview)
        for plan in plans:
            if plan.status != "unchanged":
                _apply_card(game=game, plan=plan, user=user, reason=reason)
    return preview
