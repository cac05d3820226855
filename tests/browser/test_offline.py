"""Installable, and calm when the network is not (issue 23), in Chromium on a 390×844 touch
phone with the network cut (Playwright's context.set_offline): the site has a web app manifest and
icons; its service worker serves the pages, static files and the catalog from its cache; a hand
entered offline stays in the page, marked "Offline: will score when back", and is scored as soon
as the connection returns."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.phone import PHONE  # the 390×844 touch phone of issue 23
from tests.browser.star_trek_missions_tiles import show_tile

pytestmark = pytest.mark.browser

SCORE = "/games/star-trek-missions/score/"
TABLE = "/games/star-trek-missions/table/"
CATALOG = "/games/star-trek-missions/cards/"


@pytest.fixture
def phone(browser, site):
    context = browser.new_context(**PHONE, locale="en-GB")
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    # The worker and the manifest live under the site's strict Content-Security-Policy.
    page.on(
        "console",
        lambda message: (
            page.errors.append(message.text)
            if "Content Security Policy" in message.text or "Refused to" in message.text
            else None
        ),
    )
    yield context, page
    context.close()
    assert not page.errors


def installed(page, site, path):
    """Open `path` and wait until the service worker controls the page, its cache filled."""
    page.goto(site + path)
    page.wait_for_function(
        "() => navigator.serviceWorker && navigator.serviceWorker.controller", timeout=20_000
    )
    page.wait_for_function("""async () => { const keys = await caches.keys();
        return keys.some(key => key.startsWith('tableside-')); }""")


def test_the_manifest_and_icons(phone, site):
    context, page = phone
    page.goto(site + "/")
    href = page.locator("link[rel='manifest']").get_attribute("href")
    response = page.request.get(site + href)
    assert response.ok
    assert response.headers["content-type"].startswith("application/manifest+json")
    manifest = response.json()
    assert manifest["name"] == "Tableside" and manifest["display"] == "standalone"
    assert manifest["start_url"] == "/"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    assert any(icon["purpose"] == "maskable" for icon in manifest["icons"])
    for icon in manifest["icons"]:
        image = page.request.get(site + icon["src"])
        assert image.ok and image.headers["content-type"] == icon["type"]
    png = page.request.get(site + manifest["icons"][0]["src"]).body()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert page.locator("meta[name='theme-color']").get_attribute("content") == "#1d3557"


def test_pages_static_files_and_the_catalog_offline(phone, site):
    context, page = phone
    installed(page, site, "/")
    context.set_offline(True)
    # A page kept from the start, never opened: the catalog, with its styles.
    page.goto(site + CATALOG)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Star Trek: Missions")
    expect(page.locator(".tile__name").first).to_be_visible()
    background = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(246, 244, 239)"  # site.css, from the cache
    expect(page.locator("#offline-status")).to_have_text(
        "You are offline. The pages you have opened still work."
    )
    # The score page works offline too: its tiles, its scripts.
    page.goto(site + SCORE)
    expect(page.get_by_role("heading", level=1)).to_have_text("Score a hand")
    # The picker's script (games/star_trek_missions/static/star_trek_missions/js/picker.js) ran.
    expect(page.locator("#find-card")).to_be_visible()
    context.set_offline(False)
    assert not page.errors


def test_a_hand_entered_offline_is_scored_when_the_connection_returns(phone, site):
    context, page = phone
    installed(page, site, SCORE)
    page.evaluate("() => { window.notReloaded = true; }")
    context.set_offline(True)
    # Tiles, a typed name and a removal, all offline.
    for slug in (
        "commander-kurn",
        "commander-sela",
        "lieutenant-worf",
        "ambassador-kehleyr",
        "photon-torpedoes",
        "bridge",
        "away-team",
    ):
        show_tile(page, slug)
        page.locator(f"#tile-{slug}").tap()
        expect(page.locator(f"#tile-{slug}")).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="Remove Away Team").tap()
    field = page.get_by_label("Add a card by name")
    field.fill("diplomatic conference")
    field.press("Enter")
    hand = page.locator(".hand-card__name")
    expect(hand).to_have_text(
        [
            "Commander Kurn",
            "Commander Sela",
            "Lieutenant Worf",
            "Ambassador K'Ehleyr",
            "Photon Torpedoes",
            "Bridge",
            "Diplomatic Conference",
        ]
    )
    expect(page.locator(".hand-card--pending")).to_have_count(7)
    expect(page.locator(".hand-card--pending").first).to_contain_text("not scored yet")
    status = page.locator("#offline-status")
    expect(status).to_be_visible()
    expect(status).to_contain_text("Offline: will score when back")
    # The connection returns: the hand is scored at once, in the page.
    context.set_offline(False)
    expect(page.locator(".score-total__value")).to_have_text("66")
    expect(page.locator(".hand-card--pending")).to_have_count(0)
    expect(status).to_have_text(re.compile(r"^Back online"))
    expect(page.locator("#score-result tbody tr")).to_have_count(14)
    assert page.evaluate("() => window.notReloaded") is True
    assert not page.errors


def test_a_table_entered_offline_is_scored_when_back(phone, site):
    context, page = phone
    installed(page, site, TABLE)
    field = page.locator("#new-player")
    field.fill("Ana")
    field.press("Enter")
    expect(page.locator("#table-current h3")).to_have_text("Ana's hand")
    context.set_offline(True)
    add = page.locator("#add-card")
    for name in ("Holodeck 1", "leah brahms"):
        add.fill(name)
        add.press("Enter")
    expect(page.locator("#table-current .hand-card__name")).to_have_text(
        ["Holodeck 1", "Leah Brahms"]
    )
    expect(page.locator("#offline-status")).to_contain_text("Offline: will score when back")
    context.set_offline(False)
    expect(page.locator("#table-current .score-total__value")).to_have_text("13")
    assert not page.errors


def test_a_ruling_asked_offline_is_checked_when_back(phone, site):
    """Any other form: what was entered stays as it is, and is sent again."""
    context, page = phone
    installed(page, site, "/games/academy-credits/score/")
    context.set_offline(True)
    button = page.get_by_role("button", name="Score the round")
    button.click()
    status = page.locator("#offline-status")
    expect(status).to_contain_text("Offline: will check when back")
    context.set_offline(False)
    expect(status).to_have_text(re.compile(r"^Back online"))
    # The page's answer (here: what the empty form lacks) came from the server.
    expect(page.locator("#round-result")).not_to_be_empty()
    assert not page.errors


# Seven cards, six Galaxy and a Mission: 13 + 13 as the table page reads them, and more.
TABLE_HAND = [
    "Commander Tomalak",
    "Captain Jean-Luc Picard",
    "Commander William Riker",
    "Lieutenant Commander Data",
    "Holodeck 1",
    "Leah Brahms",
    "Away Team",
]


def test_a_tables_hand_form_sent_offline_is_sent_once_when_back(phone, site):
    """The table page's own form (issue 29): offline, "Enter the hand" keeps the hand on the
    phone, next to the button, and sends it when the connection returns; sent again with its
    entry key, it is still one entry."""
    from tables.models import Event

    context, page = phone
    page.goto(site + "/t/")
    page.get_by_label("Players, one name a line, in seat order").fill("Ana\nBen")
    page.get_by_role("button", name="Start the table").click()
    page.get_by_role("button", name="I am Ana (seat 1)").click()
    expect(page.locator(".lede")).to_have_text("You are Ana (seat 1).")
    code = page.url.rstrip("/").rsplit("/", 1)[1]
    page.evaluate("() => { window.notReloaded = true; }")
    context.set_offline(True)
    cards = page.get_by_label("Cards, one name a line")
    cards.fill("\n".join(TABLE_HAND))
    sent = page.locator("#hand-form").evaluate(
        "form => Object.fromEntries(new FormData(form).entries())"
    )
    page.get_by_role("button", name="Enter the hand").click()
    # Kept in the page, next to the button: no error page, nothing typed lost, nothing sent.
    kept = page.locator("#hand-form .offline-kept")
    expect(kept).to_contain_text("Kept on this phone")
    expect(page.locator("#offline-status")).to_contain_text("Offline: your entry is kept")
    expect(cards).to_have_value("\n".join(TABLE_HAND))
    assert page.evaluate("() => window.notReloaded") is True
    assert not Event.objects.filter(table__code=code).exists()

    context.set_offline(False)
    expect(page.locator("#table-live")).to_contain_text("Ana entered a hand")
    events = list(Event.objects.filter(table__code=code))
    assert [(event.kind, event.seat, event.entry_key) for event in events] == [
        ("hand", 1, sent["entry_key"])
    ]
    assert events[0].body["hand"] == TABLE_HAND
    # The same entry sent again (a queue that sent twice, an answer lost): still one.
    again = page.request.post(
        f"{site}/t/{code}/form", form=sent, headers={"Referer": f"{site}/t/{code}"}
    )
    assert again.ok, again.status
    assert Event.objects.filter(table__code=code).count() == 1
    expect(page.locator("#table-live")).to_contain_text("Ana entered a hand")
