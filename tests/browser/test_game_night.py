"""Issue 29, hosting: `make game-night` serves the phones of the room, and a page opened on loopback
says how to let them in.

The game night runs as `make game-night` runs it once the database is set up (`python -m
config.game_night`: collectstatic, then gunicorn with the production settings, on its default
port) in a network namespace of its own, the laptop, on its end of a veth pair to another, the
room, both made by the test (tests/netns.py): the phones' Chromium runs in the room's namespace,
so its only way to the server is that network, as a phone's is the room's Wi-Fi. The host's
browser opens the address the command printed, starts a table, and the four phones come in by its
QR code, read off the page as a camera would, and claim their seats. Then the game night's "done when" (issue 29): four phones at a Star Trek:
Missions table, each on "Score a hand" opened from the table, enter their hands in the same second
and all four are recorded, the standings the stateless whole-table score's. On SQLite, and on
PostgreSQL under scripts/with-postgres (the server's database is made on its DATABASE_URL)."""

from __future__ import annotations

import io
import json
import os
import re
import secrets
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import quote, urlsplit

import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import expect

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.browser.phone import PHONE, POLLED
from tests.browser.test_tables_entries import HANDS, card_names, pick
from tests.browser.watched import watched_page
from tests.netns import veth_namespace
from tests.test_game_night import scan_terminal_code

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent.parent
PLAYERS = ["Ana", "Ben", "Cy", "Dee"]
PRINTED = re.compile(r"Phones open: (http://\S+/)")


class Output:
    """The command's output, read as it comes (a thread), until it prints the address."""

    def __init__(self, process: subprocess.Popen) -> None:
        self.text = ""
        self.printed = threading.Event()
        self.thread = threading.Thread(target=self._read, args=(process,), daemon=True)
        self.thread.start()

    def _read(self, process: subprocess.Popen) -> None:
        for line in process.stdout:
            self.text += line
            # The whole announcement: the address, its code, and the line after it.
            if "Ctrl-C stops the server" in line:
                self.printed.set()
        self.printed.set()  # the command ended: whatever it printed is all there is


# The game night (its database set up, the server started, the room's browser launched: about
# 25 s, most of this module's time) is made once for the module's two tests of it. Each starts a
# table of its own, by its own code, and reads nothing but that table, so neither sees the other's.
@pytest.fixture(scope="module")
def database(tmp_path_factory):
    """A database of the module's own: a fresh SQLite file, or a fresh database on the PostgreSQL
    of DATABASE_URL (scripts/with-postgres), dropped afterwards."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        yield f"sqlite:///{tmp_path_factory.mktemp('game-night') / 'game-night.sqlite3'}"
        return
    import psycopg

    name = f"tableside_game_night_{secrets.token_hex(4)}"
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}")
        sockets = connection.execute("SHOW unix_socket_directories").fetchone()[0]
        port = connection.execute("SHOW port").fetchone()[0]
    try:
        # The server runs in a network namespace of its own (tests/netns.py), whose loopback is
        # not this machine's: it reaches PostgreSQL by its Unix socket, a file every namespace sees.
        socket_folder = sockets.split(",")[0].strip()
        if not socket_folder:
            pytest.fail(
                "The game night's server reaches PostgreSQL by its Unix socket, and DATABASE_URL's "
                "server has none: run the suite on a PostgreSQL of this machine "
                "(scripts/with-postgres)."
            )
        user = urlsplit(url).username or "postgres"
        yield f"postgres://{user}@:{port}/{name}?host={quote(socket_folder, safe='/')}"
    finally:
        with psycopg.connect(url, autocommit=True) as connection:
            connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture(scope="module")
def game_night(database):
    """The game night served on the laptop's end of the veth pair: (the namespaces, the address
    the command printed, all it printed)."""
    env = {
        **os.environ,
        "DATABASE_URL": database,
        "SECRET_KEY": secrets.token_urlsafe(50),
        "WEB_CONCURRENCY": "2",
    }
    env.pop("DJANGO_SETTINGS_MODULE", None)
    # What `make game-night`'s `setup` does first (development settings, as there).
    setup = {**env, "DJANGO_SETTINGS_MODULE": "config.settings.development"}
    for command in (["migrate", "--noinput", "-v0"], ["load_catalog", "-v0"]):
        subprocess.run(
            [sys.executable, "manage.py", *command], cwd=ROOT, env=setup, check=True, timeout=300
        )
    with veth_namespace() as namespace:
        # make game-night's own port, free in a namespace of the server's own.
        env.update(HOST=namespace.outer, PORT="8000")
        process = subprocess.Popen(
            namespace.server_command(sys.executable, "-m", "config.game_night"),
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        output = Output(process)
        try:
            output.printed.wait(timeout=240)
            printed = PRINTED.search(output.text)
            if printed is None or process.poll() is not None:
                pytest.fail(f"the game night is not serving; it printed:\n{output.text}")
            yield namespace, printed.group(1), output.text
        finally:
            process.terminate()  # gunicorn's master: it stops its workers
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)


@pytest.fixture(scope="module")
def room_browser(browser, game_night, tmp_path_factory):
    """Chromium inside the namespace: the room's phones (and the host's laptop browser), whose
    one network is the veth pair."""
    namespace = game_night[0]
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: run `make chromium` (Debian's package).")
    launcher = tmp_path_factory.mktemp("room") / "chromium-in-the-room"
    launcher.write_text(f'#!/bin/sh\nexec ip netns exec {namespace.name} {CHROMIUM} "$@"\n')
    launcher.chmod(0o755)
    # The suite's Playwright (one a thread) launches it, beside the suite's own browser.
    room = browser.browser_type.launch(
        executable_path=str(launcher), args=CHROMIUM_ARGS, timeout=60_000
    )
    yield room
    room.close()


def asked_in_the_room(page, url: str, body: object = None) -> tuple[int, str]:
    """The status and text of the answer to a GET of url, or a POST of body as JSON, sent by the
    page's browser: the test's own process is on neither side of the veth pair (tests/netns.py).
    Given up after 60 s, as the request it replaces was: a server that never answers fails the
    test rather than hanging it."""
    answer = page.evaluate(
        """async ([url, body]) => {
            const sent = body === null ? {} : {
                method: "POST",
                headers: {"Content-Type": "application/json"},
                body: JSON.stringify(body),
            };
            const answer = await fetch(url, {...sent, signal: AbortSignal.timeout(60000)});
            return {status: answer.status, text: await answer.text()};
        }""",
        [url, body],
    )
    return answer["status"], answer["text"]


def scan(locator) -> list[str]:
    """What a phone's camera reads off the QR code on the screen (a screenshot of it)."""
    shot = Image.open(io.BytesIO(locator.screenshot()))
    return [code.text for code in zxingcpp.read_barcodes(shot)]


def test_four_phones_reach_the_table_through_the_printed_address(game_night, room_browser):
    namespace, printed, terminal = game_night
    site = printed.rstrip("/")
    # The address is the veth end's, not loopback, and the terminal's QR code reads as it.
    assert printed == f"http://{namespace.outer}:{urlsplit(printed).port}/"
    assert scan_terminal_code(terminal) == [printed]
    # The production server: no debug pages (a 404 is the plain page, no URL list).
    with watched_page(room_browser, site, timeout=20_000, locale="en-GB") as host:
        missing = host.goto(printed + "no-such-page")
        assert missing.status == 404
        assert "Using the URLconf" not in host.content()
        assert missing.headers.get("content-security-policy")

        host.goto(printed)
        host.get_by_role("link", name="Academy Credits", exact=True).first.click()
        host.get_by_role("link", name="Start a table").click()
        host.get_by_label("Players, one name a line, in seat order").fill("\n".join(PLAYERS))
        host.get_by_role("button", name="Start the table").click()
        expect(host.get_by_role("heading", level=1)).to_have_text("Academy Credits table")
        code = urlsplit(host.url).path.rsplit("/", 1)[1]
        link = f"{printed}t/{code}"
        share = host.locator(".table-share")
        expect(share.locator("a.share__url")).to_have_text(link)
        expect(share.locator("a.share__url")).to_have_attribute("href", link)
        expect(share.locator(".table-share__loopback")).to_have_count(0)
        assert scan(share.locator("svg.table-qr__code")) == [link]

        phones = []
        try:
            for seat, name in enumerate(PLAYERS, start=1):
                phone = watched_page(room_browser, site, timeout=20_000, **PHONE, locale="en-GB")
                page = phone.__enter__()
                phones.append(phone)
                page.goto(link)  # what the camera read
                page.get_by_role("button", name=f"I am {name} (seat {seat})").click()
                expect(page.locator(".lede")).to_have_text(f"You are {name} (seat {seat}).")
                # The seat's cookie is kept over plain HTTP (no Secure flag on the room's
                # network), for this table's path only.
                cookie = next(c for c in page.context.cookies() if c["name"] == f"seat_{code}")
                assert cookie["secure"] is False and cookie["path"] == f"/t/{code}"
            # The host's page hears of the four claims by its polls, over the same network...
            expect(host.locator("#table-live").get_by_role("cell", name="Claimed")).to_have_count(
                4, timeout=POLLED
            )
            # ...and, opened again, has no seat left to claim.
            host.reload()
            expect(host.locator(".table-claims li")).to_have_count(0)
        finally:
            for phone in phones:
                phone.__exit__(None, None, None)


def ready_to_tap(page) -> dict:
    """Where the phone's finger lands on "Enter this hand at the table": the button scrolled into
    view and, at its centre, nothing else on top of it."""
    button = page.locator("#at-table-button")
    button.scroll_into_view_if_needed()
    expect(button).to_be_enabled()
    box = button.bounding_box()
    point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
    assert page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).closest('#at-table-button') !== null",
        [point["x"], point["y"]],
    )
    return point


def test_four_phones_enter_their_hands_from_score_a_hand_in_one_second(game_night, room_browser):
    """The "done when" of issue 29: through the printed address, four phones claim their seats,
    open Score a hand from the table, pick seven tiles each, and tap "Enter this hand at the
    table" together: 4 of 4 recorded, and the standings the table shows are the API's stateless
    score of the four hands."""
    namespace, printed, _ = game_night
    site = printed.rstrip("/")
    with watched_page(room_browser, site, timeout=20_000, locale="en-GB") as host:
        host.goto(printed + "t/?game=star-trek-missions")
        host.get_by_label("Players, one name a line, in seat order").fill("\n".join(HANDS))
        host.get_by_role("button", name="Start the table").click()
        expect(host.get_by_role("heading", level=1)).to_have_text("Star Trek: Missions table")
        link = scan(host.locator(".table-share svg.table-qr__code"))[0]  # the phones' camera
        assert link.startswith(printed + "t/")

        phones, pages = [], {}
        try:
            for seat, name in enumerate(HANDS, start=1):
                phone = watched_page(room_browser, site, timeout=20_000, **PHONE, locale="en-GB")
                page = phone.__enter__()
                phones.append(phone)
                page.goto(link)
                page.get_by_role("button", name=f"I am {name} (seat {seat})").click()
                expect(page.locator(".lede")).to_have_text(f"You are {name} (seat {seat}).")
                pages[name] = page
            names, taps = {}, {}
            for name, page in pages.items():
                page.locator(".table-jobs").get_by_role("link", name="Score a hand").click()
                expect(page.get_by_role("heading", level=1)).to_have_text("Score a hand")
                pick(page, HANDS[name])
                expect(page.locator(".score-total__value")).to_be_visible()
                names[name] = card_names(page, HANDS[name])
                taps[name] = ready_to_tap(page)
            # The barrier: the four pages ready, the four taps are let go back to back (one
            # touch event each, no waiting for the page between them), before any answer.
            sent: dict[str, list] = {name: [] for name in pages}
            for name, page in pages.items():
                page.on(
                    "request",
                    lambda request, name=name: (
                        sent[name].append(request) if request.method == "POST" else None
                    ),
                )
            for name, page in pages.items():
                page.touchscreen.tap(taps[name]["x"], taps[name]["y"])
            for name, page in pages.items():
                expect(page.locator("#at-table")).to_contain_text(
                    f"Entered at the table as {name}", timeout=60_000
                )
                expect(page.locator("#form-conflict")).to_have_count(0)
            # Each phone sent its hand once: no retry.
            assert [len(requests) for requests in sent.values()] == [1] * 4, sent
            # How far apart the four left (a figure, not a condition: a loaded machine may
            # spread them, and the four must be recorded all the same).
            starts = [requests[0].timing["startTime"] for requests in sent.values()]
            print(f"\nthe four hands left within {max(starts) - min(starts):.0f} ms")

            # 4 of 4 recorded, read as a player reads the table page.
            host.goto(link)
            live = host.locator("#table-live")
            expect(live.locator(".table-players tbody tr td:nth-child(4)")).to_have_text(
                ["Entered"] * 4
            )
            expect(live.locator(".table-history li")).to_have_count(4)
            status, text = asked_in_the_room(
                host,
                printed + "api/games/star-trek-missions/score/",
                {"players": [{"name": name, "hand": names[name]} for name in HANDS]},
            )
            assert status == 200, text[:300]
            score = json.loads(text)
            expect(live.locator(".table-standings li")).to_have_text(
                [
                    f"{row['name']} {row['total']} point{'' if row['total'] == 1 else 's'}"
                    + (f" ({row['margin']} behind)" if row["margin"] else "")
                    for row in score["standings"]
                ]
            )
            winners = score["winners"]
            expect(live.locator(".table-headline")).to_have_text(
                f"{winners[0]} wins."
                if len(winners) == 1
                else f"{', '.join(winners)} share victory."
            )
            # The stored table says the same (the hands as picked, in seat order).
            status, text = asked_in_the_room(
                host, printed + f"api/tables/{link.rsplit('/', 1)[1]}/"
            )
            assert status == 200, text[:300]
            table = json.loads(text)
            assert table["state"]["cards"] == [names[name] for name in HANDS]
            assert table["state"]["standings"] == score["standings"]
        finally:
            for phone in phones:
                phone.__exit__(None, None, None)


def test_a_table_opened_on_loopback_says_how_to_let_the_phones_in(browser, site):
    with watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as host:
        host.goto(site + "/t/?game=academy-credits")
        host.get_by_label("Players, one name a line, in seat order").fill("Ana\nBen")
        host.get_by_role("button", name="Start the table").click()
        expect(host.get_by_role("heading", level=1)).to_have_text("Academy Credits table")
        share = host.locator(".table-share")
        expect(share).to_contain_text(
            f"This page is open at {urlsplit(site).netloc}, an address of this computer alone: "
            "other phones cannot open it."
        )
        expect(share).to_contain_text(
            "run make game-night on this computer, then open the address it prints"
        )
        expect(share.locator("a.share__url")).to_have_count(0)
        expect(share.locator("svg")).to_have_count(0)
