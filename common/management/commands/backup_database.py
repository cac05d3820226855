import datetime
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from common.backup import backup_write


class Command(BaseCommand):
    help = "Write the whole database (cards, history, results, accounts) to a gzipped JSON file."

    def add_arguments(self, parser: CommandParser) -> None:
        stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%d-%H%M%S")
        parser.add_argument(
            "--output", type=Path, default=Path("backups") / f"tableside-{stamp}.json.gz"
        )

    def handle(self, *args: Any, output: Path, **options: Any) -> None:
        path = backup_write(path=output)
        self.stdout.write(f"Backup written to {path}")
