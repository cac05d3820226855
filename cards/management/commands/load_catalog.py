from pathlib import Path

from django.core.management.base import BaseCommand

from cards.services import catalog_load


class Command(BaseCommand):
    help = "Add the shipped catalog (games, rules, cards) where missing; never overwrites edits."

    def add_arguments(self, parser):
        parser.add_argument("--directory", type=Path, default=None,
                            help="Load the <slug>.json files here instead of each game's own.")

    def handle(self, *args, directory: Path, **options):
        report = catalog_load(directory=directory)
        self.stdout.write(report.summary())
