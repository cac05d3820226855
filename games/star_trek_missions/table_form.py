"""The hand form of a Star Trek: Missions table (/t/<code>): one name a line, and the choices of
the cards whose text lets the player name something (Mysterious Plague's lifeform, Thought
Maker's change, Wesley's copy, Borg Cube's blanks, the Unidentified Ship) — the very controls of
"Score a hand" (ScoreForm and its partial star_trek_missions/_choice_controls.html), read the
same way, so the table never words or checks a choice its own way.

The choices shown are those of the hand in view: the one just typed (after "Show this hand's
choices", or with JavaScript as soon as the cards are typed), else the hand the seat entered,
with the choice the scorer used for each card ("Tableside's choice", or "Your choice"). A seat
that enters its hand without touching a choice gets the best one (STM-R4) and may change it and
enter the hand again.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import QueryDict
from django.urls import reverse

from cards.selectors import GameNotFound, game_get
from common.links import form_link

from .pages import GAME, Deck, ScoreForm, score_link_pairs, table_link_pairs

CHOICE_PREFIXES = ("choice-", "shown-")


def card_lines(text: str) -> list[str]:
    """The form's hand: one card name a line (blank lines and spaces around a name ignored)."""
    return [line.strip() for line in text.splitlines() if line.strip()]


def _deck() -> Deck | None:
    try:
        return Deck(game_get(slug=GAME))
    except GameNotFound:
        return None


def _score_data(deck: Deck, names: list[str], posted: Mapping[str, Any] | None) -> QueryDict:
    """ScoreForm's data for the hand typed: each name as the card it reads as (a name that reads
    as no card is kept as typed, for the scorer to refuse with its suggestions) and the choices
    posted with it."""
    data = QueryDict(mutable=True)
    for typed in names:
        card, _ = deck.find(typed)
        data.appendlist("hand", card.name if card is not None else typed)
    getlist = getattr(posted, "getlist", None)
    for key in posted or {}:
        if key.startswith(CHOICE_PREFIXES):
            for value in getlist(key) if getlist else [posted[key]]:  # type: ignore[index]
                data.appendlist(key, value)
    return data


def form_event(posted: Mapping[str, Any], players: list[str]) -> tuple[str, dict[str, Any]]:
    """The seat's `hand` event: the cards typed and the choices fixed (a choice left at "Best"
    is the scorer's)."""
    names = card_lines(str(posted.get("hand", "")))
    deck = _deck()
    if deck is None:  # no catalog: the scorer says so
        return "hand", {"hand": names}
    body = ScoreForm(deck, _score_data(deck, names, posted)).body()
    return "hand", {key: body[key] for key in ("hand", "choices") if key in body}


def _choice_fields(deck: Deck, hand: list[str], choices: dict[str, Any]) -> QueryDict:
    """The controls' fields of the choices a seat entered (the score page's own reading of a
    saved hand: its "Score again" link)."""
    data = QueryDict(mutable=True)
    for name, value in score_link_pairs(deck.game, {"hand": hand, "choices": choices}):
        data.appendlist(name, value)
    return data


def _last_answer(events: list[Any], seat: int) -> dict[str, Any] | None:
    """The answer to the seat's hand in this game: its last hand event since the last new game."""
    answer = None
    for event in events:
        if event.kind == "new_game":
            answer = None
        elif event.kind == "hand" and event.seat == seat:
            answer = event.result
    return answer


def form_context(
    table_state: dict[str, Any],
    players: list[str],
    seat: int | None,
    posted: Mapping[str, Any] | None,
    events: list[Any],
) -> dict[str, Any]:
    """What the table's hand form shows: the hand in the textarea and its choice controls (the
    hand just posted, else the seat's entered one with what the scorer made of it)."""
    deck = _deck()
    if posted is not None and "hand" in posted:
        names = card_lines(str(posted.get("hand", "")))
        return {
            "hand_text": "\n".join(names),
            "hand_form": deck and ScoreForm(deck, _score_data(deck, names, posted)),
        }
    if deck is None or seat is None or not 1 <= seat <= len(players):
        return {"hand_text": "", "hand_form": None}
    cards = (table_state.get("cards") or [[]] * len(players))[seat - 1]
    choices = (table_state.get("choices") or [{}] * len(players))[seat - 1]
    form = ScoreForm(deck, _choice_fields(deck, list(cards), dict(choices)))
    answer = _last_answer(events, seat) if cards else None
    if isinstance(answer, dict):
        form.apply_result(answer)
    total = (table_state.get("hands") or [None] * len(players))[seat - 1]
    return {
        "hand_text": "\n".join(cards),
        "hand_form": form,
        "hand_total": total,
        "hand_seat": seat,
    }


def live_context(table_state: dict[str, Any], whole: dict[str, Any]) -> dict[str, Any]:
    """Once every seat has entered a hand: "Score the table" filled in with every hand and its
    choices (`whole`: the whole table's score body, table_state.job_request_body), the game's page
    for the whole table, to try other choices (the table's standings stay as entered)."""
    if not table_state.get("standings"):
        return {}
    try:
        game = game_get(slug=GAME)
    except GameNotFound:
        return {}
    body = whole
    return {
        "score_table_url": form_link(
            reverse("star_trek_missions:table"), table_link_pairs(game, body)
        )
    }
