"""Table polls under load (issue 25): `make serve` (gunicorn, production settings) on loopback
under wrk, like bench/http.py. It starts one Star Trek: Missions table, then measures in the same
run GET /api/games/ (the reference), an unchanged poll of the API (GET /api/tables/<code>/ with
If-None-Match: 304), an unchanged poll of the page's live part (/t/<code>/live, 304) and a changed
one (no If-None-Match: 200, the whole table). It prints requests/s, p50, p99, each as a ratio of
GET /api/games/ (target for the 304 polls: >= 1.5), and how many six-phone tables one core
carries at a 2 s poll (304 polls/s divided by the server's cores, by 6 phones x 0.5 polls/s).
BENCH_HTTP_SECONDS per endpoint (default 8), after a 2 s warm-up."""

from __future__ import annotations

import sys

if sys.path and sys.path[0].endswith("bench"):
    sys.path.pop(0)  # this folder's http.py would hide the standard library's http package

import importlib.util
import json
import os
import platform
import signal
import subprocess
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("bench_http", HERE / "http.py")
assert _spec and _spec.loader
bench_http = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_http)

TARGET_RATIO = 1.5
PHONES, POLL_SECONDS = 6, 2


def wrk(url: str, *, headers: dict[str, str], seconds: int) -> tuple[float, float, float]:
    command = ["wrk", "-t2", f"-c{bench_http.CONNECTIONS}", f"-d{seconds}s", "--latency"]
    for name, value in headers.items():
        command += ["-H", f"{name}: {value}"]
    output = subprocess.run([*command, url], capture_output=True, text=True, check=True).stdout
    if "Non-2xx" in output:
        raise SystemExit(f"{url} answered errors under load:\n{output}")
    rps = float(bench_http._match(r"Requests/sec:\s+([\d.]+)", output).group(1))
    return rps, bench_http._latency(output, "50%"), bench_http._latency(output, "99%")


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
    print(f"Starting make serve on {base} …", flush=True)
    server = bench_http.start_server(port)
    try:
        request = urllib.request.Request(
            base + "/api/tables/", method="POST", headers={"Content-Type": "application/json"},
            data=json.dumps({"game": "star-trek-missions",
                             "players": ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay"]}).encode())
        with urllib.request.urlopen(request) as response:
            table = json.load(response)
        code, etag = table["code"], f'"v{table["version"]}"'
        live_etag = f'"p{table["version"]}"'
        endpoints = [
            ("GET /api/games/", "/api/games/", {}),
            ("GET /api/tables/<code>/ unchanged (304)", f"/api/tables/{code}/",
             {"If-None-Match": etag}),
            ("GET /t/<code>/live unchanged (304)", f"/t/{code}/live", {"If-None-Match": live_etag}),
            ("GET /api/tables/<code>/ (200)", f"/api/tables/{code}/", {}),
        ]
        cores = os.cpu_count() or 1
        database = os.environ.get("DATABASE_URL", "sqlite").split(":")[0]
        print(f"wrk: {bench_http.CONNECTIONS} connections, {bench_http.SECONDS} s per endpoint, "
              f"database {database}, {cores} cores ({machine()}), load average before "
              f"{load()}\n")
        print(f"{'endpoint':<42}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'ratio':>8}  target")
        reference = None
        for label, path, headers in endpoints:
            wrk(base + path, headers=headers, seconds=bench_http.WARM_UP_SECONDS)
            rps, p50, p99 = wrk(base + path, headers=headers, seconds=bench_http.SECONDS)
            reference = reference or rps
            ratio = rps / reference
            verdict = ""
            if "304" in label:
                verdict = "met" if ratio >= TARGET_RATIO else "MISSED"
                per_core = rps / cores / (PHONES / POLL_SECONDS)
                verdict += f"  ({per_core:.0f} six-phone tables per core at a {POLL_SECONDS} s poll)"
            print(f"{label:<42}{rps:>9.0f}{p50:>9.1f}{p99:>9.1f}{ratio:>8.2f}  {verdict}",
                  flush=True)
        print(f"\nLoad average after: {load()} (other work on the machine lowers every figure "
              "alike; the ratios are the point)")
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
