"""Issue 23, "Words a player reads", on a 390×844 touch phone: the home page puts each game's
main job in the first screen, a long rule is quoted by its deciding sentence, a Star Trek:
Missions turn's legal moves are grouped, and a provisional value is said once, in words."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.phone import PHONE, phone_page

pytestmark = pytest.mark.browser


@pytest.fixture
def phone(browser, site):
    with phone_page(browser, site) as page:
        yield page


def test_the_home_page_puts_each_games_main_job_in_the_first_screen(phone, site):
    phone.goto(site + "/")
    quick = phone.get_by_role("navigation", name="At the table")
    expected = {"Academy Credits": "Score a round", "Factions": "Standings",
                "Star Realms Academy": "Break down a turn", "Star Trek: Missions": "Score a hand"}
    for game, job in expected.items():
        link = quick.get_by_role("link", name=f"{job} {game}")
        expect(link).to_be_visible()
        box = link.bounding_box()
        assert box["y"] + box["height"] <= PHONE["viewport"]["height"], (game, box)
        assert box["height"] >= 44  # a thumb's target
    assert phone.evaluate("() => window.scrollY") == 0
    phone.screenshot(path="/tmp/i23w-home-phone.png")
    # Tapping one opens the page of that name.
    quick.get_by_role("link", name="Score a hand Star Trek: Missions").tap()
    expect(phone.get_by_role("heading", level=1)).to_have_text("Score a hand")
