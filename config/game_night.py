"""`make game-night`: the production server for the phones of one room, from a laptop.

`python -m config.game_night` (what `make game-night` runs once the database and the catalog are
set up) finds the address the room's network knows this machine by, the address of the interface
of its default route (HOST=… chooses another), then runs what `make serve` runs, on that address:
collectstatic, then gunicorn with config/gunicorn.py (uvicorn's workers, whitenoise, the
production settings, DEBUG off). The allowed hosts are that address alone, and plain HTTP is
allowed (LOCAL_HTTP=1: no TLS proxy stands in front at home). Once gunicorn listens, it prints
"Phones open: http://ADDR:PORT/" and the same address as a QR code in the terminal
(config/gunicorn.py's when_ready calls announcement()). The access log is off and gunicorn says
only warnings, so the QR code stays on screen while the phones poll their tables.
"""

from __future__ import annotations

import io
import ipaddress
import os
import socket
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import segno

ROOT = Path(__file__).resolve().parent.parent
LOCAL_SECRET = ROOT / ".venv" / ".local-secret-key"
Address = ipaddress.IPv4Address | ipaddress.IPv6Address
# A documentation address (RFC 5737, TEST-NET-1): routed like any address beyond the local
# network, so through the default route, and never a real host.
BEYOND_THE_ROOM = ("192.0.2.1", 9)


class CannotServe(SystemExit):
    """A game night that cannot start: the message says what to do (printed, exit status 1)."""


def default_route_address() -> Address:
    """This machine's address on the interface of its default route: the one the room's Wi-Fi
    or cable gave it. connect() on a UDP socket sends nothing; it only asks the kernel which
    source address it would send from."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(BEYOND_THE_ROOM)
        except OSError as error:
            raise CannotServe(
                f"This machine is on no network ({error.strerror}). Join the room's Wi-Fi, or "
                "say which address phones reach it by: make game-night HOST=192.168.1.20"
            ) from None
        address = ipaddress.ip_address(probe.getsockname()[0])
    if address.is_loopback or address.is_unspecified:
        raise CannotServe(
            f"The default route leaves from {address}, which no phone can reach. "
            "Say which address: make game-night HOST=192.168.1.20"
        )
    return address


def machine_address(environ: Mapping[str, str]) -> Address:
    """HOST when given (an IP address of this machine that phones can reach), else the default
    route's address."""
    chosen = environ.get("HOST", "").strip()
    if not chosen:
        return default_route_address()
    try:
        address = ipaddress.ip_address(chosen.strip("[]"))
    except ValueError:
        raise CannotServe(
            f"HOST={chosen} is not an IP address: give this machine's address on "
            "the room's network, e.g. HOST=192.168.1.20"
        ) from None
    # An IPv6 link-local address needs its interface named in the URL, which phones do not take.
    if (
        address.is_loopback
        or address.is_unspecified
        or address.is_multicast
        or (address.version == 6 and address.is_link_local)
    ):
        raise CannotServe(
            f"HOST={chosen} is not an address phones can reach: give this "
            "machine's address on the room's network, e.g. HOST=192.168.1.20"
        )
    return address


def url_host(address: Address) -> str:
    """The address as a URL and the Host header write it (an IPv6 address in brackets)."""
    return f"[{address}]" if address.version == 6 else str(address)


def announcement(url: str) -> str:
    """What the terminal shows once the server listens: the address and its QR code. segno's
    compact drawing (two rows of modules a line) draws the light modules as blocks, for a dark
    terminal; the lines are set white on black, so the code reads the right way round on a light
    terminal too."""
    drawing = io.StringIO()
    segno.make(url, error="m").terminal(out=drawing, compact=True, border=2)
    code = "\n".join(f"\x1b[97;40m{line}\x1b[0m" for line in drawing.getvalue().splitlines())
    return (
        f"\nPhones open: {url}\n\n{code}\n\n"
        "Open it on this laptop too, and start a table there: its link and QR code bring the "
        "other phones.\nCtrl-C stops the server.\n"
    )


def server_environment(environ: Mapping[str, str]) -> tuple[dict[str, str], str]:
    """The production server's environment for a game night, and the address phones open."""
    address = machine_address(environ)
    port = environ.get("PORT", "8000").strip() or "8000"
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise CannotServe(f"PORT={port} is not a port number.")
    host = url_host(address)
    url = f"http://{host}:{port}/"
    secret = environ.get("SECRET_KEY", "").strip()
    if not secret and LOCAL_SECRET.exists():
        secret = LOCAL_SECRET.read_text().strip()
    if not secret:
        raise CannotServe("Set SECRET_KEY (make game-night keeps one in .venv/.local-secret-key).")
    return {
        **environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "SECRET_KEY": secret,
        # The address phones use is the only name the app answers to.
        "ALLOWED_HOSTS": host,
        # Plain HTTP in the room: no TLS proxy, so no redirect to HTTPS and cookies without
        # Secure (a phone would drop a Secure cookie over http and never keep its seat).
        "LOCAL_HTTP": "1",
        "BIND": f"{host}:{port}",
        "GAME_NIGHT_URL": url,
        # Every phone polls its table every 2 s: an access log would scroll the QR code away.
        "GUNICORN_ACCESS_LOG": os.devnull,
        "GUNICORN_CMD_ARGS": "--log-level warning",
    }, url


def main() -> None:
    environment, _ = server_environment(os.environ)
    python = sys.executable
    subprocess.run(
        [python, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT,
        env=environment,
        check=True,
    )
    gunicorn = str(Path(python).parent / "gunicorn")
    os.chdir(ROOT)
    os.execve(gunicorn, [gunicorn, "-c", "config/gunicorn.py"], environment)


if __name__ == "__main__":
    main()
