"""A Star Trek: Missions table in real browsers (issue 25): the host starts it from /t/, three
phones (three browser contexts, 390 px) open its link, each claims its seat, all three enter
their hands at once, and every phone sees the same standings within 2 s without reloading (htmx
polls /t/<code>/live, 304 while nothing changes). The pages make no request outside the site and
raise no script error under the site's Content-Security-Policy; nothing scrolls sideways. The
site is the app as deployed (tests/tables_server.py: gunicorn, three workers)."""

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests.browser.phone import PHONE, POLLED  # the 390×844 touch phone of issue 23
from tests.browser.test_visible_text import report

pytestmark = [pytest.mark.browser, pytest.mark.table]

HANDS = {
    "Ana": [
        "Commander Tomalak",
        "Captain Jean-Luc Picard",
        "Commander William Riker",
        "Lieutenant Commander Data",
    ],
    "Ben": ["Holodeck 1", "Leah Brahms"],
    "Cy": ["Space Confrontation", "Daimon Bok", "Daimon Tog", "Vice Admiral Nakamura"],
}
POINTS = {  # each hand's score
    "Ana": 13,
    "Ben": 13,
    "Cy": 12,
}


def phone(browser):
    context = browser.new_context(**PHONE, locale="en-GB")
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.requests, page.errors = [], []
    page.on("request", lambda request: page.requests.append(request.url))
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on(
        "console",
        lambda message: page.errors.append(message.text) if message.type == "error" else None,
    )
    return context, page


def test_three_phones_enter_their_hands_at_once_and_all_see_the_standings(browser, tables_site):
    # gunicorn with three worker processes, as `make serve` runs: the live server is one process
    # of threads, where three phones posting at once never meet in separate processes.
    site = tables_site
    host_context, host = phone(browser)
    host.goto(site + "/t/")
    host.get_by_label("Players, one name a line, in seat order").fill("Ana\nBen\nCy")
    host.get_by_role("button", name="Start the table").click()
    expect(host.get_by_role("heading", level=1)).to_have_text("Star Trek: Missions table")
    link = host.url  # the table's address: on loopback the page shows no link (issue 29)
    # Served on loopback: the page says how to let the phones in, not a link they cannot open.
    expect(host.locator(".table-share__loopback")).to_be_visible()
    assert host.locator("svg.table-qr__code").count() == 0

    phones = {}
    for name in HANDS:
        context, page = phone(browser)
        page.goto(link)
        page.get_by_role("button", name=f"I am {name}").click()
        expect(page.locator(".lede")).to_contain_text(f"You are {name}")
        phones[name] = (context, page)

    for name, (_, page) in phones.items():
        page.get_by_label("Cards, one name a line").fill("\n".join(HANDS[name]))
    # All at once: the three submits leave before any answer comes back.
    for _, page in phones.values():
        page.get_by_role("button", name="Enter the hand").click(no_wait_after=True)
    # Each phone's own answer first: its hand recorded, whatever the others' did (a refusal would
    # show here, not as a wait for standings that never come).
    for name, (_, page) in phones.items():
        expect(page.locator("#hand-entered")).to_contain_text(
            f"Your hand as entered: {POINTS[name]} points.", timeout=POLLED
        )
    # Each phone shows the standings once the last of the three hands is in: its own answer, or
    # its next poll when its hand was not the last.
    for _, page in phones.values():
        expect(page.locator("#table-live")).to_contain_text(
            "Ana, Ben share victory.", timeout=POLLED
        )
    # The host's phone never reloaded: its polled part shows the standings too.
    expect(host.locator("#table-live")).to_contain_text("Ana, Ben share victory.", timeout=POLLED)
    for _, page in phones.values():
        expect(page.locator(".table-standings li").first).to_contain_text("13 points")
    # What a person reads: no template source, no API path, no machine code (the other pages'
    # visible-text check), on a phone's page, the host's and the start form with an error.
    found = [*report(phones["Ana"][1], "/t/<code> (Ana)"), *report(host, "/t/<code> (host)")]
    assert not host.errors, host.errors
    host.goto(site + "/t/")
    host.get_by_label("Players, one name a line, in seat order").fill("Ana")
    host.get_by_role("button", name="Start the table").click()
    expect(host.get_by_role("alert")).to_contain_text("The table has 1 player")
    found += report(host, "/t/ refused")
    assert not found, "\n".join(found)
    host_site = urlsplit(site).netloc
    for context, page in [*phones.values(), (host_context, host)]:
        width, client = page.evaluate(
            "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
        )
        assert width <= client, f"horizontal scroll: {width} > {client}"
        assert all(urlsplit(url).netloc == host_site for url in page.requests)
        if page is not host:  # the host's last page is a refused form: its 400 is logged
            assert not page.errors, page.errors
        context.close()
