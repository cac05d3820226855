"""What a person reads: the visible text of every page of the README's tour and of every result
(each game's score and ruling forms answered with a valid and an invalid input, and each saved
/r/<id>) holds no template source, no raw API error path and no machine code, except inside the
elements meant to show codes to whoever reports a bug. Here without JavaScript (the forms posted
and answered as whole pages); with JavaScript (htmx's partial answers), the same pages in the same
states are read by tests/browser/test_accessibility.py, at each state it checks with axe-core.

The text is the body's innerText, so what CSS hides (a closed <details>, display: none) is not
read, just as a person does not see it."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest

from tests.browser.conftest import VIEWPORTS
from tests.browser.game_forms import FORMS, submit_all
from tests.browser.watched import watched_page

pytestmark = pytest.mark.browser

TEMPLATE_SOURCE = ("{#", "#}", "{%", "{{", "%}", "}}")
# An API error path: `position.deck_count`, `players[1].hand`, `hand[2]`. Not "e.g." (one-letter
# parts) nor a file name such as star-trek-missions-cards.json (part of a longer name).
SEGMENT = r"[a-z]{2,}(?:_[a-z]+)*(?:\[\d+\])*"
API_PATH = re.compile(
    rf"(?<![-/.\w]){SEGMENT}(?:\.{SEGMENT})+(?![-/\w])"
    r"|\b[a-z]+(?:_[a-z]+)*\[\d+\]"
)
SNAKE_CASE = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")
# A file of the project (issue 23: "All fields come from … the card data file (…json)"): a path with a
# folder, or a data file's name.
FILE_PATH = re.compile(
    r"(?:\.\./|\b(?:shared|data|games|templates|static)/)[\w./-]*"
    r"|\b[\w-]+\.(?:json|py|md|csv|ya?ml)\b"
)
# The codes of the rules file's provenance sections (where card values come from), as issue 23
# saw them in answers: "provisional … (SRA-F2)". A ruling's check still cites its rule by id,
# as a link (.rule-id), and a card's page keeps its provenance note (.provenance-note).
PROVENANCE_CODE = re.compile(r"\b(?:SRA-F[12]|STM-F1|FAC-F3)\b")
# The only elements whose text may be codes: the "Details" disclosure of a ruling (its code, for
# bug reports), the request as understood, in its own disclosure on /r/<id>, and an option's API values
# on a game page (what an API caller types in `options`, marked as such).
ALLOWED = "details.code-details code, details.request-details pre.request-json, code.api-value"
# Where a provenance code may stand: a rule cited by its id, a card's provenance note.
PROVENANCE_ALLOWED = ".rule-id, .provenance-note"

TOUR = [
    "/",
    *[
        f"/games/{game}/"
        for game in ("academy-credits", "star-realms-academy", "factions", "star-trek-missions")
    ],
    *[
        f"/games/{game}/cards/"
        for game in ("academy-credits", "star-realms-academy", "factions", "star-trek-missions")
    ],
    "/games/academy-credits/cards/jett-reno/",
    "/games/academy-credits/cards/?q=reno",
    "/games/star-realms-academy/cards/corvette/",
    "/games/star-realms-academy/cards/?faction=blob",
    "/games/star-trek-missions/cards/lieutenant-worf/",
    "/games/star-trek-missions/cards/?q=captain",
    *[form.url for form in FORMS],
    "/games/star-trek-missions/table/",
    "/t/",  # start a table (issue 25; a table's own page: tests/browser/test_tables_page.py)
    "/t/?game=academy-credits",
    "/games/no-such-game/",
    "/r/nosuchresult",
]


def visible_text(page, allowed: str = ALLOWED) -> str:
    """The body's visible text, without the text of the elements allowed to show codes."""
    text = page.locator("body").inner_text()
    for element in page.locator(allowed).all():
        text = text.replace(element.inner_text(), "")
    return text


def problems(text: str, *, provenance_text: str | None = None) -> list[str]:
    """What a player should not read in `text`; provenance codes are looked for in
    `provenance_text` (the text without the rule ids and provenance notes), if given."""
    found = [f"template source {s!r}" for s in TEMPLATE_SOURCE if s in text]
    found += [f"API path {m.group(0)!r}" for m in API_PATH.finditer(text)]
    found += [f"code {m.group(0)!r}" for m in SNAKE_CASE.finditer(text)]
    found += [f"file path {m.group(0)!r}" for m in FILE_PATH.finditer(text)]
    codes = text if provenance_text is None else provenance_text
    found += [f"provenance code {m.group(0)!r}" for m in PROVENANCE_CODE.finditer(codes)]
    return found


def context_line(text: str, needle: str) -> str:
    for line in text.splitlines():
        if needle in line:
            return line.strip()[:200]
    return ""


def report(page, where: str) -> list[str]:
    text = visible_text(page)
    out = []
    for problem in problems(
        text, provenance_text=visible_text(page, ALLOWED + ", " + PROVENANCE_ALLOWED)
    ):
        needle = problem.split("'")[1] if "'" in problem else problem
        out.append(f"{where}: {problem} in “{context_line(text, needle)}”")
    return out


@pytest.fixture
def reader(browser, site):
    """A phone-sized page without JavaScript, that must stay on the live server."""
    with watched_page(
        browser,
        site,
        timeout=15_000,
        **VIEWPORTS["phone"],
        java_script_enabled=False,
        locale="en-GB",
    ) as page:
        yield page


def test_the_tour_pages_read_as_text_for_players(reader, site):
    found = []
    for path in TOUR:
        reader.goto(site + path)
        found += report(reader, path)
    assert not found, "\n".join(found)


@pytest.mark.parametrize("game_form", FORMS, ids=[form.id for form in FORMS])
def test_every_result_reads_as_text_for_players(reader, site, game_form):
    found = []
    submit_all(reader, site, game_form, game_form.invalid, javascript=False)
    found += report(reader, f"{game_form.url} invalid input")

    submit_all(reader, site, game_form, game_form.valid, javascript=False)
    found += report(reader, f"{game_form.url} valid input")
    share = reader.locator("a.share__url")
    assert share.count() >= 1, f"{game_form.url}: the valid input gave no saved result"
    permalink = share.first.get_attribute("href")
    reader.goto(permalink)
    found += report(reader, f"{game_form.url} saved as {urlsplit(permalink).path}")
    assert not found, "\n".join(found)


def test_the_check_knows_template_source_paths_and_codes():
    """The check itself: it finds what issue 15 saw on the pages, and passes plain English."""
    assert problems("{# The head of a ruling #}")
    assert problems("Missing position.deck_count")
    assert problems("hand[2]: no card named Zzyzx")
    assert problems("Verdict: Illegal must_play_nahla_ake")
    assert problems("play: Nahla Ake, target: none") == []  # raw, but caught by its own test
    assert problems("Play Nahla Ake, e.g. at Ben. The Hive is a base; Health 15.") == []
    # Issue 23: file paths and the codes of provenance sections are refused too.
    assert problems("From the card data (data/star-trek-missions-cards.json).")
    assert problems("The card list `../cards/list.json` lists all 74 cards")
    assert problems("Corvette's cost is provisional (SRA-F2).")
    assert problems("See games/factions/engine.py")
    assert problems("From the game's card list; each faction contributes 2 (FAC-F1).") == []
    assert (
        problems(
            "Corvette's cost (2) is used; see SRA-F2's link",
            provenance_text="Corvette's cost (2) is used; see 's link",
        )
        == []
    )
