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
    assert (
        normalise("Ambassador K'Éhleyr ") == normalise("ambassador kehleyr") == "ambassadorkehleyr"
    )


@pytest.mark.parametrize(
    "query", ["Jett Reno", "jett reno", "JETT RENO", "jett-reno", " Jett Reno "]
)
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


# --- Bounded work, whatever was typed (issue 12) ---------------------------------------------------


def _reference_suggest(query, cards, limit=5):
    """The suggestion ranking as first written: every name compared in full."""
    import difflib
    import re

    key = normalise(query)
    if not key:
        return []
    scored = []
    for card in cards:
        name_key = normalise(card.name)
        ratio = difflib.SequenceMatcher(None, key, name_key).ratio()
        if key in name_key or name_key.startswith(key[:3]):
            ratio += 0.3
        for word in re.split(r"[\s\-]+", card.name):
            ratio = max(ratio, difflib.SequenceMatcher(None, key, normalise(word)).ratio())
        if ratio >= 0.5:
            scored.append((ratio, card.name))
    scored.sort(key=lambda pair: (-pair[0], pair[1]))
    return [name for _ratio, name in scored[:limit]]


@pytest.fixture
def full_comparisons(monkeypatch):
    """Counts difflib's full comparisons (SequenceMatcher.ratio)."""
    import difflib

    calls = []
    original = difflib.SequenceMatcher.ratio

    def counted(self):
        calls.append((self.a, self.b))
        return original(self)

    monkeypatch.setattr(difflib.SequenceMatcher, "ratio", counted)
    return calls


def test_the_length_limit_is_three_times_the_longest_name_or_slug():
    from cards.naming import name_length_limit

    assert name_length_limit(CARDS) == 3 * len("captain-jean-luc-picard")
    assert name_length_limit([]) == 0


@pytest.mark.parametrize("length", [3 * 23 + 1, 1_000, 60_000])
def test_text_longer_than_any_name_can_be_is_never_fuzzed(length, full_comparisons):
    text = ("JettReno" * (length // 8 + 1))[:length]
    assert suggest(text, CARDS) == []
    assert match_exact(text, CARDS).suggestions == []
    fuzzy = match_fuzzy(text, CARDS)
    assert fuzzy.card is None and fuzzy.suggestions == []
    assert full_comparisons == []


def test_text_just_within_the_limit_is_still_matched_and_suggested():
    from cards.naming import name_length_limit

    padded = "Jett Reno".ljust(name_length_limit(CARDS))
    assert match_fuzzy(padded, CARDS).card.name == "Jett Reno"
    assert suggest("jett renno " + "x" * 20, CARDS)[0] == "Jett Reno"


def test_names_that_cannot_reach_the_threshold_are_not_compared_in_full(full_comparisons):
    # Nothing shares enough letters with "zzzzqqqqxxxx": the cheap bounds rule every name out.
    assert suggest("zzzzqqqqxxxx", CARDS) == []
    assert full_comparisons == []


@pytest.mark.parametrize(
    "query",
    [
        "jet reno",
        "Jett",
        "kurn",
        "comander sela",
        "ambasador",
        "picrad",
        "jean luc",
        "kraag",
        "zzz",
        "reno jett",
        "Captain",
        "sela kurn",
        "j",
        "xjettrenox",
        "deN KRAag",
        "lieutenant",
    ],
)
def test_the_bounded_search_suggests_exactly_what_comparing_every_name_did(query):
    assert suggest(query, CARDS) == _reference_suggest(query, CARDS)


def test_the_bounded_search_agrees_on_every_shipped_catalog_and_random_typos():
    import json
    import random
    import string
    from pathlib import Path

    rng = random.Random(12)
    for path in sorted(Path("games").glob("*/catalog.json")):
        cards = [NamedCard(c["name"], c["slug"]) for c in json.loads(path.read_text())["cards"]]
        for _ in range(50):
            typed = list(rng.choice(cards).name)
            for _ in range(rng.randint(0, 5)):
                at = rng.randrange(len(typed) + 1)
                if rng.random() < 0.5 and typed:
                    del typed[min(at, len(typed) - 1)]
                else:
                    typed.insert(at, rng.choice(string.ascii_lowercase + " "))
            query = "".join(typed)
            assert suggest(query, cards) == _reference_suggest(query, cards), (path.name, query)
