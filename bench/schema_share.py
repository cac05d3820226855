"""How many of schemathesis' generated requests are valid: the share of 2xx answers per score and
ruling operation, now that each game's body is typed in the schema (games/api_schema.py).

Run with `make bench` (or `python bench/schema_share.py`). In-process through the WSGI app, on
its own SQLite database in the temp folder (or BENCH_DATABASE_URL) with the shipped catalog
loaded, under the test settings. For every POST operation of the schema under /api/games/ it
draws BENCH_SCHEMA_CASES cases (default 200) from schemathesis' positive strategy for that
operation (hypothesis derandomized: the same cases on every run of the same code), sends each,
and prints the share of 2xx answers and the commonest refusal codes; then the same for the
request examples the schema gives.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from typing import Any

import harness  # bench/harness.py: this folder is first on sys.path until harness.start()

harness.start("tableside-bench-schema.sqlite3")

import logging  # noqa: E402

import schemathesis  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402
from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402

CASES = int(os.environ.get("BENCH_SCHEMA_CASES", "200"))


# schemathesis' operations, cases and responses are used as Any: only their documented
# attributes are read.
def code_of(response: Any) -> str:
    try:
        body = response.json()
    except ValueError:
        return str(response.status_code)
    if not isinstance(body, dict):
        return str(response.status_code)
    entries = body.get("errors") or []
    first = entries[0].get("code") if entries and isinstance(entries[0], dict) else None
    return f"{response.status_code} {body.get('code')}" + (f"/{first}" if first else "")


def share(operation: Any, cases: int) -> tuple[int, int, Counter[str]]:
    """(2xx answers, requests sent, refusals by code) over `cases` generated cases."""
    statuses: Counter[int] = Counter()
    refusals: Counter[str] = Counter()

    @settings(
        max_examples=cases,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy())
    def send(case: Any) -> None:
        response = case.call()
        statuses[response.status_code // 100] += 1
        if not 200 <= response.status_code < 300:
            refusals[code_of(response)] += 1

    send()
    return statuses[2], sum(statuses.values()), refusals


def examples(operation: Any) -> tuple[int, int]:
    """(2xx answers, requests) for the request examples the operation documents."""
    content = operation.definition.raw.get("requestBody", {}).get("content", {})
    values = [
        example["value"]
        for example in content.get("application/json", {}).get("examples", {}).values()
        if "value" in example
    ]
    passed = 0
    for value in values:
        case = operation.Case(
            body=value, media_type="application/json", path_parameters=_parameters(operation, value)
        )
        passed += 200 <= case.call().status_code < 300
    return passed, len(values)


def _parameters(operation: Any, body: Any) -> dict[str, Any]:
    """The generic operation's {game}: the game whose example this is (its own operation's
    examples are the same bodies, so the first game whose own example it is)."""
    if "{game}" not in operation.path:
        return {}
    for other in OPERATIONS:
        if "{game}" in other.path or other.method != operation.method:
            continue
        content = other.definition.raw.get("requestBody", {}).get("content", {})
        own = content.get("application/json", {}).get("examples", {}).values()
        if any(example.get("value") == body for example in own):
            return {"game": other.path.split("/")[3]}
    return {}


def main() -> None:
    logging.disable(logging.WARNING)  # django.request logs a warning per refused case
    call_command("migrate", "--noinput", verbosity=0)
    call_command("load_catalog", stdout=open(os.devnull, "w"))  # noqa: SIM115
    schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())
    # Each result is an Ok or an Err in schemathesis' types; this schema has no Err (ok() would raise).
    every = [result.ok() for result in schema.get_all_operations()]  # type: ignore[union-attr]
    OPERATIONS.extend(
        operation
        for operation in every
        if operation.method.upper() == "POST" and operation.path.startswith("/api/games/")
    )
    print(
        f"schemathesis' generated requests answered 2xx, {CASES} cases per operation "
        f"(derandomized), then the schema's own request examples:"
    )
    for operation in OPERATIONS:
        passed, sent, refusals = share(operation, CASES)
        shown = ", ".join(f"{code} ×{count}" for code, count in refusals.most_common(3))
        good, total = examples(operation)
        print(
            f"  {operation.method.upper()} {operation.path}: {passed}/{sent} = "
            f"{passed / max(sent, 1):.0%} 2xx (commonest refusals: {shown or 'none'}); "
            f"examples {good}/{total} 2xx"
        )
    sys.stdout.flush()


OPERATIONS: list[Any] = []

if __name__ == "__main__":
    main()
