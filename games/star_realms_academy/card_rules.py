"""Star Realms Academy cards' structured rule: the facts the rulebook states about a card beyond
its attribute values (plain Python, no Django import).

One fact so far: which other cards the rulebook puts in the same faction as this one, and where
it says so. The rulebook's Ally example (SRA-9.1) plays Imperial Frigate with Corvette and says
the Frigate's Ally ability is ready: the two share a faction, whatever that faction is called
(the name is an inference, stored as provisional). A ruling that rests on that sameness, and not
on the faction's name, therefore rests on the rulebook and carries no provisional warning.

    {"same_faction_as": ["Corvette"], "source": "SRA-9.1"}

``same_faction_as`` lists other cards of the game (at least one); ``source`` is the rule id that
states it. The rule's provenance is the card's ``field_provenance["rule"]``: the engine relies on
it only when it is "verified". The rules module interface is cards.rule_languages': validate_rule
and render_rule (the card's text, from its attributes as for every card of the game).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from cards.attributes import AttributeSpec
from games.star_realms_academy.card_text import render

RULE_KEYS = ("same_faction_as", "source")
MAX_RULE_ID = 20


def validate_rule(
    rule: object, *, vocabulary: Mapping[str, Iterable[str]], card_names: Iterable[str]
) -> list[tuple[str, str]]:
    """Every problem of a rule as (path, message); an empty list means the rule is valid."""
    if not isinstance(rule, dict):
        return [
            (
                "rule",
                "The rule must be an object such as "
                '{"same_faction_as": ["Corvette"], "source": "SRA-9.1"}.',
            )
        ]
    problems: list[tuple[str, str]] = []
    for key in rule:
        if key not in RULE_KEYS:
            problems.append(
                (
                    f"rule.{key}",
                    f"'{key}' is not part of a Star Realms Academy rule; "
                    f"its keys are {', '.join(RULE_KEYS)}.",
                )
            )
    names = rule.get("same_faction_as")
    known = set(card_names)
    if not isinstance(names, list) or not names:
        problems.append(
            (
                "rule.same_faction_as",
                "same_faction_as must be a list of one or more card names of the game.",
            )
        )
    else:
        for index, name in enumerate(names):
            if not isinstance(name, str) or name not in known:
                problems.append(
                    (
                        f"rule.same_faction_as[{index}]",
                        f"{name!r} is not a card of Star Realms Academy.",
                    )
                )
            elif names.index(name) != index:
                problems.append((f"rule.same_faction_as[{index}]", f"{name} is listed twice."))
    source = rule.get("source")
    if not isinstance(source, str) or not source.strip() or len(source) > MAX_RULE_ID:
        problems.append(
            ("rule.source", "source must be the id of the rule that states it, such as SRA-9.1.")
        )
    return problems


def rename_card(rule: object, *, old: str, new: str) -> object:
    """The rule with the card `old` in its same_faction_as list named `new` instead; the rule
    itself, unchanged, when it does not name it."""
    if not isinstance(rule, dict) or not isinstance(rule.get("same_faction_as"), list):
        return rule
    names = rule["same_faction_as"]
    if old not in names:
        return rule
    return {**rule, "same_faction_as": [new if name == old else name for name in names]}


def same_faction_as(rule: object) -> tuple[tuple[str, ...], str]:
    """(the cards the rule puts in this card's faction, the rule id saying so); empty when the
    rule is absent or not of this shape."""
    if not isinstance(rule, dict):
        return (), ""
    names = rule.get("same_faction_as")
    source = rule.get("source")
    if not isinstance(names, list) or not isinstance(source, str):
        return (), ""
    return tuple(n for n in names if isinstance(n, str)), source


def render_rule(
    rule: dict[str, Any] | None,
    *,
    name: str,
    attributes: Mapping[str, Any],
    labels: Mapping[str, Mapping[str, str]],
) -> str:
    """The card's text: what its attributes say (the game's renderer). The rule's fact is the
    rulebook's, told by the card's provenance note and rulings; it is kept out of the text, which
    catalog search reads (a search for "frigate" finds Imperial Frigate, not Corvette)."""
    specs = [
        AttributeSpec(key=key, label=key, kind="choice", choices=tuple(choices.items()))
        for key, choices in labels.items()
    ]
    return render(specs, dict(attributes))
