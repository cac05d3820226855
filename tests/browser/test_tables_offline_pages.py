"""Every game's page opened from a table keeps its entry offline the way the table's own form
does (issue 29): tapped with the network gone, the entry is kept on the phone, next to the
button ("Kept on this phone"), nothing reaches the table; when the network returns it is sent
once, with its entry key (the table's Idempotency-Key), and the table shows it once.

On a 390×844 touch phone, the network cut by Playwright's context.set_offline."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.game_forms import STAR_TREK_MISSIONS_TURN_HAND, fill
from tests.browser.phone import PHONE
from tests.browser.test_tables_entries import pick
from tests.browser.watched import watched_page

pytestmark = [pytest.mark.browser, pytest.mark.table]

HAND_SLUGS = [
    "ambassador-kehleyr",
    "ambassador-sarek",
    "batleth",
    "bridge",
    "captain-jean-luc-picard",
    "chancellor-gowron",
    "away-team",
]


def start_table(host, site: str, game: str, players: list[str]) -> str:
    host.goto(f"{site}/t/?game={game}")
    host.get_by_label("Players, one name a line, in seat order").fill("\n".join(players))
    host.get_by_role("button", name="Start the table").click()
    expect(host.get_by_role("heading", level=1)).to_contain_text("table")
    return host.url


def open_from_the_table(page, link: str, name: str, job: str) -> None:
    """The seat's phone claims `name`'s seat and opens the game's page `job` from the table."""
    page.goto(link)
    page.get_by_role("button", name=f"I am {name}").click()
    expect(page.locator(".lede")).to_contain_text(f"You are {name}")
    page.locator(".table-jobs").get_by_role("link", name=job).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(job)


def events(page, site: str, link: str) -> list[dict]:
    code = link.rstrip("/").rsplit("/", 1)[1]
    return page.request.get(f"{site}/api/tables/{code}/").json()["events"]


def sent_offline_then_back(page, site: str, link: str, button) -> dict:
    """Tap `button` offline: kept next to it; back online: sent once. The form's fields as the
    tap would have sent them, the POSTs the page made, and the table's history while the entry
    was kept (it must not be in it)."""
    posts: list[str] = []
    page.on(
        "request", lambda request: posts.append(request.url) if request.method == "POST" else None
    )
    page.context.set_offline(True)
    button.click()
    kept = page.locator(".offline-kept")
    expect(kept).to_contain_text("Kept on this phone")
    expect(page.locator("#offline-status")).to_contain_text("Offline: your entry is kept")
    sent = button.evaluate("b => Object.fromEntries(new FormData(b.form).entries())")
    assert sent["entry_key"]
    before = events(page, site, link)
    page.context.set_offline(False)
    expect(kept).to_have_count(0, timeout=15_000)
    return {"fields": sent, "posts": posts, "before": before}


def keyed(link: str, sent: dict) -> int:
    """How many of the table's events carry the entry key the kept form held: the entry sent
    when the connection returned is that entry."""
    from tables.models import Event

    code = link.rstrip("/").rsplit("/", 1)[1]
    return Event.objects.filter(table__code=code, entry_key=sent["fields"]["entry_key"]).count()


def test_academy_credits_score_a_round_at_the_table_offline(browser, site):
    with (
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as host,
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as ben,
    ):
        link = start_table(host, site, "academy-credits", ["Ana", "Ben"])
        open_from_the_table(ben, link, "Ben", "Score a round")
        ben.locator("[name=player-2-out]").check()
        ben.locator("#player-1-discards").fill("Charles Vance, 4")
        ben.locator("#player-2-discards").fill("Lura Thok")
        ben.get_by_label("Cards left in the deck").fill("7")
        sent = sent_offline_then_back(
            ben, site, link, ben.get_by_role("button", name="Score the round")
        )
        expect(ben.locator("#round-result")).to_contain_text("Round won by Ana")
        recorded = events(ben, site, link)
        assert [(event["kind"], event["seat"]) for event in recorded] == [("round", 2)]
        assert len(sent["posts"]) == 1, sent["posts"]
        assert [event["kind"] for event in sent["before"]] == [
            event["kind"] for event in recorded[:-1]
        ]
        assert keyed(link, sent) == 1
        ben.get_by_role("link", name="Back to the table").click()
        expect(ben.locator(".table-history li")).to_have_count(1)
        expect(ben.locator(".table-history li")).to_contain_text("Round scored: Ana won it")


def test_star_trek_missions_score_a_hand_at_the_table_offline(browser, site):
    with (
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as host,
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as ana,
    ):
        link = start_table(host, site, "star-trek-missions", ["Ana", "Ben"])
        open_from_the_table(ana, link, "Ana", "Score a hand")
        pick(ana, HAND_SLUGS)
        sent = sent_offline_then_back(ana, site, link, ana.locator("#at-table-button"))
        expect(ana.locator("#at-table")).to_contain_text("Entered at the table as Ana")
        recorded = events(ana, site, link)
        assert [(event["kind"], event["seat"]) for event in recorded] == [("hand", 1)]
        assert len(sent["posts"]) == 1, sent["posts"]
        assert [event["kind"] for event in sent["before"]] == [
            event["kind"] for event in recorded[:-1]
        ]
        assert keyed(link, sent) == 1
        ana.locator("#at-table").get_by_role("link", name="Back to the table").click()
        expect(ana.locator(".table-history li")).to_have_count(1)
        expect(ana.locator(".table-history li")).to_contain_text("Ana entered a hand")


def test_star_trek_missions_check_a_turn_at_the_table_offline(browser, site):
    with (
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as host,
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as ana,
    ):
        link = start_table(host, site, "star-trek-missions", ["Ana", "Ben"])
        open_from_the_table(ana, link, "Ana", "Check a move")
        fill(
            ana,
            "#turn-form",
            {
                "hand": STAR_TREK_MISSIONS_TURN_HAND,
                "discard_area": ["Tricorder", "Time Distortion"],
                "galaxy_deck": "30",
                "mission_deck": "14",
                "action": "take_discard",
                "take": "Tricorder",
                "discard": "Tricorder",
            },
        )
        sent = sent_offline_then_back(
            ana, site, link, ana.locator("#turn-form button.button[type=submit]").first
        )
        expect(ana.locator("#turn-result h2").first).to_contain_text("Ruling")
        recorded = events(ana, site, link)
        assert [(event["kind"], event["seat"]) for event in recorded] == [("ruling", 1)]
        assert len(sent["posts"]) == 1, sent["posts"]
        assert [event["kind"] for event in sent["before"]] == [
            event["kind"] for event in recorded[:-1]
        ]
        assert keyed(link, sent) == 1


def test_star_realms_academy_break_down_a_turn_at_the_table_offline(browser, site):
    with (
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as host,
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as ana,
    ):
        link = start_table(host, site, "star-realms-academy", ["Ana", "Ben"])
        open_from_the_table(ana, link, "Ana", "Break down a turn")
        # Viper (1 Combat) and Imperial Frigate (2 Combat), all on Ben's Health; the turn ends.
        fill(
            ana,
            "#sra-form",
            {
                "hand": ["Viper", "Imperial Frigate", "Scout"],
                "shop_row": ["Freighter", "Corvette", "The Hive", "Barter World", "Survey Ship"],
                "action_1": "play",
                "card_1": "Viper",
                "action_2": "play",
                "card_2": "Imperial Frigate",
                "action_3": "attack",
                "target_3": "health",
                "amount_3": "3",
                "action_4": "end_turn",
            },
        )
        sent = sent_offline_then_back(
            ana, site, link, ana.locator("#sra-form button.button[type=submit]").first
        )
        expect(ana.locator("#sra-result")).not_to_be_empty()
        recorded = events(ana, site, link)
        assert [(event["kind"], event["seat"]) for event in recorded] == [("turn", 1)]
        assert len(sent["posts"]) == 1, sent["posts"]
        assert [event["kind"] for event in sent["before"]] == [
            event["kind"] for event in recorded[:-1]
        ]
        assert keyed(link, sent) == 1
        ana.locator(".asked-at").get_by_role("link", name="Back to the table").click()
        expect(ana.locator(".table-history li")).to_have_count(1)


def test_factions_check_a_move_at_the_table_offline(browser, site):
    from tests.browser.test_tables_factions_defence import seat_token, send_event
    from tests.test_tables_factions import SETUP

    with (
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as host,
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as ana,
    ):
        link = start_table(host, site, "factions", ["Ana", "Ben"])
        code = link.rstrip("/").rsplit("/", 1)[1]
        ana.goto(link)
        ana.get_by_role("button", name="I am Ana").click()
        expect(ana.locator(".lede")).to_contain_text("You are Ana")
        send_event(site, code, seat_token(ana, code), {"kind": "setup", "seat": 1, "body": SETUP})
        ana.reload()
        ana.locator(".table-jobs").get_by_role("link", name="Check a move").click()
        expect(ana.get_by_role("heading", level=1)).to_have_text("Check a move")
        fill(ana, "#move-form", {"action": "pass"})
        sent = sent_offline_then_back(
            ana, site, link, ana.locator("#move-form button.button[type=submit]").first
        )
        expect(ana.locator("#move-result")).not_to_be_empty()
        recorded = events(ana, site, link)
        assert [(event["kind"], event["seat"]) for event in recorded] == [("setup", 1), ("move", 1)]
        assert len(sent["posts"]) == 1, sent["posts"]
        assert [event["kind"] for event in sent["before"]] == [
            event["kind"] for event in recorded[:-1]
        ]
        assert keyed(link, sent) == 1


def test_factions_the_defenders_answer_on_the_table_page_offline(browser, site):
    """The table page's own form in its polled part: Ben's answer to Ana's attack."""
    from tests.browser.test_tables_factions_defence import seat_token, send_event
    from tests.test_tables_factions import ATTACK, SETUP, c

    with (
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as ana,
        watched_page(browser, site, timeout=15_000, **PHONE, locale="en-GB") as ben,
    ):
        link = start_table(ana, site, "factions", ["Ana", "Ben"])
        code = link.rstrip("/").rsplit("/", 1)[1]
        ana.get_by_role("button", name="I am Ana").click()
        ben.goto(link)
        ben.get_by_role("button", name="I am Ben").click()
        expect(ben.locator(".lede")).to_contain_text("You are Ben")
        send_event(site, code, seat_token(ana, code), {"kind": "setup", "seat": 1, "body": SETUP})
        send_event(
            site,
            code,
            seat_token(ana, code),
            {
                "kind": "move",
                "seat": 1,
                "body": {
                    "position": {
                        "players": [
                            {"name": "Ana", "hand": [c("Attack", "amber-coast")]},
                            {"name": "Ben", "hand": []},
                        ]
                    },
                    "move": ATTACK,
                },
            },
        )
        block = ben.get_by_role("button", name="Block it with Defence (Ashen Peaks)")
        expect(block).to_be_visible()
        ben.evaluate("() => { window.notReloaded = true; }")
        sent = sent_offline_then_back(ben, site, link, block)
        history = ben.locator(".table-history li")
        expect(history.last).to_contain_text("Ben blocks Ana's Attack (Amber Coast)")
        recorded = events(ben, site, link)
        assert [(event["kind"], event["seat"]) for event in recorded] == [
            ("setup", 1),
            ("move", 1),
            ("move", 2),
        ]
        assert len(sent["posts"]) == 1, sent["posts"]
        assert [event["kind"] for event in sent["before"]] == ["setup", "move"]
        assert keyed(link, sent) == 1
        expect(history).to_have_count(3)
