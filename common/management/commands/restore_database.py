from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from common.backup import backup_restore


class Command(BaseCommand):
    help = "Replace the database's contents with a backup, all or nothing."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)

    def handle(self, *args, file: Path, **options):
        if not file.exists():
            raise CommandError(f"No backup file {file}.")
        backup_restore(path=file)
        self.stdout.write(f"Restored from {file}")
