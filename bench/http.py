"""HTTP load benchmark: `make serve` (gunicorn with uvicorn workers, production settings) on
loopback under wrk.

For GET /api/games/, a catalog search, and every game's score and ruling endpoints (the request
examples of the OpenAPI schema that answer 200), it runs wrk with 8 connections for a few seconds
and prints requests/s, p50 and p99, and each endpoint's throughput as a ratio of GET /api/games/
measured in the same run. Bounded: BENCH_HTTP_SECONDS per endpoint (default 8), after an unmeasured
2 s warm-up of the same load. The server uses
DATABASE_URL when set (PostgreSQL), else the development SQLite database.

Then a flood of 429s (issue 30): a second server with the default limit of evaluations; the
client (loopback: one address) is pushed past it with Star Trek: Missions' costliest hand in the
address of "Score a hand", then BENCH_HTTP_FLOOD_CONNECTIONS (8) wrk connections send that page
GET for BENCH_HTTP_SECONDS while 2 others measure GET /api/games/; the same 2 measure it quietly
just before. BENCH_HTTP_FLOOD_ROUNDS (5) rounds of the two, so that other work on the machine
weighs less: each round's p50/p99, how many flood answers were 429s, and whether the median p99
during the floods stays within twice the median quiet one. BENCH_HTTP_ONLY=flood runs this part
alone; every process it starts is stopped at its end.
"""

from __future__ import annotations

import sys
from typing import Any

# Run as `python bench/http.py`, this folder is first on sys.path, and this file's name would
# hide the standard library's http package (which urllib needs).
if sys.path and sys.path[0].endswith("bench"):
    sys.path.pop(0)

import json
import os
import re
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SECONDS = int(os.environ.get("BENCH_HTTP_SECONDS", "8"))
CONNECTIONS = int(os.environ.get("BENCH_HTTP_CONNECTIONS", "8"))
WARM_UP_SECONDS = 2
TARGET_RATIO, TARGET_P99_MS = 0.5, 100.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


FLOOD_CONNECTIONS = int(os.environ.get("BENCH_HTTP_FLOOD_CONNECTIONS", "8"))
MEASURING_CONNECTIONS = 2
FLOOD_ROUNDS = int(os.environ.get("BENCH_HTTP_FLOOD_ROUNDS", "5"))
TARGET_FLOOD_P99_RATIO = 2.0
# The hand issue 30 reported as the costliest to score, in the address of "Score a hand".
COSTLY_HAND = [
    "Thought Maker",
    "Unidentified Ship",
    "Chancellor Gowron",
    "Lursa and B'Etor",
    "Hand Phaser",
    "Space Confrontation",
    "Blossoming Romance",
]


def start_server(port: int) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "PORT": str(port),
        "GUNICORN_ACCESS_LOG": "/dev/null",
        # The benchmark measures serving, not the throttle's refusals.
        "API_POST_RATE": "100000000/minute",
    }
    # The server's log goes to a file: a pipe nobody reads would fill and stall its workers.
    log = tempfile.NamedTemporaryFile("w+", prefix="tableside-serve-", suffix=".log", delete=False)
    print(f"Server log: {log.name}")
    server = subprocess.Popen(
        ["make", "-s", "serve"],
        cwd=ROOT,
        env=env,
        start_new_session=True,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(base + "/api/games/", timeout=2) as response:
                if response.status == 200:
                    return server
        except OSError:
            time.sleep(0.5)
        if server.poll() is not None:
            log.seek(0)
            raise SystemExit("make serve stopped: " + log.read()[-2000:])
    raise SystemExit("make serve did not answer within 120 s")


def post_examples(base: str) -> list[tuple[str, str, dict[str, Any]]]:
    """(label, path, body) for every request example of the schema that answers 200."""
    with urllib.request.urlopen(base + "/api/schema/?format=json") as response:
        schema = json.load(response)
    found: list[tuple[str, str, dict[str, Any]]] = []
    for path, kind in (
        ("/api/games/{game}/score/", "score"),
        ("/api/games/{game}/rulings/", "ruling"),
    ):
        content = schema["paths"][path]["post"]["requestBody"]["content"]["application/json"]
        for example in content.get("examples", {}).values():
            summary = example.get("summary", "")
            game = summary.split(":")[0].strip()
            url = path.replace("{game}", game)
            request = urllib.request.Request(
                base + url,
                data=json.dumps(example["value"]).encode(),
                headers={"Content-Type": "application/json"},
            )
            try:
                with urllib.request.urlopen(request) as response:
                    ok = response.status == 200
            except OSError:
                ok = False
            if ok and not any(label.startswith(f"{kind} {game}") for label, _, _ in found):
                found.append((f"{kind} {game}", url, example["value"]))
    return found


LUA = """wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = {body}
"""


def run_wrk(
    url: str, body: dict[str, Any] | None, *, seconds: int = SECONDS, connections: int = CONNECTIONS
) -> tuple[float, float, float]:
    command = [
        "wrk",
        f"-t{min(2, connections)}",
        f"-c{connections}",
        f"-d{seconds}s",
        "--latency",
        url,
    ]
    script = None
    if body is not None:
        script = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False)
        script.write(LUA.format(body=json.dumps(json.dumps(body))))
        script.close()
        command[1:1] = ["-s", script.name]
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    if script:
        os.unlink(script.name)
    if "Non-2xx" in output:
        raise SystemExit(f"{url} answered errors under load:\n{output}")
    rps = float(_match(r"Requests/sec:\s+([\d.]+)", output).group(1))
    return rps, _latency(output, "50%"), _latency(output, "99%")


def _match(pattern: str, output: str) -> re.Match[str]:
    match = re.search(pattern, output)
    if match is None:
        raise SystemExit(f"wrk's report has no line matching {pattern!r}:\n{output}")
    return match


def _latency(output: str, percentile: str) -> float:
    value, unit = _match(rf"{percentile}\s+([\d.]+)(us|ms|s)", output).groups()
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def start_flood_server(port: int, rate: str) -> subprocess.Popen[bytes]:
    """gunicorn as `make serve` runs it (production settings, config/gunicorn.py) on loopback,
    with `rate` evaluations a minute, on its own SQLite database in the temp folder (migrated and
    with the catalog) unless DATABASE_URL is set; without `make`, which would install first."""
    sqlite = Path(tempfile.gettempdir()) / "tableside-bench-flood.sqlite3"
    if not os.environ.get("DATABASE_URL"):
        sqlite.unlink(missing_ok=True)  # a fresh start: no client refused by an earlier run
    database = os.environ.get("DATABASE_URL") or f"sqlite:///{sqlite}"
    env = {
        **os.environ,
        "PORT": str(port),
        "GUNICORN_ACCESS_LOG": "/dev/null",
        "API_POST_RATE": rate,
        "DATABASE_URL": database,
        "LOCAL_HTTP": "1",
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "SECRET_KEY": os.environ.get("SECRET_KEY", "bench-flood-" + "x" * 50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
    }
    python = str(Path(sys.executable))
    for command in (
        ["migrate", "--noinput", "-v0"],
        ["load_catalog"],
        ["collectstatic", "--noinput", "-v0"],
    ):
        subprocess.run(
            [python, "manage.py", *command],
            cwd=ROOT,
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
    log = tempfile.NamedTemporaryFile("w+", prefix="tableside-flood-", suffix=".log", delete=False)
    print(f"Server log: {log.name}")
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "-c", "config/gunicorn.py"],
        cwd=ROOT,
        env=env,
        start_new_session=True,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games/", timeout=2) as answer:
                if answer.status == 200:
                    return server
        except OSError:
            time.sleep(0.5)
        if server.poll() is not None:
            log.seek(0)
            raise SystemExit("gunicorn stopped: " + log.read()[-2000:])
    raise SystemExit("gunicorn did not answer within 120 s")


def flood() -> None:
    """GET /api/games/ quiet, then during a flood of 429s (see the module)."""
    from urllib.error import HTTPError
    from urllib.parse import urlencode

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    print(
        f"\nA flood of 429s: gunicorn as make serve runs it, on {base}, with the default "
        "limit of evaluations …",
        flush=True,
    )
    server = start_flood_server(port, os.environ.get("BENCH_HTTP_FLOOD_RATE", "120/minute"))
    try:
        games = base + "/api/games/"
        run_wrk(games, None, seconds=WARM_UP_SECONDS, connections=MEASURING_CONNECTIONS)
        link = (
            base
            + "/games/star-trek-missions/score/?"
            + urlencode([("hand", name) for name in COSTLY_HAND])
        )
        sent = 0
        while True:  # past the limit (bounded: the default limit is 120 a minute)
            sent += 1
            try:
                with urllib.request.urlopen(link, timeout=30):
                    pass
            except HTTPError as refused:
                if refused.code == 429:
                    break
                raise
            if sent > 10_000:
                raise SystemExit("the page was never refused: is the limit off?")
        print(
            f"{sent} page GETs of the costliest hand to pass the limit; then {FLOOD_ROUNDS} "
            f"rounds of GET /api/games/ ({MEASURING_CONNECTIONS} connections, {SECONDS} s) "
            f"quiet, then while {FLOOD_CONNECTIONS} connections flood that page"
        )
        print(
            f"{'round':<8}{'quiet p50':>10}{'p99':>8}{'flood p50':>11}{'p99':>8}"
            f"{'flood answers':>15}{'of them 429':>13}"
        )
        quiet: list[float] = []
        flooded: list[float] = []
        quiet_medians: list[float] = []
        flooded_medians: list[float] = []
        for round_number in range(1, FLOOD_ROUNDS + 1):
            _, quiet_p50, quiet_p99 = run_wrk(games, None, connections=MEASURING_CONNECTIONS)
            flooding = subprocess.Popen(
                ["wrk", "-t2", f"-c{FLOOD_CONNECTIONS}", f"-d{SECONDS + 2}s", link],
                stdout=subprocess.PIPE,
                text=True,
            )
            try:
                time.sleep(1)  # the flood under way before the figures start
                _, flood_p50, flood_p99 = run_wrk(games, None, connections=MEASURING_CONNECTIONS)
            finally:
                output = flooding.communicate(timeout=SECONDS + 60)[0]
            answers = int(_match(r"(\d+) requests in", output).group(1))
            non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
            refused_count = int(non_2xx.group(1)) if non_2xx else 0
            quiet.append(quiet_p99)
            flooded.append(flood_p99)
            quiet_medians.append(quiet_p50)
            flooded_medians.append(flood_p50)
            print(
                f"{round_number:<8}{quiet_p50:>10.1f}{quiet_p99:>8.1f}{flood_p50:>11.1f}"
                f"{flood_p99:>8.1f}{answers:>15,}{refused_count:>13,}",
                flush=True,
            )
        quiet_p99, flood_p99 = sorted(quiet)[len(quiet) // 2], sorted(flooded)[len(flooded) // 2]
        quiet_p50 = sorted(quiet_medians)[len(quiet) // 2]
        flood_p50 = sorted(flooded_medians)[len(flooded) // 2]
        print(
            f"p50 of GET /api/games/, the median of the rounds: quiet {quiet_p50:.1f} ms, during "
            f"the flood {flood_p50:.1f} ms: {flood_p50 / quiet_p50:.2f}x"
        )
        ratio = flood_p99 / quiet_p99
        verdict = "met" if ratio <= TARGET_FLOOD_P99_RATIO else "MISSED"
        print(
            f"p99 of GET /api/games/, the median of the rounds: quiet {quiet_p99:.1f} ms, during "
            f"the flood of 429s {flood_p99:.1f} ms: {ratio:.2f}x (target <= "
            f"{TARGET_FLOOD_P99_RATIO:g}: {verdict})",
            flush=True,
        )
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


def main() -> None:
    if os.environ.get("BENCH_HTTP_ONLY") == "flood":
        flood()
        return
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    print(f"Starting make serve on {base} …", flush=True)
    server = start_server(port)
    try:
        endpoints: list[tuple[str, str, dict[str, Any] | None]] = [
            ("GET /api/games/", "/api/games/", None),
            ("GET catalog search", "/api/games/star-trek-missions/cards/?q=commander", None),
        ]
        endpoints += [(f"POST {label}", path, body) for label, path, body in post_examples(base)]
        database = os.environ.get("DATABASE_URL", "sqlite").split(":")[0]
        print(f"wrk: {CONNECTIONS} connections, {SECONDS} s per endpoint, database {database}\n")
        print(f"{'endpoint':<40}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'ratio':>8}  target")
        reference = None
        for label, path, body in endpoints:
            # Unmeasured warm-up: every worker has imported and connected before the figures start.
            run_wrk(base + path, body, seconds=WARM_UP_SECONDS)
            rps, p50, p99 = run_wrk(base + path, body)
            reference = reference or rps
            ratio = rps / reference
            verdict = ""
            if label.startswith("POST"):
                met = ratio >= TARGET_RATIO and p99 <= TARGET_P99_MS
                verdict = "met" if met else "MISSED"
            print(
                f"{label:<40}{rps:>9.0f}{p50:>9.1f}{p99:>9.1f}{ratio:>8.2f}  {verdict}", flush=True
            )
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    flood()


if __name__ == "__main__":
    main()
