"""Games whose cards carry a structured rule, and the plain-Python module that checks and words it.

A rules module offers `validate_rule(rule, *, vocabulary, card_names) -> [(path, message)]` and
`render_rule(rule, *, name, attributes, labels) -> str`. A game without one stores no rules.
"""

from __future__ import annotations

from types import ModuleType

from adjudicator.engines import star_realms_academy_rules
from scoring.engines import star_trek_missions

RULE_LANGUAGES: dict[str, ModuleType] = {
    "star-realms-academy": star_realms_academy_rules,
    "star-trek-missions": star_trek_missions,
}


def rule_language(game_slug: str) -> ModuleType | None:
    return RULE_LANGUAGES.get(game_slug)
