"""Finding a card by what a person typed (no Django import).

Exact means the name in any case, or the slug. Fuzzy also forgives accents, punctuation, spacing,
small typos and unique prefixes. Several or no matches give suggestions, never a silent guess.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass, field


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


def match_exact(query: str, cards: list[NamedCard]) -> NameMatch:
    wanted = str(query).strip()
    for card in cards:
        if card.name.casefold() == wanted.casefold() or card.slug == wanted.lower():
            return NameMatch(card=card)
    return NameMatch(card=None, suggestions=suggest(query, cards))


def match_fuzzy(query: str, cards: list[NamedCard]) -> NameMatch:
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
    """Names that look like what was typed, best first."""
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
