"""Games whose cards carry a structured rule, and the plain-Python module that checks and words it.

A game names its rules module in GAMES (`rule_language`). The module offers
`validate_rule(rule, *, vocabulary, card_names) -> [(path, message)]` and
`render_rule(rule, *, name, attributes, labels) -> str`, and `rename_card(rule, *, old, new) ->
rule` (the rule naming the card `new` wherever it named `old`: a card renamed in the admin is
renamed in every rule of its game in the same transaction, so no other card's score changes).
A game without one stores no rules.
"""

from __future__ import annotations

from types import ModuleType

from common.games import game_package


def rule_language(game_slug: str) -> ModuleType | None:
    package = game_package(game_slug)
    language: ModuleType | None = package.rule_language if package else None
    return language
