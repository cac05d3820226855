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


def count(number: int, noun: str) -> str:
    """ "1 card", "3 cards": the noun takes an s unless there is exactly one."""
    return f"{number} {noun}" + ("" if number == 1 else "s")


def sentence(text: str) -> str:
    """The text with its first letter in capitals."""
    return text[:1].upper() + text[1:]
