"""Rulings 10-13 of docs/rules/star-trek-missions.md, each tested by name: the engine (no
database), then the card text players read on the card page and in the API (database)."""

import html

import pytest

from games.star_trek_missions.choices import ChoiceError
from games.star_trek_missions.language import render_rule, validate_rule
from tests.engines.star_trek_missions_catalog import catalog as star_trek_missions_catalog
from tests.engines.star_trek_missions_catalog import points, score

CONFRONTATION = "Space Confrontation"
ROMANCE = "Blossoming Romance"
BOK, TOG, NAKAMURA = "Daimon Bok", "Daimon Tog", "Vice Admiral Nakamura"
GOWRON, CRYSTAL, RIKER, PICARD = (
    "Chancellor Gowron",
    "Crystal Entity",
    "Commander William Riker",
    "Captain Jean-Luc Picard",
)
TRAVELER, SHIP, THOUGHT_MAKER, BORG = (
    "The Traveler",
    "Unidentified Ship",
    "Thought Maker",
    "Borg Cube",
)
SELA, KEHLEYR, SIEGE, TRICORDER = (
    "Commander Sela",
    "Ambassador K'Ehleyr",
    "Federation Under Siege",
    "Tricorder",
)

CONFRONTATION_TEXT = (
    "Blanked unless with non-Federation Captain or Entity. 6 for each other Command and other "
    "Combat. Its bonuses do not count the one non-Federation Captain or Entity that keeps it from "
    "being blanked (of several, the best one for the player)."
)
ROMANCE_TEXT = (
    "8 with two or more Personnel or Civilian or Captains; 6 for each Counselor and "
    "Betazoid and Quarters."
)


# --- STM-R10: "other" on a BLANKED UNLESS card -----------------------------------------------


def test_stm_r10_the_card_keeping_space_confrontation_is_not_other():
    result = score([CONFRONTATION, BOK, TOG, NAKAMURA])
    assert result.total == 12  # one Daimon keeps it; the other and Nakamura count: not 18
    steps = [s for s in result.steps if s.card == CONFRONTATION]
    assert [(s.rule, s.giving, s.points) for s in steps] == [
        ("STM-R10", [BOK], 0),
        ("STM-7.2", [TOG], 6),
        ("STM-7.2", [NAKAMURA], 6),
    ]
    assert steps[0].detail == (
        "Daimon Bok keeps it from being blanked, so it is not one of the "
        "other cards its bonuses count: 0"
    )


def test_stm_r10_the_best_card_keeps_it():
    # Crystal Entity (an Entity, neither Command nor Combat) keeps it, so Gowron counts.
    assert points([CONFRONTATION, GOWRON, CRYSTAL, RIKER])[CONFRONTATION] == 12
    # Gowron alone keeps it: only Riker counts.
    assert points([CONFRONTATION, GOWRON, RIKER])[CONFRONTATION] == 6


def test_stm_r10_a_card_thought_maker_makes_non_federation_keeps_it_and_is_not_other():
    # Picard (a Federation Captain) made Klingon Empire keeps Space Confrontation; he is not one
    # of the others: Riker 6, Thought Maker's +5 = 11 (17 if Picard counted).
    hand = [CONFRONTATION, PICARD, RIKER, THOUGHT_MAKER]
    result = score(hand)
    assert result.total == 11
    assert result.choices[THOUGHT_MAKER]["target"] == PICARD
    assert points(hand) == {CONFRONTATION: 6, PICARD: 0, RIKER: 0, THOUGHT_MAKER: 5}


# --- STM-R11: "(any lifeform)" ---------------------------------------------------------------


def test_stm_r11_any_lifeform_counts_a_card_with_no_lifeform():
    assert points([ROMANCE, RIKER, TRAVELER])[ROMANCE] == 8  # The Traveler has no lifeform
    assert points([ROMANCE, TRAVELER])[ROMANCE] == 0  # still two cards
    assert points([ROMANCE, TRAVELER, "Vash"])[ROMANCE] == 8


# --- STM-R12: a card never counts towards its own bonus --------------------------------------


def test_stm_r12_a_card_never_counts_itself():
    assert points([GOWRON])[GOWRON] == 0  # Klingon, Klingon Empire: "each other" one
    assert points([TRICORDER])[TRICORDER] == 0  # Medical and Science itself
    assert points([NAKAMURA, PICARD])[NAKAMURA] == 7  # Picard only


def test_stm_r12_not_even_when_thought_maker_gives_it_the_attribute():
    # Sela scores 4 for each Hostile: Thought Maker making her Hostile gives her nothing.
    changed = {THOUGHT_MAKER: {"target": SELA, "affiliation": "hostile"}}
    assert points([SELA, THOUGHT_MAKER], changed) == {SELA: 0, THOUGHT_MAKER: 5}
    assert score([SELA, THOUGHT_MAKER]).total == 5


# --- STM-R13: a blanked card is ignored completely -------------------------------------------


def test_stm_r13_thought_maker_cannot_change_a_card_borg_cube_blanks():
    # Borg Cube blanks K'Ehleyr; Thought Maker's change of her affiliation does nothing and earns
    # no +5. Federation Under Siege counts Thought Maker (Ferengi Alliance) only.
    choices = {
        BORG: {"blank": [KEHLEYR]},
        THOUGHT_MAKER: {"target": KEHLEYR, "affiliation": "hostile"},
    }
    result = score([BORG, THOUGHT_MAKER, KEHLEYR, SIEGE], choices)
    assert {c.name: c.points for c in result.cards} == {
        BORG: 0,
        THOUGHT_MAKER: 0,
        KEHLEYR: 0,
        SIEGE: 6,
    }
    assert not any(s.card == THOUGHT_MAKER and s.points for s in result.steps)


def test_stm_r13_a_thought_maker_borg_cube_blanks_changes_nothing():
    # Thought Maker blanked: K'Ehleyr stays Federation (Siege 0); Borg Cube 5 for K'Ehleyr
    # (Security), and Thought Maker scores what Borg Cube scores.
    choices = {
        BORG: {"blank": [THOUGHT_MAKER]},
        THOUGHT_MAKER: {"target": KEHLEYR, "affiliation": "hostile"},
    }
    assert points([BORG, THOUGHT_MAKER, KEHLEYR, SIEGE], choices) == {
        BORG: 5,
        THOUGHT_MAKER: 5,
        KEHLEYR: 0,
        SIEGE: 0,
    }


def test_stm_r13_thought_maker_plus_5_needs_a_real_change():
    with pytest.raises(ChoiceError):  # Riker is already Federation
        score(
            [THOUGHT_MAKER, RIKER], {THOUGHT_MAKER: {"target": RIKER, "affiliation": "federation"}}
        )
    # The Unidentified Ship fixed as Federation: making it Federation is no change, refused like
    # Riker's (STM-R15), never scored as a silent 0.
    ship = {
        "type": "personnel",
        "lifeform": "human",
        "affiliation": "federation",
        "specialty": "command",
    }
    same = {SHIP: ship, THOUGHT_MAKER: {"target": SHIP, "affiliation": "federation"}}
    with pytest.raises(ChoiceError) as refused:
        points([THOUGHT_MAKER, SHIP], same)
    assert refused.value.path == "choices['Thought Maker'].affiliation"
    other = {SHIP: ship, THOUGHT_MAKER: {"target": SHIP, "affiliation": "hostile"}}
    assert points([THOUGHT_MAKER, SHIP], other)[THOUGHT_MAKER] == 5
    assert points([THOUGHT_MAKER, RIKER])[THOUGHT_MAKER] == 5


# --- The card text players read says what the engine computes --------------------------------


def _text(name):
    specs, _, labels = star_trek_missions_catalog()
    spec = specs[name]
    return render_rule(spec.rule, name=name, attributes=spec.attributes, labels=labels)


def test_stm_r10_r11_card_text_says_what_the_engine_computes():
    assert _text(CONFRONTATION) == CONFRONTATION_TEXT
    assert _text(ROMANCE) == ROMANCE_TEXT


@pytest.mark.django_db
@pytest.mark.parametrize(
    "slug, text, ruling",
    [
        ("space-confrontation", CONFRONTATION_TEXT, "STM-R10"),
        ("blossoming-romance", ROMANCE_TEXT, "STM-R11"),
    ],
)
def test_stm_r10_r11_card_text_on_the_api_and_the_card_page(client, catalog, slug, text, ruling):
    body = client.get(f"/api/games/star-trek-missions/cards/{slug}/").json()
    assert body["text"] == text
    assert ruling in [r["rule"] for r in body["rulings"]]
    page = html.unescape(client.get(f"/games/star-trek-missions/cards/{slug}/").content.decode())
    assert text in page
    assert f'href="/games/star-trek-missions/#rule-{ruling}"' in page


def test_stm_r10_the_rule_language_accepts_the_flag_only_on_a_card_that_can_be_blanked():
    specs, vocabulary, _ = star_trek_missions_catalog()
    check = {"vocabulary": vocabulary, "card_names": list(specs)}
    assert validate_rule(specs[CONFRONTATION].rule, **check) == []
    assert validate_rule({"bonuses": [], "unblanker_is_not_other": True}, **check) == [
        (
            "rule.unblanker_is_not_other",
            "needs blanked_unless: only a card that can be blanked "
            "has a card keeping it from being blanked",
        )
    ]
    assert validate_rule(
        {"blanked_unless": [{"type": "entity"}], "unblanker_is_not_other": "yes"}, **check
    ) == [("rule.unblanker_is_not_other", "must be true or false, not 'yes'")]
