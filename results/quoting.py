"""The sentence of a rule that decides a ruling (issue 23: a ruling quoted the
whole Bases section, 1.5 phone screens, before the legal moves).

A short rule is quoted whole. A longer one is quoted by the sentence that shares the most words
with the ruling's reason and failed check (rarer words count for more), and the page links to the
whole section. Plain Python: it reads only the texts it is given."""

from __future__ import annotations

import math
import re
from typing import Any

WHOLE_UP_TO = 280  # characters: a rule this short is quoted whole
STOP_WORDS = frozenset(
    """
a an and are as at be by can cannot do does for from has have if in into is it its may must no
not of on once one only or so that the their them then there they this to was were when which
while who will with you your any each other than more those these been being also
""".split()
)


def sentences(text: str) -> list[str]:
    """The rule's sentences, one list item or line of its own counting as one."""
    out: list[str] = []
    for line in re.split(r"\n+|•", text):
        out += [
            part.strip() for part in re.split(r"(?<=[.!?])\s+(?=[A-Z\"'(])", line) if part.strip()
        ]
    return out


def _words(text: str) -> set[str]:
    words = set()
    for word in re.findall(r"[a-z]+", text.casefold()):
        if len(word) < 3 or word in STOP_WORDS:
            continue
        words.add(word[:-1] if word.endswith("s") and len(word) > 4 else word)
    return words


def deciding_sentence(text: str, because: str) -> str:
    """The sentence of `text` that best matches `because` (the ruling's reason and failed check);
    the first sentence when none shares a word. A word found in few of the rule's sentences counts
    for more than one found in most."""
    parts = sentences(text)
    if not parts:
        return text
    wanted = _words(because)
    found_in: dict[str, int] = {}
    for part in parts:
        for word in _words(part):
            found_in[word] = found_in.get(word, 0) + 1

    def weight(part: str) -> float:
        return sum(math.log(1 + len(parts) / found_in[word]) for word in _words(part) & wanted)

    best = max(range(len(parts)), key=lambda i: (weight(parts[i]), -i))
    return parts[best]


def rule_quote(rule: dict[str, Any], because: str) -> dict[str, Any]:
    """{"text", "whole"}: what a ruling quotes of its rule, and whether that is the whole rule."""
    text = str(rule.get("text") or "")
    if len(text) <= WHOLE_UP_TO:
        return {"text": text, "whole": True}
    return {"text": deciding_sentence(text, because), "whole": False}
