"""The saved-result page /r/<id> in a real browser: on a 390 px phone no result of any game scrolls
sideways and a score's steps are stacked with their points in view; the share button uses the Web
Share API where the browser has it and the clipboard otherwise, and stays hidden without
JavaScript; "Score again" / "Check again" open the game's form."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from results.models import SavedResult
from tests.browser.game_forms import FORMS, STAR_TREK_MISSIONS_EXAMPLE
from tests.browser.watched import watched_page

pytestmark = pytest.mark.browser

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}


def save_every_kind(client) -> dict[str, str]:
    """Each game's score and ruling, saved through its page (the Star Trek: Missions score through
    the API): {form id: /r/<id>}."""
    saved = {}
    for game_form in FORMS:
        if game_form.id == "star-trek-missions-score":
            response = client.post(
                "/api/games/star-trek-missions/score/",
                data=json.dumps({"hand": STAR_TREK_MISSIONS_EXAMPLE}),
                content_type="application/json",
            )
            assert response.status_code == 200, response.content
            saved[game_form.id] = response.json()["url"]
            continue
        data = {key: value for submission in game_form.valid for key, value in submission.items()}
        response = client.post(game_form.url, data)
        assert response.status_code == 200, response.content.decode()[:1000]
        saved[game_form.id] = SavedResult.objects.latest("created_at").get_absolute_url()
    return saved


@pytest.fixture
def phone(browser, site):
    with watched_page(browser, site, timeout=10_000, **PHONE, locale="en-GB") as page:
        yield page


def test_no_saved_result_scrolls_sideways_on_a_phone(phone, site, client):
    wide = []
    for form_id, url in save_every_kind(client).items():
        phone.goto(site + url)
        expect(phone.get_by_role("heading", level=1)).to_be_visible()
        widths = phone.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
        if widths[0] > widths[1]:
            wide.append(f"{form_id} {url}: {widths}")
    assert not wide, wide


def test_a_saved_scores_steps_show_their_points_on_a_phone(phone, site, client):
    url = save_every_kind(client)["star-trek-missions-score"]
    phone.goto(site + url)
    first = phone.locator("table.steps tbody tr").first
    points = first.locator(".steps__points")
    running = first.locator(".steps__running")
    expect(points).to_be_visible()
    for cell in (points, running, first.locator(".steps__card"), first.locator(".steps__detail")):
        box = cell.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, cell
    # The column heads are gone on a phone: "+4" and "= 4" say which number is which.
    assert points.evaluate("e => getComputedStyle(e, '::before').content") == '"+"'
    assert running.evaluate("e => getComputedStyle(e, '::before').content") == '"= "'


def test_the_share_button_copies_the_link(browser, site, client):
    url = save_every_kind(client)["star-trek-missions-check-turn"]
    context = browser.new_context(**PHONE, locale="en-GB")
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site)
    # This browser's own Web Share API, if any, is taken away: the clipboard is the fallback.
    context.add_init_script("delete Navigator.prototype.share; delete navigator.share;")
    page = context.new_page()
    page.goto(site + url)
    button = page.get_by_role("button", name="Copy link")
    expect(button).to_be_visible()
    button.click()
    expect(page.get_by_role("status").filter(has_text="Link copied.")).to_be_visible()
    assert page.evaluate("() => navigator.clipboard.readText()") == site + url
    context.close()


def test_the_share_button_uses_the_web_share_api(browser, site, client):
    url = save_every_kind(client)["ac-check-play"]
    context = browser.new_context(**PHONE, locale="en-GB")
    context.add_init_script(
        "window.sharedData = [];"
        "Object.defineProperty(Navigator.prototype, 'share', {configurable: true, value:"
        " function (data) { window.sharedData.push(data); return Promise.resolve(); }});"
    )
    page = context.new_page()
    page.goto(site + url)
    page.get_by_role("button", name="Share link").click()
    expect(page.get_by_role("status").filter(has_text="Shared.")).to_be_visible()
    shared = page.evaluate("() => window.sharedData")
    assert shared == [{"title": "Ruling: Academy Credits", "url": site + url}]
    context.close()


def test_without_javascript_the_link_is_there_and_the_button_is_not(browser, site, client):
    url = save_every_kind(client)["factions-standings"]
    context = browser.new_context(**PHONE, java_script_enabled=False)
    page = context.new_page()
    page.goto(site + url)
    expect(page.locator(".share__button")).to_be_hidden()
    expect(page.locator("a.share__url")).to_have_text(site + url)
    context.close()


@pytest.mark.parametrize(
    ("form_id", "label"),
    [("star-trek-missions-score", "Score again"), ("sra-check-move", "Check again")],
)
def test_again_opens_the_games_form(phone, site, client, form_id, label):
    url = save_every_kind(client)[form_id]
    form = next(form for form in FORMS if form.id == form_id)
    phone.goto(site + url)
    phone.get_by_role("link", name=label).click()
    # The form opens filled in from the saved request: its input is in the address.
    expect(phone).to_have_url(re.compile(re.escape(site + form.url) + r"\?.+"))
    expect(phone.locator(form.form)).to_be_visible()
