"""Card names in a request body, resolved as API.md's "Naming cards in a request" says.

A card is named by its exact name in any case, or its slug; in a game whose cards carry an
integer attribute "value" also by that value, as 7 or "7". Anything else is an
error entry in the API's shape, with suggestions, at the path it was found:

* ``unknown_card``: no card has that name, slug or value (or several share the value);
* ``invalid_card``: the entry is not a name (not a string, nor a whole number where values count);
* ``too_long``: the text is longer than any of the game's card names can be (cards.naming's
  LENGTH_FACTOR times the longest name or slug), so it is not looked at any further;
* ``invalid_type`` / ``too_many``: where a list of names was expected, something else or more
  names than the game has cards.

The game's cards are read once per resolver, however many names a request holds. One resolver
serves one request body, and looks for suggestions for at most MAX_SUGGESTED names of it: the
unknown names after those are answered without suggestions, so no body can buy unbounded work.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from cards.models import Card, Game
from cards.naming import NamedCard, match_exact, name_length_limit
from cards.selectors import game_attribute_specs, game_cards
from common.api_errors import ApiError, error_entry
from common.numbers import plain_int

VALUE_ATTRIBUTE = "value"
MAX_SHOWN = 80  # characters of what was typed, echoed in a message
MAX_SUGGESTED = 8  # unknown names of one body that get suggestions


def shown(value: object) -> str:
    text = str(value)
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 1] + "…"


class CardNameResolver:
    """Resolves the names of one request against one game's cards (one query, made lazily)."""

    def __init__(self, game: Game):
        self.game = game
        self._cards: list[Card] | None = None
        self._named_cards: list[NamedCard] | None = None
        self._has_value: bool | None = None
        self._length_limit: int | None = None
        self.suggested = 0  # unknown names given suggestions so far

    @property
    def cards(self) -> list[Card]:
        if self._cards is None:
            self._cards = game_cards(game=self.game)
        return self._cards

    def _named(self) -> list[NamedCard]:
        if self._named_cards is None:
            self._named_cards = [NamedCard(name=card.name, slug=card.slug) for card in self.cards]
        return self._named_cards

    def length_limit(self) -> int:
        if self._length_limit is None:
            self._length_limit = name_length_limit(self._named())
        return self._length_limit

    def _game_has_value(self) -> bool:
        if self._has_value is None:
            self._has_value = any(
                spec.key == VALUE_ATTRIBUTE and spec.kind == "integer"
                for spec in game_attribute_specs(game=self.game)
            )
        return self._has_value

    def resolve_one(self, name: object, *, path: str) -> tuple[Card | None, dict[str, Any] | None]:
        """(card, None) or (None, error entry)."""
        if isinstance(name, bool) or not isinstance(name, str | int):
            detail = (
                f"A card is named by its name or slug (a string); got "
                f"{type(name).__name__ if name is not None else 'null'}."
            )
            return None, error_entry(path=path, code="invalid_card", detail=detail)
        if isinstance(name, str):
            limit, length = self.length_limit(), len(name.strip())
            if length > limit:
                detail = (
                    f"{length} characters is too long for a card name in {self.game.name}: "
                    f"names are looked up to {limit} characters."
                )
                return None, error_entry(path=path, code="too_long", detail=detail)
            with_suggestions = self.suggested < MAX_SUGGESTED
            match = match_exact(name, self._named(), with_suggestions=with_suggestions)
            if match.card is not None:
                return self._by_slug(match.card.slug), None
            self.suggested += with_suggestions
            suggestions = match.suggestions
        else:
            suggestions = []
        number = _whole_number(name)
        if number is not None and self._game_has_value():
            with_value = [
                c for c in self.cards if (c.attributes or {}).get(VALUE_ATTRIBUTE) == number
            ]
            if len(with_value) == 1:
                return with_value[0], None
            suggestions = [card.name for card in with_value]
        elif isinstance(name, int):
            detail = f"A card is named by its name or slug (a string); got the number {name}."
            return None, error_entry(path=path, code="invalid_card", detail=detail)
        detail = f"No card named '{shown(name)}' in {self.game.name}."
        return None, error_entry(
            path=path, code="unknown_card", detail=detail, suggestions=suggestions
        )

    def resolve(
        self, names: Iterable[object], *, path: str
    ) -> tuple[list[Card | None], list[dict[str, Any]]]:
        """Resolve a list of names. The cards come back in the list's order, None where an entry
        failed; errors holds one entry per failure (path "<path>[i]")."""
        if not isinstance(names, list):
            detail = f"{path} must be a list of card names."
            return [], [error_entry(path=path, code="invalid_type", detail=detail)]
        if len(names) > len(self.cards):
            detail = (
                f"{path} names {len(names)} cards; {self.game.name} has only {len(self.cards)}."
            )
            return [], [error_entry(path=path, code="too_many", detail=detail)]
        cards, errors = [], []
        for index, name in enumerate(names):
            card, error = self.resolve_one(name, path=f"{path}[{index}]")
            cards.append(card)
            if error:
                errors.append(error)
        return cards, errors

    def _by_slug(self, slug: str) -> Card:
        return next(card for card in self.cards if card.slug == slug)


def _whole_number(name: str | int) -> int | None:
    """resolve_one has refused a boolean already."""
    if isinstance(name, str):
        return plain_int(name.strip())
    return name


def resolve_cards(
    *, game: Game, names: list[Any], path: str
) -> tuple[list[Card | None], list[dict[str, Any]]]:
    """Resolve request card names (one query for the game's cards). Returns (cards, errors):
    cards in the order given, None where an entry failed; one error entry per failure."""
    return CardNameResolver(game).resolve(names, path=path)


def invalid_input(errors: list[dict[str, Any]]) -> ApiError:
    """The 400 for a request whose entries failed (card names, shapes, …)."""
    detail = (
        errors[0]["detail"]
        if len(errors) == 1
        else (f"The request has {len(errors)} problems; each is listed in errors.")
    )
    return ApiError(status_code=400, code="invalid_input", detail=detail, errors=errors)
