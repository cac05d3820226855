"""Finding a card by what a person typed (no Django import).

Exact means the name in any case, or the slug. Fuzzy also forgives accents, punctuation, spacing,
small typos and unique prefixes. Several or no matches give suggestions, never a silent guess.

The work is bounded whatever was typed: text longer than any name can be (LENGTH_FACTOR times the
longest name or slug of the cards) is never fuzzed, and a name is only compared in full
(difflib's SequenceMatcher) when cheap upper bounds of the similarity (by length, then by the
characters the two share) say it could reach the threshold.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

# Text longer than this many times the longest name (or slug) cannot be a typo of any card.
LENGTH_FACTOR = 3
# How similar a name must look to be suggested (difflib's ratio, with a bonus for a shared start).
SUGGEST_THRESHOLD = 0.5
START_BONUS = 0.3


def normalise(text: str) -> str:
    """Case-folded ASCII letters and digits only: 'K'Ehleyr' and 'kehleyr' compare equal."""
    decomposed = unicodedata.normalize("NFKD", str(text))
    ascii_only = decomposed.encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "", ascii_only.casefold())


@dataclass(frozen=True)
class NamedCard:
    name: str
    slug: str


@dataclass
class NameMatch:
    card: NamedCard | None
    suggestions: list[str] = field(default_factory=list)
    ambiguous: bool = False


def longest_name(cards: list[NamedCard]) -> int:
    """The most characters a card's name or slug has (0 for no cards)."""
    return max((max(len(card.name), len(card.slug)) for card in cards), default=0)


def name_length_limit(cards: list[NamedCard]) -> int:
    """The longest text taken as a (misspelt) name of one of `cards`."""
    return LENGTH_FACTOR * longest_name(cards)


def too_long(query: str, cards: list[NamedCard]) -> bool:
    return len(str(query).strip()) > name_length_limit(cards)


def match_exact(query: str, cards: list[NamedCard], *, with_suggestions: bool = True) -> NameMatch:
    """The card named `query` (any case, or its slug), else suggestions (none for text longer
    than any name can be, or when `with_suggestions` is false)."""
    wanted = str(query).strip()
    if too_long(wanted, cards):
        return NameMatch(card=None)
    folded, lowered = wanted.casefold(), wanted.lower()
    for card in cards:
        if card.name.casefold() == folded or card.slug == lowered:
            return NameMatch(card=card)
    return NameMatch(card=None, suggestions=suggest(query, cards) if with_suggestions else [])


def match_fuzzy(query: str, cards: list[NamedCard]) -> NameMatch:
    if too_long(query, cards):
        return NameMatch(card=None)
    exact = match_exact(query, cards)
    if exact.card:
        return exact
    key = normalise(query)
    if not key:
        return NameMatch(card=None, suggestions=[])
    keyed = [(normalise(card.name), card) for card in cards]
    same = [card for k, card in keyed if k == key]
    if len(same) == 1:
        return NameMatch(card=same[0])
    prefixed = [card for k, card in keyed if k.startswith(key)]
    if len(prefixed) == 1:
        return NameMatch(card=prefixed[0])
    if len(prefixed) > 1:
        return NameMatch(card=None, suggestions=[c.name for c in prefixed][:10], ambiguous=True)
    # Words anywhere in the name: 'picard' finds 'Captain Jean-Luc Picard' when only one has it.
    inside = [card for k, card in keyed if key in k]
    if len(inside) == 1:
        return NameMatch(card=inside[0])
    if len(inside) > 1:
        return NameMatch(card=None, suggestions=[c.name for c in inside][:10], ambiguous=True)
    close = difflib.get_close_matches(key, [k for k, _ in keyed], n=5, cutoff=0.75)
    close_cards = [card for k, card in keyed if k in close]
    if len(close_cards) == 1:
        return NameMatch(card=close_cards[0])
    if close_cards:
        return NameMatch(card=None, suggestions=[c.name for c in close_cards], ambiguous=True)
    return NameMatch(card=None, suggestions=suggest(query, cards))


def suggest(query: str, cards: list[NamedCard], limit: int = 5) -> list[str]:
    """Names that look like what was typed, best first. A name scores difflib's ratio against the
    whole typed text (plus START_BONUS when one contains the other or they share their first
    three characters) or against one word of the name, whichever is higher; SUGGEST_THRESHOLD is
    the least suggested. Text longer than any name can be gets none."""
    if too_long(query, cards):
        return []
    key = normalise(query)
    if not key:
        return []
    typed = _compared(key)
    scored = []
    for card in cards:
        name, words = _name_forms(card.name)
        bonus = START_BONUS if key in name.text or name.text.startswith(key[:3]) else 0.0
        whole = _ratio_reaching(typed, name, SUGGEST_THRESHOLD - bonus)
        ratio = whole + bonus if whole is not None else 0.0
        for word in words:
            in_word = _ratio_reaching(typed, word, max(ratio, SUGGEST_THRESHOLD))
            if in_word is not None:
                ratio = max(ratio, in_word)
        if ratio >= SUGGEST_THRESHOLD:
            scored.append((ratio, card.name))
    scored.sort(key=lambda pair: (-pair[0], pair[1]))
    return [name for _ratio, name in scored[:limit]]


@dataclass(frozen=True)
class _Compared:
    """A normalised text and how many of each character it has (the second bound's input)."""

    text: str
    counts: Counter[str]


@lru_cache(maxsize=4096)
def _name_forms(name: str) -> tuple[_Compared, tuple[_Compared, ...]]:
    """A card name normalised, and each of its words. Cached: suggest() compares every name of
    the game with each unknown name typed, and a game's names are few (the cache's bound keeps
    a catalog edited many times from growing it)."""
    words = re.split(r"[\s\-]+", name)
    return _compared(normalise(name)), tuple(_compared(normalise(word)) for word in words)


def _compared(text: str) -> _Compared:
    return _Compared(text, Counter(text))


def _ratio_reaching(a: _Compared, b: _Compared, needed: float) -> float | None:
    """difflib's ratio of a and b, or None when it is certainly below `needed`. Two upper bounds
    of the ratio are checked first, so two texts that cannot be alike are never compared in full:
    by their lengths (difflib's real_quick_ratio), then by the characters they share (its
    quick_ratio), both worked out here without building difflib's matcher, whose set-up indexes
    every character of b and cost more than the bounds themselves."""
    total = len(a.text) + len(b.text)
    if _ratio_of(min(len(a.text), len(b.text)), total) < needed:
        return None
    shared = sum(min(count, b.counts[char]) for char, count in a.counts.items())
    if _ratio_of(shared, total) < needed:
        return None
    return difflib.SequenceMatcher(None, a.text, b.text).ratio()


def _ratio_of(matches: int, total: int) -> float:
    """difflib's 2·M/T, 1.0 for two empty texts (as difflib counts them)."""
    return 2.0 * matches / total if total else 1.0
