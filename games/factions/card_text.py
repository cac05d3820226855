"""Factions cards' text: a unit's faction, an action's effect (plain Python, no Django import):
games.package.GamePackage.card_text names `render`, which the catalog calls for every card of the
game (cards.rendering)."""

from __future__ import annotations

from typing import Any

from cards.attributes import AttributeSpec

ACTIONS = {
    "attack": (
        "Defeat one surviving unit of a faction you do not control. The attacked player may block "
        "it with a Defence."
    ),
    "defence": (
        "Stays in your hand. Play it only when an Attack hits one of your units: the Attack is "
        "blocked and both cards are discarded. It cannot answer an Ambush."
    ),
    "doctor": "Return one defeated unit of a faction you control to play.",
    "spy": "Look at an opponent's hand.",
    "sack": "Take one card at random from an opponent's hand into yours.",
    "sabotage": "The chosen opponent loses their next turn: no draw, play or discard.",
    "ambush": "Defeat one surviving enemy unit at once. Defence cannot be played against it.",
}

ENEMY_DISCARD = {
    "spy": "you show your whole hand to its faction's controller",
    "sack": "its faction's controller takes one card at random from your hand",
    "sabotage": "you lose your next turn",
}


def _label(specs: list[AttributeSpec], key: str, value: str) -> str:
    spec = next((spec for spec in specs if spec.key == key), None)
    return spec.label_of(value) if spec else value


def render(specs: list[AttributeSpec], attributes: dict[str, Any]) -> str:
    if attributes.get("kind") == "unit":
        faction = attributes.get("faction")
        return (
            f"A unit of {_label(specs, 'faction', faction) if faction else 'an unnamed faction'}."
        )
    action = attributes.get("action")
    text = ACTIONS.get(str(action), "Action not recorded.")
    if action in ENEMY_DISCARD:
        text += f" If you discard an enemy copy on purpose, {ENEMY_DISCARD[action]}."
    return text
