"""The one reader of a whole number a client typed: a form field, a query parameter, a cookie, a
header. Every such number goes through `plain_int`, and nothing else calls int() on a client's
text.

Why one reader: int() and str.isdigit() disagree with the text a person means. isdigit() takes
"²" and "①" for digits and int() refuses them (a ValueError, a 500, issue 22 and issue 30); int()
takes "٣" (an Arabic-Indic three), " 3", "3_000" and "+3"; and a string of more than 4,300 digits
is a ValueError of its own (Python's limit on integer conversion). Here a number is ASCII digits
only (a minus sign where the caller allows negatives), at most MAX_DIGITS of them, within the
caller's bounds; anything else is None, which the caller answers with its own clear 4xx.
"""

from __future__ import annotations

import re

# The largest value of a database integer column (PostgreSQL's and SQLite's `integer` in Django's
# IntegerField, PositiveIntegerField): a number past it would reach a query as an overflow.
INTEGER_MAX = 2**31 - 1
# Digits read at most (leading zeros included): any bound here has at most 10; a longer text is
# refused before int() is asked to read it.
MAX_DIGITS = 18
_PLAIN = re.compile(rf"-?[0-9]{{1,{MAX_DIGITS}}}")


def plain_int(text: object, *, least: int = 0, most: int = INTEGER_MAX) -> int | None:
    """The whole number `text` spells in ASCII digits ("-" first only when `least` is negative),
    spaces and tabs around it ignored, when it lies from `least` to `most`; None otherwise (not
    text, empty, another character, too many digits, out of bounds)."""
    if not isinstance(text, str):
        return None
    stripped = text.strip(" \t")
    if not _PLAIN.fullmatch(stripped) or (stripped.startswith("-") and least >= 0):
        return None
    number = int(stripped)
    return number if least <= number <= most else None
