"""The pages of Star Realms Academy: "Check a move" and "Break down a turn".

Both set up the same board (each player's Health, Coins and bases with their damage; the active
player's hand, ships in play, combat pool and abilities used; the shop row), then take one move or
the turn's list of actions. The form is turned into the API's request body and handed to the very
service the API calls (adjudicator.services / scoring.services .star_realms_academy): no rule is
checked here. An htmx submit gets the result fragment; a plain POST (no JavaScript) gets the whole
page again, with the values kept and each problem next to its field. Missing card values are shown
with a link to the card's admin page, where an admin fills them in.
"""

from __future__ import annotations

import re
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from cards.models import Game
from cards.selectors import GameNotFound, clean_text, game_get
from common.api_errors import ApiError
from common.page_fields import FormField as Field
from common.page_fields import filled_names
from common.page_results import (
    evaluate_on_page,
    is_htmx_submit,
    page_input,
    problem_message,
    render_result_page,
)
from games.star_realms_academy import engine
from games.star_realms_academy.rulings import rule_star_realms_academy
from games.star_realms_academy.scores import score_star_realms_academy
from results.views import VERDICTS, ruling_view

GAME = "star-realms-academy"
HAND_SLOTS = 10
HAND_SHOWN = 6
IN_PLAY_SLOTS = 8
IN_PLAY_SHOWN = 4
USED_SLOTS = 4
BASE_SLOTS = 4
BASES_SHOWN = 2
SHOP_ROW_SLOTS = engine.SHOP_ROW_SIZE
ACTION_SLOTS = 20
ACTIONS_SHOWN = 8
NUMBER = re.compile(r"-?\d{1,6}")
ENCLOSING = re.compile(r"(\.[^.\[]+|\[\d+\])$")  # the last step of a request path

ACTION_LABELS = [
    (engine.PLAY, "Play a card from the hand"),
    (engine.USE_BASE, "Use a base's primary ability"),
    (engine.USE_ALLY, "Use an Ally ability"),
    (engine.BUY, "Buy from the shop row"),
    (engine.ATTACK, "Attack"),
    (engine.END_TURN, "End the turn"),
]


# --- The pages ----------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def check_move(request: HttpRequest) -> HttpResponse:
    game = _game()
    if game is None:
        return _not_loaded(request)
    data = page_input(request)  # posted, or the input in the address
    board = BoardForm(data, prefix="position.")
    move = MoveForm(data)
    context = {"game": game, "board": board, "move": move, "ruling": None, "error": None}
    status = 200
    if data is not None:
        status = evaluate_on_page(
            request, context, service=rule_star_realms_academy, game=game,
            body={"position": board.body(), "move": move.body()},
            show=lambda response: {"ruling": ruling_context(game, response)},
            show_errors=lambda error: _error(error, [board, move]),
        )
    return _render(request, context, status, page="star_realms_academy/check_move.html",
                   fragment="star_realms_academy/_check_result.html")


@require_http_methods(["GET", "POST"])
def turn(request: HttpRequest) -> HttpResponse:
    game = _game()
    if game is None:
        return _not_loaded(request)
    data = page_input(request)  # posted, or the input in the address
    board = BoardForm(data, prefix="")
    actions = ActionsForm(data)
    context = {"game": game, "board": board, "actions": actions, "breakdown": None,
               "error": None}
    status = 200
    if data is not None:
        status = evaluate_on_page(
            request, context, service=score_star_realms_academy, game=game,
            body={**board.body(), "actions": actions.body()},
            show=lambda response: {"breakdown": breakdown_context(game, response)},
            show_errors=lambda error: _error(error, [board, actions]),
        )
    return _render(request, context, status, page="star_realms_academy/turn.html",
                   fragment="star_realms_academy/_turn_result.html")


def _game() -> Game | None:
    try:
        return game_get(slug=GAME)
    except GameNotFound:
        return None


def _not_loaded(request: HttpRequest) -> HttpResponse:
    return render(request, "404.html", {"message": "The Star Realms Academy catalog is not "
                                        "loaded."}, status=404)


def _render(request, context: dict, status: int, *, page: str, fragment: str) -> HttpResponse:
    context["card_options"] = [] if is_htmx_submit(request) else card_options(context["game"])
    return render_result_page(request, context, status=status, page=page, fragment=fragment)


def _error(error: ApiError, forms: list) -> dict:
    entries = []
    for entry in error.errors:
        field = None
        for form in forms:
            field = form.field_for(entry.get("path", ""))
            if field is not None:
                field.errors.append(problem_message(entry))
                break
        entries.append({"message": problem_message(entry), "field_id": field.id if field else ""})
    return {"detail": error.message, "code": error.error_code, "entries": entries}




def card_options(game: Game) -> list[dict]:
    """The catalog's cards for the <datalist>s, with what is known of each (one query)."""
    labels: dict[str, str] = {}
    for spec in game.attribute_specs():
        if spec.key == "faction":
            labels = dict(spec.choices)
    options = []
    for name, attributes in game.cards.order_by("name").values_list("name", "attributes"):
        attributes = attributes or {}
        faction = attributes.get("faction")
        parts = [labels.get(faction, "") if faction is not None else ""]
        kind = attributes.get("kind")
        parts.append(str(kind).capitalize() if kind else "")
        cost = attributes.get("cost")
        parts.append(f"cost {cost}" if cost is not None else "")
        options.append({"name": name, "label": " · ".join(p for p in parts if p),
                        "base": kind == engine.BASE})
    return options


# --- Forms --------------------------------------------------------------------------------------


class _Form:
    """Fields by the request path they fill, so each problem the service names lands by its
    field."""

    def __init__(self, data):
        self.data = data if data is not None else {}
        self.bound = data is not None
        self._paths: dict[str, Field] = {}

    def get(self, name: str, default: str = "") -> str:
        if not self.bound:
            return default
        return clean_text(self.data.get(name))

    def getlist(self, name: str, slots: int) -> list[str]:
        given = [clean_text(v) for v in self.data.getlist(name)][:slots] if self.bound and hasattr(
            self.data, "getlist") else []
        return given + [""] * (slots - len(given))

    def field_for(self, path: str) -> Field | None:
        """The field of a request path, or of the nearest path that encloses it."""
        while path:
            field = self._paths.get(path)
            if field is not None:
                return field
            shorter = ENCLOSING.sub("", path)
            path = "" if shorter == path or shorter == "position" else shorter
        return None

    def _names(self, fields: list[Field], path: str) -> list[str]:
        return filled_names(fields, path, self._paths)

    def _number(self, field: Field, path: str, target: dict, key: str) -> None:
        self._paths[path] = field
        if field.value:
            target[key] = int(field.value) if NUMBER.fullmatch(field.value) else field.value


class BaseRow:
    def __init__(self, form: _Form, owner: str, index: int, *, active: bool):
        prefix = f"{owner}_base_{index}"
        whose = "" if active else "Opponent's "
        self.card = Field(prefix, f"{owner}-base-{index}", form.get(prefix),
                          f"{whose}Base {index}" if active else f"{whose}base {index}",
                          css_class="field--card")
        self.damage = Field(f"{prefix}_damage", f"{owner}-base-{index}-damage",
                            form.get(f"{prefix}_damage"), "Damage",
                            label_hidden=f"on {whose.lower()}base {index}")
        self.active = active
        if active:
            self.primary = Field(f"{prefix}_primary", f"{owner}-base-{index}-primary",
                                 form.get(f"{prefix}_primary"), "Primary used",
                                 label_hidden=f"this turn (base {index})")
            self.ally = Field(f"{prefix}_ally", f"{owner}-base-{index}-ally",
                              form.get(f"{prefix}_ally"), "Ally used",
                              label_hidden=f"this turn (base {index})")

    @property
    def open(self) -> bool:
        return bool(self.card.value or self.card.errors or self.damage.errors)


class BoardForm(_Form):
    """Both players' boards and the shop row: the position of API.md."""

    def __init__(self, data=None, *, prefix: str):
        super().__init__(data)
        self.prefix = prefix
        get = self.get
        self.active_name = Field("active_name", "active-name", get("active_name"),
                                 "Name", placeholder="Active player")
        self.active_health = Field("active_health", "active-health",
                                   get("active_health", "15"), "Health")
        self.active_coins = Field("active_coins", "active-coins", get("active_coins", "0"),
                                  "Coins")
        self.active_combat = Field("active_combat", "active-combat", get("active_combat", "0"),
                                   "Combat pool")
        self.active_deck = Field("active_deck", "active-deck", get("active_deck"),
                                 "Cards in the deck", hint="Leave empty if not counted.")
        self.active_discard_pile = Field("active_discard_pile", "active-discard-pile",
                                         get("active_discard_pile"), "Cards in the discard pile",
                                         hint="Leave empty if not counted.")
        self.active_drawn = Field("active_drawn", "active-drawn", get("active_drawn"),
                                  "Unnamed cards drawn into the hand",
                                  hint="Cards drawn this turn that you do not name above.")
        self.hand = [Field("hand", f"hand-{i}", v, f"Hand card {i}", css_class="field--card")
                     for i, v in enumerate(self.getlist("hand", HAND_SLOTS), start=1)]
        self.in_play = [Field("in_play", f"in-play-{i}", v, f"Ship in play {i}",
                              css_class="field--card")
                        for i, v in enumerate(self.getlist("in_play", IN_PLAY_SLOTS), start=1)]
        self.used = [Field("used", f"used-{i}", v, f"Ally used {i}", css_class="field--card")
                     for i, v in enumerate(self.getlist("used", USED_SLOTS), start=1)]
        self.active_bases = [BaseRow(self, "active", i, active=True)
                             for i in range(1, BASE_SLOTS + 1)]
        self.opponent_name = Field("opponent_name", "opponent-name", get("opponent_name"),
                                   "Opponent's name", placeholder="Opponent")
        self.opponent_health = Field("opponent_health", "opponent-health",
                                     get("opponent_health", "15"), "Opponent's Health")
        self.opponent_coins = Field("opponent_coins", "opponent-coins",
                                    get("opponent_coins", "0"), "Opponent's Coins")
        self.opponent_bases = [BaseRow(self, "opponent", i, active=False)
                               for i in range(1, BASE_SLOTS + 1)]
        self.shop_row = [Field("shop_row", f"shop-row-{i}", v, f"Shop card {i}",
                               css_class="field--card")
                         for i, v in enumerate(self.getlist("shop_row", SHOP_ROW_SLOTS), start=1)]

    # Slots shown at first and the rest (in a <details>, open when any holds something).

    @property
    def hand_shown(self):
        return self.hand[:HAND_SHOWN]

    @property
    def hand_more(self):
        return self.hand[HAND_SHOWN:]

    @property
    def in_play_shown(self):
        return self.in_play[:IN_PLAY_SHOWN]

    @property
    def in_play_more(self):
        return self.in_play[IN_PLAY_SHOWN:]

    @property
    def active_bases_shown(self):
        return self.active_bases[:BASES_SHOWN]

    @property
    def active_bases_more(self):
        return self.active_bases[BASES_SHOWN:]

    @property
    def opponent_bases_shown(self):
        return self.opponent_bases[:BASES_SHOWN]

    @property
    def opponent_bases_more(self):
        return self.opponent_bases[BASES_SHOWN:]

    @property
    def active_bases_open(self) -> bool:
        return any(row.open for row in self.active_bases_more)

    @property
    def opponent_bases_open(self) -> bool:
        return any(row.open for row in self.opponent_bases_more)

    @property
    def hand_more_open(self) -> bool:
        return any(f.value or f.errors for f in self.hand_more)

    @property
    def in_play_more_open(self) -> bool:
        return any(f.value or f.errors for f in self.in_play_more)

    @property
    def used_open(self) -> bool:
        return any(f.value or f.errors for f in self.used)

    @property
    def counts_open(self) -> bool:
        fields = (self.active_deck, self.active_discard_pile, self.active_drawn)
        return any(f.value or f.errors for f in fields)

    def body(self) -> dict:
        p = self.prefix
        active: dict = {}
        self._paths[f"{p}active"] = self.active_health
        if self.active_name.value:
            active["name"] = self.active_name.value
        self._paths[f"{p}active.name"] = self.active_name
        for field, key in ((self.active_health, "health"), (self.active_coins, "coins"),
                           (self.active_combat, "combat"), (self.active_deck, "deck"),
                           (self.active_discard_pile, "discard_pile"),
                           (self.active_drawn, "drawn")):
            self._number(field, f"{p}active.{key}", active, key)
        active["hand"] = self._names(self.hand, f"{p}active.hand")
        active["in_play"] = self._names(self.in_play, f"{p}active.in_play")
        active["bases"] = self._bases(self.active_bases, f"{p}active.bases")
        active["used"] = self._names(self.used, f"{p}active.used")
        opponent: dict = {}
        self._paths[f"{p}opponent"] = self.opponent_health
        if self.opponent_name.value:
            opponent["name"] = self.opponent_name.value
        self._paths[f"{p}opponent.name"] = self.opponent_name
        for field, key in ((self.opponent_health, "health"), (self.opponent_coins, "coins")):
            self._number(field, f"{p}opponent.{key}", opponent, key)
        opponent["bases"] = self._bases(self.opponent_bases, f"{p}opponent.bases")
        return {"active": active, "opponent": opponent,
                "shop_row": self._names(self.shop_row, f"{p}shop_row")}

    def _bases(self, rows: list[BaseRow], path: str) -> list[dict[str, Any]]:
        bases: list[dict[str, Any]] = []
        self._paths[path] = rows[0].card
        for row in rows:
            if not row.card.value:
                continue
            where = f"{path}[{len(bases)}]"
            self._paths[where] = row.card
            self._paths[f"{where}.card"] = row.card
            base: dict[str, Any] = {"card": row.card.value}
            self._number(row.damage, f"{where}.damage", base, "damage")
            if row.active:
                base["used"] = [a for a, f in ((engine.PRIMARY, row.primary),
                                               (engine.ALLY, row.ally)) if f.value]
                self._paths[f"{where}.used"] = row.primary
            bases.append(base)
        return bases


class ActionRow:
    def __init__(self, form: _Form, index: int, action: str = ""):
        self.n = index
        which = f"of action {index}" if index else ""
        self.action = Field(f"action_{index}", f"action-{index}", action,
                            f"Action {index}")
        self.card = Field(f"card_{index}", f"card-{index}", form.get(f"card_{index}"),
                          "Card", css_class="field--card for-card", label_hidden=which)
        self.target = Field(f"target_{index}", f"target-{index}", form.get(f"target_{index}"),
                            "Target", css_class="for-target", label_hidden=which,
                            hint="A base of the opponent, or health.")
        self.amount = Field(f"amount_{index}", f"amount-{index}", form.get(f"amount_{index}"),
                            "Combat used", css_class="for-target", label_hidden=which,
                            hint="Empty: what the target can take.")
        self.refill = Field(f"refill_{index}", f"refill-{index}", form.get(f"refill_{index}"),
                            "Refill (optional)", css_class="field--card for-refill",
                            label_hidden=which, hint="The card that refilled the shop row.")

    @property
    def fields(self) -> list[Field]:
        return [self.action, self.card, self.target, self.amount, self.refill]

    def move(self, form: _Form, path: str) -> dict:
        action = self.action.value
        form._paths[path] = self.action
        form._paths[f"{path}.action"] = self.action
        move: dict = {"action": action}
        for field, key, uses in ((self.card, "card", ("play", "use_base", "use_ally", "buy")),
                                 (self.refill, "refill", ("buy",)),
                                 (self.target, "target", ("attack",))):
            form._paths[f"{path}.{key}"] = field
            if action in uses and field.value:
                move[key] = field.value
        if action == engine.ATTACK:
            form._number(self.amount, f"{path}.amount", move, "amount")
        return move


class MoveForm(_Form):
    """The one move of "Check a move"."""

    def __init__(self, data=None):
        super().__init__(data)
        self.row = ActionRow(self, 0, self.get("action_0", engine.PLAY) or engine.PLAY)
        self.row.action.label = "What the player does"
        self.actions = ACTION_LABELS

    def body(self) -> dict:
        return self.row.move(self, "move")


class ActionsForm(_Form):
    """The turn's actions, in order: the filled rows."""

    def __init__(self, data=None):
        super().__init__(data)
        self.rows = [ActionRow(self, i, self.get(f"action_{i}"))
                     for i in range(1, ACTION_SLOTS + 1)]
        if not self.bound:
            self.rows[0].action.value = engine.PLAY
        self.actions = ACTION_LABELS

    @property
    def rows_shown(self) -> list[ActionRow]:
        return self.rows[:ACTIONS_SHOWN]

    @property
    def rows_more(self) -> list[ActionRow]:
        return self.rows[ACTIONS_SHOWN:]

    @property
    def more_open(self) -> bool:
        return any(f.value or f.errors for row in self.rows_more for f in row.fields)

    def body(self) -> list[dict[str, Any]]:
        moves: list[dict[str, Any]] = []
        self._paths["actions"] = self.rows[0].action
        for row in self.rows:
            if row.action.value:
                moves.append(row.move(self, f"actions[{len(moves)}]"))
        return moves


# --- Results, shaped for the templates ------------------------------------------------------------


# --- A saved request as the form's fields ("Check again" / "Score again" on /r/<id>) ----------


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _board_pairs(board: dict) -> list[tuple[str, str]]:
    """The board's fields for a saved position (the reverse of BoardForm.body)."""
    pairs: list[tuple[str, str]] = []
    for owner, keys in (("active", ("name", "health", "coins", "combat", "deck", "discard_pile",
                                    "drawn")),
                        ("opponent", ("name", "health", "coins"))):
        side = _dict(board.get(owner))
        pairs += [(f"{owner}_{key}", str(side[key])) for key in keys if side.get(key) is not None]
        if owner == "active":
            for key in ("hand", "in_play", "used"):
                cards = _list(side.get(key))
                pairs += [(key, str(card)) for card in cards]
        bases = _list(side.get("bases"))
        for index, base in enumerate(bases[:BASE_SLOTS], start=1):
            base = _dict(base)
            prefix = f"{owner}_base_{index}"
            pairs.append((prefix, str(base.get("card") or "")))
            if base.get("damage") is not None:
                pairs.append((f"{prefix}_damage", str(base["damage"])))
            used = _list(base.get("used"))
            pairs += [(f"{prefix}_{name}", "on") for name, used_as in
                      (("primary", engine.PRIMARY), ("ally", engine.ALLY)) if used_as in used]
    shop = _list(board.get("shop_row"))
    return pairs + [("shop_row", str(card)) for card in shop]


def _move_pairs(move: dict, index: int) -> list[tuple[str, str]]:
    return [(f"{key}_{index}", str(move[key])) for key in ("action", "card", "target", "amount",
                                                            "refill")
            if move.get(key) is not None]


def check_link_pairs(game: Game, body: dict) -> list[tuple[str, str]]:
    """Check a move's fields for a saved ruling request."""
    return _board_pairs(_dict(body.get("position"))) + _move_pairs(_dict(body.get("move")), 0)


def turn_link_pairs(game: Game, body: dict) -> list[tuple[str, str]]:
    """Break down a turn's fields for a saved score request."""
    actions = _list(body.get("actions"))
    pairs = _board_pairs(body)
    for index, move in enumerate(actions[:ACTION_SLOTS], start=1):
        pairs += _move_pairs(_dict(move), index)
    return pairs


def describe_move(move: dict) -> str:
    """A move as a short sentence."""
    action = move.get("action")
    card = move.get("card")
    if action == engine.PLAY:
        return f"Play {card}"
    if action == engine.USE_BASE:
        return f"Use {card}'s primary"
    if action == engine.USE_ALLY:
        return f"Use {card}'s Ally ability"
    if action == engine.BUY:
        refill = move.get("refill")
        return f"Buy {card}" + (f" ({refill} refills the row)" if refill else "")
    if action == engine.ATTACK:
        target = move.get("target")
        amount = move.get("amount")
        what = f" with {amount} Combat" if amount is not None else ""
        return f"Attack {'Health' if target == engine.HEALTH_TARGET else target}{what}"
    if action == engine.END_TURN:
        return "End the turn"
    return str(action)


def _bases_text(bases: list[dict], owner: str) -> list[str]:
    return [f"{b['card']}, {b['damage']} of {b['defense'] if b['defense'] is not None else '?'}"
            for b in bases if b.get("owner") == owner]


def ruling_context(game: Game, body: dict) -> dict:
    """A ruling body with what the template needs: the shared shape of results.views, plus the
    missing values with their links, the moves as sentences and the board after the move."""
    view = ruling_view(game, body)
    view["alternative_moves"] = [describe_move(m) for m in body.get("alternatives") or []]
    view["missing_items"] = body.get("missing") or []
    outcome = body.get("outcome")
    if isinstance(outcome, dict):
        position = outcome.get("position") or {}
        view["board"] = {
            "active": (position.get("active") or {}).get("name", ""),
            "opponent": (position.get("opponent") or {}).get("name", ""),
            "coins": outcome.get("coins"),
            "combat": outcome.get("combat"),
            "health": outcome.get("health"),
            "opponent_health": outcome.get("opponent_health"),
            "draws": outcome.get("draws"),
            "own_bases": _bases_text(outcome.get("bases") or [], "active"),
            "their_bases": _bases_text(outcome.get("bases") or [], "opponent"),
            "hand": (position.get("active") or {}).get("hand", []),
            "drawn": (position.get("active") or {}).get("drawn", 0),
            "in_play": (position.get("active") or {}).get("in_play", []),
            "shop_row": position.get("shop_row", []),
            "shop_row_unknown": outcome.get("shop_row_unknown", 0),
            "winner": outcome.get("winner"),
            "turn_over": outcome.get("turn_over"),
            "destroyed": outcome.get("destroyed") or [],
            "to_discard_pile": outcome.get("to_discard_pile") or [],
        }
    return view


def breakdown_context(game: Game, body: dict) -> dict:
    steps = []
    links = {check["rule"]: check.get("link") for check in ruling_view(
        game, {"checks": [{"rule": s.get("rule")} for s in body.get("steps") or []]})["checks"]}
    for step in body.get("steps") or []:
        label, symbol = VERDICTS.get(step["verdict"], (step["verdict"], "•"))
        steps.append({
            **step,
            "move": describe_move(step.get("action") or {}),
            "verdict_label": label,
            "verdict_symbol": symbol,
            "link": links.get(step.get("rule")),
            "their_bases": _bases_text(step.get("bases") or [], "opponent"),
        })
    ruling = body.get("ruling")
    final = body.get("final") or {}
    return {
        "body": body,
        "steps": steps,
        "start": body.get("start") or {},
        "start_bases": _bases_text((body.get("start") or {}).get("bases") or [], "opponent"),
        "total": body.get("total"),
        "winner": body.get("winner"),
        "turn_over": body.get("turn_over"),
        "warnings": body.get("warnings") or [],
        "stopped_at": body.get("stopped_at"),
        "stopped_n": (body["stopped_at"] + 1) if body.get("stopped_at") is not None else None,
        "ruling": ruling_context(game, ruling) if isinstance(ruling, dict) else None,
        "active": (final.get("active") or {}).get("name", ""),
        "opponent": (final.get("opponent") or {}).get("name", ""),
        "final": final,
    }
