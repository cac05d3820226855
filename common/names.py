"""Names people type for themselves (a table's players): the form a name is kept in, what makes two
names one, and how many combining marks a name may stack.

Two names are one when a person at the table could not tell them apart:
- the same text after Unicode NFKC (`kept`): "Ａna" (fullwidth A) is "Ana", "ﬁona" is "fiona";
- the same in any case (casefold);
- the same skeleton (`look_alike`): each character replaced by the prototype of its class in
  Unicode's confusables data (UTS #39, section 4), so "Аna" with a Cyrillic А, "Αna" with a Greek
  Α and "Ana" are one name, and so are "Ian" and "lan" in a sans-serif font.
The confusables data is Unicode's own (confusables.txt), as the confusable-homoglyphs package ships
it (DECISIONS.md: a well-kept pure-Python package, no C library to build; ICU's SpoofChecker
would need PyICU and ICU's headers on every machine).

Combining marks: UTS #39's optional detection (section 5.4) forbids a run of more than
MAX_MARKS_IN_A_ROW nonspacing marks (gc=Mn or gc=Me) and the same nonspacing mark twice in a row:
no script writes a letter with more, and a letter under 39 marks ("Zalgo" text) covers the lines
of the names around it.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs.confusables import confusables_data

MAX_MARKS_IN_A_ROW = 4  # UTS #39, 5.4: "more than 4 nonspacing marks" is suspicious
NONSPACING = frozenset({"Mn", "Me"})
# confusables-homoglyphs writes right-to-left characters between two LEFT-TO-RIGHT MARKs (for its
# own display): they are not part of the character.
_DIRECTION_MARKS = str.maketrans("", "", "\u200e\u200f")


def kept(name: str) -> str:
    """The form a name is kept and shown in: NFKC (one spelling for compatibility characters)."""
    return unicodedata.normalize("NFKC", name)


@lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype: the character (or sequence) that stands for its
    class. In the data every source (always one code point) lists its prototype, and each
    prototype lists its sources; so a multi-character member is the prototype, else the member
    listing the most others (the class's hub), the smallest code point on a tie."""
    classes = {
        key.translate(_DIRECTION_MARKS): [
            entry["c"].translate(_DIRECTION_MARKS) for entry in entries
        ]
        for key, entries in confusables_data.items()
    }
    prototypes: dict[str, str] = {}
    for char, others in classes.items():
        if len(char) != 1:
            continue
        members = [char, *others]
        sequences = [member for member in members if len(member) > 1]
        prototype = (
            min(sequences)
            if sequences
            else min(members, key=lambda member: (-len(classes.get(member, ())), member))
        )
        if prototype != char:
            prototypes[char] = prototype
    return prototypes


def skeleton(name: str) -> str:
    """The UTS #39 skeleton of a name: NFD, each character by its prototype, NFD again."""
    prototypes = _prototypes()
    decomposed = unicodedata.normalize("NFD", kept(name))
    return unicodedata.normalize("NFD", "".join(prototypes.get(char, char) for char in decomposed))


def look_alike(one: str, other: str) -> bool:
    """Whether two names look alike: the same skeleton as typed, in capitals ("ΑΝΑ" in Greek and
    "Ana") or in lower case ("Аna" and "ana"). Case is changed before the skeleton is taken, not
    after: the prototype of "I" is "l", and "Ian" is not "Lan"."""
    return any(
        skeleton(change(one)) == skeleton(change(other))
        for change in (str, str.upper, str.casefold)
    )


def too_many_marks(name: str) -> str:
    """Why the name stacks too many combining marks on one letter ("" when it does not)."""
    run: list[str] = []
    for char in unicodedata.normalize("NFD", name):
        if unicodedata.category(char) not in NONSPACING:
            run = []
            continue
        if run and run[-1] == char:
            return (
                f"A player's name cannot repeat a combining mark on one letter "
                f"(U+{ord(char):04X} {unicodedata.name(char, 'mark')} twice)."
            )
        run.append(char)
        if len(run) > MAX_MARKS_IN_A_ROW:
            return (
                f"A player's name stacks at most {MAX_MARKS_IN_A_ROW} combining marks on "
                "one letter; this one stacks more."
            )
    return ""
