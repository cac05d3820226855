"""Academy Credits cards' text, written from each card's effect kind (plain Python, no Django
import): games.package.GamePackage.card_text names `render`, which the catalog calls for every
card of the game (cards.rendering)."""

from __future__ import annotations

from typing import Any

from cards.attributes import AttributeSpec

EFFECTS = {
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


def render(specs: list[AttributeSpec], attributes: dict[str, Any]) -> str:
    effect = attributes.get("effect")
    return EFFECTS.get(effect, "Effect not recorded.") if effect else "Effect unknown."
