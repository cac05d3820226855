"""Screenshots of the four games' main pages at phone and desktop size, for the README.

Run against a running server (`make run`, or PORT=… make run): `.venv/bin/python
scripts/screenshots.py [http://127.0.0.1:8000]`. Each page is opened filled in, the way a player
reaches it from "Score again" / "Check again" on a saved answer: the schema's example request of
each game is posted to the API, and the saved result's page gives the form's filled-in address.
Debian's Chromium drives it (no browser download). Writes docs/screenshots/<page>-<size>.png (the whole page, answer included).
Then, on a phone, what one screen shows (issue 23): the tile picker with part of a hand tapped in
(star-trek-missions-tile-picker-phone.png), and the score page as installed and offline, a hand
entered with the network cut and waiting to be scored (star-trek-missions-offline-phone.png).
`--game-night http://ADDR:PORT` instead takes the table of a game night (`make game-night`, the
address it printed): game-night-table-desktop.png.
"""

from __future__ import annotations

import json
import re
import sys
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

OUT = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
SIZES = {
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "is_mobile": True,
        "has_touch": True,
        "device_scale_factor": 1,
    },
    "desktop": {"viewport": {"width": 1366, "height": 900}},
}
# (file name, endpoint, the schema example's name): each game's main job.
PAGES = [
    ("star-trek-missions-score", "score", "Star-trek-missions:AFinalHand"),
    ("academy-credits-check-play", "rulings", "Academy-credits"),
    ("star-realms-academy-check-move", "rulings", "Star-realms-academy"),
    ("factions-check-move", "rulings", "Factions"),
]


def get(url: str) -> bytes:
    with urllib.request.urlopen(url) as response:  # noqa: S310 (our own server)
        return response.read()


def post(url: str, body: dict) -> dict:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request) as response:  # noqa: S310 (our own server)
        return json.loads(response.read())


def filled_form_url(site: str, endpoint: str, example: str, schema: dict) -> str:
    operation = schema["paths"][f"/api/games/{{game}}/{endpoint}/"]["post"]
    body = operation["requestBody"]["content"]["application/json"]["examples"][example]["value"]
    game = example.split(":")[0].lower()
    saved = post(f"{site}/api/games/{game}/{endpoint}/", body)
    page = get(site + saved["url"]).decode()
    again = re.search(r'href="([^"]+)">(?:Score|Check) again</a>', page)
    return site + again.group(1).replace("&amp;", "&")


def main() -> None:
    if sys.argv[1:2] == ["--game-night"]:
        return game_night(sys.argv[2].rstrip("/"))
    site = (sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000").rstrip("/")
    schema = json.loads(get(site + "/api/schema/?format=json"))
    OUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS
        )
        for name, endpoint, example in PAGES:
            url = filled_form_url(site, endpoint, example, schema)
            for size, options in SIZES.items():
                context = browser.new_context(**options, locale="en-GB")
                page = context.new_page()
                page.goto(url)
                page.wait_for_load_state("networkidle")
                path = OUT / f"{name}-{size}.png"
                page.screenshot(path=str(path), full_page=True)
                print(path.relative_to(OUT.parent.parent))
                context.close()
        tile_picker(browser, site)
        offline(browser, site)
        browser.close()


SCORE = "/games/star-trek-missions/score/"


def tap_tiles(page, slugs: list[str]) -> None:
    for slug in slugs:
        tile = page.locator(f"#tile-{slug}")
        group = tile.evaluate("t => t.closest('.picker__panel').dataset.group")
        if not page.locator(f"#group-{group}").is_checked():
            page.locator(f"label[for='group-{group}']").tap()
        page.locator(f"#tile-{slug}").tap()
        page.wait_for_selector(f"#tile-{slug}[aria-pressed='true']")


def tile_picker(browser, site: str) -> None:
    context = browser.new_context(**SIZES["phone"], locale="en-GB")
    page = context.new_page()
    page.goto(site + SCORE)
    tap_tiles(page, ["commander-kurn", "commander-sela", "lieutenant-worf", "ambassador-kehleyr"])
    page.wait_for_load_state("networkidle")
    page.locator("#cards").evaluate("picker => picker.scrollIntoView({block: 'start'})")
    path = OUT / "star-trek-missions-tile-picker-phone.png"
    page.screenshot(path=str(path))
    print(path.relative_to(OUT.parent.parent))
    context.close()


def offline(browser, site: str) -> None:
    context = browser.new_context(**SIZES["phone"], locale="en-GB")
    page = context.new_page()
    page.goto(site + SCORE)
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller")
    context.set_offline(True)
    page.reload()  # served by the service worker, from its cache
    tap_tiles(
        page,
        [
            "commander-kurn",
            "commander-sela",
            "lieutenant-worf",
            "ambassador-kehleyr",
            "photon-torpedoes",
            "bridge",
            "diplomatic-conference",
        ],
    )
    page.evaluate("() => window.scrollTo(0, 0)")
    path = OUT / "star-trek-missions-offline-phone.png"
    page.screenshot(path=str(path))
    print(path.relative_to(OUT.parent.parent))
    context.set_offline(False)
    context.close()


def game_night(site: str) -> None:
    """The README's game night (issue 29): the host's table on the laptop, as `make game-night`
    serves it (`scripts/screenshots.py --game-night http://ADDR:PORT`, the address it printed),
    with two of four phones in. On a loopback address the page would show no link nor QR code."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS
        )
        host = browser.new_context(**SIZES["desktop"], locale="en-GB").new_page()
        host.goto(site + "/t/?game=academy-credits")
        host.get_by_label("Players, one name a line, in seat order").fill("Ana\nBen\nCy\nDee")
        host.get_by_role("button", name="Start the table").click()
        host.wait_for_selector("svg.table-qr__code")
        for seat, name in enumerate(["Ana", "Ben"], start=1):
            phone = browser.new_context(**SIZES["phone"], locale="en-GB").new_page()
            phone.goto(host.url)
            phone.get_by_role("button", name=f"I am {name} (seat {seat})").click()
            phone.wait_for_selector(".lede")
        host.reload()
        host.wait_for_load_state("networkidle")
        path = OUT / "game-night-table-desktop.png"
        # What the laptop's screen shows at the foot of the table's page: its link and QR code.
        host.locator(".table-share").evaluate("part => part.scrollIntoView({block: 'end'})")
        host.screenshot(path=str(path))
        print(path.relative_to(OUT.parent.parent))
        browser.close()


if __name__ == "__main__":
    main()
