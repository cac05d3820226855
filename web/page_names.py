"""How every page reads a card name a player typed: one resolution for every name field.

The API keeps API.md's rule (a card is named exactly: its name in any case, or its slug). A page
forgives more, the same way everywhere: exact, then slug, then a unique prefix or word of a name,
then a unique close spelling (cards.naming.match_fuzzy, bounded however long the text). Pages hand
their form to the very service the API calls, so the forgiving happens around that call
(`call_reading_names`): when the service answers that a name matched no card, each such name that
resolves to one card is replaced by that card's name in the request, and the service is asked once
more. What still matches nothing keeps the service's answer, with suggestions.

A suggestion is a link: the page's address with its input (web.page_results.link_pairs) and
the card's name in place of what was typed (`filled_pairs`), so a tap fills the field in and asks
again, with or without JavaScript (templates/partials/problem_text.html, the `fill_href` tag).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from typing import Any

from cards.models import Card, Game
from cards.naming import NamedCard, NameMatch, match_fuzzy
from cards.selectors import game_cards
from common.api_errors import ApiError

UNKNOWN_CARD = "unknown_card"
MAX_READ = 20  # names of one submission read forgivingly, at most
PATH_PART = re.compile(r"\.?([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]")


def read_name(typed: str, named: list[NamedCard]) -> NameMatch:
    """The card a page reads `typed` as (exact, slug, unique prefix or word, unique close
    spelling), or the suggestions; every page's name fields read names through this."""
    return match_fuzzy(str(typed), named)


class PageNames:
    """A game's cards as a page reads names (the catalog cache: no query once warm)."""

    def __init__(self, game: Game):
        self.game = game
        self.cards = game_cards(game=game)
        self.named = [NamedCard(name=card.name, slug=card.slug) for card in self.cards]
        self._by_name = {card.name: card for card in self.cards}

    def match(self, typed: str) -> NameMatch:
        return read_name(typed, self.named)

    def find(self, typed: str) -> Card | None:
        """The one card `typed` names on a page, or None."""
        match = self.match(typed)
        return self._by_name.get(match.card.name) if match.card is not None else None


def call_reading_names(
    service: Callable[..., dict[str, Any]], *, game: Game, body: dict[str, Any]
) -> dict[str, Any]:
    """service(game=game, body=body), reading the card names the service did not know as a page
    reads them (see the module's text). A 400 it still raises carries, on each unknown card entry,
    "typed" (what the player wrote) and the suggestions a page offers."""
    names = None
    for attempt in (1, 2):
        try:
            answer = service(game=game, body=body)
            return answer
        except ApiError as error:
            names = names or PageNames(game)
            fixed = _read_unknown_names(error, body, names)
            if attempt == 2 or fixed is None:
                raise
            body = fixed
    raise AssertionError("unreachable")


def _read_unknown_names(
    error: ApiError, body: dict[str, Any], names: PageNames
) -> dict[str, Any] | None:
    """A copy of `body` with each unknown name that names one card on a page replaced by that
    card's name; None when there is none. Marks every unknown card entry with what was typed."""
    fixed = json.loads(json.dumps(body))
    changed = False
    entries = [e for e in (error.errors or []) if e.get("code") == UNKNOWN_CARD][:MAX_READ]
    for entry in entries:
        parts = _path(entry.get("path", ""))
        typed = _at(body, parts)
        if not isinstance(typed, str) or not typed.strip() or _is_number(typed):
            continue
        entry["typed"] = typed
        match = names.match(typed)
        if match.card is not None and match.card.name != typed:
            _put(fixed, parts, match.card.name)
            changed = True
        elif match.suggestions:
            entry["suggestions"] = match.suggestions
    return fixed if changed else None


def _is_number(text: str) -> bool:
    # A whole number names a card by its value where a game allows it (the service decides).
    return text.strip().isascii() and text.strip().isdigit()


def _path(path: str) -> list[str | int]:
    parts: list[str | int] = []
    position = 0
    while position < len(path):
        step = PATH_PART.match(path, position)
        if step is None or step.end() == position:
            return []  # a path this reader does not follow (a key in quotes, …)
        parts.append(step.group(1) if step.group(1) is not None else int(step.group(2)))
        position = step.end()
    return parts


def _at(value: Any, parts: list[str | int]) -> Any:
    if not parts:
        return None
    for part in parts:
        if isinstance(part, int) and isinstance(value, list) and part < len(value):
            value = value[part]
        elif isinstance(part, str) and isinstance(value, dict) and part in value:
            value = value[part]
        else:
            return None
    return value


def _put(value: Any, parts: list[str | int], new: Any) -> None:
    for part in parts[:-1]:
        value = value[part]
    value[parts[-1]] = new


# --- Suggestions that fill the field ----------------------------------------------------------


def filled_pairs(pairs: Iterable[tuple[str, str]], typed: str, name: str) -> list[tuple[str, str]]:
    """The input's (field, value) pairs with `name` in place of `typed`: in a field holding just
    that, or as one item of a comma-separated list."""
    typed = typed.strip()
    return [(key, _filled(value, typed, name)) for key, value in pairs]


def _filled(value: str, typed: str, name: str) -> str:
    if value.strip() == typed:
        return name
    items = [item.strip() for item in value.split(",")]
    if len(items) > 1 and typed in items:
        return ", ".join(name if item == typed else item for item in items)
    return value
