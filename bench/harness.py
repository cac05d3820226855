"""What the in-process benchmarks (bench/catalog.py, bench/bad_input.py, bench/stm.py, bench/stm_table.py) share:
the project importable and Django set up on the benchmark's own database, and the percentile they
report.

A benchmark runs as `python bench/<name>.py`, so this folder comes first on sys.path and
`import harness` finds this file; start() then takes the folder off the path, where bench/http.py
would hide the standard library's http package, and puts the project there instead.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def start(database_file: str) -> None:
    """Test settings (whose throttle rate is out of the way) on BENCH_DATABASE_URL, else a SQLite
    file of that name in the system temp folder; then django.setup()."""
    if sys.path and Path(sys.path[0]).resolve() == ROOT / "bench":
        sys.path.pop(0)
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    os.environ["DATABASE_URL"] = os.environ.get(
        "BENCH_DATABASE_URL", f"sqlite:///{Path(tempfile.gettempdir()) / database_file}"
    )

    import django

    django.setup()


def percentile(values: list[float], fraction: float) -> float:
    """The value at that fraction of the sorted values (0.5: the upper median)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]
