"""Factions rulings: validate the request, resolve the names, ask the engine, save.

Request body (API.md): ``{"position": {"factions": [{"name", "controller", "units": [{"name",
"alive"}]}], "players": [{"name", "hand": [{"card", "faction"}], "lost_turns"}], "turn",
"pending": {"card": {"card", "faction"}, "by", "target_unit": {"faction", "unit"}}}, "move":
{"action", "card", "target_player", "target_unit"}}``. Besides API.md's fields the position may
say ``turn_lost`` (true: the current turn is a lost one, FAC-R3) and ``players[].faction`` (the
faction the player chose at setup, for the standings' own/conquered), and ``options`` (the game's
options; Factions has none today, so any key is refused).

Faction names and their units come from the catalog: a faction is named by its value or its label
(the "faction" attribute's choices, which an admin may rename), a unit or card by its name (any
case) or slug. Player names are the request's own; a reference to a player matches the name, any
case.

A request that does not have this shape is a 400 ``invalid_input`` whose entries name each
problem by path: ``required``, ``invalid_type``, ``unknown_field``, ``invalid_action``,
``invalid_count``, ``too_many``, ``unknown_card`` (with suggestions), ``invalid_card``,
``unknown_faction`` (with suggestions), ``not_a_unit``, ``not_an_action_card``,
``wrong_faction`` (a target unit named with a faction it does not belong to),
``unknown_player`` (with suggestions), ``duplicate_player``, ``unknown_option``. A position that
cannot exist is a 400 ``impossible_position`` (entries in games.factions.engine).
Anything else is a ruling, legal, illegal or needs_information, saved under a permalink.
"""

from __future__ import annotations

import difflib

from cards.models import Card, Game
from cards.naming import normalise
from cards.selectors import game_attribute_specs, game_options
from common.api_errors import ApiError, error_entry
from common.body_checks import json_type as _json_type
from common.body_checks import shown_json as _shown_json
from common.body_checks import unknown_fields
from common.card_names import CardNameResolver, invalid_input, shown
from games.factions import engine
from games.protocol import ImpossiblePosition
from games.responses import impossible_position as shared_impossible_position
from games.responses import ruling_response
from results.services import result_save

GAME = "factions"
BODY_FIELDS = ("position", "move")
POSITION_FIELDS = ("factions", "players", "turn", "pending", "turn_lost", "options")
FACTION_FIELDS = ("name", "controller", "units")
UNIT_FIELDS = ("name", "alive")
PLAYER_FIELDS = ("name", "hand", "lost_turns", "faction")
CARD_FIELDS = ("card", "faction")
PENDING_FIELDS = ("card", "by", "target_unit")
TARGET_UNIT_FIELDS = ("faction", "unit")
MOVE_FIELDS = ("action", "card", "target_player", "target_unit")

MAX_PLAYERS = 20
MAX_FACTIONS = 40
MAX_UNITS = 40
MAX_HAND = 200
MAX_NAME = 60
MAX_LOST_TURNS = 1000


def rule_move(*, game: Game, body) -> dict:
    """The ruling response of API.md, saved (with "id" and "url"). Raises ApiError for a 400."""
    request = FactionsRequest(game)
    position, move = request.parse_ruling(body)
    try:
        ruling = engine.check(request.catalog, position).rule(move)
    except ImpossiblePosition as impossible:
        raise impossible_position(impossible.errors) from None
    ruling.warnings = request.warnings + ruling.warnings
    response = ruling_response(game=game, ruling=ruling)
    return result_save(game=game, kind="ruling", request_body=body, response_body=response)


def impossible_position(errors: list[dict], *, prefix: str = "position.") -> ApiError:
    """The 400 naming every contradiction; ``prefix`` is where the position sits in the body
    (the standings' body is the position itself: prefix "")."""
    if prefix != "position.":
        errors = [{**e, "path": _reprefix(e["path"], prefix)} for e in errors]
    return shared_impossible_position(errors)


def _reprefix(path: str, prefix: str) -> str:
    if path == "position":
        return prefix.rstrip(".") or "body"
    return prefix + path.removeprefix("position.")


def catalog_for(game: Game, cards: list[Card]) -> engine.Catalog:
    """The engine's catalog: the "faction" attribute's choices (value, label) and the cards'
    kind, faction, action and copies, as the database holds them."""
    faction = next((s for s in game_attribute_specs(game=game) if s.key == "faction"), None)
    choices = [(value, label) for value, label in (faction.choices if faction else ()) if value]
    return engine.build_catalog(
        faction_choices=choices,
        cards=[(card.name, card.copies, card.attributes) for card in cards],
        min_players=game.min_players,
    )


class FactionsRequest:
    """Parses one request against one game's catalog, collecting every problem by path."""

    def __init__(self, game: Game):
        self.game = game
        self.resolver = CardNameResolver(game)
        self.catalog = catalog_for(game, self.resolver.cards)
        self.errors: list[dict] = []
        self.warnings: list[str] = []
        self.players: list[str] = []
        self._cards = {card.name: card for card in self.resolver.cards}

    # --- Entry points ----------------------------------------------------------------------

    def parse_ruling(self, body) -> tuple[engine.Position, engine.Move]:
        if not isinstance(body, dict):
            raise invalid_input([error_entry(path="body", code="invalid_type",
                                             detail="The request body must be a JSON object.")])
        self.errors += unknown_fields(body, BODY_FIELDS, "")
        position_raw = self._object(body, "position", "position")
        move_raw = self._object(body, "move", "move")
        position = None
        if position_raw is not None:
            position = self.parse_position(position_raw, prefix="position.", need_turn=True)
        move = self._move(move_raw) if move_raw is not None else None
        if self.errors or position is None or move is None:  # None comes with an error entry
            raise invalid_input(self.errors)
        return position, move

    def parse_standings(self, body) -> engine.Position:
        if not isinstance(body, dict):
            raise invalid_input([error_entry(path="body", code="invalid_type",
                                             detail="The request body must be a JSON object.")])
        position = self.parse_position(body, prefix="", need_turn=False)
        if self.errors or position is None:  # None comes with an error entry
            raise invalid_input(self.errors)
        return position

    # --- The position ----------------------------------------------------------------------

    def parse_position(self, raw: dict, *, prefix: str, need_turn: bool) -> engine.Position | None:
        self.errors += unknown_fields(raw, POSITION_FIELDS, prefix)
        players = self._players(raw, prefix, need_hand=need_turn)
        factions = self._factions(raw, prefix)
        turn = None
        if "turn" in raw and raw["turn"] is not None:
            turn = self._player_ref(raw["turn"], f"{prefix}turn")
        elif need_turn:
            self._required(f"{prefix}turn", "the name of the player whose turn it is")
        turn_lost = False
        if "turn_lost" in raw:
            if isinstance(raw["turn_lost"], bool):
                turn_lost = raw["turn_lost"]
            else:
                self._error(f"{prefix}turn_lost", "invalid_type",
                            f"{prefix}turn_lost must be true or false.")
        pending = None
        if raw.get("pending") is not None:
            pending = self._pending(raw["pending"], f"{prefix}pending")
        self._options(raw.get("options"), f"{prefix}options")
        if self.errors:
            return None
        return engine.Position(factions=factions, players=players, turn=turn, pending=pending,
                               turn_lost=turn_lost)

    def _players(self, raw: dict, prefix: str, *, need_hand: bool) -> list[engine.Player]:
        path = f"{prefix}players"
        items = self._list(raw, "players", path, "the players in seat order", MAX_PLAYERS)
        if items is None:
            return []
        # Names first: every other field may refer to a player.
        names: list[str | None] = []
        seen: dict[str, int] = {}
        for index, item in enumerate(items):
            item_path = f"{path}[{index}]"
            if not isinstance(item, dict):
                self._error(item_path, "invalid_type",
                            f"{item_path} must be an object: {{\"name\", \"hand\", "
                            f"\"lost_turns\"}}.")
                names.append(None)
                continue
            name = self._name(item, "name", f"{item_path}.name", "the player's name")
            if name is not None and name.casefold() in seen:
                self._error(f"{item_path}.name", "duplicate_player",
                            f"Two players are named '{shown(name)}' ({path}[{seen[name.casefold()]}]"
                            f" and {item_path}); each player needs a name of their own.")
                name = None
            elif name is not None:
                seen[name.casefold()] = index
            names.append(name)
        self.players = [name for name in names if name]
        players = []
        for index, item in enumerate(items):
            if not isinstance(item, dict):
                continue
            item_path = f"{path}[{index}]"
            self.errors += unknown_fields(item, PLAYER_FIELDS, f"{item_path}.")
            hand: list[engine.CardRef] = []
            if "hand" in item and item["hand"] is not None:
                hand_items = item["hand"]
                if not isinstance(hand_items, list):
                    self._error(f"{item_path}.hand", "invalid_type",
                                f"{item_path}.hand must be a list of cards, each "
                                f"{{\"card\", \"faction\"}}.")
                elif len(hand_items) > MAX_HAND:
                    self._error(f"{item_path}.hand", "too_many",
                                f"{item_path}.hand lists {len(hand_items)} cards; no hand holds "
                                f"more than {MAX_HAND}.")
                else:
                    for c_index, card in enumerate(hand_items):
                        ref = self._card_ref(card, f"{item_path}.hand[{c_index}]")
                        if ref is not None:
                            hand.append(ref)
            elif need_hand:
                self._required(f"{item_path}.hand", "the player's cards, a list of "
                               "{\"card\", \"faction\"} (empty for none)")
            lost = 0
            if "lost_turns" in item and item["lost_turns"] is not None:
                value = item["lost_turns"]
                if isinstance(value, bool) or not isinstance(value, int):
                    self._error(f"{item_path}.lost_turns", "invalid_type",
                                f"{item_path}.lost_turns must be a whole number of turns.")
                elif not 0 <= value <= MAX_LOST_TURNS:
                    self._error(f"{item_path}.lost_turns", "invalid_count",
                                f"{item_path}.lost_turns must be between 0 and "
                                f"{MAX_LOST_TURNS}; got {value}.")
                else:
                    lost = value
            own = None
            if item.get("faction") is not None:
                own = self._faction_ref(item["faction"], f"{item_path}.faction")
            name = names[index]
            if name:
                players.append(engine.Player(name=name, hand=hand, lost_turns=lost, faction=own))
        return players

    def _factions(self, raw: dict, prefix: str) -> list[engine.Faction]:
        path = f"{prefix}factions"
        items = self._list(raw, "factions", path, "the factions in play", MAX_FACTIONS)
        if items is None:
            return []
        factions = []
        for index, item in enumerate(items):
            item_path = f"{path}[{index}]"
            if not isinstance(item, dict):
                self._error(item_path, "invalid_type",
                            f"{item_path} must be an object: {{\"name\", \"controller\", "
                            f"\"units\"}}.")
                continue
            self.errors += unknown_fields(item, FACTION_FIELDS, f"{item_path}.")
            slug = None
            if "name" not in item:
                self._required(f"{item_path}.name", "the faction's name")
            else:
                slug = self._faction_ref(item["name"], f"{item_path}.name")
            controller = None
            if "controller" not in item or item["controller"] is None:
                self._required(f"{item_path}.controller", "the player who controls the faction")
            else:
                controller = self._player_ref(item["controller"], f"{item_path}.controller")
            units = []
            unit_items = self._list(item, "units", f"{item_path}.units",
                                    "the faction's units, each {\"name\", \"alive\"}", MAX_UNITS)
            for u_index, unit in enumerate(unit_items or []):
                parsed = self._unit(unit, f"{item_path}.units[{u_index}]")
                if parsed is not None:
                    units.append(parsed)
            if slug and controller:
                factions.append(engine.Faction(slug=slug, controller=controller, units=units))
        return factions

    def _unit(self, raw, path: str) -> engine.Unit | None:
        if not isinstance(raw, dict):
            self._error(path, "invalid_type", f"{path} must be an object: {{\"name\", \"alive\"}}.")
            return None
        self.errors += unknown_fields(raw, UNIT_FIELDS, f"{path}.")
        card = None
        if "name" not in raw:
            self._required(f"{path}.name", "the unit's name")
        else:
            card = self._unit_card(raw["name"], f"{path}.name")
        alive = None
        if "alive" not in raw:
            self._required(f"{path}.alive", "true if the unit survives, false if defeated")
        elif not isinstance(raw["alive"], bool):
            self._error(f"{path}.alive", "invalid_type", f"{path}.alive must be true or false.")
        else:
            alive = raw["alive"]
        if card is None or alive is None:
            return None
        return engine.Unit(name=card.name, alive=alive)

    def _pending(self, raw, path: str) -> engine.Pending | None:
        if not isinstance(raw, dict):
            self._error(path, "invalid_type", f"{path} must be an object: {{\"card\", \"by\", "
                                              f"\"target_unit\"}}, or null.")
            return None
        self.errors += unknown_fields(raw, PENDING_FIELDS, f"{path}.")
        card = by = target = None
        if "card" not in raw:
            self._required(f"{path}.card", "the ATTACK or AMBUSH played, {\"card\", \"faction\"}")
        else:
            card = self._card_ref(raw["card"], f"{path}.card")
        if raw.get("by") is None:
            self._required(f"{path}.by", "the player who played it")
        else:
            by = self._player_ref(raw["by"], f"{path}.by")
        if raw.get("target_unit") is None:
            self._required(f"{path}.target_unit", "the unit attacked, {\"faction\", \"unit\"}")
        else:
            target = self._unit_ref(raw["target_unit"], f"{path}.target_unit")
        if card is None or by is None or target is None:
            return None
        return engine.Pending(card=card, by=by, target=target)

    def _options(self, raw, path: str) -> None:
        if raw is None:
            return
        if not isinstance(raw, dict):
            self._error(path, "invalid_type", f"{path} must be an object: option key to value.")
            return
        known = {option.key: option for option in game_options(game=self.game)}
        for key, value in raw.items():
            option = known.get(key)
            if option is None:
                names = ", ".join(sorted(known)) or "none"
                self._error(f"{path}.{key}", "unknown_option",
                            f"'{shown(key)}' is not an option of {self.game.name} (its options: "
                            f"{names}).", suggestions=difflib.get_close_matches(
                                str(key), list(known), n=3, cutoff=0.5))
            elif option.choices is not None and value not in option.choices:
                self._error(f"{path}.{key}", "invalid_option",
                            f"{key} must be one of {option.choices}.")
            else:
                self.warnings.append(f"The option {option.label} is not applied by this tool's "
                                     f"rulings.")

    # --- The move --------------------------------------------------------------------------

    def _move(self, raw: dict) -> engine.Move | None:
        self.errors += unknown_fields(raw, MOVE_FIELDS, "move.")
        if "action" not in raw:
            self._required("move.action", "one of " + ", ".join(engine.ACTIONS))
            return None
        action = raw["action"]
        if action not in engine.ACTIONS:
            suggestions = difflib.get_close_matches(str(action), engine.ACTIONS, n=3, cutoff=0.5)
            self._error("move.action", "invalid_action",
                        f"move.action must be one of {', '.join(engine.ACTIONS)}; got "
                        f"{_shown_json(action)}.", suggestions=suggestions or list(engine.ACTIONS))
            return None
        card = None
        if action in engine.CARD_ACTIONS:
            if raw.get("card") is None:
                self._required("move.card", f"the card the move {_verb(action)}, "
                               "{\"card\", \"faction\"}")
            else:
                card = self._card_ref(raw["card"], "move.card")
        elif raw.get("card") is not None:
            self.warnings.append(f"move.card is not used by {action.replace('_', ' ')}; it was "
                                 f"ignored.")
        target_player = None
        if raw.get("target_player") is not None:
            target_player = self._player_ref(raw["target_player"], "move.target_player")
        target_unit = None
        if raw.get("target_unit") is not None:
            target_unit = self._unit_ref(raw["target_unit"], "move.target_unit")
        if self.errors:
            return None
        return engine.Move(action=action, card=card, target_player=target_player,
                           target_unit=target_unit)

    # --- Names -----------------------------------------------------------------------------

    def _card_ref(self, raw, path: str) -> engine.CardRef | None:
        if not isinstance(raw, dict):
            self._error(path, "invalid_type", f"{path} must be an object: {{\"card\": name, "
                                              f"\"faction\": faction}}.")
            return None
        self.errors += unknown_fields(raw, CARD_FIELDS, f"{path}.")
        card = faction = None
        if "card" not in raw:
            self._required(f"{path}.card", "the action card's name")
        else:
            found, error = self.resolver.resolve_one(raw["card"], path=f"{path}.card")
            if error:
                self.errors.append(error)
            elif found is None:
                pass  # never: resolve_one gives a card whenever it gives no error
            elif (found.attributes or {}).get("kind") != "action":
                actions = sorted(name for name, spec in self.catalog.actions.items())
                self._error(f"{path}.card", "not_an_action_card",
                            f"{found.name} is not an action card; the action cards are "
                            f"{', '.join(actions)}.", suggestions=actions)
            else:
                card = found
        if raw.get("faction") is None:
            self._required(f"{path}.faction", "the faction that contributed the card")
        else:
            faction = self._faction_ref(raw["faction"], f"{path}.faction")
        if card is None or faction is None:
            return None
        return engine.CardRef(card=card.name, faction=faction)

    def _unit_ref(self, raw, path: str) -> engine.UnitRef | None:
        if not isinstance(raw, dict):
            self._error(path, "invalid_type", f"{path} must be an object: {{\"faction\", "
                                              f"\"unit\"}}.")
            return None
        self.errors += unknown_fields(raw, TARGET_UNIT_FIELDS, f"{path}.")
        card = None
        if raw.get("unit") is None:
            self._required(f"{path}.unit", "the unit's name")
        else:
            card = self._unit_card(raw["unit"], f"{path}.unit")
        faction = None
        if raw.get("faction") is not None:
            faction = self._faction_ref(raw["faction"], f"{path}.faction")
        if card is None:
            return None
        home = self.catalog.unit_faction(card.name)
        if faction is None and raw.get("faction") is None:
            if home is None:
                self._required(f"{path}.faction", f"the faction of {card.name} (the catalog "
                               "does not give it)")
                return None
            faction = home
        if faction is None:
            return None
        if home is not None and home != faction:
            self._error(f"{path}.faction", "wrong_faction",
                        f"{card.name} is a unit of {self.catalog.label(home)}, not of "
                        f"{self.catalog.label(faction)}.", suggestions=[self.catalog.label(home)])
            return None
        return engine.UnitRef(faction=faction, unit=card.name)

    def _unit_card(self, raw, path: str) -> Card | None:
        found, error = self.resolver.resolve_one(raw, path=path)
        if error:
            self.errors.append(error)
            return None
        if found is None:
            return None  # never: resolve_one gives a card whenever it gives no error
        if (found.attributes or {}).get("kind") != "unit":
            self._error(path, "not_a_unit",
                        f"{found.name} is not a unit card; a faction's units are unit cards.")
            return None
        return found

    def _faction_ref(self, raw, path: str) -> str | None:
        if not isinstance(raw, str) or not raw.strip():
            self._error(path, "invalid_type", f"{path} must be a faction's name.")
            return None
        wanted = normalise(raw)
        for spec in self.catalog.factions.values():
            if raw.strip() == spec.slug or wanted in (normalise(spec.label), normalise(spec.slug)):
                return spec.slug
        labels = [spec.label for spec in self.catalog.factions.values()]
        keyed = {normalise(label): label for label in labels}
        close = difflib.get_close_matches(wanted, list(keyed), n=3, cutoff=0.6)
        self._error(path, "unknown_faction",
                    f"No faction named '{shown(raw)}' in {self.game.name}; its factions are "
                    f"{', '.join(labels) or 'none'}.",
                    suggestions=[keyed[key] for key in close] or labels)
        return None

    def _player_ref(self, raw, path: str) -> str | None:
        if not isinstance(raw, str) or not raw.strip():
            self._error(path, "invalid_type", f"{path} must be a player's name.")
            return None
        wanted = raw.strip()
        for name in self.players:
            if name == wanted:
                return name
        folded = [name for name in self.players if name.casefold() == wanted.casefold()]
        if len(folded) == 1:
            return folded[0]
        close = difflib.get_close_matches(wanted, self.players, n=3, cutoff=0.5)
        self._error(path, "unknown_player",
                    f"No player named '{shown(raw)}' in position.players; the players are "
                    f"{', '.join(self.players) or 'none'}.", suggestions=close or self.players)
        return None

    # --- Shapes ----------------------------------------------------------------------------

    def _error(self, path: str, code: str, detail: str, **extra) -> None:
        self.errors.append(error_entry(path=path, code=code, detail=detail, **extra))

    def _required(self, path: str, what: str) -> None:
        self._error(path, "required", f"{path} is required: {what}.")

    def _name(self, raw: dict, key: str, path: str, what: str) -> str | None:
        value = raw.get(key)
        if key not in raw or value is None:
            self._required(path, what)
            return None
        if not isinstance(value, str) or not value.strip():
            self._error(path, "invalid_type", f"{path} must be a non-empty name.")
            return None
        value = value.replace("\x00", "").strip()
        if len(value) > MAX_NAME:
            self._error(path, "invalid_type", f"{path} is {len(value)} characters long; a name "
                                              f"has at most {MAX_NAME}.")
            return None
        return value

    def _object(self, raw: dict, key: str, path: str) -> dict | None:
        if key not in raw:
            self._required(path, "an object")
            return None
        if not isinstance(raw[key], dict):
            self._error(path, "invalid_type", f"{path} must be an object; got "
                                              f"{_json_type(raw[key])}.")
            return None
        return raw[key]

    def _list(self, raw: dict, key: str, path: str, what: str, limit: int) -> list | None:
        if key not in raw or raw[key] is None:
            self._required(path, what)
            return None
        if not isinstance(raw[key], list):
            self._error(path, "invalid_type", f"{path} must be a list: {what}.")
            return None
        if len(raw[key]) > limit:
            self._error(path, "too_many", f"{path} lists {len(raw[key])} entries; at most "
                                          f"{limit}.")
            return None
        return raw[key]

def _verb(action: str) -> str:
    return {"play": "plays", "defend": "defends with", "discard": "discards"}[action]
