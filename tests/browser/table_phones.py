"""Phones at one table for the tests of the table's page (issue 29): the host's, a guest's that
claims its seat, one without a seat; what each shows on its first screen; entries sent as another
phone would (the API, with that phone's token).

The site is conftest's `room_site`: the live server under a name that is not loopback, so the
host's page shows the table's QR code, as in a room whose phones come in over the Wi-Fi."""

from __future__ import annotations

import io
import json
import time
import urllib.request
from contextlib import ExitStack
from urllib.parse import unquote

import zxingcpp
from PIL import Image
from playwright.sync_api import expect

from tests.browser.phone import PHONE
from tests.browser.watched import watched_page


class Table:
    """A table started on the host's phone, with the other phones opened on it."""

    def __init__(
        self, browser, room: str, site: str, game: str, players: list[str], stack: ExitStack
    ) -> None:
        self.browser, self.room, self.site, self.stack = browser, room, site, stack
        self.host = self.phone()
        self.host.goto(f"{room}/t/?game={game}")
        self.host.get_by_label("Players, one name a line, in seat order").fill("\n".join(players))
        self.host.get_by_role("button", name="Start the table").click()
        expect(self.host.locator("#glance-line")).to_be_visible()
        self.link = self.host.url
        self.code = self.link.rstrip("/").rsplit("/", 1)[-1]

    def phone(self, **options):
        return self.stack.enter_context(
            watched_page(
                self.browser, self.room, timeout=15_000, **{**PHONE, **options}, locale="en-GB"
            )
        )

    def seated(self, name: str, seat: int):
        page = self.phone()
        page.goto(self.link)
        page.get_by_role("button", name=f"I am {name} (seat {seat})").click()
        expect(page.locator(".lede")).to_have_text(f"You are {name} (seat {seat}).")
        return page

    def seatless(self):
        page = self.phone()
        page.goto(self.link)
        expect(page.locator("#glance-line")).to_be_visible()
        return page

    def token(self, page, name: str) -> str:
        cookie = next(cookie for cookie in page.context.cookies() if cookie["name"] == name)
        value = unquote(cookie["value"]).strip('"')
        return value.partition(":")[2] if name.startswith("seat_") else value

    def seat_token(self, page) -> str:
        return self.token(page, f"seat_{self.code}")

    def host_token(self) -> str:
        return self.token(self.host, f"host_{self.code}")

    def read(self) -> dict:
        """The table as the API gives it now."""
        with urllib.request.urlopen(f"{self.site}/api/tables/{self.code}/") as response:
            return json.load(response)

    def send(self, token: str, body: dict) -> dict:
        """An event sent as another phone would, on the table's version now."""
        version = self.read()["version"]
        request = urllib.request.Request(
            f"{self.site}/api/tables/{self.code}/events/",
            method="POST",
            data=json.dumps({**body, "version": version}).encode(),
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
        )
        with urllib.request.urlopen(request) as response:
            return json.load(response)


# The text of the first screen: every text whose box lies within the viewport's height at
# scroll 0, in document order (what a player reads without scrolling).
FIRST_SCREEN = """() => {
  window.scrollTo(0, 0);
  const height = window.innerHeight;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const parts = [];
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!node.textContent.trim()) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const box = range.getBoundingClientRect();
    if (box.width > 0 && box.height > 0 && box.top >= 0 && box.bottom <= height) {
      parts.push(node.textContent.trim().replace(/\\s+/g, " "));
    }
  }
  return parts.join(" ");
}"""


def first_screen(page) -> str:
    return page.evaluate(FIRST_SCREEN)


# Scrolled to the top and measured in one step of the page's own: nothing is swapped between.
MEASURE_AT_THE_TOP = """element => {
  if (!element.isConnected) {
    return null;
  }
  window.scrollTo(0, 0);
  const box = element.getBoundingClientRect();
  return { top: box.top, height: box.height, screen: window.innerHeight };
}"""


def on_first_screen(page, locator) -> bool:
    """Whether the element is drawn whole within the first screen (at scroll 0). A poll that
    brings a change redraws the glance (out of band), and the element found may be gone by the
    time it is measured: it is found and measured again then, for up to five seconds."""
    deadline = time.monotonic() + 5
    while True:
        box = locator.evaluate(MEASURE_AT_THE_TOP)
        if (box is not None and box["height"] > 0) or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    return (
        box is not None
        and box["height"] > 0
        and box["top"] >= 0
        and box["top"] + box["height"] <= box["screen"]
    )


def assert_glance(
    page, *, line: str, button: str | None, host: bool = False, undo: str | None = None
) -> None:
    """The first screen shows the turn line, the phone's one button (or none) and, on the host's
    phone, the QR code and the undo (when there is an entry to undo)."""
    expect(page.locator("#glance-line")).to_have_text(line)
    if button is None:
        expect(page.locator("#glance-button")).to_have_count(0)
    else:
        expect(page.locator("#glance-button")).to_have_text(button)
        assert on_first_screen(page, page.locator("#glance-button")), button
    if undo is not None:
        expect(page.locator("#undo-button")).to_contain_text(undo)
        assert on_first_screen(page, page.locator("#undo-button"))
    text = first_screen(page)
    assert line in text, text
    if button is not None:
        assert button in text, text
        # The one primary button of the first screen is the glance's.
        first_primary = page.locator("main .button:not(.button--quiet)").first
        expect(first_primary).to_have_text(button)
    if undo is not None:
        assert undo in text, text
    if host:
        qr = page.locator(".table-glance svg.table-qr__code")
        expect(qr).to_have_count(1)
        assert on_first_screen(page, qr), "the QR code is below the first screen"
        # Small, it still reads as the table's link (a camera reads it off the screen).
        shot = Image.open(io.BytesIO(qr.screenshot()))
        table = page.url.split("?")[0].split("#")[0]
        read = [code.text for code in zxingcpp.read_barcodes(shot)]
        assert read == [table], (read, table, shot.size)
    else:
        expect(page.locator(".table-glance svg")).to_have_count(0)


# Every table cell drawn whole: its right edge within its scrolling container's (the nearest
# ancestor that clips or scrolls, else the viewport); the cells cut off, as "text (px > px)".
# A header row hidden for the eye and kept for screen readers (a 1 px clipped box, the stacked
# table on a phone) is not drawn: its cells are not looked at.
CLIPPED_CELLS = """() => {
  const out = [];
  for (const cell of document.querySelectorAll("main td, main th")) {
    const box = cell.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    let right = document.documentElement.clientWidth;
    for (let up = cell.parentElement; up; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (/(auto|scroll|hidden|clip)/.test(style.overflowX)) {
        const clip = up.getBoundingClientRect();
        right = clip.width <= 1 ? Infinity : Math.min(right, clip.right);
        break;
      }
    }
    if (box.right > right + 0.5) {
      out.push(`${cell.innerText.trim().slice(0, 30)} (${box.right} > ${right})`);
    }
  }
  return out;
}"""


def assert_fits_narrow_phones(page) -> None:
    """At 320 px and 390 px wide, the page does not scroll sideways and no table cell is cut
    off; the phone's own size again afterwards."""
    size = page.viewport_size
    for width in (320, 390):
        page.set_viewport_size({"width": width, "height": size["height"]})
        widths = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
        assert widths[0] <= widths[1], f"horizontal scroll at {width} px: {widths}"
        clipped = page.evaluate(CLIPPED_CELLS)
        assert not clipped, f"cells cut off at {width} px: {clipped}"
    page.set_viewport_size(size)
