"""An Academy Credits play that depends on the target's card, answered from the target's phone
at a table (issue 29), on two 390 px phones. Ana's phone asks about her Lura Thok naming The
Doctor at Ben: what it does depends on Ben's card, which only Ben's phone knows, so the table
waits. Both phones, without reloading, see whom it waits for; Ben's phone offers exactly his two
answers. He answers no; both see the outcome. Ben's phone then follows the history's link of
Ana's play: the page names the card she played and the one she named, never the card she
keeps."""

import pytest
from playwright.sync_api import expect

from tests.browser.accessibility import assert_accessible
from tests.browser.phone import PHONE
from tests.browser.test_tables_factions_defence import seat_token, send_event
from tests.browser.watched import watched_page

pytestmark = [pytest.mark.browser, pytest.mark.table]

KEPT = "Caleb Mir"  # Ana's other card: hers alone


def test_bens_phone_answers_anas_guess_and_never_sees_her_other_card(browser, site):
    with (
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as ana,
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as ben,
    ):
        ana.goto(site + "/t/?game=academy-credits")
        ana.get_by_label("Players, one name a line, in seat order").fill("Ana\nBen")
        ana.get_by_role("button", name="Start the table").click()
        ana.get_by_role("button", name="I am Ana (seat 1)").click()
        expect(ana.locator(".lede")).to_have_text("You are Ana (seat 1).")
        code = ana.url.rstrip("/").rsplit("/", 1)[-1]
        ben.goto(f"{site}/t/{code}")
        ben.get_by_role("button", name="I am Ben (seat 2)").click()
        expect(ben.locator(".lede")).to_have_text("You are Ben (seat 2).")

        asked = send_event(
            site,
            code,
            seat_token(ana, code),
            {
                "kind": "ruling",
                "seat": 1,
                "body": {
                    "position": {
                        "players": [{"name": "Ana"}, {"name": "Ben"}],
                        "turn": "Ana",
                        "hand": ["Lura Thok", KEPT],
                        "deck_count": 10,
                    },
                    "move": {"play": "Lura Thok", "target": "Ben", "guess": "The Doctor"},
                },
            },
        )
        assert KEPT in str(asked["event"]["result"])  # Ana's phone: her answer whole
        assert asked["table"]["state"]["pending"]["target"] == "Ben"

        expect(ana.locator("#answer-heading")).to_have_text(
            "Waiting for Ben (seat 2) to answer Ana's Lura Thok"
        )
        expect(ana.locator(".table-answer__choices button")).to_have_count(0)
        expect(ben.locator("#answer-heading")).to_have_text(
            "Your answer: Ana plays Lura Thok at you, naming The Doctor"
        )
        expect(ben.locator(".table-answer__choices button")).to_have_text(
            ["Yes, I hold The Doctor", "No, I do not hold The Doctor"]
        )
        assert_accessible(ben, "An Academy Credits table: the target's answer")
        assert KEPT not in ben.locator("main").inner_text()

        ben.get_by_role("button", name="No, I do not hold The Doctor").click()
        expect(ben.locator("#answer-heading")).to_have_count(0)
        expect(ana.locator("#answer-heading")).to_have_count(0)
        answered = ana.locator(".table-history li").last
        expect(answered).to_contain_text("Ben answered: Legal: Ana plays Lura Thok (1) at Ben")
        expect(answered).to_contain_text("Ben does not hold The Doctor (6): nothing happens.")

        # Ben's phone follows the link of Ana's play in the history.
        ben.locator(".table-history li").first.get_by_role("link", name="its breakdown").click()
        expect(ben.locator("main")).to_contain_text("Lura Thok")
        shown = ben.locator("main").inner_text()
        assert "The Doctor" in shown and KEPT not in shown
        assert KEPT not in ana.locator("main").inner_text()
