"""Zero serious or critical axe-core violations, and a heading order without gaps, on a 390×844
touch phone (issue 23): every page of the README's tour, every game form as it opens, with its
problems shown and with an answer, each saved result, and the table page after a selection.

The same pages in the same states are read as text for players with JavaScript here too (no
template source, API path or code: tests/browser/test_visible_text.py's check, which reads them
without JavaScript): one visit of each state for both checks, where two tests once loaded each
page and sent each form again for the second."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests.browser.accessibility import violations
from tests.browser.game_forms import FORMS, submit
from tests.browser.phone import phone_page
from tests.browser.star_trek_missions_tiles import show_tile
from tests.browser.test_visible_text import TOUR, report

pytestmark = pytest.mark.browser


@pytest.fixture
def phone(browser, site):
    with phone_page(browser, site) as page:
        yield page


def checked(page, where: str) -> list[str]:
    """What axe-core finds at this state of the page, and what a player should not read there."""
    return [f"{where}: {v}" for v in violations(page)] + report(page, where)


# The forms' pages as they open are the first state the next test checks.
FORM_URLS = {game_form.url for game_form in FORMS}


def test_the_tour(phone, site):
    found = []
    for path in [path for path in TOUR if path not in FORM_URLS]:
        phone.goto(site + path)
        found += checked(phone, path)
    assert not found, "\n".join(found)


@pytest.mark.parametrize("game_form", FORMS, ids=[form.id for form in FORMS])
def test_every_form_with_problems_and_with_an_answer(phone, site, game_form):
    found = []
    phone.goto(site + game_form.url)
    expect(phone.locator(game_form.form)).to_be_visible()
    found += checked(phone, f"{game_form.url} as it opens")
    for data in game_form.invalid:
        submit(phone, game_form, data, javascript=True)
    found += checked(phone, f"{game_form.url} with problems")
    phone.goto(site + game_form.url)  # a fresh form, as a player starting again
    expect(phone.locator(game_form.form)).to_be_visible()
    for data in game_form.valid:
        submit(phone, game_form, data, javascript=True)
    found += checked(phone, f"{game_form.url} with an answer")
    share = phone.locator("a.share__url")
    assert share.count() >= 1, f"{game_form.url}: the valid input gave no saved result"
    phone.goto(share.first.get_attribute("href"))
    found += checked(phone, f"{urlsplit(phone.url).path} (saved)")
    assert not found, "\n".join(found)


def test_the_table_page_after_a_selection(phone, site):
    """A tile pressed (selected) in the current player's hand: the selected tile's text keeps its
    contrast (the score page's pressed tiles: tests/browser/test_entry_accessibility.py)."""
    found = []
    phone.goto(site + "/games/star-trek-missions/table/")
    field = phone.locator("#new-player")
    field.fill("Ana")
    field.press("Enter")
    show_tile(phone, "bridge")
    tile = phone.locator("#tile-bridge")
    tile.click()
    expect(phone.locator("#table-current .hand-card")).to_have_count(1)
    found += [f"table page, a tile pressed: {v}" for v in violations(phone)]
    assert not found, "\n".join(found)
