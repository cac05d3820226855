"""Writes to the catalog. Views, the admin, imports and commands call these; nothing else writes."""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction

from .models import AttributeDefinition, Card, CardRuling, Game, GameOption, RuleSection


@dataclass
class LoadReport:
    games: list[str] = field(default_factory=list)
    added: dict[str, int] = field(default_factory=dict)

    def count(self, what: str, n: int = 1) -> None:
        self.added[what] = self.added.get(what, 0) + n

    def summary(self) -> str:
        if not self.added:
            return f"Catalog up to date ({len(self.games)} games); nothing added."
        parts = ", ".join(f"{n} {what}" for what, n in sorted(self.added.items()))
        return f"Catalog loaded ({len(self.games)} games): added {parts}."


@transaction.atomic
def catalog_load_game(*, data: dict, report: LoadReport) -> Game:
    """Add whatever of one game's catalog is missing. Existing rows are never changed, so an
    admin's corrections survive every re-run of `make run`."""
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

    existing_rules = set(game.rule_sections.values_list("rule_id", flat=True))
    for position, item in enumerate(data.get("rule_sections", [])):
        if item["id"] not in existing_rules:
            RuleSection.objects.create(
                game=game,
                rule_id=item["id"],
                title=item["title"],
                parent_id_text=item.get("parent") or "",
                text=item["text"],
                position=position,
            )
            report.count("rule sections")

    existing_cards = {card.slug: card for card in game.cards.all()}
    new_cards: list[tuple[Card, dict]] = []
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
            _add_missing_rule(existing_cards[item["slug"]], item, report=report)
    return game


def _add_missing_rule(card: Card, item: dict, *, report: LoadReport | None) -> None:
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
    from games.registry import GAMES

    return [game.catalog_file for game in sorted(GAMES, key=lambda game: game.slug)
            if game.catalog_file.exists()]


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
