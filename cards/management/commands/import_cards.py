from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cards import imports
from cards.models import Game


class Command(BaseCommand):
    help = (
        "Import a game's cards from a JSON or CSV file (the export's format). Shows what would "
        "change; --apply writes it, all or nothing. Cards absent from the file are left alone."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game", help="The game's slug, as in its address /games/<slug>/.")
        parser.add_argument("file", type=Path)
        parser.add_argument("--apply", action="store_true", help="Write the changes.")
        parser.add_argument(
            "--format",
            choices=imports.FORMATS,
            dest="file_format",
            help="json or csv (default: from the file name).",
        )

    def handle(
        self,
        *args: Any,
        game: str,
        file: Path,
        apply: bool,
        file_format: str | None,
        **options: Any,
    ) -> None:
        target = Game.objects.filter(slug=game).first()
        if target is None:
            slugs = ", ".join(Game.objects.values_list("slug", flat=True))
            raise CommandError(f"No game {game!r}; the games are: {slugs}.")
        try:
            content = imports.decode_upload(file.read_bytes())
        except OSError as exc:
            raise CommandError(f"Cannot read {file}: {exc.strerror}.") from exc
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        file_format = file_format or imports.detect_format(filename=file.name, content=content)
        if apply:
            try:
                preview = imports.apply_import(
                    game=target, content=content, file_format=file_format
                )
            except imports.ImportInvalid as exc:
                self._report(exc.preview)
                raise CommandError("The file has errors; nothing was imported.") from exc
        else:
            preview = imports.preview_import(game=target, content=content, file_format=file_format)
        self._report(preview)
        if preview.errors:
            raise CommandError("The file has errors; nothing can be imported.")
        if apply:
            self.stdout.write(self.style.SUCCESS(f"Imported. {preview.summary()}"))
        else:
            self.stdout.write(
                f"Preview only. {preview.summary()} Run again with --apply to write it."
            )

    def _report(self, preview: imports.ImportPreview) -> None:
        for card in preview.cards:
            if card.status == "unchanged":
                continue
            self.stdout.write(f"row {card.row}: {card.status} {card.slug} ({card.name})")
            for change in card.changes:
                self.stdout.write(f"    {change}")
        for error in preview.errors:
            self.stderr.write(f"row {error['row']}, {error['field']}: {error['message']}")
