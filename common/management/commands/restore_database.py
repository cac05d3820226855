from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from common.backup import BackupProblem, backup_restore


class Command(BaseCommand):
    help = "Replace the database's contents with a backup, all or nothing."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)

    def handle(self, *args: Any, file: Path, **options: Any) -> None:
        if not file.is_file():
            raise CommandError(f"No backup file {file}. Nothing was changed.")
        try:
            backup_restore(path=file)
        except BackupProblem as problem:
            raise CommandError(f"{problem} Nothing was changed.") from None
        self.stdout.write(f"Restored from {file}")
