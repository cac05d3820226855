"""Phrases every game's engine and pages share (plain Python, no Django import): a list of names
in a sentence, a count with its noun. One place, so every game says them the same way."""

from __future__ import annotations

from collections.abc import Iterable


def listing(items: Iterable[object], last: str = "and", *, empty: str = "nothing") -> str:
    """ "A", "A and B", "A, B and C" (or "… or C" with last="or"); `empty` for no items, which
    each caller words for what it lists ("nobody" for players, "no cards" for a hand)."""
    names = [str(item) for item in items]
    if not names:
        return empty
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + f" {last} " + names[-1]


NUMBER_WORDS = {0: "no", 1: "one", 2: "two", 3: "three"}


def count(number: int, noun: str, *, in_words: bool = False) -> str:
    """ "1 card", "3 cards": the noun takes an s unless there is exactly one; in_words: "no
    cards", "one card", … "three cards", then figures."""
    shown = NUMBER_WORDS.get(number, str(number)) if in_words else str(number)
    return f"{shown} {noun}" + ("" if number == 1 else "s")


def sentence(text: str) -> str:
    """The text with its first letter in capitals."""
    return text[:1].upper() + text[1:]
