"""Star Realms Academy cards' text: kind, defense, primary and Ally abilities, saying what is not
yet known (plain Python, no Django import): games.package.GamePackage.card_text names `render`,
which the catalog calls for every card of the game (cards.rendering)."""

from __future__ import annotations

from typing import Any

from cards.attributes import AttributeSpec, describe_abilities


def _label(specs: list[AttributeSpec], key: str, value: str) -> str:
    spec = next((spec for spec in specs if spec.key == key), None)
    return spec.label_of(value) if spec else value


def render(specs: list[AttributeSpec], attributes: dict[str, Any]) -> str:
    faction = attributes.get("faction")
    faction_label = _label(specs, "faction", faction) if faction else "same-faction"
    sentences = []
    if attributes.get("kind") == "base":
        defense = attributes.get("defense")
        sentences.append(f"Base, defense {defense if defense is not None else 'unknown'}.")
    elif attributes.get("kind") == "ship":
        sentences.append("Ship.")
    sentences.append(f"Primary: {describe_abilities(attributes.get('primary'))}.")
    if attributes.get("ally") == {}:
        sentences.append("No Ally ability.")
    else:
        sentences.append(
            f"Ally (with another {faction_label} card in play): {describe_abilities(attributes.get('ally'))}."
        )
    return " ".join(sentences)
