"""A Factions attack defended from the defender's phone at a table (issue 29), on two 390 px
phones: Ana's phone does not know Ben's cards, so the table does not rule the attack unblockable.
It shows both phones whom it waits for, and Ben's phone, which never reloads, offers exactly
Ben's answers at its next poll. Ben blocks with a DEFENCE; Ana's phone sees the attack blocked and
her turn going on. Neither phone shows the other's hand."""

import json
import urllib.request
from urllib.parse import unquote

import pytest
from playwright.sync_api import expect

from tests.browser.accessibility import assert_accessible
from tests.browser.phone import PHONE, POLLED
from tests.browser.watched import watched_page
from tests.test_tables_factions import ATTACK, SETUP, c

pytestmark = [pytest.mark.browser, pytest.mark.table]


def seat_token(page, code: str) -> str:
    cookie = next(cookie for cookie in page.context.cookies() if cookie["name"] == f"seat_{code}")
    return unquote(cookie["value"]).strip('"').partition(":")[2]


def send_event(site: str, code: str, token: str, body: dict) -> dict:
    with urllib.request.urlopen(f"{site}/api/tables/{code}/") as response:
        version = json.load(response)["version"]
    request = urllib.request.Request(
        f"{site}/api/tables/{code}/events/",
        method="POST",
        data=json.dumps({**body, "version": version}).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
    )
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def test_bens_phone_blocks_anas_attack_at_the_table(browser, site):
    with (
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as ana,
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as ben,
    ):
        ana.goto(site + "/t/?game=factions")
        ana.get_by_label("Players, one name a line, in seat order").fill("Ana\nBen")
        ana.get_by_role("button", name="Start the table").click()
        ana.get_by_role("button", name="I am Ana (seat 1)").click()
        expect(ana.locator(".lede")).to_have_text("You are Ana (seat 1).")
        code = ana.url.rstrip("/").rsplit("/", 1)[-1]
        ben.goto(f"{site}/t/{code}")
        ben.get_by_role("button", name="I am Ben (seat 2)").click()
        expect(ben.locator(".lede")).to_have_text("You are Ben (seat 2).")

        send_event(site, code, seat_token(ana, code), {"kind": "setup", "seat": 1, "body": SETUP})
        # Ana's phone gives Ana's hand only: an ATTACK and a SPY Ben must never see.
        attack = send_event(
            site,
            code,
            seat_token(ana, code),
            {
                "kind": "move",
                "seat": 1,
                "body": {
                    "position": {
                        "players": [
                            {
                                "name": "Ana",
                                "hand": [c("Attack", "amber-coast"), c("Spy", "ashen-peaks")],
                            },
                            {"name": "Ben", "hand": []},
                        ]
                    },
                    "move": ATTACK,
                },
            },
        )
        assert attack["event"]["result"]["outcome"]["pending"]["defender"] == "Ben"

        # Both phones, without reloading, see whom the table waits for.
        expect(ana.locator("#answer-heading")).to_have_text(
            "Waiting for Ben (seat 2) to answer Ana's attack on Peak Sentinel (Ashen Peaks)",
            timeout=POLLED,
        )
        expect(ana.get_by_role("button", name="Block it with Defence (Ashen Peaks)")).to_have_count(
            0
        )
        expect(ben.locator("#answer-heading")).to_have_text(
            "Your answer: Ana attacks your Peak Sentinel (Ashen Peaks)", timeout=POLLED
        )
        answers = ben.locator(".table-answer__choices button")
        expect(answers).to_have_text(
            [
                "Block it with Defence (Amber Coast)",
                "Block it with Defence (Ashen Peaks)",
                "Let it through: Peak Sentinel is defeated",
            ]
        )
        assert_accessible(ben, "A Factions table: the defender's answer")
        assert "Spy" not in ben.locator("main").inner_text()

        ben.get_by_role("button", name="Block it with Defence (Ashen Peaks)").click()
        expect(ben.locator("#answer-heading")).to_have_count(0)
        history = ana.locator(".table-history li").last
        expect(history).to_contain_text(  # on Ana's page by its poll
            "Ben blocks Ana's Attack (Amber Coast) on Peak Sentinel", timeout=POLLED
        )
        expect(ana.locator("#answer-heading")).to_have_count(0)
        expect(ana.locator("#players-heading + table + p")).to_contain_text("Ana's turn")
        assert "Spy" not in ben.locator("main").inner_text()
