"""The rule language of Star Trek: Missions cards: what a card's `rule` JSON may say, how it is
checked, and how Tableside writes it as card text (plain Python, no Django import).

A rule is an object:

    {"bonuses": [bonus, ...], "blanked_unless": [criterion, ...], "effects": [effect, ...],
     "unblanker_is_not_other": true}

`unblanker_is_not_other` (with `blanked_unless` only) reads "other" in the bonuses as STM-R10 does:
the one card that keeps this card from being blanked (one standing card meeting a `blanked_unless`
criterion, the player's best pick) grants none of its bonuses. Space Confrontation, "BLANKED unless
with at least one non-Federation Captain or Entity. 6 for each other Command or Combat": with Daimon
Bok, Daimon Tog and Vice Admiral Nakamura one Daimon keeps it and the other two count, 12 (the
rulebook-era total, data/star-trek-missions-examples.json), not 18.

Criteria test one card of the hand:

    {"name": "Lieutenant Worf"}                 that card
    {"type" | "specialty" | "lifeform" | "affiliation" | "deck": value}
    {"has": "lifeform"}                         any value of the attribute ("any lifeform")
    {"non": {"affiliation": "federation"}}      some value of the attribute, not that one
    {"chosen": "lifeform"}                      the value chosen for the receiving card
    {"all": [criteria]}  {"any": [criteria]}

A requirement asks for `count` distinct cards matching a criterion, optionally with pairwise
different values (`distinct`) or one shared value (`same`) of an attribute:

    {"match": criterion, "count": 3, "distinct": "specialty"}

Bonuses (a card never counts towards its own bonus; one giving card grants one bonus at most):

    {"kind": "with", "points": 10, "requires": [requirement, ...]}       once, all requirements met
    {"kind": "tiers", "tiers": [{"points": 16, "requires": [...]}, ...]} the best tier met
    {"kind": "for_each", "points": 4, "match": criterion, "points_if_chosen": {"human": 5}}
    {"kind": "for_each_different", "points": 5, "attribute": "lifeform", "match": criterion}

Effects (each an effect kind the engine implements once, for any card that carries it):

    {"kind": "wild", "types": ["personnel", "civilian", "captain"]}      choose type and attributes
    {"kind": "change_affiliation", "target": criterion, "points": 5}     choose a card, +points
    {"kind": "assimilate", "max": 2, "target": criterion}                blank cards; they score as it
    {"kind": "choose", "attribute": "lifeform", "exclude": [values]}     used by {"chosen": …}
    {"kind": "copy_score", "of": criterion}                              scores as one such card
    {"kind": "counts_as", "when": [criteria], "set": {...}, "otherwise": {...}}
    {"kind": "hand_size", "galaxy": 7, "missions": 2}                    the final hand's make-up
    {"kind": "extra_turn_from_discard"}                                  a turn rule (rulings)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeGuard, cast

ATTRIBUTES = ("type", "specialty", "lifeform", "affiliation")
CRITERION_ATTRIBUTES = ATTRIBUTES + ("deck",)
DECKS = ("galaxy", "mission")
BONUS_KINDS = ("with", "tiers", "for_each", "for_each_different")
EFFECT_KINDS = (
    "wild",
    "change_affiliation",
    "assimilate",
    "choose",
    "copy_score",
    "counts_as",
    "hand_size",
    "extra_turn_from_discard",
)
# The rule's flag for STM-R10: the card meeting blanked_unless is not an "other" card.
UNBLANKER_KEY = "unblanker_is_not_other"
# Effects whose outcome is a player's choice, in the order they are applied (STM-R3).
CHOICE_EFFECTS = ("wild", "change_affiliation", "assimilate", "choose", "copy_score")


class RuleProblems:
    """Collects (path, message) pairs while walking a rule."""

    def __init__(self, vocabulary: Mapping[str, Iterable[str]], card_names: Iterable[str]):
        self.vocabulary = {key: set(values) for key, values in vocabulary.items()}
        self.vocabulary.setdefault("deck", set(DECKS))
        self.card_names = set(card_names)
        self.problems: list[tuple[str, str]] = []

    def add(self, path: str, message: str) -> None:
        self.problems.append((path, message))

    def keys(
        self, obj: object, path: str, required: set[str], optional: Iterable[str] = frozenset()
    ) -> TypeGuard[dict[str, Any]]:
        """Whether `obj` is an object with every required key (True says it is a dict); each
        missing key and each key neither required nor optional is a problem."""
        if not isinstance(obj, dict):
            self.add(path, f"must be an object, not {type(obj).__name__}")
            return False
        for key in sorted(required - set(obj)):
            self.add(path, f"is missing '{key}'")
        for key in sorted(set(obj) - required - set(optional)):
            self.add(f"{path}.{key}", "is not a field here")
        return required <= set(obj)

    def points(self, value: object, path: str) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            self.add(path, f"must be a whole number of points (0 or more), not {value!r}")

    def attribute(self, value: object, path: str, allowed: Sequence[str] = ATTRIBUTES) -> bool:
        if value not in allowed:
            self.add(path, f"'{value}' is not an attribute; use one of {', '.join(allowed)}")
            return False
        return True

    def value(self, attribute: str, value: object, path: str) -> None:
        if value not in self.vocabulary.get(attribute, set()):
            known = ", ".join(sorted(self.vocabulary.get(attribute, set())))
            self.add(path, f"'{value}' is not a {attribute} of this game (known: {known})")


def _check_criterion(crit: object, path: str, p: RuleProblems) -> None:
    if not isinstance(crit, dict) or len(crit) != 1:
        p.add(path, 'a criterion is an object with exactly one key, e.g. {"type": "captain"}')
        return
    ((key, value),) = crit.items()
    if key == "name":
        if value not in p.card_names:
            p.add(f"{path}.name", f"no card named '{value}' in this game")
    elif key in CRITERION_ATTRIBUTES:
        p.value(key, value, f"{path}.{key}")
    elif key in ("has", "chosen"):
        p.attribute(value, f"{path}.{key}")
    elif key == "non":
        if not isinstance(value, dict) or len(value) != 1:
            p.add(
                f"{path}.non", 'must name one attribute value, e.g. {"affiliation": "federation"}'
            )
            return
        ((attribute, literal),) = value.items()
        if p.attribute(attribute, f"{path}.non"):
            p.value(attribute, literal, f"{path}.non.{attribute}")
    elif key in ("all", "any"):
        if not isinstance(value, list) or len(value) < 2:
            p.add(f"{path}.{key}", "must list at least two criteria")
            return
        for index, item in enumerate(value):
            _check_criterion(item, f"{path}.{key}[{index}]", p)
    else:
        p.add(path, f"'{key}' is not a kind of criterion")


def _check_requirements(reqs: object, path: str, p: RuleProblems) -> None:
    if not isinstance(reqs, list) or not reqs:
        p.add(path, "must list at least one requirement")
        return
    for index, req in enumerate(reqs):
        here = f"{path}[{index}]"
        if not p.keys(req, here, {"match"}, {"count", "distinct", "same"}):
            continue
        _check_criterion(req["match"], f"{here}.match", p)
        count = req.get("count", 1)
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            p.add(f"{here}.count", f"must be a whole number of at least 1, not {count!r}")
        if "distinct" in req and "same" in req:
            p.add(here, "cannot ask for both distinct and same values")
        for key in ("distinct", "same"):
            if key in req:
                p.attribute(req[key], f"{here}.{key}")


def _check_bonus(bonus: object, path: str, p: RuleProblems) -> None:
    if not isinstance(bonus, dict) or bonus.get("kind") not in BONUS_KINDS:
        p.add(f"{path}.kind", f"must be one of {', '.join(BONUS_KINDS)}")
        return
    kind = bonus["kind"]
    if kind == "with":
        if p.keys(bonus, path, {"kind", "points", "requires"}):
            p.points(bonus["points"], f"{path}.points")
            _check_requirements(bonus["requires"], f"{path}.requires", p)
    elif kind == "tiers":
        if p.keys(bonus, path, {"kind", "tiers"}):
            tiers = bonus["tiers"]
            if not isinstance(tiers, list) or len(tiers) < 2:
                p.add(f"{path}.tiers", "must list at least two tiers")
                return
            for index, tier in enumerate(tiers):
                here = f"{path}.tiers[{index}]"
                if p.keys(tier, here, {"points", "requires"}):
                    p.points(tier["points"], f"{here}.points")
                    _check_requirements(tier["requires"], f"{here}.requires", p)
    elif kind == "for_each":
        if p.keys(bonus, path, {"kind", "points", "match"}, {"points_if_chosen"}):
            p.points(bonus["points"], f"{path}.points")
            _check_criterion(bonus["match"], f"{path}.match", p)
            extra = bonus.get("points_if_chosen", {})
            if not isinstance(extra, dict):
                p.add(f"{path}.points_if_chosen", "must map a chosen value to points")
            else:
                for value, points in extra.items():
                    p.points(points, f"{path}.points_if_chosen.{value}")
    elif kind == "for_each_different":
        if p.keys(bonus, path, {"kind", "points", "attribute"}, {"match"}):
            p.points(bonus["points"], f"{path}.points")
            p.attribute(bonus["attribute"], f"{path}.attribute")
            if "match" in bonus:
                _check_criterion(bonus["match"], f"{path}.match", p)


def _check_effect(effect: object, path: str, p: RuleProblems) -> None:
    if not isinstance(effect, dict) or effect.get("kind") not in EFFECT_KINDS:
        p.add(f"{path}.kind", f"must be one of {', '.join(EFFECT_KINDS)}")
        return
    kind = effect["kind"]
    if kind == "wild":
        if p.keys(effect, path, {"kind", "types"}):
            types = effect["types"]
            if not isinstance(types, list) or not types:
                p.add(f"{path}.types", "must list the types to choose from")
            else:
                for index, value in enumerate(types):
                    p.value("type", value, f"{path}.types[{index}]")
    elif kind == "change_affiliation":
        if p.keys(effect, path, {"kind", "target", "points"}):
            _check_criterion(effect["target"], f"{path}.target", p)
            p.points(effect["points"], f"{path}.points")
    elif kind == "assimilate":
        if p.keys(effect, path, {"kind", "max", "target"}):
            p.points(effect["max"], f"{path}.max")
            _check_criterion(effect["target"], f"{path}.target", p)
    elif kind == "choose":
        if p.keys(effect, path, {"kind", "attribute"}, {"exclude"}) and p.attribute(
            effect["attribute"], f"{path}.attribute"
        ):
            for index, value in enumerate(effect.get("exclude", [])):
                p.value(effect["attribute"], value, f"{path}.exclude[{index}]")
    elif kind == "copy_score":
        if p.keys(effect, path, {"kind", "of"}):
            _check_criterion(effect["of"], f"{path}.of", p)
    elif kind == "counts_as":
        if p.keys(effect, path, {"kind", "when", "set", "otherwise"}):
            when = effect["when"]
            if not isinstance(when, list) or not when:
                p.add(f"{path}.when", "must list at least one criterion")
            else:
                for index, crit in enumerate(when):
                    _check_criterion(crit, f"{path}.when[{index}]", p)
            for key in ("set", "otherwise"):
                values = effect[key]
                if not isinstance(values, dict):
                    p.add(f"{path}.{key}", "must map attributes to lists of values")
                    continue
                for attribute, listed in values.items():
                    if p.attribute(attribute, f"{path}.{key}") and isinstance(listed, list):
                        for index, value in enumerate(listed):
                            p.value(attribute, value, f"{path}.{key}.{attribute}[{index}]")
                    elif not isinstance(listed, list):
                        p.add(f"{path}.{key}.{attribute}", "must be a list of values")
    elif kind == "hand_size":
        if p.keys(effect, path, {"kind", "galaxy", "missions"}):
            p.points(effect["galaxy"], f"{path}.galaxy")
            p.points(effect["missions"], f"{path}.missions")
    elif kind == "extra_turn_from_discard":
        p.keys(effect, path, {"kind"})


def rename_card(rule: object, *, old: str, new: str) -> object:
    """The rule with every criterion naming the card `old` ({"name": old}) naming `new` instead;
    the rule itself, unchanged, when none does. Criteria are one-key objects wherever they stand
    (a requirement's match, blanked_unless, inside all/any/non), so every such object is read."""
    if isinstance(rule, dict):
        if len(rule) == 1 and rule.get("name") == old:
            return {"name": new}
        return {key: rename_card(value, old=old, new=new) for key, value in rule.items()}
    if isinstance(rule, list):
        return [rename_card(item, old=old, new=new) for item in rule]
    return rule


def validate_rule(
    rule: object, *, vocabulary: Mapping[str, Iterable[str]], card_names: Iterable[str]
) -> list[tuple[str, str]]:
    """Every problem of a rule as (path, message); an empty list means the rule is valid."""
    p = RuleProblems(vocabulary, card_names)
    if not p.keys(rule, "rule", set(), {"bonuses", "blanked_unless", "effects", UNBLANKER_KEY}):
        return p.problems
    if UNBLANKER_KEY in rule:
        if not isinstance(rule[UNBLANKER_KEY], bool):
            p.add(f"rule.{UNBLANKER_KEY}", f"must be true or false, not {rule[UNBLANKER_KEY]!r}")
        elif rule[UNBLANKER_KEY] and not rule.get("blanked_unless"):
            p.add(
                f"rule.{UNBLANKER_KEY}",
                "needs blanked_unless: only a card that can be blanked "
                "has a card keeping it from being blanked",
            )
    for index, bonus in enumerate(_list(rule, "bonuses", p)):
        _check_bonus(bonus, f"rule.bonuses[{index}]", p)
    for index, crit in enumerate(_list(rule, "blanked_unless", p)):
        _check_criterion(crit, f"rule.blanked_unless[{index}]", p)
    effects = _list(rule, "effects", p)
    for index, effect in enumerate(effects):
        _check_effect(effect, f"rule.effects[{index}]", p)
    kinds = [e.get("kind") for e in effects if isinstance(e, dict)]
    for kind in set(kinds):
        if kinds.count(kind) > 1:
            p.add("rule.effects", f"lists the effect '{kind}' twice")
    return p.problems


def _list(rule: Mapping[str, Any], key: str, p: RuleProblems) -> list[Any]:
    value = rule.get(key, [])
    if not isinstance(value, list):
        p.add(f"rule.{key}", "must be a list")
        return []
    return value


# --- Card text -------------------------------------------------------------------------------

Labels = Mapping[str, Mapping[str, str]]  # attribute -> value -> label
NOUN_ATTRIBUTES = ("type",)  # rendered last: "non-Federation Captain", "Federation Personnel"


def criterion_matches_attributes(
    crit: Mapping[str, Any], name: str, attributes: Mapping[str, Iterable[str]]
) -> bool:
    """Whether a card with these attributes meets the criterion (choices aside): used to write
    "other" exactly when a card could otherwise count towards itself."""
    ((key, value),) = crit.items()
    if key == "name":
        return bool(value == name)
    if key in CRITERION_ATTRIBUTES:
        return value in attributes.get(key, ())
    if key == "has":
        return bool(attributes.get(value))
    if key == "non":
        ((attribute, literal),) = value.items()
        present = set(attributes.get(attribute, ()))
        return bool(present) and literal not in present
    if key == "all":
        return all(criterion_matches_attributes(c, name, attributes) for c in value)
    if key == "any":
        return any(criterion_matches_attributes(c, name, attributes) for c in value)
    return False


def value_label(labels: Labels, attribute: str, value: str) -> str:
    """A value as players read it ('Klingon Empire'), or the value itself without a label."""
    return labels.get(attribute, {}).get(value, value)


def attribute_label(attribute: str) -> str:
    """An attribute's name as card text writes it ('Lifeform')."""
    return {
        "type": "Type",
        "specialty": "Specialty",
        "lifeform": "Lifeform",
        "affiliation": "Affiliation",
        "deck": "Deck",
    }.get(attribute, attribute)


def phrase(crit: Mapping[str, Any], labels: Labels) -> str:
    """A criterion as words: 'non-Federation Captain', 'Klingon or Klingon Empire'."""
    ((key, value),) = crit.items()
    if key == "name":
        return cast(str, value)  # a card's name (validate_rule)
    if key == "deck":
        return f"{value_label(labels, 'deck', value)} card"
    if key in ATTRIBUTES:
        return value_label(labels, key, value)
    if key == "has":
        return f"card with any {attribute_label(value)}"
    if key == "chosen":
        return f"card of the chosen {attribute_label(value)}"
    if key == "non":
        ((attribute, literal),) = value.items()
        return f"non-{value_label(labels, attribute, literal)}"
    if key == "any":
        return " or ".join(phrase(c, labels) for c in value)
    # "all": adjectives first, the noun (a type) last, "with any …" after it.
    having = [c for c in value if next(iter(c)) == "has"]
    parts = sorted(
        (c for c in value if c not in having), key=lambda c: next(iter(c)) in NOUN_ATTRIBUTES
    )
    words: list[str] = []
    for part in parts:
        text = phrase(part, labels)
        words.append(f"({text})" if next(iter(part)) == "any" and len(parts) > 1 else text)
    head = " ".join(words) or "card"
    tail = "".join(f" with any {attribute_label(next(iter(c.values())))}" for c in having)
    return head + tail


def aside(text: str) -> str:
    """ " (text)" after a phrase; " — text" when the text has brackets of its own, so that a
    reader never meets doubled brackets ("Federation (Personnel or System))", issue 23)."""
    return f" — {text}" if "(" in text else f" ({text})"


def names_only(crit: Mapping[str, Any]) -> bool:
    """Whether a criterion only names cards (a name, or any of several names): its phrase would
    add nothing to the names of the cards that meet it."""
    ((key, value),) = crit.items()
    return key == "name" or (key == "any" and all(names_only(c) for c in value))


def _plural(what: str, labels: Labels) -> str:
    """'Location' -> 'Locations', 'Federation' -> 'Federation cards'."""
    if " with any " in what:
        head, tail = what.split(" with any ", 1)
        return ("cards" if head == "card" else _plural(head, labels)) + " with any " + tail
    nouns = set(labels.get("type", {}).values())
    last = what.rsplit(" ", 1)[-1].rstrip(")")
    if last in nouns:
        return (
            what
            if last == "Personnel"
            else what.replace(last, last + "s", 1)
            if what.endswith(last)
            else what + " cards"
        )
    return f"{what} cards"


def _requirement_phrase(req: Mapping[str, Any], labels: Labels) -> str:
    count = req.get("count", 1)
    what = phrase(req["match"], labels)
    if count == 1:
        text = what if names_only(req["match"]) else f"at least one {what}"
    else:
        text = f"{_number_word(count)} or more {_plural(what, labels)}"
    if "distinct" in req:
        plural = {"Specialty": "Specialties"}.get(
            attribute_label(req["distinct"]), attribute_label(req["distinct"]) + "s"
        )
        text += f" with {_number_word(count)} different {plural} among them"
    if "same" in req:
        text += f" sharing one {attribute_label(req['same'])}"
    return text


def _number_word(n: int) -> str:
    return {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}.get(n, str(n))


def requirements_phrase(reqs: Iterable[Mapping[str, Any]], labels: Labels) -> str:
    """A WITH bonus's requirements as words: 'at least one Klingon and two or more Locations'."""
    return " and ".join(_requirement_phrase(r, labels) for r in reqs)


def render_rule(
    rule: Mapping[str, Any] | None,
    *,
    name: str,
    attributes: Mapping[str, Iterable[str]],
    labels: Labels,
) -> str:
    """The card's text, written from its rule: what the scorer computes, in words."""
    if not rule:
        return ""
    sentences: list[str] = []
    if rule.get("blanked_unless"):
        options = " or ".join(phrase(c, labels) for c in rule["blanked_unless"])
        sentences.append(f"Blanked unless with {options}.")
    clauses: list[str] = []
    pending: list[tuple[int, str]] = []  # consecutive FOR EACH bonuses, merged when points match
    unblanker = bool(rule.get(UNBLANKER_KEY) and rule.get("blanked_unless"))

    def flush() -> None:
        if pending:
            points = pending[0][0]
            clauses.append(f"{points} for each " + " and ".join(text for _, text in pending))
            pending.clear()

    for bonus in rule.get("bonuses", []):
        kind = bonus["kind"]
        if kind == "for_each":
            other = (
                "other "
                if unblanker or criterion_matches_attributes(bonus["match"], name, attributes)
                else ""
            )
            text = other + phrase(bonus["match"], labels)
            extra = bonus.get("points_if_chosen")
            if extra:
                flush()
                exceptions = ", ".join(
                    f"{points} if it is {value_label(labels, 'lifeform', value)}"
                    for value, points in extra.items()
                )
                clauses.append(f"{bonus['points']} for each {text}{aside(exceptions)}")
                continue
            if pending and pending[0][0] != bonus["points"]:
                flush()
            pending.append((bonus["points"], text))
            continue
        flush()
        if kind == "with":
            clauses.append(
                f"{bonus['points']} with {requirements_phrase(bonus['requires'], labels)}"
            )
        elif kind == "tiers":
            clauses.append(
                ", or ".join(
                    f"{tier['points']} with {requirements_phrase(tier['requires'], labels)}"
                    for tier in bonus["tiers"]
                )
                + " (the best one)"
            )
        elif kind == "for_each_different":
            match = bonus.get("match") or {"has": bonus["attribute"]}
            other = "other " if criterion_matches_attributes(match, name, attributes) else ""
            among = "cards" if "match" not in bonus else phrase(bonus["match"], labels) + " cards"
            clauses.append(
                f"{bonus['points']} for each different {attribute_label(bonus['attribute'])} "
                f"among the {other}{among}"
            )
    flush()
    if clauses:
        sentence = "; ".join(clauses) + "."
        sentences.append(sentence[0].upper() + sentence[1:])
        if unblanker:
            options = " or ".join(phrase(c, labels) for c in rule["blanked_unless"])
            sentences.append(
                f"Its bonuses do not count the one {options} that keeps it from being "
                "blanked (of several, the best one for the player)."
            )
    for effect in rule.get("effects", []):
        sentences.append(_effect_text(effect, labels))
    if rule.get("bonuses") is not None and not clauses and not rule.get("effects"):
        sentences.append("Scores no points of its own.")
    return " ".join(sentences)


def _effect_text(effect: Mapping[str, Any], labels: Labels) -> str:
    kind = effect["kind"]
    if kind == "wild":
        types = " or ".join(value_label(labels, "type", t) for t in effect["types"])
        return (
            f"Choose whether this card is a {types}, and choose its Lifeform, Affiliation "
            "and Specialty."
        )
    if kind == "change_affiliation":
        return (
            f"May change the Affiliation of one other {phrase(effect['target'], labels)}; "
            f"if it does, +{effect['points']}."
        )
    if kind == "assimilate":
        return (
            f"May blank up to {_number_word(effect['max'])} "
            f"{phrase(effect['target'], labels)}s; each scores what this card scores instead."
        )
    if kind == "choose":
        excluded = " or ".join(
            value_label(labels, effect["attribute"], v) for v in effect.get("exclude", [])
        )
        other = f" other than {excluded}" if excluded else ""
        return f"Choose a {attribute_label(effect['attribute'])}{other}."
    if kind == "copy_score":
        return f"Scores the same as one {phrase(effect['of'], labels)} in the hand."
    if kind == "counts_as":
        when = " or ".join(phrase(c, labels) for c in effect["when"])

        def values(mapping: Mapping[str, Any]) -> str:
            return " and ".join(
                " ".join(value_label(labels, attribute, v) for v in listed)
                for attribute, listed in mapping.items()
            )

        return f"With {when}, counts as {values(effect['set'])}; otherwise counts as {values(effect['otherwise'])}."
    if kind == "hand_size":
        return (
            f"Your final hand holds this card, exactly {_number_word(effect['missions'] - 1)} "
            f"other Mission and {effect['galaxy']} Galaxy cards."
        )
    if kind == "extra_turn_from_discard":
        return (
            "Taken from the discard area, it gives an extra turn after the current one, even "
            "if that turn ends the game."
        )
    return ""
