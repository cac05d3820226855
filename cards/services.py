"""Writes to the catalog. Views, the admin, imports and commands call these; nothing else writes."""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from . import catalog_versions as versions
from .models import AttributeDefinition, Card, CardRuling, Game, GameOption, RuleSection

SHIPPED_UPDATE = "Shipped catalog update"  # the change reason in the rows' history


@dataclass
class LoadReport:
    games: list[str] = field(default_factory=list)
    added: dict[str, int] = field(default_factory=dict)
    updated: dict[str, int] = field(default_factory=dict)
    # Rows an admin edited whose shipped version changed since: kept as edited, one line each.
    kept: list[str] = field(default_factory=list)

    def count(self, what: str, n: int = 1) -> None:
        self.added[what] = self.added.get(what, 0) + n

    def count_update(self, what: str) -> None:
        self.updated[what] = self.updated.get(what, 0) + 1

    def summary(self) -> str:
        lines = []
        if not self.added and not self.updated:
            lines.append(f"Catalog up to date ({len(self.games)} games); nothing added.")
        else:
            done = []
            if self.added:
                done.append(
                    "added " + ", ".join(f"{n} {what}" for what, n in sorted(self.added.items()))
                )
            if self.updated:
                done.append(
                    "updated "
                    + ", ".join(f"{n} {what}" for what, n in sorted(self.updated.items()))
                    + " to the shipped version"
                )
            lines.append(f"Catalog loaded ({len(self.games)} games): {'; '.join(done)}.")
        if self.kept:
            lines.append(
                f"Kept {len(self.kept)} edited here (the shipped version changed since; "
                "compare them in the admin):"
            )
            lines.extend(f"  {line}" for line in self.kept)
        return "\n".join(lines)


@transaction.atomic
def catalog_load_game(*, data: dict[str, Any], report: LoadReport) -> Game:
    """Add whatever of one game's catalog is missing, and bring a rule section or card still as
    shipped to the shipped version (cards.catalog_versions); a row an admin edited is kept, and
    reported when the shipped version changed."""
    game_data = data["game"]
    game, created = Game.objects.get_or_create(
        slug=game_data["slug"],
        defaults={
            "name": game_data["name"],
            "summary": game_data.get("summary", ""),
            "min_players": game_data["min_players"],
            "max_players": game_data.get("max_players"),
            "jobs": game_data.get("jobs", []),
            "position": game_data.get("position", 0),
        },
    )
    report.games.append(game.slug)
    if created:
        report.count("games")

    existing_keys = set(game.attribute_definitions.values_list("key", flat=True))
    new_definitions = [
        AttributeDefinition(
            game=game,
            key=item["key"],
            label=item["label"],
            kind=item["kind"],
            required=item.get("required", False),
            min_value=item.get("min"),
            max_value=item.get("max"),
            choices=item.get("choices") or [],
            filterable=item.get("filter", True),
            position=position,
        )
        for position, item in enumerate(data.get("attributes", []))
        if item["key"] not in existing_keys
    ]
    AttributeDefinition.objects.bulk_create(new_definitions)
    report.count("attribute definitions", len(new_definitions)) if new_definitions else None

    existing_options = set(game.options.values_list("key", flat=True))
    for item in data.get("options", []):
        if item["key"] not in existing_options:
            GameOption.objects.create(
                game=game,
                key=item["key"],
                label=item["label"],
                description=item.get("description", ""),
                value=item["value"],
                choices=item.get("choices"),
            )
            report.count("options")

    earlier = versions.earlier_versions().get(game.slug, {})
    existing_rules = {section.rule_id: section for section in game.rule_sections.all()}
    for position, item in enumerate(data.get("rule_sections", [])):
        shipped = versions.fingerprint(versions.rule_section_values(item))
        if item["id"] in existing_rules:
            _update_rule_section(
                existing_rules[item["id"]],
                item,
                shipped,
                earlier.get("rule_sections", {}).get(item["id"], []),
                report,
            )
            continue
        RuleSection.objects.create(
            game=game,
            rule_id=item["id"],
            title=item["title"],
            parent_id_text=item.get("parent") or "",
            text=item["text"],
            position=position,
            shipped=shipped,
        )
        report.count("rule sections")

    existing_cards = {card.slug: card for card in game.cards.all()}
    new_cards: list[tuple[Card, dict[str, Any]]] = []
    for item in data.get("cards", []):
        if item["slug"] in existing_cards:
            continue
        provenance = {k: v for k, v in item.get("field_provenance", {}).items() if k != "rule"}
        card = Card(
            game=game,
            name=item["name"],
            slug=item["slug"],
            copies=item["copies"],
            attributes=item.get("attributes", {}),
            field_provenance=provenance,
            provenance_note=item.get("provenance_note", ""),
            shipped=versions.fingerprint(versions.card_values(item)),
        )
        card.full_clean()
        card.save()
        for ruling in item.get("rulings", []):
            CardRuling.objects.create(
                card=card,
                date=datetime.date.fromisoformat(ruling["date"]),
                rule_id=ruling.get("rule", ""),
                text=ruling["text"],
            )
        report.count("cards")
        new_cards.append((card, item))
    # Rules name other cards of the game, so they are added once every card exists.
    for card, item in new_cards:
        _add_missing_rule(card, item, report=None)
    for item in data.get("cards", []):
        if item["slug"] in existing_cards:
            _update_card(
                existing_cards[item["slug"]],
                item,
                earlier.get("cards", {}).get(item["slug"], []),
                report,
            )
    return game


def _update_rule_section(
    section: RuleSection, item: dict[str, Any], shipped: str, earlier: list[str], report: LoadReport
) -> None:
    row = versions.fingerprint(
        {"title": section.title, "parent": section.parent_id_text, "text": section.text}
    )
    verdict = versions.judge(row=row, stored=section.shipped, shipped=shipped, earlier=earlier)
    if verdict == versions.UPDATE:
        section.title, section.parent_id_text = item["title"], item.get("parent") or ""
        section.text = item["text"]
        report.count_update("rule sections")
    elif verdict == versions.EDITED and section.shipped != shipped:
        report.kept.append(f"{section.game.name}: rule {section.rule_id} ({section.title})")
    if section.shipped != shipped:
        section.shipped = shipped  # edited rows too: reported once, then compared to this one
        section._change_reason = SHIPPED_UPDATE  # type: ignore[attr-defined]  # for the history
        section.save()


def _update_card(card: Card, item: dict[str, Any], earlier: list[str], report: LoadReport) -> None:
    shipped_values = versions.card_values(item)
    shipped = versions.fingerprint(shipped_values)
    row = versions.fingerprint(
        {
            "name": card.name,
            "copies": card.copies,
            "attributes": card.attributes,
            "field_provenance": card.field_provenance,
            "provenance_note": card.provenance_note,
            "rule": card.rule,
        }
    )
    verdict = versions.judge(row=row, stored=card.shipped, shipped=shipped, earlier=earlier)
    if verdict == versions.UPDATE:
        before = {name: getattr(card, name) for name in shipped_values}
        for name, value in shipped_values.items():
            setattr(card, name, value)
        try:
            card.full_clean()
        except ValidationError as error:  # e.g. a rule naming a card this database renamed
            for name, value in before.items():
                setattr(card, name, value)
            report.kept.append(
                f"{card.game.name}: card {card.name} (the shipped version does "
                f"not fit this database: {'; '.join(error.messages)})"
            )
            verdict = versions.EDITED
        else:
            report.count_update("cards")
    elif verdict == versions.EDITED and card.shipped != shipped:
        report.kept.append(f"{card.game.name}: card {card.name}")
    if card.shipped != shipped or verdict == versions.UPDATE:
        card.shipped = shipped
        card._change_reason = SHIPPED_UPDATE  # type: ignore[attr-defined]  # for the history
        card.save()
    if verdict == versions.EDITED:
        _add_missing_rule(card, item, report=report)  # as before: an edited card lacking a rule


def _add_missing_rule(card: Card, item: dict[str, Any], *, report: LoadReport | None) -> None:
    """A card loaded before its game's rules were encoded gets its rule; a rule an admin has set
    (or an edit of any kind to it) is never replaced."""
    if card.rule is not None or item.get("rule") is None:
        return
    card.rule = item["rule"]
    if "rule" in item.get("field_provenance", {}):
        card.field_provenance = {**card.field_provenance, "rule": item["field_provenance"]["rule"]}
    card.full_clean()
    card.save()
    if report is not None:
        report.count("card rules")


def catalog_files() -> list[Path]:
    """The catalog each game in GAMES ships (its package's catalog.json), in slug order: the
    order the home page lists games that set no position of their own."""
    from common.games import games

    return [
        game.catalog_file
        for game in sorted(games(), key=lambda game: game.slug)
        if game.catalog_file.exists()
    ]


def catalog_load(*, directory: Path | None = None) -> LoadReport:
    """Add what is missing of every game's shipped catalog (or of the <slug>.json files in
    `directory`)."""
    report = LoadReport()
    paths = sorted(Path(directory).glob("*.json")) if directory else catalog_files()
    for position, path in enumerate(paths):
        data = json.loads(path.read_text(encoding="utf-8"))
        data["game"].setdefault("position", position)
        catalog_load_game(data=data, report=report)
    return report
