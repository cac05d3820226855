"""Nothing lost (issue 15), in a real browser on a 390 px phone: the hand, table or position a
player entered survives Back, reload and sharing, because the page's address carries it; "Score
again" on a saved score opens the form filled in."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.game_forms import FORMS, STAR_TREK_MISSIONS_EXAMPLE, submit

pytestmark = pytest.mark.browser

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
    "locale": "en-GB",
}
STAR_TREK_MISSIONS_SCORE = "/games/star-trek-missions/score/"
AC_ROUND = next(form for form in FORMS if form.id == "ac-score-round")


@pytest.fixture
def phone(browser, site):
    context = browser.new_context(**PHONE)
    context.set_default_timeout(10_000)
    yield context
    context.close()


def hand_of(page) -> list[str]:
    return page.locator('#score-form input[type=hidden][name="hand"]').evaluate_all(
        "inputs => inputs.map(i => i.value)"
    )


def build_hand(page, site) -> None:
    page.goto(site + STAR_TREK_MISSIONS_SCORE)
    for name in STAR_TREK_MISSIONS_EXAMPLE:
        page.fill("#add-card", name)
        with page.expect_response(lambda r: r.request.method == "POST"):
            page.click("#add-button")
        page.wait_for_function(
            "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
        )
    expect(page.locator(".score-total__value").first).to_be_visible()


def test_back_reload_and_a_shared_link_keep_a_star_trek_missions_hand(phone, browser, site):
    page = phone.new_page()
    build_hand(page, site)
    assert hand_of(page) == STAR_TREK_MISSIONS_EXAMPLE
    total = page.locator(".score-total__value").first.inner_text()
    assert "hand=" in page.url
    page.reload()
    assert hand_of(page) == STAR_TREK_MISSIONS_EXAMPLE
    expect(page.locator(".score-total__value").first).to_have_text(total)
    page.goto(site + "/")
    page.go_back()
    assert hand_of(page) == STAR_TREK_MISSIONS_EXAMPLE
    # The address, opened by someone else: the same hand and total.
    other = browser.new_context(**PHONE)
    try:
        shared = other.new_page()
        shared.goto(page.url)
        assert hand_of(shared) == STAR_TREK_MISSIONS_EXAMPLE
        expect(shared.locator(".score-total__value").first).to_have_text(total)
        expect(
            shared.get_by_text("was worked out from the page's address and not saved")
        ).to_be_visible()
    finally:
        other.close()


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_back_reload_and_a_shared_link_keep_an_academy_credits_table(browser, site, javascript):
    context = browser.new_context(**PHONE, java_script_enabled=javascript)
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        page.goto(site + AC_ROUND.url)
        data = AC_ROUND.valid[-1]
        submit(page, AC_ROUND, data, javascript=javascript)
        if javascript:
            assert "player-1-name=Ana" in page.url
            address = page.url
        else:  # without JavaScript the answer links to the form as filled in
            address = page.locator("a.share__form-url").get_attribute("href")
            page.goto(site + address)
        expect(page.locator("#player-1-discards")).to_have_value("Lura Thok, Jay-Den Kraag")
        page.reload()
        expect(page.locator("#player-1-name")).to_have_value("Ana")
        expect(page.locator("#player-2-hand")).to_have_value("6")
        expect(page.locator("#deck-count")).to_have_value("0")
        page.goto(site + "/")
        page.go_back()
        expect(page.locator("#player-2-name")).to_have_value("Ben")
        expect(page.locator("#player-1-credits")).to_have_value("2")
        shared = browser.new_context(**PHONE).new_page()
        try:
            shared.goto(page.url if javascript else site + address)
            expect(shared.locator("#player-1-discards")).to_have_value("Lura Thok, Jay-Den Kraag")
            expect(shared.get_by_text("Round won by Ana")).to_be_visible()
        finally:
            shared.context.close()
    finally:
        context.close()


def test_score_again_on_a_saved_hand_opens_the_form_filled_in(phone, site):
    page = phone.new_page()
    build_hand(page, site)
    total = page.locator(".score-total__value").first.inner_text()
    page.locator("a.share__url").first.click()
    page.wait_for_url("**/r/**")
    page.get_by_role("link", name="Score again").click()
    page.wait_for_url(f"**{STAR_TREK_MISSIONS_SCORE}?*")
    assert hand_of(page) == STAR_TREK_MISSIONS_EXAMPLE
    expect(page.locator(".score-total__value").first).to_have_text(total)
