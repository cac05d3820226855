from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from results.services import results_prune


class Command(BaseCommand):
    help = (
        "Keep the saved results within their bound: remove results nobody opened for "
        "RESULTS_MAX_AGE_DAYS, then, past STORE_MAX_MB, the results never opened (oldest "
        "first) and then those opened longest ago."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--max-age-days",
            type=int,
            default=None,
            help="Overrides RESULTS_MAX_AGE_DAYS (0: no age bound).",
        )
        parser.add_argument(
            "--max-mb", type=float, default=None, help="Overrides STORE_MAX_MB (0: no size bound)."
        )

    def handle(
        self, *args: Any, max_age_days: int | None, max_mb: float | None, **options: Any
    ) -> None:
        pruned = results_prune(max_age_days=max_age_days, max_mb=max_mb)
        self.stdout.write(
            f"Removed {pruned.by_age} result(s) past the age bound and {pruned.by_size} past the "
            f"size bound; {pruned.remaining} remain ({pruned.remaining_bytes / 1_000_000:.1f} MB)."
        )
