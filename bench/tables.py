"""Table polls under load (issue 25): `make serve` (gunicorn, production settings) on loopback
under wrk, like bench/http.py. It starts one Star Trek: Missions table, then measures in the same
run GET /api/games/ (the reference), an unchanged poll of the API (GET /api/tables/<code>/ with
If-None-Match: 304), an unchanged poll of the page's live part (/t/<code>/live, 304) and a changed
one (no If-None-Match: 200, the whole table). It prints requests/s, p50, p99, each as a ratio of
GET /api/games/ (target for the 304 polls: >= 1.5), and how many six-phone tables one core
carries at a 2 s poll (304 polls/s divided by the server's cores, by 6 phones x 0.5 polls/s).
BENCH_HTTP_SECONDS per endpoint (default 8), after a 2 s warm-up.

Issue 30, in the same run: the read cost of a table at 2, 200 and 2,000 events (the API's read and
the page, median of READ_SAMPLES sequential reads: ms and bytes), and GET /api/games/'s p50 and p99
quiet, under a flood of reads of the 2,000-event table (API reads and page reads from many
addresses: every one served, each a full read) and under a flood of 429s (one address far past its
read limit), with the target p99 <= 2 x the quiet p99: BENCH_TABLES_FLOOD_ROUNDS (5) rounds of
the quiet phase and the floods interleaved, each printed, the verdict on their medians (on a loaded
machine one burst of other work would otherwise decide it). BENCH_TABLES_ONLY=issue30 runs this
part alone. The histories are real answers: each table's
first events are hands entered through the API, then copied in the database (the answer, the state
before it) up to the count, as a long evening's table would hold them. The server runs with
TRUSTED_PROXY_COUNT=1 so that wrk's X-Forwarded-For names the address a read counts against (from
198.18.0.0/15, the range kept for benchmarks; nothing is sent anywhere but loopback), and with
TABLE_MAX_EVENTS and TABLE_MAX_MB raised so that a 2,000-event table can exist."""

from __future__ import annotations

import sys
from typing import Any

if sys.path and sys.path[0].endswith("bench"):
    sys.path.pop(0)  # this folder's http.py would hide the standard library's http package

import importlib.util
import json
import os
import platform
import random
import re
import signal
import statistics
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("bench_http", HERE / "http.py")
assert _spec and _spec.loader
bench_http = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_http)

TARGET_RATIO = 1.5
PHONES, POLL_SECONDS = 6, 2
HISTORIES = (2, 200, 2000)
READ_SAMPLES = int(os.environ.get("BENCH_READ_SAMPLES", "15"))
FLOOD_TARGET = 2.0  # GET /api/games/'s p99 under a flood, at most this times its quiet p99
# Rounds of quiet and flood phases, interleaved: a burst of other work on the machine lands in one
# round's phase, not in every flood (the verdict is on the medians of the rounds).
FLOOD_ROUNDS = int(os.environ.get("BENCH_TABLES_FLOOD_ROUNDS", "5"))
DRAIN_SECONDS = 2
# BENCH_TABLES_ONLY=issue30: the read costs and the floods alone, without the polls before them.
ONLY_ISSUE_30 = os.environ.get("BENCH_TABLES_ONLY") == "issue30"

# Each request from its own address (in 198.18.0.0/15, kept for benchmarks), so a read counts
# against a limit as a phone's does, not all against one address.
# wrk.format replaces wrk.headers with the table it is given: the -H headers (If-None-Match) are
# copied in first.
MANY_ADDRESSES = """request = function()
  local headers = {}
  for name, value in pairs(wrk.headers) do headers[name] = value end
  headers["X-Forwarded-For"] = string.format("198.18.%d.%d", math.random(0, 255),
                                             math.random(1, 254))
  return wrk.format(nil, nil, headers)
end
"""


def _script(text: str) -> str:
    script = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False)
    script.write(text)
    script.close()
    return script.name


def wrk_command(
    url: str,
    *,
    headers: dict[str, str],
    seconds: int,
    connections: int,
    many_addresses: bool = True,
) -> list[str]:
    command = ["wrk", f"-t{min(2, connections)}", f"-c{connections}", f"-d{seconds}s", "--latency"]
    for name, value in headers.items():
        command += ["-H", f"{name}: {value}"]
    if many_addresses:
        command += ["-s", _script(MANY_ADDRESSES)]
    return [*command, url]


def wrk(
    url: str, *, headers: dict[str, str], seconds: int, connections: int = bench_http.CONNECTIONS
) -> tuple[float, float, float]:
    command = wrk_command(url, headers=headers, seconds=seconds, connections=connections)
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    if "Non-2xx" in output:
        raise SystemExit(f"{url} answered errors under load:\n{output}")
    rps = float(bench_http._match(r"Requests/sec:\s+([\d.]+)", output).group(1))
    return rps, bench_http._latency(output, "50%"), bench_http._latency(output, "99%")


def flooded(measured: str, floods: list[list[str]], seconds: int) -> tuple[float, float, str]:
    """GET `measured` (2 connections) while the `floods` (wrk commands) run: its p50, p99 and
    what the floods were answered."""
    running = [
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        for command in floods
    ]
    try:
        time.sleep(1)  # the flood under way before the figures start
        _, p50, p99 = wrk(measured, headers={}, seconds=seconds, connections=2)
    finally:
        answered = []
        for process in running:
            output, _ = process.communicate(timeout=seconds + 60)
            total = bench_http._match(r"(\d+) requests in", output).group(1)
            errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
            timeouts = re.search(r"timeout (\d+)", output)
            answered.append(
                f"{total} answered, {errors.group(1) if errors else 0} of them 429"
                + (f", {timeouts.group(1)} timed out" if timeouts else "")
            )
        # The reads the flood left waiting in the server are answered before the next phase
        # is measured: otherwise the next quiet phase measures their tail.
        time.sleep(DRAIN_SECONDS)
    return p50, p99, "; ".join(answered)


def refuse(url: str, address: str) -> int:
    """Reads `url` as `address` until it is refused (429), so that the flood after it is one of
    429s from its first request: the phase before it may have ended within the address's limit
    (TABLE_READ_RATE, a sliding window). How many reads it took; bounded."""
    from urllib.error import HTTPError

    for sent in range(1, 10_001):
        request = urllib.request.Request(url, headers={"X-Forwarded-For": address})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                response.read()
        except HTTPError as refused:
            if refused.code == 429:
                return sent
            raise
    raise SystemExit(f"{address} was never refused reading {url}: is the read limit off?")


def build_histories(base: str) -> dict[int, str]:
    """A six-seat Star Trek: Missions table for each count of HISTORIES: hands entered through
    the API (seats 1 and 2), then those events copied in the database up to the count."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.development")
    sys.path.insert(0, str(HERE.parent))
    import django

    django.setup()
    from django.db.models import F

    from tables.models import Event, Table

    hands = [["Holodeck 1", "Leah Brahms"], ["Space Confrontation", "Daimon Bok"]]
    codes = {}
    for count in HISTORIES:
        table = post_json(
            base + "/api/tables/",
            {"game": "star-trek-missions", "players": ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay"]},
        )
        code, version = table["code"], table["version"]
        for seat, cards in enumerate(hands[:count], start=1):
            token = post_json(base + f"/api/tables/{code}/seats/{seat}/claim/", {})["seat_token"]
            version += 1
            answer = post_json(
                base + f"/api/tables/{code}/events/",
                {"kind": "hand", "seat": seat, "version": version, "body": {"hand": cards}},
                token=token,
            )
            version = answer["table"]["version"]
        row = Table.objects.get(code=code)
        real = list(Event.objects.filter(table=row).order_by("n"))
        copies = [
            Event(
                table=row,
                n=n,
                kind="hand",
                seat=real[n % 2].seat,
                by_host=False,
                body=real[n % 2].body,
                version=version + n,
                result=real[n % 2].result,
                state_before=real[n % 2].state_before,
                size=real[n % 2].size,
            )
            for n in range(len(real) + 1, count + 1)
        ]
        Event.objects.bulk_create(copies, batch_size=500)
        Table.objects.filter(pk=row.pk).update(
            version=F("version") + 2 * count,
            stored_bytes=F("stored_bytes") + sum(event.size for event in copies),
        )
        codes[count] = code
    return codes


def post_json(url: str, body: dict[str, Any], *, token: str | None = None) -> dict[str, Any]:
    headers = {"Content-Type": "application/json", "X-Forwarded-For": "198.19.0.9"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(
        url, method="POST", headers=headers, data=json.dumps(body).encode()
    )
    with urllib.request.urlopen(request) as response:
        answer: dict[str, Any] = json.load(response)
        return answer


def read_cost(url: str, *, cold: bool = False) -> tuple[float, int]:
    """The median time (ms) of READ_SAMPLES reads of `url`, one after another, and its size.
    `cold`: each read names a cursor of its own past the newest event (`before`), so each is
    built, not taken from the cache of reads (tables.read_cache), as the first read of a version
    is."""
    times, size = [], 0
    for index in range(READ_SAMPLES):
        if cold:
            url = re.sub(r"before=\d+", f"before={1_000_000 + index}", url)
        request = urllib.request.Request(
            url, headers={"X-Forwarded-For": f"198.18.200.{1 + index % 250}"}
        )
        start = time.perf_counter()
        with urllib.request.urlopen(request) as response:
            size = len(response.read())
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), size


def issue_30(base: str) -> None:
    print(
        "\nIssue 30: reading a table at 2, 200 and 2,000 events (median of "
        f"{READ_SAMPLES} sequential reads). Cached: the same version read again (a lookup); "
        "built: each read builds its answer (the first read of a version: a page of the "
        "history named by a cursor of its own)\n"
    )
    codes = build_histories(base)
    print(
        f"{'events':>7}{'API read ms':>13}{'API bytes':>11}{'page ms':>9}{'page bytes':>12}"
        f"{'API built ms':>14}{'page built ms':>15}"
    )
    for count, code in codes.items():
        api_ms, api_bytes = read_cost(base + f"/api/tables/{code}/")
        page_ms, page_bytes = read_cost(base + f"/t/{code}")
        api_built, _ = read_cost(base + f"/api/tables/{code}/events/?before=1", cold=True)
        page_built, _ = read_cost(base + f"/t/{code}?before=1", cold=True)
        print(
            f"{count:>7}{api_ms:>13.1f}{api_bytes:>11}{page_ms:>9.1f}{page_bytes:>12}"
            f"{api_built:>14.1f}{page_built:>15.1f}",
            flush=True,
        )
    longest = codes[HISTORIES[-1]]
    seconds = bench_http.SECONDS
    games = base + "/api/games/"
    print(
        f"\nGET /api/games/ (2 connections, {seconds} s) quiet, then while 8 connections flood "
        f"the {HISTORIES[-1]:,}-event table: {FLOOD_ROUNDS} rounds, the phases interleaved "
        "(other work on the machine comes and goes: each round's quiet p99 is measured just "
        "before its floods)\n"
    )
    print(f"{'round':<6}{'while':<40}{'p50 ms':>9}{'p99 ms':>9}{'x quiet p99':>13}  (the flood)")
    reads = [
        wrk_command(
            base + f"/api/tables/{longest}/", headers={}, seconds=seconds + 2, connections=4
        ),
        wrk_command(base + f"/t/{longest}", headers={}, seconds=seconds + 2, connections=4),
    ]
    phases = (
        "quiet",
        "a flood of reads from many addresses",
        "a flood of reads from one address",
        "a flood of 429s (that address again)",
    )
    p99s: dict[str, list[float]] = {phase: [] for phase in phases}
    p50s: dict[str, list[float]] = {phase: [] for phase in phases}
    for round_number in range(1, FLOOD_ROUNDS + 1):
        _, p50, quiet = wrk(games, headers={}, seconds=seconds, connections=2)
        p50s["quiet"].append(p50)
        p99s["quiet"].append(quiet)
        print(f"{round_number:<6}{'quiet':<40}{p50:>9.1f}{quiet:>9.1f}{1:>13.2f}", flush=True)
        # One address (new to the database, whose counters outlive a run, and to this run): its
        # first TABLE_READ_RATE reads served, then 429s; again, only 429s.
        one_address = f"198.19.{random.randint(1, 255)}.{random.randint(1, 254)}"
        one = [
            wrk_command(
                base + f"/api/tables/{longest}/",
                seconds=seconds + 2,
                connections=8,
                headers={"X-Forwarded-For": one_address},
                many_addresses=False,
            )
        ]
        for label, flood in zip(phases[1:], (reads, one, one), strict=True):
            if flood is one and label == phases[-1]:
                refuse(base + f"/api/tables/{longest}/", one_address)
            p50, p99, answered = flooded(games, flood, seconds)
            p50s[label].append(p50)
            p99s[label].append(p99)
            print(
                f"{round_number:<6}{label:<40}{p50:>9.1f}{p99:>9.1f}{p99 / quiet:>13.2f}  "
                f"({answered})",
                flush=True,
            )
    quiet = statistics.median(p99s["quiet"])
    print(
        f"\nThe median of the {FLOOD_ROUNDS} rounds (target: p99 <= {FLOOD_TARGET:g} x the "
        "quiet p99)"
    )
    print(f"{'while':<46}{'p50 ms':>9}{'p99 ms':>9}{'x quiet p99':>13}  target")
    for phase in phases:
        p99 = statistics.median(p99s[phase])
        verdict = "" if phase == "quiet" else "met" if p99 <= FLOOD_TARGET * quiet else "MISSED"
        print(
            f"{phase:<46}{statistics.median(p50s[phase]):>9.1f}{p99:>9.1f}{p99 / quiet:>13.2f}"
            f"  {verdict}",
            flush=True,
        )


def machine() -> str:
    """The processor's model name, as /proc/cpuinfo gives it (Linux), else the platform's."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> None:
    port = bench_http.free_port()
    base = f"http://127.0.0.1:{port}"
    # wrk's X-Forwarded-For is the address a read counts against; a 2,000-event table may exist.
    os.environ.update(
        {
            "TRUSTED_PROXY_COUNT": "1",
            "TABLE_MAX_EVENTS": "100000",
            "TABLE_MAX_MB": "1000",
            "TABLES_PER_ADDRESS_PER_DAY": "0",
        }
    )
    print(f"Starting make serve on {base} …", flush=True)
    server = bench_http.start_server(port)
    try:
        table = post_json(
            base + "/api/tables/",
            {"game": "star-trek-missions", "players": ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay"]},
        )
        code, etag = table["code"], f'"v{table["version"]}"'
        live_etag = f'"p{table["version"]}"'
        endpoints = [
            ("GET /api/games/", "/api/games/", {}),
            (
                "GET /api/tables/<code>/ unchanged (304)",
                f"/api/tables/{code}/",
                {"If-None-Match": etag},
            ),
            ("GET /t/<code>/live unchanged (304)", f"/t/{code}/live", {"If-None-Match": live_etag}),
            ("GET /api/tables/<code>/ (200)", f"/api/tables/{code}/", {}),
        ]
        cores = os.cpu_count() or 1
        database = os.environ.get("DATABASE_URL", "sqlite").split(":")[0]
        print(
            f"wrk: {bench_http.CONNECTIONS} connections, {bench_http.SECONDS} s per endpoint, "
            f"database {database}, {cores} cores ({machine()}), load average before "
            f"{load()}\n"
        )
        print(f"{'endpoint':<42}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'ratio':>8}  target")
        reference = None
        for label, path, headers in [] if ONLY_ISSUE_30 else endpoints:
            wrk(base + path, headers=headers, seconds=bench_http.WARM_UP_SECONDS)
            rps, p50, p99 = wrk(base + path, headers=headers, seconds=bench_http.SECONDS)
            reference = reference or rps
            ratio = rps / reference
            verdict = ""
            if "304" in label:
                verdict = "met" if ratio >= TARGET_RATIO else "MISSED"
                per_core = rps / cores / (PHONES / POLL_SECONDS)
                verdict += (
                    f"  ({per_core:.0f} six-phone tables per core at a {POLL_SECONDS} s poll)"
                )
            print(
                f"{label:<42}{rps:>9.0f}{p50:>9.1f}{p99:>9.1f}{ratio:>8.2f}  {verdict}", flush=True
            )
        issue_30(base)
        print(
            f"\nLoad average after: {load()} (other work on the machine lowers every figure "
            "alike; the ratios are the point)"
        )
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
