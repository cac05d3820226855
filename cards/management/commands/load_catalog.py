from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from cards.services import catalog_load


class Command(BaseCommand):
    help = (
        "Add the shipped catalog (games, rules, cards) where missing and update rule sections "
        "and cards still as shipped; never overwrites an admin's edit (it reports them)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--directory",
            type=Path,
            default=None,
            help="Load the <slug>.json files here instead of each game's own.",
        )

    def handle(self, *args: Any, directory: Path, **options: Any) -> None:
        report = catalog_load(directory=directory)
        self.stdout.write(report.summary())
