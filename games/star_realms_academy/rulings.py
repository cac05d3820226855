"""Star Realms Academy rulings: validate the request, resolve card names, build the card specs
from the catalog, ask the engine, save.

Request body (API.md): ``{"position": {"active": {...}, "opponent": {...}, "shop_row": [names]},
"move": {"action", "card", "target", "amount"}}``.

* ``position.active``: ``name`` (default "Active player"), ``health`` and ``coins`` (required),
  ``hand`` (required), ``in_play`` (ships played this turn), ``bases`` (``[{"card", "damage",
  "used": ["primary" | "ally"]}]``), ``combat`` (the pool), ``used`` (Ally abilities of ships in
  play used this turn: a card name, or ``{"card", "ability": "ally" | "primary"}``, once per copy).
  Optional, beyond API.md: ``deck`` and ``discard_pile`` (card counts, to rule on reshuffles) and
  ``drawn`` (cards in the hand drawn and not named).
* ``position.opponent``: ``name`` (default "Opponent"), ``health`` (required), ``coins``,
  ``bases`` (``[{"card", "damage"}]``), optional ``discard_pile`` (a count).
* ``position.shop_row``: up to five card names (default none).
* ``move``: ``action`` (play | use_base | use_ally | buy | attack | end_turn); ``card`` for the
  first four; ``target`` (a base of the opponent or ``"health"``) and optional ``amount`` for an
  attack; optional ``refill`` (the card that refilled the shop row) for a buy.

A request without this shape is a 400 ``invalid_input`` whose entries name each problem by path:
``required``, ``invalid_type``, ``unknown_field``, ``unexpected_field`` (a move field its action
does not use), ``invalid_action``, ``invalid_number``, ``invalid_ability``, and the card-name codes
of common.card_names (``unknown_card`` with suggestions, ``invalid_card``, ``too_many``). A
position that cannot exist is a 400 ``impossible_position`` (entries in
games.star_realms_academy.engine). Anything else is a ruling, saved under a permalink.

A card's unknown values are never guessed: the engine answers ``needs_information`` and each
``missing`` entry carries the card's admin change page (``admin_url``), built here.
"""

from __future__ import annotations

import difflib
from typing import Any, overload

from django.urls import reverse

from cards.models import Card, Game
from cards.selectors import game_attribute_specs
from common.api_errors import error_entry
from common.body_checks import json_type as _json_type
from common.body_checks import required as _required
from common.body_checks import shown_json as _shown_json
from common.body_checks import unknown_fields
from common.card_names import CardNameResolver, invalid_input
from games.protocol import ImpossiblePosition
from games.responses import impossible_position, ruling_response
from games.star_realms_academy import engine
from games.star_realms_academy.card_rules import same_faction_as
from results.services import result_save

GAME = "star-realms-academy"
BODY_FIELDS = ("position", "move")
POSITION_FIELDS = ("active", "opponent", "shop_row")
ACTIVE_FIELDS = ("name", "health", "coins", "hand", "in_play", "bases", "combat", "used", "deck",
                 "discard_pile", "drawn")
OPPONENT_FIELDS = ("name", "health", "coins", "bases", "discard_pile")
ACTIVE_BASE_FIELDS = ("card", "damage", "used")
OPPONENT_BASE_FIELDS = ("card", "damage")
USED_FIELDS = ("card", "ability")
MOVE_FIELDS = ("action", "card", "target", "amount", "refill")
DEFAULT_NAMES = {"active": "Active player", "opponent": "Opponent"}
MAX_NAME = 40
MAX_NUMBER = 1000  # far beyond any real count; keeps the wording sane
MAX_LIST = 60  # cards in one place: the game has 60 cards in all


def rule_star_realms_academy(*, game: Game, body) -> dict:
    """The ruling response of API.md, saved (with "id" and "url"). Raises ApiError for a 400."""
    position, move = parse_request(game=game, body=body)
    try:
        ruling = engine.check(position).rule(move)
    except ImpossiblePosition as impossible:
        raise impossible_position(impossible.errors) from None
    response = ruling_response(game=game, ruling=ruling)
    return result_save(game=game, kind="ruling", request_body=body, response_body=response)


def parse_request(*, game: Game, body) -> tuple[engine.Position, engine.Move]:
    """The engine's Position and Move from a ruling request; raises ApiError (400) naming every
    problem at once."""
    parser = RequestParser(game)
    if not isinstance(body, dict):
        raise invalid_input([error_entry(path="body", code="invalid_type",
                                         detail="The request body must be a JSON object.")])
    parser.errors += unknown_fields(body, BODY_FIELDS, "")
    position = move = None
    position_raw = parser.object(body, "position", "position")
    if position_raw is not None:
        position = parser.position(position_raw, prefix="position.")
    move_raw = parser.object(body, "move", "move")
    if move_raw is not None:
        move = parser.move(move_raw, path="move")
    parser.raise_errors()
    if position is None or move is None:  # each None above came with an error entry
        raise AssertionError("a request without a position or a move has raised its errors")
    return position, move


class RequestParser:
    """Reads positions and moves of one request against one game's cards, collecting every
    problem as an error entry. Card specs are built once per card (the cached catalog rows are
    never modified)."""

    def __init__(self, game: Game):
        self.game = game
        self.resolver = CardNameResolver(game)
        self.errors: list[dict] = []
        self._specs: dict[int, engine.CardSpec] = {}
        self._labels: dict[str, str] | None = None

    def raise_errors(self) -> None:
        if self.errors:
            raise invalid_input(self.errors)

    # Cards.

    def spec(self, card: Card) -> engine.CardSpec:
        spec = self._specs.get(card.pk)
        if spec is None:
            spec = self._specs[card.pk] = card_spec(card, self.labels())
        return spec

    def labels(self) -> dict[str, str]:
        if self._labels is None:
            self._labels = {}
            for spec in game_attribute_specs(game=self.game):
                if spec.key == "faction":
                    self._labels = dict(spec.choices)
        return self._labels

    def card(self, value, path: str) -> engine.CardSpec | None:
        card, error = self.resolver.resolve_one(value, path=path)
        if card is None:  # resolve_one gives a card, or None and an error entry
            if error:
                self.errors.append(error)
            return None
        return self.spec(card)

    def cards(self, value, path: str) -> list[engine.CardSpec]:
        if isinstance(value, list) and len(value) > MAX_LIST:
            self.errors.append(error_entry(path=path, code="too_many",
                                           detail=f"{path} names {len(value)} cards; the game "
                                                  f"has {MAX_LIST}."))
            return []
        cards, errors = self.resolver.resolve(value, path=path)
        self.errors += errors
        return [self.spec(card) for card in cards if card is not None]

    # Shapes.

    def object(self, raw: dict, key: str, path: str, *, required: bool = True) -> dict | None:
        if key not in raw:
            if required:
                self.errors.append(_required(path, "an object"))
            return None
        if not isinstance(raw[key], dict):
            self.errors.append(error_entry(path=path, code="invalid_type",
                                           detail=f"{path} must be an object; got "
                                                  f"{_json_type(raw[key])}."))
            return None
        return raw[key]

    # A number with a default is always a number; without one it may be None.
    @overload
    def number(self, raw: dict[str, Any], key: str, path: str, *, default: int,
               required: bool = False, minimum: int = 0, what: str = "") -> int: ...

    @overload
    def number(self, raw: dict[str, Any], key: str, path: str, *, default: None = None,
               required: bool = False, minimum: int = 0, what: str = "") -> int | None: ...

    def number(self, raw: dict[str, Any], key: str, path: str, *, default: int | None = None,
               required: bool = False, minimum: int = 0, what: str = "") -> int | None:
        if key not in raw or (raw[key] is None and not required):
            if required:
                self.errors.append(_required(path, what or "a whole number"))
            return default
        value = raw[key]
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            else:
                self.errors.append(error_entry(path=path, code="invalid_type",
                                               detail=f"{path} must be a whole number; got "
                                                      f"{_json_type(value)}."))
                return default
        if value < minimum or value > MAX_NUMBER:
            bound = (f"at least {minimum}" if value < minimum else f"at most {MAX_NUMBER}")
            self.errors.append(error_entry(path=path, code="invalid_number",
                                           detail=f"{path} must be {bound}; got {value}."))
            return default
        return value

    def name(self, raw: dict, path: str, default: str) -> str:
        value = raw.get("name")
        if value is None or value == "":
            return default
        if not isinstance(value, str):
            self.errors.append(error_entry(path=path, code="invalid_type",
                                           detail=f"{path} must be text; got "
                                                  f"{_json_type(value)}."))
            return default
        value = value.strip()
        return value[:MAX_NAME] if value else default

    def card_list(self, raw: dict, key: str, path: str, *, required: bool = False
                  ) -> list[engine.CardSpec]:
        if key not in raw or (raw[key] is None and not required):
            if required:
                self.errors.append(_required(path, "a list of card names"))
            return []
        return self.cards(raw[key], path)

    # The position.

    def position(self, raw: dict, *, prefix: str) -> engine.Position | None:
        self.errors += unknown_fields(raw, POSITION_FIELDS, prefix)
        before = len(self.errors)
        sides: dict[str, engine.Side | None] = {}
        for key in ("active", "opponent"):
            side_raw = self.object(raw, key, prefix + key)
            sides[key] = self.side(side_raw, key, prefix + key) if side_raw is not None else None
        shop_row = self.card_list(raw, "shop_row", prefix + "shop_row")
        active, opponent = sides["active"], sides["opponent"]
        if len(self.errors) > before or active is None or opponent is None:
            return None
        return engine.Position(active=active, opponent=opponent, shop_row=shop_row)

    def side(self, raw: dict, key: str, path: str) -> engine.Side:
        active = key == "active"
        self.errors += unknown_fields(raw, ACTIVE_FIELDS if active else OPPONENT_FIELDS, path + ".")
        side = engine.Side(
            name=self.name(raw, f"{path}.name", DEFAULT_NAMES[key]),
            health=self.number(raw, "health", f"{path}.health", required=True, default=0,
                               what="the player's Health (0 to 15)"),
            coins=self.number(raw, "coins", f"{path}.coins", required=active, default=0,
                              what="the player's Coins (0 to 8)"),
            discard_pile=self.number(raw, "discard_pile", f"{path}.discard_pile"),
        )
        side.bases = self.bases(raw, f"{path}.bases", active=active)
        if active:
            side.hand = self.card_list(raw, "hand", f"{path}.hand", required=True)
            side.in_play = self.card_list(raw, "in_play", f"{path}.in_play")
            side.combat = self.number(raw, "combat", f"{path}.combat", default=0)
            side.deck = self.number(raw, "deck", f"{path}.deck")
            side.drawn = self.number(raw, "drawn", f"{path}.drawn", default=0)
            side.used = self.used(raw.get("used"), f"{path}.used")
        return side

    def bases(self, raw: dict, path: str, *, active: bool) -> list[engine.BaseIn]:
        value = raw.get("bases")
        if value is None:
            return []
        if not isinstance(value, list):
            self.errors.append(error_entry(path=path, code="invalid_type",
                                           detail=f"{path} must be a list of bases, each "
                                                  f"{{\"card\", \"damage\"}}."))
            return []
        if len(value) > MAX_LIST:
            self.errors.append(error_entry(path=path, code="too_many",
                                           detail=f"{path} lists {len(value)} bases."))
            return []
        bases = []
        for index, item in enumerate(value):
            where = f"{path}[{index}]"
            if isinstance(item, str):  # a bare name: an undamaged base
                item = {"card": item}
            if not isinstance(item, dict):
                self.errors.append(error_entry(path=where, code="invalid_type",
                                               detail=f"{where} must be an object "
                                                      f"{{\"card\", \"damage\"}} or a card name."))
                continue
            self.errors += unknown_fields(item, ACTIVE_BASE_FIELDS if active else OPPONENT_BASE_FIELDS,
                                where + ".")
            if "card" not in item:
                self.errors.append(_required(f"{where}.card", "the base's card name"))
                continue
            card = self.card(item["card"], f"{where}.card")
            damage = self.number(item, "damage", f"{where}.damage", default=0)
            used: tuple[str, ...] = ()
            if active and item.get("used") is not None:
                used = self.abilities(item["used"], f"{where}.used")
            if card is not None:
                bases.append(engine.BaseIn(card=card, damage=damage, used=used))
        return bases

    def abilities(self, value, path: str) -> tuple[str, ...]:
        if not isinstance(value, list):
            self.errors.append(error_entry(path=path, code="invalid_type",
                                           detail=f"{path} must be a list of the abilities used "
                                                  f"this turn: \"primary\", \"ally\"."))
            return ()
        used = []
        for index, item in enumerate(value):
            if item not in engine.ABILITIES:
                self.errors.append(error_entry(
                    path=f"{path}[{index}]", code="invalid_ability",
                    detail=f"An ability used is \"primary\" or \"ally\"; got "
                           f"{_shown_json(item)}.",
                    suggestions=list(engine.ABILITIES)))
            elif item not in used:
                used.append(item)
        return tuple(used)

    def used(self, value, path: str) -> list[tuple[engine.CardSpec, str]]:
        if value is None:
            return []
        if not isinstance(value, list):
            self.errors.append(error_entry(path=path, code="invalid_type",
                                           detail=f"{path} must be a list: the cards in play "
                                                  f"whose Ally ability was used this turn."))
            return []
        if len(value) > MAX_LIST:
            self.errors.append(error_entry(path=path, code="too_many",
                                           detail=f"{path} lists {len(value)} abilities."))
            return []
        used = []
        for index, item in enumerate(value):
            where = f"{path}[{index}]"
            ability = engine.ALLY
            if isinstance(item, dict):
                self.errors += unknown_fields(item, USED_FIELDS, where + ".")
                if "card" not in item:
                    self.errors.append(_required(f"{where}.card", "the card whose ability was "
                                                                  "used"))
                    continue
                ability = item.get("ability", engine.ALLY)
                if ability not in engine.ABILITIES:
                    self.errors.append(error_entry(
                        path=f"{where}.ability", code="invalid_ability",
                        detail=f"An ability is \"primary\" or \"ally\"; got "
                               f"{_shown_json(ability)}.",
                        suggestions=list(engine.ABILITIES)))
                    continue
                card = self.card(item["card"], f"{where}.card")
            else:
                card = self.card(item, where)
            if card is not None:
                used.append((card, ability))
        return used

    # The move.

    def move(self, raw: dict, *, path: str) -> engine.Move | None:
        before = len(self.errors)
        self.errors += unknown_fields(raw, MOVE_FIELDS, path + ".")
        if "action" not in raw:
            self.errors.append(_required(f"{path}.action", "one of " + ", ".join(engine.ACTIONS)))
            return None
        action = raw["action"]
        if action not in engine.ACTIONS:
            suggestions = difflib.get_close_matches(str(action), engine.ACTIONS, n=3, cutoff=0.5)
            self.errors.append(error_entry(
                path=f"{path}.action", code="invalid_action",
                detail=f"{path}.action must be one of {', '.join(engine.ACTIONS)}; got "
                       f"{_shown_json(action)}.",
                suggestions=suggestions or list(engine.ACTIONS)))
            return None
        own = engine.ACTION_FIELDS[action]
        for key in ("card", "target", "amount", "refill"):
            if key in raw and key not in own and raw[key] not in (None, ""):
                self.errors.append(error_entry(
                    path=f"{path}.{key}", code="unexpected_field",
                    detail=f"{action} does not use {key}"
                           + (f"; it uses {', '.join(own)}." if own else "; it takes no fields.")))
        move = engine.Move(action=action)
        if "card" in own:
            if raw.get("card") in (None, ""):
                what = {"buy": "the card bought from the shop row",
                        "use_base": "the base whose primary is used",
                        "use_ally": "the card whose Ally ability is used"}.get(action,
                                                                              "the card played")
                self.errors.append(_required(f"{path}.card", what))
            else:
                move.card = self.card(raw["card"], f"{path}.card")
        if action == engine.BUY and raw.get("refill") not in (None, ""):
            move.refill = self.card(raw["refill"], f"{path}.refill")
        if action == engine.ATTACK:
            target = raw.get("target")
            if target in (None, ""):
                self.errors.append(_required(f"{path}.target",
                                             "a base of the opponent, or \"health\""))
            elif isinstance(target, str) and target.strip().casefold() == engine.HEALTH_TARGET:
                move.target_health = True
            else:
                move.target = self.card(target, f"{path}.target")
            move.amount = self.number(raw, "amount", f"{path}.amount", minimum=1)
        return move if len(self.errors) == before else None


def card_spec(card: Card, faction_labels: dict[str, str]) -> engine.CardSpec:
    """What the engine needs of a catalog card: its values, their provenance, and the links where
    its page and its admin form are."""
    attributes = card.attributes or {}
    faction = attributes.get("faction")

    def abilities(key: str) -> dict | None:
        value = attributes.get(key)
        return dict(value) if isinstance(value, dict) else None

    def integer(key: str) -> int | None:
        value = attributes.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    # The rulebook's facts beyond the values (star_realms_academy_rules): relied on only when
    # the rule is verified.
    provenance = dict(card.field_provenance or {})
    stated, source = (same_faction_as(card.rule) if provenance.get("rule") == "verified"
                      else ((), ""))

    return engine.CardSpec(
        name=card.name,
        copies=card.copies,
        faction=faction if isinstance(faction, str) else None,
        kind=attributes.get("kind") if isinstance(attributes.get("kind"), str) else None,
        cost=integer("cost"),
        primary=abilities("primary"),
        ally=abilities("ally"),
        defense=integer("defense"),
        provenance=provenance,
        faction_label=faction_labels.get(faction, "") if isinstance(faction, str) else "",
        admin_url=reverse("admin:cards_card_change", args=[card.pk]),
        card_url=card.get_absolute_url(),
        same_faction_as=stated,
        same_faction_source=source,
    )
