"""Every page works under the strict Content-Security-Policy in a real browser: Chromium reports
no violation (an inline script or style, a foreign origin), htmx's live updates included."""

import pytest

pytestmark = pytest.mark.browser

PAGES = [
    "/",
    "/games/star-trek-missions/",
    "/games/star-realms-academy/cards/",
    "/games/academy-credits/cards/jett-reno/",
    "/games/star-trek-missions/check-move/",
    "/games/academy-credits/check-move/",
    "/games/academy-credits/score/",
    "/games/star-realms-academy/check-move/",
    "/games/star-realms-academy/score/",
    "/games/factions/check-move/",
    "/games/factions/score/",
    "/games/star-trek-missions/table/",
    "/api/docs/",
    "/admin/login/",
    "/games/no-such-game/",
]
# Pages that fetch more after they load (Swagger UI asks for the schema), waited for until the
# network is quiet; the others are whole once loaded.
LOADS_MORE = {"/api/docs/"}


def test_no_page_breaks_the_content_security_policy(page, site):
    violations = []
    page.on(
        "console",
        lambda message: (
            violations.append(message.text)
            if "Content Security Policy" in message.text or "Refused to" in message.text
            else None
        ),
    )
    for path in PAGES:
        page.goto(site + path)  # returns once the page has loaded: its scripts and styles ran
        if path in LOADS_MORE:
            page.wait_for_load_state("networkidle")
    # An htmx update (live search) under the same policy.
    page.goto(site + "/games/star-trek-missions/cards/")
    page.get_by_label("Search names and card text").fill("commander")
    page.wait_for_url("**q=commander**")
    page.wait_for_load_state("networkidle")
    assert "Commander Kurn" in page.content()
    assert violations == []
