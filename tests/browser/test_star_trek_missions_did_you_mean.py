"""After a typo on Star Trek: Missions' "Score a hand", the "Did you mean" line is in view, not
under the sticky score bar (issue 29). The page keeps the field where it was on the screen after
its answer; a player who typed the name with the field just above the bar saw the field and not
the line under it, which the bar covered."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.phone import PHONE  # the 390×844 touch phone of issue 23
from tests.browser.watched import watched_page

pytestmark = pytest.mark.browser

SCORE = "/games/star-trek-missions/score/"

# The phone with its on-screen keyboard up, as while a name is typed: about 640 px are left.
KEYBOARD_UP = {**PHONE, "viewport": {"width": 390, "height": 640}}

# Whether the element's centre is drawn (not covered): the element at that point is it or a
# child of it.
UNCOVERED = """(element) => {
  const box = element.getBoundingClientRect();
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  if (y < 0 || y > window.innerHeight) return `off the screen (${y})`;
  const top = document.elementFromPoint(x, y);
  return element.contains(top) ? "" : `covered by ${top.className || top.tagName}`;
}"""


def test_the_did_you_mean_line_is_not_under_the_score_bar(browser, site):
    with watched_page(browser, site, timeout=20_000, **KEYBOARD_UP, locale="en-GB") as page:
        page.goto(site + SCORE)
        field = page.locator("#add-card")
        for name in ("Holodeck 1", "Leah Brahms", "Lieutenant Worf"):
            field.fill(name)
            field.press("Enter")
            expect(page.locator("#hand .hand-card__name").last).to_have_text(name)
        field.fill("ryker")
        field.press("Enter")
        line = page.locator("#add-card-error")
        expect(line).to_contain_text("Did you mean")
        # Once the page has settled (the field's text selected for the next name), the line
        # is drawn, not under the bar.
        page.wait_for_function("""() => {
          const field = document.activeElement;
          return field && field.id === "add-card" && field.selectionEnd > field.selectionStart;
        }""")
        page.wait_for_function(
            f"(element) => ({UNCOVERED})(element) === ''", arg=line.element_handle()
        )
        assert line.evaluate(UNCOVERED) == ""
        # The field the name was typed in is still on the screen, above the line.
        box, bar = field.bounding_box(), page.locator(".score-bar").bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= bar["y"]
