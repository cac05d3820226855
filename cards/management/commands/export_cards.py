from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cards import imports
from cards.models import Game


class Command(BaseCommand):
    help = "Export a game's cards as JSON or CSV (to standard output, or --output FILE)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game", help="The game's slug, as in its address /games/<slug>/.")
        parser.add_argument("--format", choices=imports.FORMATS, default="json", dest="file_format")
        parser.add_argument("--output", type=Path, help="Write to this file instead.")

    def handle(
        self, *args: Any, game: str, file_format: str, output: Path | None, **options: Any
    ) -> None:
        target = Game.objects.filter(slug=game).first()
        if target is None:
            slugs = ", ".join(Game.objects.values_list("slug", flat=True))
            raise CommandError(f"No game {game!r}; the games are: {slugs}.")
        content = imports.export_cards(game=target, file_format=file_format)
        if output is None:
            self.stdout.write(content, ending="")
        else:
            output.write_text(content, encoding="utf-8", newline="")
            self.stderr.write(f"Wrote {target.cards.count()} cards to {output}.")
