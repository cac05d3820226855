"""The "Score a hand" page of Star Trek: Missions in a real browser, on a phone (the rulebook's
example at desktop size too, for the tiles' other layout): build the rulebook's example hand by
typing and by tapping tiles, watch the total and the breakdown follow, see a blanked card's
reason, change a choice, follow the share link; with the keyboard only; and the same without
JavaScript."""

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import BOTH_VIEWPORTS
from tests.browser.star_trek_missions_tiles import show_tile

pytestmark = pytest.mark.browser

PAGE = "/games/star-trek-missions/score/"
TYPED = ["Lieutenant Worf", "commander kurn", "Ambassador K'Ehleyr", "sela"]
TAPPED = {
    "diplomatic-conference": "Diplomatic Conference",
    "photon-torpedoes": "Photon Torpedoes",
    "bridge": "Bridge",
}
EXAMPLE = [
    "Lieutenant Worf",
    "Commander Kurn",
    "Ambassador K'Ehleyr",
    "Commander Sela",
    "Diplomatic Conference",
    "Photon Torpedoes",
    "Bridge",
]


def hand(page):
    return page.locator(".hand-card__name")


def total(page):
    return page.locator(".score-total__value")


def add_by_name(page, name, *, enter=True):
    count = hand(page).count()
    field = page.get_by_label("Add a card by name")
    field.fill(name)
    if enter:
        field.press("Enter")
    else:
        page.get_by_role("button", name="Add", exact=True).click()
    expect(hand(page)).to_have_count(count + 1)


def tap(page, slug):
    show_tile(page, slug)
    tile = page.locator(f"#tile-{slug}")
    pressed = tile.get_attribute("aria-pressed") == "true"
    tile.click()
    expect(page.locator(f"#tile-{slug}")).to_have_attribute(
        "aria-pressed", "false" if pressed else "true"
    )


def record_top_when_pressed(page):
    """Keep, in window.topWhenPressed, where the next control pressed was on the screen at that
    moment: Playwright may scroll before it clicks (when a first try finds the control covered or
    moving), which a finger does not, so the place to keep is the one the press was made at."""
    page.evaluate(
        """() => {
          window.topWhenPressed = null;
          document.addEventListener("click", (event) => {
            window.topWhenPressed = event.target.closest("button").getBoundingClientRect().top;
          }, { capture: true, once: true });
        }"""
    )


def no_script_page(browser, site, viewport):
    """A page with JavaScript off, whose requests are checked like the `page` fixture's."""
    from tests.browser.conftest import VIEWPORTS

    context = browser.new_context(**VIEWPORTS[viewport], java_script_enabled=False)
    page = context.new_page()
    page.requests = []
    page.on("request", lambda request: page.requests.append(request.url))
    return context, page


def assert_stayed_home(page, site):
    outside = [url for url in page.requests if urlsplit(url).netloc != urlsplit(site).netloc]
    assert not outside, f"requests left the live server: {outside}"


def build_hand(page, names):
    for name in names:
        add_by_name(page, name)


# At both sizes: the tapped tile keeps its place on the screen in both layouts of the tiles.
@BOTH_VIEWPORTS
def test_the_rulebook_example_by_typing_and_tapping(page, site, assert_fits, viewport):
    page.goto(site + PAGE)
    expect(page.get_by_role("heading", level=1)).to_have_text("Score a hand")
    expect(page.locator("#stm-cards option")).to_have_count(74)
    assert page.get_by_label("Add a card by name").get_attribute("list") == "stm-cards"
    expect(page.locator(".pick-tile")).to_have_count(74)
    assert_fits(page)
    page.evaluate("() => { window.notReloaded = true; }")

    # Typing: Enter adds, and so does the Add button; the field is cleared and keeps the focus.
    for index, name in enumerate(TYPED):
        add_by_name(page, name, enter=index % 2 == 0)
    expect(hand(page)).to_have_text(EXAMPLE[:4])
    expect(page.get_by_label("Add a card by name")).to_have_value("")
    expect(page.locator("#tile-commander-sela")).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".notice")).to_contain_text("Partial hand: 4 of 7 cards")
    first_total = int(total(page).inner_text())

    # Tapping tiles: each press adds the card and the total follows; the tile keeps the focus
    # and its place on the screen, though the hand above it grows.
    for slug in TAPPED:
        show_tile(page, slug)
        page.locator(f"#tile-{slug}").scroll_into_view_if_needed()
        record_top_when_pressed(page)
        tap(page, slug)
        expect(page.locator(f"#tile-{slug}")).to_be_focused()
        top = page.evaluate("() => window.topWhenPressed")
        assert top is not None, "the press was not seen"
        assert abs(page.locator(f"#tile-{slug}").bounding_box()["y"] - top) <= 2
    expect(hand(page)).to_have_text(EXAMPLE)
    expect(total(page)).to_have_text("66")
    assert first_total < 66
    expect(page.locator(".notice")).to_have_count(0)  # a whole hand: no warning
    expect(page.locator(".score-bar")).to_contain_text("Total 66")

    rows = page.locator("#score-result tbody tr")
    expect(rows).to_have_count(14)
    expect(rows.first).to_contain_text("4 for Photon Torpedoes (Combat)")
    expect(rows.last.locator(".score-steps__running")).to_have_text("66")
    expect(page.locator(".hand-card").first).to_contain_text("8 points")
    assert page.evaluate("() => window.notReloaded") is True  # htmx swapped, no page load
    assert_fits(page)

    # A tile pressed again takes the card out; the Remove button does too.
    tap(page, "bridge")
    expect(hand(page)).to_have_count(6)
    page.get_by_role("button", name="Remove Commander Kurn").click()
    expect(hand(page)).to_have_text([n for n in EXAMPLE if n not in ("Commander Kurn", "Bridge")])
    # The focus stays at that place in the list: on the next card's Remove button.
    expect(page.get_by_role("button", name="Remove Ambassador K'Ehleyr")).to_be_focused()
    tap(page, "bridge")
    tap(page, "commander-kurn")
    expect(total(page)).to_have_text("66")

    # The share link opens the saved result, with the same total.
    share = page.locator("a.share__url")
    url = share.inner_text()
    assert re.fullmatch(re.escape(site) + r"/r/[a-z2-7]{10}", url)
    share.click()
    expect(page).to_have_url(url)
    expect(page.get_by_role("heading", level=1)).to_have_text("Score: Star Trek: Missions")
    expect(page.locator(".score-result__total")).to_have_text("Total: 66")
    expect(page.locator("table.steps tbody tr")).to_have_count(14)
    assert_fits(page)


def test_a_blanked_card_shows_why(page, site, assert_fits):
    page.goto(site + PAGE)
    build_hand(page, ["James Moriarty", "Lieutenant Worf", "Away Team"])
    moriarty = page.locator(".hand-card").first
    expect(moriarty).to_have_class(re.compile(r"hand-card--blanked"))
    expect(moriarty.locator(".hand-card__blanked")).to_have_text(
        "⊘ Blanked: no Holodeck 1 or Holodeck 2 or Computer stands in the hand."
    )
    expect(moriarty).to_contain_text("0 points")
    # With the Computer he stands.
    tap(page, "computer")
    expect(page.locator(".hand-card").first.locator(".hand-card__blanked")).to_have_count(0)
    assert_fits(page)


def test_change_a_choice_and_see_the_total_change(page, site, assert_fits):
    page.goto(site + PAGE)
    build_hand(
        page,
        [
            "Unidentified Ship",
            "Captain Jean-Luc Picard",
            "Lieutenant Worf",
            "Photon Torpedoes",
            "Bridge",
            "Away Team",
            "Borg Cube",
        ],
    )
    best = int(total(page).inner_text())
    borg = page.locator("#choices-borg-cube")
    expect(borg.locator("legend")).to_contain_text("Borg Cube blanks:")
    expect(borg).to_contain_text("Tableside's choice")
    blanked = page.locator(".hand-card--blanked")
    expect(blanked.first.locator(".hand-card__blanked")).to_contain_text("Blanked by Borg Cube")
    assert_fits(page)

    # Borg Cube blanks nothing: the total drops, and the choice says whose it is.
    select = page.get_by_label("Blank", exact=True)
    expect(select).to_have_value("")
    select.focus()  # as a person's tap or Tab does (select_option alone does not)
    select.select_option(label="Nothing")
    expect(page.locator("#choices-borg-cube legend")).to_have_text("Borg Cube blanks: nothing")
    expect(page.locator("#choices-borg-cube")).to_contain_text("Your choice")
    without = int(total(page).inner_text())
    assert without < best
    expect(page.locator(".hand-card--blanked")).to_have_count(0)
    expect(page.get_by_label("Blank", exact=True)).to_be_focused()  # focus stays on the control

    # The Unidentified Ship's type: one field fixes the card, the others keep what was shown.
    ship = page.locator("#choices-unidentified-ship")
    shown = ship.locator("legend").inner_text().split(": ", 1)[1].split(", ")
    new_type = "Civilian" if shown[0] != "Civilian" else "Captain"
    page.get_by_label("Type", exact=True).select_option(label=new_type)
    expect(ship.locator("legend")).to_have_text(
        "Unidentified Ship: " + ", ".join([new_type] + shown[1:])
    )
    assert int(total(page).inner_text()) != without

    # Back to Best for both: the best total again.
    page.get_by_label("Type", exact=True).select_option(label="Best (let Tableside choose)")
    page.get_by_label("Blank", exact=True).select_option(label="Best (let Tableside choose)")
    expect(total(page)).to_have_text(str(best))
    expect(page.locator("#choices-borg-cube")).to_contain_text("Tableside's choice")
    assert_fits(page)


def test_problems_are_shown_next_to_the_hand(page, site, assert_fits):
    page.goto(site + PAGE)
    build_hand(page, ["Away Team", "Borg Cube", "Lieutenant Worf"])
    tap(page, "mysterious-plague")
    alert = page.locator("#hand .alert")
    expect(alert).to_contain_text("The hand cannot be scored")
    expect(alert).to_contain_text(
        "The hand has 3 Missions (Away Team, Borg Cube, Mysterious "
        "Plague); a final hand holds 7 cards with one or two Missions."
    )
    expect(page.locator(".score-total")).to_have_text("Not scored")
    expect(page.locator("#score-status")).to_contain_text("The hand cannot be scored")
    # A typo in the name field: the problem by the field, with a suggestion; the hand stays.
    field = page.get_by_label("Add a card by name")
    field.fill("Wrof")
    field.press("Enter")
    expect(page.locator("#add-card-error")).to_contain_text("Did you mean Lieutenant Worf")
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(field).to_have_value("Wrof")
    # Taking a Mission out makes it a hand again.
    page.get_by_role("button", name="Remove Borg Cube").click()
    expect(page.locator("#hand .alert")).to_have_count(0)
    expect(total(page)).to_have_text(re.compile(r"\d+"))
    assert_fits(page)


@pytest.fixture
def slow_scoring(monkeypatch):
    """Each score takes a while, so that the next taps come while it is on its way."""
    import time

    from games.package import SCORE
    from games.services import SERVICES

    real = SERVICES[SCORE]

    def slow(*, game, body):
        time.sleep(0.4)
        return real(game=game, body=body)

    monkeypatch.setitem(SERVICES, SCORE, slow)


def test_taps_made_while_scoring_are_not_lost(page, site, slow_scoring):
    page.goto(site + PAGE)
    for slug in ("lieutenant-worf", "bridge", "photon-torpedoes", "away-team"):
        show_tile(page, slug)
        page.locator(f"#tile-{slug}").click(no_wait_after=True)
    expect(hand(page)).to_have_text(["Lieutenant Worf", "Bridge", "Photon Torpedoes", "Away Team"])
    expect(page.locator(".pick-tile[aria-pressed='true']")).to_have_count(4)
    expect(total(page)).to_have_text(re.compile(r"\d+"))


def test_removals_made_while_scoring_take_out_the_right_cards(page, site, slow_scoring):
    page.goto(site + PAGE)
    # The hand first, each card in before the next tap: what is tested is the removals. (Tapped
    # back to back, a tile could move under the tap as the page kept a pressed tile in place
    # after an answer, and the tap land beside it, as a finger's can: one in a clean clone's run
    # was lost so. Taps made while scoring: the test above.)
    for count, name in enumerate(EXAMPLE, start=1):
        slug = name.lower().replace(" ", "-").replace(chr(39), "")
        show_tile(page, slug)
        page.locator(f"#tile-{slug}").click()
        expect(hand(page)).to_have_count(count)
    # Remove buttons are numbered by place; queued removals still take out the cards pressed.
    page.get_by_role("button", name="Remove Commander Kurn").click(no_wait_after=True)
    page.get_by_role("button", name="Remove Commander Sela").click(no_wait_after=True)
    page.get_by_role("button", name="Remove Photon Torpedoes").click(no_wait_after=True)
    expect(hand(page)).to_have_text(
        ["Lieutenant Worf", "Ambassador K'Ehleyr", "Diplomatic Conference", "Bridge"]
    )


def test_keyboard_only(page, site):
    page.goto(site + PAGE)
    # From the top of the page, Tab reaches the name field.
    for _ in range(30):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.id") == "add-card":
            break
    field = page.get_by_label("Add a card by name")
    expect(field).to_be_focused()
    page.keyboard.type("Spock")
    page.keyboard.press("Enter")
    expect(hand(page)).to_have_text(["Spock"])
    expect(field).to_be_focused()
    expect(field).to_have_value("")
    # Tab on to the Add button, then the card's Remove button; Enter removes it and the focus
    # does not get lost.
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Add", exact=True)).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Remove Spock")).to_be_focused()
    page.keyboard.press("Enter")
    expect(hand(page)).to_have_count(0)
    assert page.evaluate("() => document.activeElement !== document.body")
    expect(page.locator("#hand-heading")).to_be_focused()
    # Tab to the first tile; Space adds its card and the tile keeps the focus, visibly.
    for _ in range(10):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.classList.contains('pick-tile')"):
            break
    tile = page.locator("#tile-captain-jean-luc-picard")
    expect(tile).to_be_focused()
    page.keyboard.press("Space")
    expect(tile).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#tile-captain-jean-luc-picard")).to_be_focused()
    outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"
    expect(hand(page)).to_have_text(["Captain Jean-Luc Picard"])
    # The next tile, with Enter.
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(page.locator("#tile-chancellor-gowron")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#tile-chancellor-gowron")).to_be_focused()


def test_without_javascript_the_form_still_scores(browser, site, viewport):
    context, page = no_script_page(browser, site, viewport)
    try:
        page.goto(site + PAGE)
        for name in TYPED:
            field = page.get_by_label("Add a card by name")
            field.fill(name)
            field.press("Enter")
            expect(page).to_have_url(site + PAGE)
            # Ready for the next name (autofocus; an anchor in the address would prevent it).
            expect(page.get_by_label("Add a card by name")).to_be_focused()
        for slug in TAPPED:
            show_tile(page, slug)
            page.locator(f"#tile-{slug}").click()
            expect(page).to_have_url(site + PAGE + f"#tile-{slug}")
        expect(hand(page)).to_have_text(EXAMPLE)
        expect(total(page)).to_have_text("66")
        expect(page.locator("#score-result tbody tr")).to_have_count(14)
        page.locator("a.share__url").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("Score: Star Trek: Missions")
        expect(page.locator(".score-result__total")).to_have_text("Total: 66")
        assert_stayed_home(page, site)
    finally:
        context.close()


def test_choices_without_javascript(browser, site):
    context, page = no_script_page(browser, site, "phone")
    try:
        page.goto(site + PAGE)
        for name in ("Borg Cube", "Lieutenant Worf", "Captain Jean-Luc Picard", "Bridge"):
            field = page.get_by_label("Add a card by name")
            field.fill(name)
            field.press("Enter")
        best = int(total(page).inner_text())
        page.get_by_label("Blank", exact=True).select_option(label="Nothing")
        page.get_by_role("button", name="Score with these choices").click()
        expect(page.locator("#choices-borg-cube legend")).to_have_text("Borg Cube blanks: nothing")
        assert int(total(page).inner_text()) <= best
        assert_stayed_home(page, site)
    finally:
        context.close()
