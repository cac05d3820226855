"""Every game's score and ruling form, with one valid and one invalid input each, filled by field
name in a real browser (or posted with Django's test client). Shared by the browser tests of the
visible text and of the saved-result pages."""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Page, expect

STAR_TREK_MISSIONS_EXAMPLE = [
    "Lieutenant Worf",
    "Commander Kurn",
    "Ambassador K'Ehleyr",
    "Commander Sela",
    "Diplomatic Conference",
    "Photon Torpedoes",
    "Bridge",
]
STAR_TREK_MISSIONS_TURN_HAND = [
    "Captain Jean-Luc Picard",
    "Commander William Riker",
    "Lieutenant Worf",
    "Photon Torpedoes",
    "Bridge",
    "Away Team",
    "Borg Cube",
]
AC_TABLE = {
    "player-1-name": "Ana",
    "player-1-discards": "Lura Thok",
    "player-2-name": "Ben",
    "player-2-discards": "Jay-Den Kraag, 1",
    "turn": "1",
}
SRA_BOARD = {
    "active_name": "Ana",
    "active_health": "15",
    "active_coins": "0",
    "active_combat": "0",
    "hand": ["Imperial Frigate", "Scout"],
    "opponent_name": "Ben",
    "opponent_health": "15",
    "opponent_coins": "1",
    "opponent_base_1": "The Hive",
    "opponent_base_1_damage": "0",
    "shop_row": ["Ram", "Corvette", "Freighter"],
}
FACTIONS_TABLE = {
    "p1-name": "Ana",
    "p2-name": "Ben",
    "f-amber-coast-controller": "1",
    "f-ashen-peaks-controller": "2",
    "turn": "1",
}
FACTIONS_STANDINGS = {key: value for key, value in FACTIONS_TABLE.items() if key != "turn"}


@dataclass
class GameForm:
    """A form page; each input is a list of submissions (dicts of field name -> value or list of
    values), made one after the other, of which the last one's answer is the one looked at."""

    id: str
    game: str
    kind: str  # "score" or "ruling": what a valid input saves
    url: str
    form: str  # CSS selector of the form
    submit: str  # CSS selector of the button that submits it
    valid: list[dict]
    invalid: list[dict]


FORMS = [
    GameForm(
        "star-trek-missions-score",
        "star-trek-missions",
        "score",
        "/games/star-trek-missions/score/",
        "#score-form",
        "#add-button",
        valid=[{"add": name} for name in STAR_TREK_MISSIONS_EXAMPLE],
        invalid=[{"add": "Zzyzx"}],
    ),
    GameForm(
        "star-trek-missions-check-turn",
        "star-trek-missions",
        "ruling",
        "/games/star-trek-missions/check-move/",
        "#turn-form",
        "#turn-form button.button[type=submit]",
        valid=[
            {
                "hand": STAR_TREK_MISSIONS_TURN_HAND,
                "discard_area": ["Tricorder", "Time Distortion"],
                "galaxy_deck": "30",
                "mission_deck": "14",
                "action": "take_discard",
                "take": "Tricorder",
                "discard": "Tricorder",
            }
        ],
        invalid=[
            {
                "hand": ["Zzyzx", *STAR_TREK_MISSIONS_TURN_HAND[1:]],
                "galaxy_deck": "30",
                "mission_deck": "14",
                "action": "take_discard",
                "take": "Bridge",
                "discard": "Bridge",
            }
        ],
    ),
    GameForm(
        "ac-check-play",
        "academy-credits",
        "ruling",
        "/games/academy-credits/check-move/",
        "#play-form",
        "#play-form button.button[type=submit]",
        valid=[
            {
                **AC_TABLE,
                "hand": ["Nahla Ake", "Jett Reno"],
                "deck_count": "14",
                "play": "Jett Reno",
                "target": "2",
            }
        ],
        # No deck count: the page must ask in a player's words.
        invalid=[{**AC_TABLE, "hand": ["Nahla Ake", "Jett Reno"], "play": "Jet Renno"}],
    ),
    GameForm(
        "ac-score-round",
        "academy-credits",
        "score",
        "/games/academy-credits/score/",
        "#round-form",
        "#round-form button.button[type=submit]",
        valid=[
            {
                "player-1-name": "Ana",
                "player-1-discards": "Lura Thok, Jay-Den Kraag",
                "player-1-hand": "Jett Reno",
                "player-1-credits": "2",
                "player-2-name": "Ben",
                "player-2-discards": "Charles Vance",
                "player-2-hand": "6",
                "player-2-credits": "1",
                "deck_count": "0",
                "charles_vance_bonus": "literal",
            }
        ],
        invalid=[
            {
                "player-1-name": "Ana",
                "player-1-hand": "Zzyzx",
                "player-2-name": "Ben",
                "player-2-hand": "6",
                "deck_count": "3",
            }
        ],
    ),
    GameForm(
        "sra-check-move",
        "star-realms-academy",
        "ruling",
        "/games/star-realms-academy/check-move/",
        "#sra-form",
        "#sra-form button.button[type=submit]",
        valid=[{**SRA_BOARD, "action_0": "buy", "card_0": "Corvette", "active_coins": "5"}],
        invalid=[{**SRA_BOARD, "hand": ["Imperial Frigat"], "action_0": "play", "card_0": "Scout"}],
    ),
    GameForm(
        "sra-turn",
        "star-realms-academy",
        "score",
        "/games/star-realms-academy/score/",
        "#sra-form",
        "#sra-form button.button[type=submit]",
        valid=[
            {
                **SRA_BOARD,
                "action_1": "play",
                "card_1": "Imperial Frigate",
                "action_2": "attack",
                "target_2": "The Hive",
                "amount_2": "1",
                "action_3": "attack",
                "target_3": "health",
            }
        ],
        invalid=[{**SRA_BOARD, "action_1": "play", "card_1": "Zzyzx"}],
    ),
    GameForm(
        "factions-check-move",
        "factions",
        "ruling",
        "/games/factions/check-move/",
        "#move-form",
        "#move-form button.button[type=submit]",
        valid=[
            {
                **FACTIONS_TABLE,
                "p1-hand-1": "defence@amber-coast",
                "action": "play",
                "card": "defence@amber-coast",
            }
        ],
        invalid=[
            {
                **FACTIONS_TABLE,
                "p1-hand-1": "spy@amber-coast",
                "p1-hand-2": "spy@amber-coast",
                "p1-hand-3": "spy@amber-coast",
                "action": "pass",
            }
        ],
    ),
    GameForm(
        "factions-standings",
        "factions",
        "score",
        "/games/factions/score/",
        "#standings-form",
        "#standings-form button.button[type=submit]",
        valid=[FACTIONS_STANDINGS],
        invalid=[{**FACTIONS_STANDINGS, "f-frost-reach-controller": "2"}],
    ),
]


def fill(page: Page, form: str, data: dict) -> None:
    """Fill the fields of `form` by name: text, number, select, checkbox or radio; a list fills
    the fields of that name in order."""
    for name, value in data.items():
        values = value if isinstance(value, list) else [value]
        fields = page.locator(f'{form} [name="{name}"]')
        kind = fields.first.evaluate(
            "e => e.tagName.toLowerCase() + ':' + (e.getAttribute('type') || '')"
        )
        if kind == "input:radio":
            page.locator(f'{form} [name="{name}"][value="{values[0]}"]').check()
            continue
        for index, item in enumerate(values):
            element = fields.nth(index)
            if kind.startswith("select:"):
                element.select_option(item)
            elif kind == "input:checkbox":
                element.check()
            else:
                element.fill(item)


def submit(page: Page, game_form: GameForm, data: dict, *, javascript: bool) -> None:
    """Fill and submit once, and wait for the answer to be on the page (swapped in by htmx, or a
    whole new page without JavaScript)."""
    fill(page, game_form.form, data)
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.locator(game_form.submit).first.click()
    page.wait_for_load_state()
    if javascript:
        page.wait_for_function(
            "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
        )


def submit_all(
    page: Page, site: str, game_form: GameForm, submissions: list[dict], *, javascript: bool
) -> None:
    page.goto(site + game_form.url)
    expect(page.locator(game_form.form)).to_be_visible()
    for data in submissions:
        submit(page, game_form, data, javascript=javascript)
