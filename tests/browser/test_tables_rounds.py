"""An Academy Credits table played in real browsers with the keyboard alone (issue 25): the host
starts it at /t/ on a desktop, Ben claims his seat by the link on a 390 px phone, and three
rounds are scored from the table's page — the first on the table's own form, the second on the
game's own "Score a round" page opened from the table (filled in from it), the third on the
table's form again — to a match winner, each read off the visible score sheet as a player reads
it, on Ben's phone and on the host's page that never reloads (it polls).

On the way: every control of /t/ and /t/<code> is reached by Tab, in a walk that comes back to
where it started, at both sizes; axe-core finds no serious or critical violation on /t/, on
/t/<code> as the host, as a seated phone and after the match, nor on the game's page at the
table; the visible-text check of the other pages passes on the game's page at the table and on
the table after the match; nothing scrolls sideways on the phone."""

import pytest
from playwright.sync_api import expect

from tests.browser.accessibility import assert_accessible
from tests.browser.phone import PHONE, POLLED
from tests.browser.test_visible_text import report
from tests.browser.watched import watched_page

pytestmark = [pytest.mark.browser, pytest.mark.table]

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
FOCUSABLE = (
    "a[href], button:not([disabled]), input:not([type=hidden]):not([disabled]), "
    "select:not([disabled]), textarea:not([disabled]), summary, [tabindex='0']"
)


def focusable_count(page) -> int:
    """The controls a keyboard must reach: focusable and shown."""
    return page.evaluate(f"""() => [...document.querySelectorAll({FOCUSABLE!r})]
        .filter(el => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden'
                && !el.closest('details:not([open]) > :not(summary)')).length""")


def tab_walk(page) -> None:
    """Tab from the top of the page until focus leaves the page: every shown control is reached
    exactly once, in an order where each one is on screen when focused."""
    page.evaluate(
        "() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }"
    )
    reached: list[str] = []
    expected = focusable_count(page)
    for _ in range(expected + 5):
        page.keyboard.press("Tab")
        where = page.evaluate("""() => {
            const el = document.activeElement;
            if (!el || el === document.body) return null;
            const box = el.getBoundingClientRect();
            const seen = box.bottom > 0 && box.top < innerHeight && box.width > 0;
            return [el.outerHTML.slice(0, 90), seen];
        }""")
        if where is None:
            break
        html, seen = where
        assert seen, f"{page.url}: the focused control is off screen: {html}"
        if reached and html == reached[0]:
            break
        reached.append(html)
    assert len(reached) >= expected, (
        f"{page.url}: Tab reached {len(reached)} of {expected} controls: {reached}"
    )


def tab_to(page, locator, limit: int = 80) -> None:
    """Press Tab until `locator` has the focus (it must be reachable by keyboard)."""
    handle = locator.element_handle()
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("el => el === document.activeElement", handle):
            return
    raise AssertionError(f"Tab never reached {locator}")


def type_into(page, locator, text: str) -> None:
    tab_to(page, locator)
    page.keyboard.press("Control+a")
    page.keyboard.type(text)


def sheet(page) -> dict[str, str]:
    """The score sheet as read: {cadet: their credits cell}."""
    rows = page.locator("#table-live .table-players tbody tr")
    return {
        rows.nth(i).locator("th").inner_text(): rows.nth(i).locator("td").nth(2).inner_text()
        for i in range(rows.count())
    }


def round_on_the_table(ben, *, ana_discards: str) -> None:
    """Ben scores a round on the table's form: Ana last standing, Ben out."""
    page_top(ben)
    ben_in = ben.locator("fieldset", has_text="Ben").get_by_label("Still in the round")
    tab_to(ben, ben_in)
    ben.keyboard.press("Space")  # Ben is out
    expect(ben_in).not_to_be_checked()
    type_into(ben, ben.get_by_label("Ana's discards"), ana_discards)
    type_into(ben, ben.get_by_label("Ben's discards"), "Lura Thok")
    type_into(ben, ben.get_by_label("Cards left in the deck"), "7")
    tab_to(ben, ben.get_by_role("button", name="Score the round"))
    ben.keyboard.press("Enter")


def page_top(page) -> None:
    page.evaluate(
        "() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }"
    )


def test_three_rounds_to_a_match_winner_by_keyboard_on_a_phone_and_a_desktop(browser, site):
    with (
        watched_page(browser, site, timeout=15_000, **DESKTOP, locale="en-GB") as host,
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as ben,
    ):
        host.goto(site + "/t/?game=academy-credits")
        assert_accessible(host, "start a table")
        tab_walk(host)
        type_into(host, host.get_by_label("Players, one name a line, in seat order"), "Ana")
        host.keyboard.press("Enter")  # a new line in the textarea, not a submit
        host.keyboard.type("Ben")
        tab_to(host, host.get_by_role("button", name="Start the table"))
        host.keyboard.press("Enter")
        expect(host.get_by_role("heading", level=1)).to_have_text("Academy Credits table")
        link = host.url  # the table's address: on loopback the page shows no link (issue 29)
        assert_accessible(host, "the host's table")
        tab_walk(host)

        ben.goto(link)
        tab_walk(ben)
        tab_to(ben, ben.get_by_role("button", name="I am Ben (seat 2)"))
        ben.keyboard.press("Enter")
        expect(ben.locator(".lede")).to_have_text("You are Ben (seat 2).")
        assert_accessible(ben, "Ben's seat")
        tab_walk(ben)
        assert sheet(ben) == {"Ana": "0", "Ben": "0"}

        # Round 1, on the table's form: Ana, last standing, also discarded Charles Vance: 2.
        round_on_the_table(ben, ana_discards="Charles Vance, 4")
        expect(ben.locator("#table-live")).to_contain_text("Score sheet after round 1")
        assert sheet(ben) == {"Ana": "2 of 4", "Ben": "0 of 4"}
        expect(ben.locator("#table-live")).to_contain_text("Ana starts the next round.")
        expect(host.locator("#table-live")).to_contain_text(
            "Score sheet after round 1", timeout=POLLED
        )

        # Round 2, on the game's own page, opened from the table and filled in from it.
        page_top(ben)
        tab_to(ben, ben.get_by_role("link", name="Score a round"))
        ben.keyboard.press("Enter")
        expect(ben.get_by_role("heading", level=1)).to_have_text("Score a round")
        expect(ben.locator(".asked-at")).to_contain_text("as Ben (seat 2)")
        expect(ben.locator("#player-1-name")).to_have_value("Ana")
        expect(ben.locator("#player-1-credits")).to_have_value("2")
        assert_accessible(ben, "Score a round at the table")
        found = report(ben, "Score a round at the table")
        out = ben.locator("[name=player-2-out]")
        tab_to(ben, out)
        ben.keyboard.press("Space")
        expect(out).to_be_checked()
        type_into(ben, ben.locator("#player-1-discards"), "1, 4")
        type_into(ben, ben.locator("#player-2-discards"), "Lura Thok")
        type_into(ben, ben.get_by_label("Cards left in the deck"), "7")
        ben.keyboard.press("Enter")
        expect(ben.locator("#round-result")).to_contain_text("Ana", timeout=10_000)
        tab_to(ben, ben.get_by_role("link", name="Back to the table"))
        ben.keyboard.press("Enter")
        expect(ben.locator("#table-live")).to_contain_text("Score sheet after round 2")
        assert sheet(ben) == {"Ana": "3 of 4", "Ben": "0 of 4"}

        # Round 3, on the table's form again: Ana reaches the target.
        round_on_the_table(ben, ana_discards="1, 4")
        expect(ben.locator("#table-live")).to_contain_text("Ana wins the match.")
        assert sheet(ben) == {"Ana": "4 of 4", "Ben": "0 of 4"}
        # The host's page never reloaded: its polled sheet says the same.
        expect(host.locator("#table-live")).to_contain_text("Ana wins the match.", timeout=POLLED)
        assert sheet(host) == {"Ana": "4 of 4", "Ben": "0 of 4"}
        history = host.locator(".table-history li")
        expect(history).to_have_count(3)
        assert all("its breakdown" in history.nth(i).inner_text() for i in range(3))
        assert_accessible(ben, "the match won")
        found += report(ben, "/t/<code> after the match")
        assert not found, "\n".join(found)
        assert_accessible(host, "the match won (host)")
        tab_walk(host)
        widths = ben.evaluate(
            "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
        )
        assert widths[0] <= widths[1], f"horizontal scroll: {widths}"
