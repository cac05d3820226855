"""Issue 23, "The admin", on a 390×844 touch phone: the card list reads abilities in words, its
search forgives a typo, and transcribing a value updates the provenance note that called it
unknown."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.phone import phone_page

pytestmark = pytest.mark.browser


@pytest.fixture
def admin_phone(browser, site):
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_superuser("editor", password="a-long-test-password")
    with phone_page(browser, site) as page:
        page.goto(site + "/admin/login/?next=/admin/")
        page.get_by_label("Username").fill("editor")
        page.get_by_label("Password").fill("a-long-test-password")
        page.get_by_role("button", name="Log in").click()
        expect(page).to_have_url(site + "/admin/")
        yield page


def test_the_card_list_in_words_its_search_and_the_note(admin_phone, site):
    from cards.models import Card, Game

    page = admin_phone
    sra = Game.objects.get(slug="star-realms-academy")
    page.goto(site + f"/admin/cards/card/?game__id__exact={sra.pk}")
    results = page.locator("#result_list")
    expect(results).to_contain_text("Primary ability: 1 Draw and 2 Coin")
    assert "draw:" not in results.inner_text() and "coin:" not in results.inner_text()

    star_trek_missions = Game.objects.get(slug="star-trek-missions")
    page.goto(site + f"/admin/cards/card/?game__id__exact={star_trek_missions.pk}")
    page.locator("#searchbar").fill("kehleyr")
    page.locator("#searchbar").press("Enter")
    expect(page.locator("#result_list")).to_contain_text("Ambassador K'Ehleyr")

    shuttle = Card.objects.get(game=sra, slug="federation-shuttle")
    page.goto(site + f"/admin/cards/card/{shuttle.pk}/change/")
    page.locator("[name=attr__cost]").fill("1")
    page.locator("input[name=_save]").click()
    expect(page.locator(".messagelist")).to_be_visible()
    shuttle.refresh_from_db()
    assert "physical card: primary, ally (null)" in shuttle.provenance_note
    assert shuttle.provenance_note.endswith(
        "Transcribed from the card and verified by an admin since: Cost."
    )
