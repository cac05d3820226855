"""`make game-night` (config/game_night.py, issue 29): the address phones open, the server's
environment for it, the QR code printed in the terminal, and the table page opened on a loopback
address, which says how to let the phones in instead of showing a link they cannot open."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import zxingcpp
from django.test import Client, override_settings
from PIL import Image

from config.game_night import (
    CannotServe,
    announcement,
    machine_address,
    server_environment,
    url_host,
)
from tests.netns import veth_namespace

ROOT = Path(__file__).resolve().parent.parent
ANSI = re.compile(r"\x1b\[[0-9;]*m")
# segno's compact drawing: one character is two modules, top and bottom; its ink is the light
# modules (drawn for a dark terminal, which the announcement sets).
HALVES = {"█": (255, 255), "▀": (255, 0), "▄": (0, 255), " ": (0, 0)}


def scan_terminal_code(text: str) -> list[str]:
    """What a phone's camera reads off the QR code in the terminal: the drawing made an image
    (each module 4 pixels, light where segno drew ink, dark where the terminal's black shows),
    decoded by zxing-cpp."""
    lines = [ANSI.sub("", line) for line in text.splitlines() if "\x1b[97;40m" in line]
    width = max(len(line) for line in lines)
    rows: list[list[int]] = []
    for line in lines:
        halves = [HALVES[char] for char in line.ljust(width)]
        rows.append([top for top, _ in halves])
        rows.append([bottom for _, bottom in halves])
    scale, margin = 4, 16
    image = Image.new("L", (width * scale + 2 * margin, len(rows) * scale + 2 * margin), 255)
    for y, row in enumerate(rows):
        for x, shade in enumerate(row):
            image.paste(
                shade,
                (
                    margin + x * scale,
                    margin + y * scale,
                    margin + (x + 1) * scale,
                    margin + (y + 1) * scale,
                ),
            )
    return [code.text for code in zxingcpp.read_barcodes(image)]


def test_the_terminal_shows_the_address_and_a_qr_code_a_phone_reads_as_it():
    text = announcement("http://10.213.0.1:8000/")
    assert "Phones open: http://10.213.0.1:8000/" in text
    assert scan_terminal_code(text) == ["http://10.213.0.1:8000/"]
    # Its neighbour: another address draws another code, read as that one.
    assert scan_terminal_code(announcement("http://10.213.0.5:8000/")) == [
        "http://10.213.0.5:8000/"
    ]


def test_host_chooses_the_address_and_the_server_is_set_for_it_alone():
    environment, url = server_environment(
        {"HOST": "10.213.7.1", "PORT": "8123", "SECRET_KEY": "k" * 50}
    )
    assert url == "http://10.213.7.1:8123/"
    assert environment["DJANGO_SETTINGS_MODULE"] == "config.settings.production"
    assert environment["ALLOWED_HOSTS"] == "10.213.7.1"
    assert environment["BIND"] == "10.213.7.1:8123"
    assert environment["LOCAL_HTTP"] == "1"
    assert environment["GAME_NIGHT_URL"] == url


def test_an_ipv6_address_is_written_in_brackets():
    environment, url = server_environment({"HOST": "fd00::5", "SECRET_KEY": "k" * 50})
    assert url == "http://[fd00::5]:8000/"
    assert environment["ALLOWED_HOSTS"] == "[fd00::5]"
    assert url_host(machine_address({"HOST": "[fd00::5]"})) == "[fd00::5]"


@pytest.mark.parametrize(
    "chosen, said",
    [
        ("127.0.0.1", "not an address phones can reach"),
        ("::1", "not an address phones can reach"),
        ("0.0.0.0", "not an address phones can reach"),
        ("fe80::1", "not an address phones can reach"),
        ("my-laptop", "is not an IP address"),
    ],
)
def test_an_address_no_phone_can_reach_is_refused_with_what_to_type(chosen, said):
    with pytest.raises(CannotServe) as refused:
        machine_address({"HOST": chosen})
    assert said in str(refused.value) and "HOST=192.168.1.20" in str(refused.value)
    # Its legal neighbour: an address of the room's network is taken as it is.
    assert str(machine_address({"HOST": "192.168.1.20"})) == "192.168.1.20"


def test_a_port_that_is_no_port_is_refused():
    with pytest.raises(CannotServe, match="PORT=80a is not a port number"):
        server_environment({"HOST": "10.213.7.1", "PORT": "80a", "SECRET_KEY": "k" * 50})


FIND = [
    sys.executable,
    "-c",
    "from config.game_night import machine_address; print(machine_address({}))",
]


def test_without_host_the_address_is_the_default_routes_interface():
    """In a namespace of the test's own, whose default route leaves by its veth end: the address
    found is that end's. Finding it sends nothing (a UDP socket's connect)."""
    with veth_namespace(default_route=True) as namespace:
        found = subprocess.run(
            namespace.command(*FIND), cwd=ROOT, capture_output=True, text=True, timeout=60
        )
    assert found.returncode == 0, found.stderr
    assert found.stdout.strip() == namespace.inner


def test_without_a_network_the_command_says_how_to_choose_an_address():
    """The same namespace without its default route: no address to find, and the message says
    what to do (exit status 1)."""
    with veth_namespace() as namespace:
        found = subprocess.run(
            namespace.command(*FIND), cwd=ROOT, capture_output=True, text=True, timeout=60
        )
    assert found.returncode == 1
    assert "This machine is on no network" in found.stderr
    assert "make game-night HOST=192.168.1.20" in found.stderr


def addresses(*namespace: str) -> str:
    """The IPv4 addresses of this machine's namespace, or of the one named (`ip -n NAME`)."""
    return subprocess.run(
        ["ip", *namespace, "-4", "-o", "addr", "show"], capture_output=True, text=True, check=True
    ).stdout


def links() -> str:
    return subprocess.run(
        ["ip", "-o", "link", "show"], capture_output=True, text=True, check=True
    ).stdout


def test_the_rooms_namespaces_leave_this_machines_interfaces_alone():
    """Both ends of the veth pair are in namespaces of the test's own: a browser test on another
    worker, whose Chromium fails its requests in flight when an interface or address of its
    namespace comes or goes (net::ERR_NETWORK_CHANGED), sees nothing of the game night's."""
    before = links(), addresses()
    with veth_namespace(default_route=True) as namespace:
        during = links(), addresses()
        server, phone = addresses("-n", namespace.server), addresses("-n", namespace.name)
    assert during == before
    assert (links(), addresses()) == before
    assert namespace.outer not in before[1] and namespace.inner not in before[1]
    # Its legal neighbour: the pair's addresses are there, each in its own namespace.
    assert f"inet {namespace.outer}/30" in server and namespace.inner not in server
    assert f"inet {namespace.inner}/30" in phone and namespace.outer not in phone


def start(client: Client, host: str) -> str:
    response = client.post(
        "/t/", {"game": "academy-credits", "players": "Ana\nBen"}, HTTP_HOST=host
    )
    assert response.status_code == 302, response.content.decode()[:500]
    return response["Location"].rsplit("/", 1)[1]


@pytest.mark.django_db
@override_settings(ALLOWED_HOSTS=["*"])
@pytest.mark.parametrize(
    "host", ["127.0.0.1:8000", "localhost:8000", "127.8.9.1", "[::1]:8000", "localhost"]
)
def test_a_table_opened_on_loopback_says_how_to_let_the_phones_in(host):
    client = Client()
    code = start(client, host)
    html = client.get(f"/t/{code}", HTTP_HOST=host).content.decode()
    assert "an address of this computer alone: other phones cannot open it" in html
    assert "make game-night" in html
    assert 'class="share__url"' not in html and "table-qr__code" not in html


@pytest.mark.django_db
@override_settings(ALLOWED_HOSTS=["*"])
@pytest.mark.parametrize(
    "host", ["10.213.0.1:8000", "192.168.1.20", "[fd00::5]:8000", "128.0.0.1:8000"]
)
def test_a_table_opened_on_the_rooms_address_shows_its_link_and_qr_code(host):
    client = Client()
    code = start(client, host)
    html = client.get(f"/t/{code}", HTTP_HOST=host).content.decode()
    link = f"http://{host}/t/{code}"
    assert f'<a href="{link}" class="share__url">{link}</a>' in html
    assert f"QR code of {link}" in html
    assert "other phones cannot open it" not in html
