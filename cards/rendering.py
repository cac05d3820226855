"""Card text, written by Tableside from a card's structured data (no Django import).

What a user reads is produced here from the same values the engines use, so the text can never say
something the data does not. Each game has one renderer; a game without one shows no text.
"""

from __future__ import annotations

from collections.abc import Callable

from .attributes import ABILITY_EFFECTS, AttributeSpec

ACADEMY_CREDITS_EFFECTS = {
    "bonus_credit_if_sole": (
        "No effect when played. At the end of the round, the only cadet who played or discarded "
        "this card gains a bonus credit, win or lose."
    ),
    "guess_card": (
        "Choose another cadet and name a card other than this one. If they hold it, they are "
        "eliminated."
    ),
    "look_at_hand": "Choose another cadet and look at their hand.",
    "compare_hands": (
        "Choose another cadet and compare hands in private: the lower value is eliminated; a tie "
        "does nothing."
    ),
    "protection": "Until the start of your next turn, no other cadet can target you.",
    "force_discard": (
        "Choose any cadet, yourself included. They discard their hand without its effect and draw "
        "a new card, the set-aside card if the deck is empty."
    ),
    "draw_two_keep_one": (
        "Draw up to two cards, keep one card of those in your hand and put the others on the "
        "bottom of the deck. With an empty deck it has no effect."
    ),
    "trade_hands": "Choose another cadet and trade hands with them.",
    "mark_target": (
        "Mark a cadet who is still in and not protected, yourself allowed. The next card played at "
        "another cadet must target the marked cadet if it can; then the mark clears."
    ),
    "must_play_over": (
        "No effect when played or discarded. You must play this card rather than a 5 or a 7."
    ),
    "eliminates_holder": "A cadet who plays or discards this card is eliminated.",
}

FACTIONS_ACTIONS = {
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

FACTIONS_ENEMY_DISCARD = {
    "spy": "you show your whole hand to its faction's controller",
    "sack": "its faction's controller takes one card at random from your hand",
    "sabotage": "you lose your next turn",
}


def _spec(specs: list[AttributeSpec], key: str) -> AttributeSpec | None:
    return next((spec for spec in specs if spec.key == key), None)


def _label(specs: list[AttributeSpec], key: str, value: str) -> str:
    spec = _spec(specs, key)
    return spec.label_of(value) if spec else value


def _academy_credits(specs: list[AttributeSpec], attributes: dict) -> str:
    effect = attributes.get("effect")
    return ACADEMY_CREDITS_EFFECTS.get(effect, "Effect not recorded.") if effect else "Effect unknown."


def describe_abilities(abilities: dict | None) -> str:
    if abilities is None:
        return "unknown (not yet transcribed from the card)"
    parts = [f"{abilities[effect]} {effect.capitalize()}" for effect in ABILITY_EFFECTS if effect in abilities]
    return " and ".join(parts) if parts else "none"


def _star_realms_academy(specs: list[AttributeSpec], attributes: dict) -> str:
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


def _factions(specs: list[AttributeSpec], attributes: dict) -> str:
    if attributes.get("kind") == "unit":
        faction = attributes.get("faction")
        return f"A unit of {_label(specs, 'faction', faction) if faction else 'an unnamed faction'}."
    action = attributes.get("action")
    text = FACTIONS_ACTIONS.get(str(action), "Action not recorded.")
    if action in FACTIONS_ENEMY_DISCARD:
        text += f" If you discard an enemy copy on purpose, {FACTIONS_ENEMY_DISCARD[action]}."
    return text


RENDERERS: dict[str, Callable[[list[AttributeSpec], dict], str]] = {
    "academy-credits": _academy_credits,
    "star-realms-academy": _star_realms_academy,
    "factions": _factions,
    # star-trek-missions: its cards' text is written from their scoring rules (rule_languages).
}


def render_card_text(
    game_slug: str,
    specs: list[AttributeSpec],
    attributes: dict,
    *,
    name: str = "",
    rule: dict | None = None,
    language=None,
) -> str:
    """The card's text: from its structured rule where its game has a rule language, else from
    its attributes."""
    if language is not None:
        labels = {spec.key: dict(spec.choices) for spec in specs}
        return language.render_rule(rule, name=name, attributes=attributes, labels=labels)
    renderer = RENDERERS.get(game_slug)
    return renderer(specs, attributes) if renderer else ""
