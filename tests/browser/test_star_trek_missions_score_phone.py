"""The "Score a hand" page on a 390×844 phone (issue 15): the breakdown sits right under the hand,
so after adding cards the total and the first steps show without scrolling past the 74 tiles;
with and without JavaScript."""

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PAGE = "/games/star-trek-missions/score/"
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}
CARDS = ["Lieutenant Worf", "commander kurn", "Photon Torpedoes"]


def steps_before_tiles(page):
    tiles_top = page.locator("#cards").bounding_box()["y"]
    total = page.locator(".score-result__total")
    first_step = page.locator("#score-result tbody tr").first
    expect(total).to_be_visible()
    expect(first_step).to_be_visible()
    # Both lie above the first tile: reached without scrolling past any of them.
    assert total.bounding_box()["y"] < tiles_top
    assert first_step.bounding_box()["y"] + first_step.bounding_box()["height"] <= tiles_top
    # And no page scrolls sideways.
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390


@pytest.mark.parametrize("javascript", [True, False])
def test_the_total_and_first_steps_come_before_the_tiles(browser, live_server, catalog, javascript):
    context = browser.new_context(**PHONE, java_script_enabled=javascript)
    page = context.new_page()
    try:
        page.goto(live_server.url + PAGE)
        for name in CARDS:
            count = page.locator(".hand-card__name").count()
            page.get_by_label("Add a card by name").fill(name)
            page.get_by_role("button", name="Add", exact=True).click()
            expect(page.locator(".hand-card__name")).to_have_count(count + 1)
        expect(page.locator(".score-total__value")).to_be_visible()
        steps_before_tiles(page)
        # Scrolled to the breakdown, the total and first step fit in one screen.
        page.locator("#score-result").scroll_into_view_if_needed()
        first_step = page.locator("#score-result tbody tr").first
        box = first_step.bounding_box()
        assert 0 <= box["y"] and box["y"] + box["height"] <= 844
    finally:
        context.close()
