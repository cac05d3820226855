"""A long table in a real browser (issue 30): the page shows the newest entries of the history
with "Show earlier entries" and, there, "Show the newest entries"; a table past its age offers
"Go on at a new table", whose button starts a table with the same players and the tally of games
won carried over. Read as a player reads it: the visible text."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tables.models import Event, Table
from tests.browser.phone import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.table]


def started(browser, site):
    context = browser.new_context(**PHONE, locale="en-GB")
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(site + "/t/")
    page.get_by_label("Players, one name a line, in seat order").fill("Ana\nBen")
    page.get_by_role("button", name="Start the table").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Star Trek: Missions table")
    return context, page, page.url.rsplit("/", 1)[1]


def entries(page) -> list[str]:
    return [text.strip() for text in page.locator(".table-history li").all_inner_texts()]


def test_a_long_history_shows_the_newest_entries_and_pages_back(browser, site):
    context, page, code = started(browser, site)
    table = Table.objects.get(code=code)
    Event.objects.bulk_create(
        Event(
            table=table,
            n=n,
            kind="hand",
            seat=1 + n % 2,
            version=n,
            body={},
            state_before=table.state,
            result={"total": n},
        )
        for n in range(1, 46)
    )
    Table.objects.filter(pk=table.pk).update(version=50)
    page.reload()
    shown = entries(page)
    assert len(shown) == 20
    assert shown[0] == "Ana entered a hand: 26 points"
    assert shown[-1] == "Ben entered a hand: 45 points"
    page.get_by_role("link", name="Show earlier entries").click()
    expect(page.locator(".table-history li").first).to_have_text("Ana entered a hand: 6 points")
    assert entries(page)[-1] == "Ben entered a hand: 25 points"
    page.get_by_role("link", name="Show earlier entries").click()
    expect(page.locator(".table-history li")).to_have_count(5)
    expect(page.get_by_role("link", name="Show earlier entries")).to_have_count(0)
    page.get_by_role("link", name="Show the newest entries").click()
    expect(page.locator(".table-history li").last).to_have_text("Ben entered a hand: 45 points")
    context.close()


def test_a_closed_table_starts_a_new_one_with_the_tally(browser, site):
    context, page, code = started(browser, site)
    table = Table.objects.get(code=code)
    Table.objects.filter(pk=table.pk).update(
        state={**table.state, "tally": {"Ana": 2, "Ben": 1}},
        created_at=timezone.now() - timedelta(days=31),
    )
    page.reload()
    expect(page.get_by_role("heading", name="Go on at a new table")).to_be_visible()
    page.get_by_role("button", name="Start a new table with these players").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Star Trek: Missions table")
    assert not page.url.endswith(code)
    rows = page.locator(".table-players tbody tr")
    expect(rows.nth(0)).to_contain_text("Ana")
    assert rows.nth(0).locator("td").last.inner_text() == "2"
    assert rows.nth(1).locator("td").last.inner_text() == "1"
    expect(page.get_by_role("heading", name="Go on at a new table")).to_have_count(0)
    context.close()


def numbered(page) -> list[tuple[str, str]]:
    """The history as a player reads it: each entry's number (its list marker) and words."""
    items = page.locator(".table-history li")
    return [
        (items.nth(index).get_attribute("value"), items.nth(index).inner_text().strip())
        for index in range(items.count())
    ]


def enter_hand(page, seat: str, cards: str) -> None:
    page.get_by_label("Act for the seat").select_option(seat)
    page.get_by_label("Cards, one name a line").fill(cards)
    page.get_by_role("button", name="Enter the hand").click()


def test_after_an_undo_the_history_numbers_go_on_without_a_gap(browser, site):
    """Issue 29: the history numbered entries by their place in the database, and after an
    undo the undone one vanished: 1, 2, 4. The undone entry now keeps its number, struck and
    said undone, so the numbers a player reads (and the undo's "entry 3") never skip."""
    context, page, _ = started(browser, site)
    enter_hand(page, "1", "Holodeck 1\nLeah Brahms")
    expect(page.locator(".table-history li")).to_have_count(1)
    enter_hand(page, "2", "Commander Tomalak\nCaptain Jean-Luc Picard")
    expect(page.locator(".table-history li")).to_have_count(2)
    # The legal neighbour: nothing undone, nothing said undone.
    assert [number for number, _ in numbered(page)] == ["1", "2"]
    assert not any("undone" in words for _, words in numbered(page))
    page.get_by_role("button", name="Undo entry 2 (the last)").click()
    expect(page.locator(".table-history__undone")).to_have_count(1)
    enter_hand(page, "2", "Commander Tomalak\nCaptain Jean-Luc Picard")
    expect(page.locator(".table-history li")).to_have_count(3)
    shown = numbered(page)
    assert [number for number, _ in shown] == ["1", "2", "3"]
    assert shown[0][1].startswith("Ana entered a hand") and "undone" not in shown[0][1]
    assert shown[1][1].startswith("Ben entered a hand") and shown[1][1].endswith(
        "(undone by the host)"
    )
    assert shown[2][1].startswith("Ben entered a hand") and "undone" not in shown[2][1]
    # The undo names the entry by the number the history shows.
    expect(page.get_by_role("button", name="Undo entry 3 (the last)")).to_be_visible()
    context.close()
