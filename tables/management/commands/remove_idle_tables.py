from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from tables.services import tables_remove_idle


class Command(BaseCommand):
    help = (
        "Remove the tables idle for longer than TABLE_IDLE_DAYS (default 30), with their seats "
        "and history; the results they saved stay at their /r/<id>."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        removed = tables_remove_idle()
        self.stdout.write(
            f"Removed {removed} table{'s' if removed != 1 else ''} idle for more "
            f"than {settings.TABLE_IDLE_DAYS} days."
        )
