import datetime
from pathlib import Path

from django.core.management.base import BaseCommand

from common.backup import backup_write


class Command(BaseCommand):
    help = "Write the whole database (cards, history, results, accounts) to a gzipped JSON file."

    def add_arguments(self, parser):
        stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%d-%H%M%S")
        parser.add_argument("--output", type=Path, default=Path("backups") / f"tableside-{stamp}.json.gz")

    def handle(self, *args, output: Path, **options):
        path = backup_write(path=output)
        self.stdout.write(f"Backup written to {path}")
