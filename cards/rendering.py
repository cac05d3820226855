"""Card text, written by Tableside from a card's structured data.

What a user reads is produced from the same values the engines use, so the text can never say
something the data does not. Each game writes its own cards' text: from the structured rule where
it has a rule language (cards.rule_languages), else with its renderer (GamePackage.card_text,
`render(specs, attributes) -> str`, found through GAMES). A game with neither shows no text.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from common.games import game_package

from .attributes import AttributeSpec


def card_renderer(game_slug: str) -> Callable[[list[AttributeSpec], dict[str, Any]], str] | None:
    """The game's renderer of a card's text from its attributes, or None."""
    package = game_package(game_slug)
    return package.card_text if package else None


def render_card_text(
    game_slug: str,
    specs: list[AttributeSpec],
    attributes: dict[str, Any],
    *,
    name: str = "",
    rule: dict[str, Any] | None = None,
    language: ModuleType | None = None,
) -> str:
    """The card's text: from its structured rule where its game has a rule language, else from
    its attributes."""
    if language is not None:
        labels = {spec.key: dict(spec.choices) for spec in specs}
        text: str = language.render_rule(rule, name=name, attributes=attributes, labels=labels)
        return text
    renderer = card_renderer(game_slug)
    return renderer(specs, attributes) if renderer else ""
