"""Finding a card by what a person typed: plain Python, no database."""

import pytest

from cards.naming import NamedCard, match_exact, match_fuzzy, normalise, suggest

CARDS = [
    NamedCard("Jett Reno", "jett-reno"),
    NamedCard("Jay-Den Kraag", "jay-den-kraag"),
    NamedCard("Ambassador K'Ehleyr", "ambassador-kehleyr"),
    NamedCard("Commander Kurn", "commander-kurn"),
    NamedCard("Commander Sela", "commander-sela"),
    NamedCard("Captain Jean-Luc Picard", "captain-jean-luc-picard"),
]


def test_normalise_drops_case_accents_and_punctuation():
    assert normalise("Ambassador K'Éhleyr ") == normalise("ambassador kehleyr") == "ambassadorkehleyr"


@pytest.mark.parametrize("query", ["Jett Reno", "jett reno", "JETT RENO", "jett-reno", " Jett Reno "])
def test_exact_accepts_any_case_or_the_slug(query):
    assert match_exact(query, CARDS).card.name == "Jett Reno"


def test_exact_never_guesses_but_suggests():
    match = match_exact("Jet Reno", CARDS)
    assert match.card is None and match.suggestions[0] == "Jett Reno"


@pytest.mark.parametrize(
    "query, name",
    [
        ("jet reno", "Jett Reno"),  # typo
        ("jaydenkraag", "Jay-Den Kraag"),  # punctuation and spacing
        ("Ambassador Kéhleyr", "Ambassador K'Ehleyr"),  # accents and apostrophes
        ("commander k", "Commander Kurn"),  # unique prefix
        ("picard", "Captain Jean-Luc Picard"),  # unique word inside
    ],
)
def test_fuzzy_forgives(query, name):
    assert match_fuzzy(query, CARDS).card.name == name


def test_fuzzy_with_several_matches_returns_them_as_suggestions():
    match = match_fuzzy("commander", CARDS)
    assert match.card is None and match.ambiguous
    assert set(match.suggestions) == {"Commander Kurn", "Commander Sela"}


def test_fuzzy_with_nothing_close_returns_nothing():
    match = match_fuzzy("zzzz", CARDS)
    assert match.card is None and match.suggestions == []


def test_suggest_ranks_the_closest_first():
    assert suggest("kurn", CARDS)[0] == "Commander Kurn"
    assert suggest("", CARDS) == []
