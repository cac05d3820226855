"""Which draw first reaches each answer: how many cases schemathesis' fuzzing phase needs per
operation (tests/test_schemathesis.py's counts, docs/TESTING.md).

    .venv/bin/python bench/schemathesis_draws.py [draws] [pytest -k expression]

Runs tests/test_schemathesis.py with every operation drawing `draws` cases (default 300,
derandomized like the suite's), each answer written down in the order sent: its status, error
code and each error's place and code (list indices dropped). For each operation it prints the
cases of the coverage and examples phases and the distinct answer parts they reached (a status
with its code; an error's place and code), then the parts only the draws reached, with the draw
that first reached each, and how many of those the first 25, 50, 100 and 150 draws reach. An answer is what the checks judge (no 5xx, the schema kept):
a draw that reaches no new answer sends the API a request shaped like one already judged."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MARKS = (25, 50, 100, 150)


def parts(answer: object) -> set[str]:
    """What an answer says, part by part: its status with its code, and each error's place and
    code. A body refused for two known reasons at once reaches no new part."""
    if not isinstance(answer, list):
        return set()
    return {" ".join(str(value) for value in answer[:2]), *answer[2:]}


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    select = sys.argv[2] if len(sys.argv) > 2 else "operations_never_fail or the_api_never_fails"
    with tempfile.TemporaryDirectory() as folder:
        record = Path(folder) / "answers.jsonl"
        env = {
            **os.environ,
            "SCHEMATHESIS_DRAWS": str(count),
            "SCHEMATHESIS_ANSWERS_FILE": str(record),
        }
        workers = str(os.cpu_count() or 1)
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-n", workers, "-p", "no:cacheprovider"]
            + ["tests/test_schemathesis.py", "-k", select],
            cwd=ROOT,
            env=env,
            check=False,
        )
        lines = record.read_text().splitlines() if record.exists() else []
    operations: dict[str, list[tuple[str, object]]] = {}
    for line in lines:
        label, phase, answer = json.loads(line)
        operations.setdefault(label, []).append((phase, answer))
    print(f"\n{count} draws per operation; pytest exit {done.returncode}")
    for label, cases in sorted(operations.items()):
        explicit = [answer for phase, answer in cases if phase != "fuzzing"]
        drawn = [answer for phase, answer in cases if phase == "fuzzing"]
        seen = {part for answer in explicit for part in parts(answer)}
        first: dict[str, int] = {}
        for number, answer in enumerate(drawn, start=1):
            for part in parts(answer):
                if part not in seen and part not in first:
                    first[part] = number
        answered = sum(
            isinstance(answer, list) and 200 <= answer[0] < 300 for answer in drawn[:150]
        )
        reached = ", ".join(
            f"{sum(number <= mark for number in first.values())} by {mark}" for mark in MARKS
        )
        print(
            f"\n{label}: {len(explicit)} coverage and example cases, {len(seen)} answer parts; "
            f"{len(drawn)} draws, {len(first)} parts more ({reached}); "
            f"{answered} of the first 150 draws answered 2xx"
        )
        for key, number in sorted(first.items(), key=lambda item: item[1]):
            print(f"  draw {number:4d}: {key[:160]}")
    sys.exit(done.returncode)


if __name__ == "__main__":
    main()
