"""HTTP load benchmark: `make serve` (gunicorn with uvicorn workers, production settings) on
loopback under wrk.

For GET /api/games/, a catalog search, and every game's score and ruling endpoints (the request
examples of the OpenAPI schema that answer 200), it runs wrk with 8 connections for a few seconds
and prints requests/s, p50 and p99, and each endpoint's throughput as a ratio of GET /api/games/
measured in the same run. Bounded: BENCH_HTTP_SECONDS per endpoint (default 8), after an unmeasured
2 s warm-up of the same load. The server uses
DATABASE_URL when set (PostgreSQL), else the development SQLite database.
"""

from __future__ import annotations

import sys

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
        return sock.getsockname()[1]


def start_server(port: int) -> subprocess.Popen:
    env = {**os.environ, "PORT": str(port), "GUNICORN_ACCESS_LOG": "/dev/null",
           # The benchmark measures serving, not the throttle's refusals.
           "API_POST_RATE": "100000000/minute"}
    # The server's log goes to a file: a pipe nobody reads would fill and stall its workers.
    log = tempfile.NamedTemporaryFile("w+", prefix="tableside-serve-", suffix=".log", delete=False)
    print(f"Server log: {log.name}")
    server = subprocess.Popen(["make", "-s", "serve"], cwd=ROOT, env=env, start_new_session=True,
                              stdout=log, stderr=subprocess.STDOUT)
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


def post_examples(base: str) -> list[tuple[str, str, dict]]:
    """(label, path, body) for every request example of the schema that answers 200."""
    with urllib.request.urlopen(base + "/api/schema/?format=json") as response:
        schema = json.load(response)
    found: list[tuple[str, str, dict]] = []
    for path, kind in (("/api/games/{game}/score/", "score"), ("/api/games/{game}/rulings/", "ruling")):
        content = schema["paths"][path]["post"]["requestBody"]["content"]["application/json"]
        for example in content.get("examples", {}).values():
            summary = example.get("summary", "")
            game = summary.split(":")[0].strip()
            url = path.replace("{game}", game)
            request = urllib.request.Request(base + url, data=json.dumps(example["value"]).encode(),
                                             headers={"Content-Type": "application/json"})
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


def run_wrk(url: str, body: dict | None, *, seconds: int = SECONDS) -> tuple[float, float, float]:
    command = ["wrk", f"-t{min(2, CONNECTIONS)}", f"-c{CONNECTIONS}", f"-d{seconds}s", "--latency", url]
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


def main() -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    print(f"Starting make serve on {base} …", flush=True)
    server = start_server(port)
    try:
        endpoints: list[tuple[str, str, dict | None]] = [("GET /api/games/", "/api/games/", None),
                     ("GET catalog search", "/api/games/star-trek-missions/cards/?q=commander", None)]
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
            print(f"{label:<40}{rps:>9.0f}{p50:>9.1f}{p99:>9.1f}{ratio:>8.2f}  {verdict}", flush=True)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
