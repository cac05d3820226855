"""What entering a move at a table costs a player on a phone (issue 29): taps and scrolling.

Run with `make bench` (or `.venv/bin/python bench/pages.py`; `--steps` also lists each control
reached and the scroll it needed). It starts the app as deployed
(gunicorn, one worker, on a SQLite file of its own in the temp folder, migrated and with the
shipped catalog; BENCH_DATABASE_URL names another database), then drives Debian's headless
Chromium (/usr/bin/chromium-headless-shell, or TABLESIDE_CHROMIUM) as 390×844 touch phones, one
browser context per player, through:

(a) a Star Realms Academy turn entered at a table: Ana's phone opens "Break down a turn" from the
    table and enters her first turn (a hand of five, the shop row the table does not know yet,
    four ships played, an Ally ability, a buy with its refill, an attack and the end of the turn);
(b) a Factions move at a table (set up by the API as a game in progress): Ana's phone opens
    "Check a move" and enters her hand of three and an ATTACK on Ben's Peak Sentinel; then
    Ben's phone opens "Check a move" (the attack awaiting his answer filled in) and blocks it
    with a DEFENCE from his hand of two (the table's own page also offers him that answer as
    buttons: that page is not measured here);
(c) the rulebook's 66-point Star Trek: Missions hand by tiles, on the plain "Score a hand" page
    and on the one opened from a table (then entered at the table);
(d) that hand corrected from the table: "Score a hand" opened again (the hand comes back filled
    in), Bridge taken out, Ten Forward put in, entered again.

How it counts. A tap is one touch of the screen: a button, a tile, a chip, a text field (the
typing that follows is not a tap), and two for a <select> or a card-name field with a list of
suggestions (open the picker, choose in it). Scrolling is what the player must scroll to reach
each control: before each tap the control is brought into view as the player would
(Playwright's scrollIntoViewIfNeeded: not moved when already on screen, else centred) and the
change of window.scrollY that needed is added up; a scroll the page makes itself (a tile kept in
its place while the hand above it grows) is not the player's and is not counted. Two screens is
2 × 844 = 1,688 px. Each flow checks that its answer arrived (a turn ruled, a move ruled, 66
points), so a figure is never that of a flow that broke half-way.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

# Run as `python bench/pages.py`, this folder is first on sys.path, where bench/http.py would
# hide the standard library's http package (urllib.request imports it).
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)

import json  # noqa: E402
import os  # noqa: E402
import socket  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import urllib.request  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402

from playwright.sync_api import Browser, Locator, Page, expect, sync_playwright  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("TABLESIDE_CHROMIUM", "/usr/bin/chromium-headless-shell")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 1,
    "locale": "en-GB",
    "service_workers": "block",
}
SCREEN = PHONE["viewport"]["height"]

# (a) Ana's first turn. The table knows both players' Health and Coins and that nothing is in
# play; it does not know her hand nor the shop row (nobody entered it yet).
SRA_HAND = ["Survey Ship", "Imperial Frigate", "Corvette", "Scout", "Viper"]
SRA_SHOP = ["Freighter", "Ram", "The Hive", "Barter World", "Trade Pod"]
SRA_ACTIONS = [
    ("play", "Survey Ship"),
    ("play", "Imperial Frigate"),
    ("play", "Corvette"),
    ("play", "Scout"),
    ("use_ally", "Imperial Frigate"),
    ("buy", "Ram"),
    ("attack", "health"),
    ("end_turn", ""),
]
SRA_REFILL = "Blob World"  # the card that takes Ram's place in the row

# (b) A Factions game in progress: Ana controls Amber Coast, Ben Ashen Peaks with one unit left.
AMBER = ["Harbour Captain", "Tide Archer", "Dune Rider", "Net Caster", "Lighthouse Keeper"]
ASHEN = ["Peak Sentinel", "Ember Smith", "Cliff Runner", "Ash Seer", "Stone Drummer"]
FACTIONS_SETUP = {
    "factions": [
        {
            "name": "amber-coast",
            "controller": "Ana",
            "units": [{"name": n, "alive": True} for n in AMBER],
        },
        {
            "name": "ashen-peaks",
            "controller": "Ben",
            "units": [{"name": n, "alive": n == "Peak Sentinel"} for n in ASHEN],
        },
    ],
    "players": [
        {"name": "Ana", "faction": "amber-coast"},
        {"name": "Ben", "faction": "ashen-peaks"},
    ],
    "turn": "Ana",
}
FACTIONS_HAND = ["attack@amber-coast", "spy@ashen-peaks", "defence@amber-coast"]
FACTIONS_BEN_HAND = ["defence@ashen-peaks", "spy@amber-coast"]

# (c) The rulebook's scoring example, 66 points (tests/test_stm_score_api.py), tile by tile in
# the order of the picker's groups.
STM_TILES = [
    "commander-kurn",
    "commander-sela",
    "lieutenant-worf",
    "ambassador-kehleyr",
    "photon-torpedoes",
    "bridge",
    "diplomatic-conference",
]


# Whether an element is on the screen and its middle is not under anything else (a tap there
# reaches it).
ON_SCREEN = """element => {
  const box = element.getBoundingClientRect();
  if (box.top < 0 || box.bottom > window.innerHeight || box.left < 0 || box.right > window.innerWidth) {
    return false;
  }
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return hit !== null && (element === hit || element.contains(hit)
                          || (element.labels && [...element.labels].some(l => l.contains(hit))));
}"""


HIT = """element => { const b = element.getBoundingClientRect();
  const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
  return [b.top, b.bottom, window.innerHeight, hit && hit.outerHTML.slice(0, 80)]; }"""


@dataclass
class Walk:
    """One player's way through a page: the taps and the scrolling they needed."""

    page: Page
    taps: int = 0
    scrolled: float = 0.0
    # Of it, on the table's page to reach the link to the game's page (that page is not this
    # benchmark's subject, but the player scrolls it too).
    on_table_page: float = 0.0
    steps: list[str] = field(default_factory=list)

    def _reach(self, control: Locator) -> None:
        """Scroll to the control, as little as a player would: not at all when it is on the
        screen and nothing (the sticky score bar) covers its middle; else centred."""
        before = self.page.evaluate("() => window.scrollY")
        if not control.evaluate(ON_SCREEN):
            control.scroll_into_view_if_needed()
        if not control.evaluate(ON_SCREEN):  # e.g. under scroll-padding's margin: centred
            control.evaluate("element => element.scrollIntoView({block: 'center'})")
        moved = abs(self.page.evaluate("() => window.scrollY") - before)
        self.scrolled += moved
        self.steps.append(f"{moved:6.0f} px to {control}")

    def _touch(self, control: Locator) -> None:
        """A finger on the control's middle: no scrolling of Playwright's own."""
        if not control.evaluate(ON_SCREEN):
            raise AssertionError(
                f"{control} is not on the screen to be tapped: {control.evaluate(HIT)}"
            )
        box = control.bounding_box()
        assert box is not None
        self.page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

    def tap(self, control: Locator) -> None:
        self._reach(control)
        self._touch(control)
        self.taps += 1

    def type(self, control: Locator, text: str, *, suggested: bool = False) -> None:
        """Tap the field and type; with a list of suggestions, one more tap to choose it."""
        self._reach(control)
        self._touch(control)
        control.fill(text)
        self.taps += 2 if suggested else 1

    def choose(self, control: Locator, value: str) -> None:
        """A <select>: one tap opens it, one chooses."""
        self._reach(control)
        control.select_option(value)
        self.taps += 2


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def serve() -> tuple[subprocess.Popen[bytes], str]:
    url = (
        os.environ.get("BENCH_DATABASE_URL")
        or f"sqlite:///{Path(tempfile.gettempdir()) / 'tableside-bench-pages.sqlite3'}"
    )
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "WEB_CONCURRENCY": "1",
        "GUNICORN_ACCESS_LOG": "/dev/null",
    }
    for command in (["migrate", "--noinput", "-v0"], ["load_catalog", "-v0"]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True)
    env["PORT"] = str(free_port())
    process = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "-c", "config/gunicorn.py"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    site = f"http://127.0.0.1:{env['PORT']}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(site + "/api/games/", timeout=2):
                return process, site
        except OSError:
            time.sleep(0.3)
    process.terminate()
    raise SystemExit("the app server did not start")


def api(site: str, path: str, body: dict[str, Any], token: str = "") -> dict[str, Any]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(site + path, data=json.dumps(body).encode(), headers=headers)
    with urllib.request.urlopen(request) as response:  # noqa: S310 (our own server)
        answer: dict[str, Any] = json.load(response)
        return answer


def table(site: str, game: str) -> dict[str, Any]:
    created = api(site, "/api/tables/", {"game": game, "players": ["Ana", "Ben"]})
    return {"code": created["code"], "host": created["host_token"]}


def seat_phone(browser: Browser, site: str, code: str, seat: int, name: str) -> Page:
    """A phone that claimed its seat at the table (as a player does, by the table's link)."""
    page = browser.new_context(**PHONE).new_page()
    page.set_default_timeout(30_000)
    page.goto(f"{site}/t/{code}")
    page.get_by_role("button", name=f"I am {name} (seat {seat})").click()
    expect(page.locator(".lede")).to_have_text(f"You are {name} (seat {seat}).")
    return page


def open_job(page: Page, walk: Walk, label: str) -> None:
    """From the table's page, the game's page the table links to (one tap)."""
    link = page.locator(".table-jobs").get_by_role("link", name=label, exact=True)
    before = walk.scrolled
    walk.tap(link)
    walk.on_table_page += walk.scrolled - before
    page.wait_for_load_state("domcontentloaded")
    expect(page.get_by_role("heading", level=1)).to_be_visible()


def sra_turn(browser: Browser, site: str) -> Walk:
    code = table(site, "star-realms-academy")["code"]
    page = seat_phone(browser, site, code, 1, "Ana")
    walk = Walk(page)
    open_job(page, walk, "Break down a turn")
    for index, name in enumerate(SRA_HAND, start=1):
        walk.type(page.locator(f"#hand-{index}"), name, suggested=True)
    for index, name in enumerate(SRA_SHOP, start=1):
        walk.type(page.locator(f"#shop-row-{index}"), name, suggested=True)
    for index, (action, card) in enumerate(SRA_ACTIONS, start=1):
        walk.choose(page.locator(f"#action-{index}"), action)
        if action == "attack":
            walk.type(page.locator(f"#target-{index}"), card, suggested=True)
            walk.type(page.locator(f"#amount-{index}"), "3")
        elif card:
            walk.type(page.locator(f"#card-{index}"), card, suggested=True)
        if action == "buy":
            walk.type(page.locator(f"#refill-{index}"), SRA_REFILL, suggested=True)
    walk.tap(page.get_by_role("button", name="Break down the turn"))
    expect(page.locator("#sra-result h2").first).to_be_visible()
    page.context.close()
    return walk


def factions_move(browser: Browser, site: str) -> tuple[Walk, Walk]:
    created = table(site, "factions")
    code = created["code"]
    api(
        site,
        f"/api/tables/{code}/events/",
        {"kind": "setup", "seat": 1, "version": 1, "body": FACTIONS_SETUP},
        created["host"],
    )
    page = seat_phone(browser, site, code, 1, "Ana")
    walk = Walk(page)
    open_job(page, walk, "Check a move")
    for index, card in enumerate(FACTIONS_HAND, start=1):
        walk.choose(page.locator(f"#p1-hand-{index}"), card)
    walk.choose(page.locator("#action"), "play")
    walk.choose(page.locator("#card"), "attack@amber-coast")
    walk.choose(page.locator("#target_unit"), "ashen-peaks@peak-sentinel")
    walk.tap(page.get_by_role("button", name="Check the move"))
    expect(page.locator("#move-result h2").first).to_contain_text("Ruling")
    expect(page.locator("#move-result")).to_contain_text("Legal")
    page.context.close()

    # Ben's answer from his phone: he holds a DEFENCE and blocks the attack.
    ben = seat_phone(browser, site, code, 2, "Ben")
    defence = Walk(ben)
    open_job(ben, defence, "Check a move")
    for index, card in enumerate(FACTIONS_BEN_HAND, start=1):
        defence.choose(ben.locator(f"#p2-hand-{index}"), card)
    defence.choose(ben.locator("#action"), "defend")
    defence.choose(ben.locator("#card"), "defence@ashen-peaks")
    defence.tap(ben.get_by_role("button", name="Check the move"))
    expect(ben.locator("#move-result")).to_contain_text("Legal")
    ben.context.close()
    return walk, defence


def tap_tiles(page: Page, walk: Walk, slugs: list[str]) -> None:
    """Each tile, its group's chip first when another group is shown; each press waits for the
    tile to turn pressed or unpressed (its answer)."""
    for slug in slugs:
        tile = page.locator(f"#tile-{slug}")
        group = tile.evaluate("t => t.closest('.picker__panel').dataset.group")
        if not page.locator(f"#group-{group}").is_checked():
            walk.tap(page.locator(f"label[for='group-{group}']"))
            expect(tile).to_be_visible()
        pressed = tile.get_attribute("aria-pressed") == "true"
        walk.tap(tile)
        expect(page.locator(f"#tile-{slug}")).to_have_attribute(
            "aria-pressed", "false" if pressed else "true"
        )


def stm_plain(browser: Browser, site: str) -> Walk:
    page = browser.new_context(**PHONE).new_page()
    page.set_default_timeout(30_000)
    page.goto(site + "/games/star-trek-missions/score/")
    walk = Walk(page)
    tap_tiles(page, walk, STM_TILES)
    expect(page.locator(".score-total__value")).to_have_text("66")
    page.context.close()
    return walk


def enter_at_table(page: Page, walk: Walk, total: str) -> None:
    expect(page.locator(".score-total__value")).to_have_text(total)
    walk.tap(page.get_by_role("button", name="Enter this hand at the table"))
    expect(page.get_by_text("Entered at the table")).to_be_visible()


def stm_table(browser: Browser, site: str) -> tuple[Walk, Walk]:
    code = table(site, "star-trek-missions")["code"]
    page = seat_phone(browser, site, code, 1, "Ana")
    walk = Walk(page)
    open_job(page, walk, "Score a hand")
    tap_tiles(page, walk, STM_TILES)
    enter_at_table(page, walk, "66")

    # (d) Back at the table, the hand corrected: Bridge out, Ten Forward in.
    page.goto(f"{site}/t/{code}")
    correction = Walk(page)
    open_job(page, correction, "Score a hand")
    expect(page.locator("#hand .hand-card")).to_have_count(len(STM_TILES))
    tap_tiles(page, correction, ["bridge", "ten-forward"])
    total = page.locator(".score-total__value").inner_text()
    enter_at_table(page, correction, total)
    page.context.close()
    return walk, correction


def main() -> None:
    process, site = serve()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            attack, defence = factions_move(browser, site)
            rows = [
                ("(a) Star Realms Academy turn at a table", sra_turn(browser, site)),
                ("(b) Factions move at a table", attack),
                ("(b) the defender's DEFENCE, Check a move", defence),
                ("(c) 66-point hand, plain Score a hand", stm_plain(browser, site)),
            ]
            at_table, correction = stm_table(browser, site)
            rows += [
                ("(c) 66-point hand from a table, entered", at_table),
                ("(d) that hand corrected from the table", correction),
            ]
            browser.close()
    finally:
        process.terminate()
        process.wait(timeout=20)
    print(
        f"Phone {PHONE['viewport']['width']}×{SCREEN}; "
        f"scroll in px (a screen is {SCREEN} px), taps as bench/pages.py counts them"
    )
    print("scroll: in all; on the game's page (screens); on the table's page to its link")
    print(f"{'flow':<44}{'taps':>6}{'scroll':>8}{'page':>7}{'screens':>9}{'table':>7}")
    for label, walk in rows:
        own = walk.scrolled - walk.on_table_page
        print(
            f"{label:<44}{walk.taps:>6}{walk.scrolled:>8.0f}{own:>7.0f}{own / SCREEN:>9.2f}"
            f"{walk.on_table_page:>7.0f}"
        )
    if "--steps" in sys.argv:  # each control reached, and the scroll it needed
        for label, walk in rows:
            print(f"\n{label}", *walk.steps, sep="\n  ")


if __name__ == "__main__":
    main()
