"""A card's provenance note kept true as an admin transcribes values (issue 23: a value marked
verified while the note still said it was unknown). Plain Python, no Django import.

The shipped notes list what is not known yet in one sentence ("Not known to this project until an
admin transcribes the physical card: cost, primary, ally (null)."): a value verified since leaves
that list (the sentence goes once the list is empty), and the note says what was transcribed. A
note in other words that still names a now-verified value next to "unknown", "not known",
"provisional" or "null" is flagged instead: a sentence says which values were verified since, so
a reader knows the older wording may be out of date."""

from __future__ import annotations

import re
from collections.abc import Mapping

UNKNOWN_LIST = re.compile(
    r"\s*Not known to this project until an admin transcribes the physical card: "
    r"(?P<keys>[^()]*?) \((?:null)\)\."
)
DOUBTFUL = re.compile(
    r"unknown|not known|provisional|inferred|null|not (?:yet )?(?:given|checked)", re.I
)
TRANSCRIBED = "Transcribed from the card and verified by an admin since: "
FLAGGED = "Verified by an admin since this note was written: "


def _split(keys: str) -> list[str]:
    return [key.strip() for key in re.split(r",\s*|\s+and\s+", keys) if key.strip()]


def note_after_verifying(note: str, verified: list[str], labels: Mapping[str, str]) -> str:
    """`note` once the values `verified` (attribute keys, "copies" or "rule") were transcribed
    and marked verified; unchanged when it says nothing of them."""
    if not note or not verified:
        return note
    named = [
        key
        for key in verified
        if re.search(rf"\b{re.escape(key)}\b", note, re.I)
        or re.search(rf"\b{re.escape(labels.get(key, key))}\b", note, re.I)
    ]
    if not named:
        return note
    match = UNKNOWN_LIST.search(note)
    listed = _split(match.group("keys")) if match else []
    updated = [key for key in named if key in listed]
    if match and updated:
        left = [key for key in listed if key not in updated]
        sentence = (
            (
                f" Not known to this project until an admin transcribes the physical card: "
                f"{', '.join(left)} (null)."
            )
            if left
            else ""
        )
        note = note[: match.start()] + sentence + note[match.end() :]
        note = _add(note, TRANSCRIBED, [labels.get(key, key) for key in updated])
    flagged = [key for key in named if key not in updated and DOUBTFUL.search(note)]
    if flagged:
        note = _add(note, FLAGGED, [labels.get(key, key) for key in flagged])
    return note.strip()


def _add(note: str, lead: str, names: list[str]) -> str:
    """Append "lead a, b." or extend an earlier such sentence with the names it lacks."""
    found = re.search(re.escape(lead) + r"(?P<names>[^.]*)\.", note)
    if found:
        have = _split(found.group("names"))
        names = have + [name for name in names if name not in have]
        return note[: found.start()] + f"{lead}{', '.join(names)}." + note[found.end() :]
    return f"{note.rstrip()} {lead}{', '.join(names)}."
