"""The provisional card values an answer uses, said once in a player's words (issue 23): which
values, not where each inference comes from (that is on the card's page). Plain Python; the
engine words a ruling's warning, the turn's breakdown merges its rulings' into one."""

from __future__ import annotations

import re

PROVISIONAL = re.compile(
    r"Provisional \(inferred, not yet transcribed from the printed cards?\): "
    r"(?P<items>.*?)\. (?:It is|They are) used here"
)


def provisional_warning(items: list[str]) -> str:
    """The provisional values an answer uses, said once in a player's words (issue 23): what
    each inference rests on is on the card's page, not in the answer."""
    one = len(items) == 1
    return (
        f"Provisional (inferred, not yet transcribed from the printed card{'' if one else 's'})"
        f": {'; '.join(items)}. {'It is' if one else 'They are'} used here; an admin can "
        f"correct {'it' if one else 'them'}, and each card's page says where its values come "
        f"from."
    )


def merge_provisional(warnings: list[str]) -> list[str]:
    """Several rulings' warnings as one answer's: each other warning once, in order, then one
    provisional warning for every provisional value any of them used."""
    kept: list[str] = []
    items: list[str] = []
    for warning in warnings:
        match = PROVISIONAL.match(warning)
        if match:
            items += [item for item in match.group("items").split("; ") if item not in items]
        elif warning not in kept:
            kept.append(warning)
    return kept + ([provisional_warning(items)] if items else [])


def is_provisional_warning(warning: str) -> bool:
    return PROVISIONAL.match(warning) is not None


def provisional_items(warnings: list[str]) -> list[str]:
    """The provisional values that warnings name ("Survey Ship's kind (Ship)"), in order."""
    items: list[str] = []
    for warning in warnings:
        match = PROVISIONAL.match(warning)
        if match:
            items += match.group("items").split("; ")
    return items
