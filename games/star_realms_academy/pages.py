"""The pages of Star Realms Academy: "Check a move" and "Break down a turn".

Both set up the same board (each player's Health, Coins and bases with their damage; the active
player's hand, ships in play, combat pool and abilities used; the shop row), then take one move or
the turn's list of actions. Each page is the shared page of a job (games.pages.job_page): the
form is turned into the API's request body and handed to the very service the API calls (from
GAMES), so no rule is checked here. An htmx submit gets the result fragment; a plain POST (no JavaScript) gets the whole
page again, with the values kept and each problem next to its field. Missing card values are shown
with a link to the card's admin page, where an admin fills them in.
"""

from __future__ import annotations

from typing import Any

from django.http import QueryDict

from cards.models import Game
from games.pages import job_page
from games.star_realms_academy import engine
from results import contexts as results_contexts
from results.contexts import VERDICTS
from web.page_fields import FormField as Field
from web.page_forms import PageForm, Slots, as_dict, as_list

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

ACTION_LABELS = [
    (engine.PLAY, "Play a card from the hand"),
    (engine.USE_BASE, "Use a base's primary ability"),
    (engine.USE_ALLY, "Use an Ally ability"),
    (engine.BUY, "Buy from the shop row"),
    (engine.ATTACK, "Attack"),
    (engine.END_TURN, "End the turn"),
]


# --- What only the whole page needs ------------------------------------------------------------


def page_context(game: Game) -> dict[str, Any]:
    """`card_options`: the catalog's cards for the <datalist>s, with what is known of each (one
    query)."""
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
        options.append(
            {"name": name, "label": " · ".join(p for p in parts if p), "base": kind == engine.BASE}
        )
    return {"card_options": options}


# --- Forms --------------------------------------------------------------------------------------


class BaseRow:
    def __init__(self, form: PageForm, owner: str, index: int, *, active: bool):
        prefix = f"{owner}_base_{index}"
        whose = "" if active else "Opponent's "
        self.card = Field(
            prefix,
            f"{owner}-base-{index}",
            form.text(prefix),
            f"{whose}Base {index}" if active else f"{whose}base {index}",
            css_class="field--card",
        )
        self.damage = Field(
            f"{prefix}_damage",
            f"{owner}-base-{index}-damage",
            form.text(f"{prefix}_damage"),
            "Damage",
            label_hidden=f"on {whose.lower()}base {index}",
        )
        self.active = active
        if active:
            self.primary = Field(
                f"{prefix}_primary",
                f"{owner}-base-{index}-primary",
                form.text(f"{prefix}_primary"),
                "Primary used",
                label_hidden=f"this turn (base {index})",
            )
            self.ally = Field(
                f"{prefix}_ally",
                f"{owner}-base-{index}-ally",
                form.text(f"{prefix}_ally"),
                "Ally used",
                label_hidden=f"this turn (base {index})",
            )

    @property
    def has_content(self) -> bool:
        return bool(self.card.value or self.card.errors or self.damage.errors)


def _cards(form: PageForm, name: str, slots: int, label: str, shown: int | None = None) -> Slots:
    """A list of card slots sharing one field name ("hand"), ids hand-1, hand-2, …"""
    fields = [
        Field(name, f"{name.replace('_', '-')}-{i}", value, f"{label} {i}", css_class="field--card")
        for i, value in enumerate(form.texts(name, slots), start=1)
    ]
    return Slots(fields, slots if shown is None else shown)


class BoardForm(PageForm):
    """Both players' boards and the shop row: the position of API.md, at `prefix`."""

    prefix = ""

    def __init__(self, game: Game, data: QueryDict | None = None) -> None:
        super().__init__(data)
        text = self.text
        self.active_name = Field(
            "active_name", "active-name", text("active_name"), "Name", placeholder="Active player"
        )
        self.active_health = Field(
            "active_health", "active-health", text("active_health", "15"), "Health"
        )
        self.active_coins = Field(
            "active_coins", "active-coins", text("active_coins", "0"), "Coins"
        )
        self.active_combat = Field(
            "active_combat", "active-combat", text("active_combat", "0"), "Combat pool"
        )
        self.active_deck = Field(
            "active_deck",
            "active-deck",
            text("active_deck"),
            "Cards in the deck",
            hint="Leave empty if not counted.",
        )
        self.active_discard_pile = Field(
            "active_discard_pile",
            "active-discard-pile",
            text("active_discard_pile"),
            "Cards in the discard pile",
            hint="Leave empty if not counted.",
        )
        self.active_drawn = Field(
            "active_drawn",
            "active-drawn",
            text("active_drawn"),
            "Unnamed cards drawn into the hand",
            hint="Cards drawn this turn that you do not name above.",
        )
        self.hand = _cards(self, "hand", HAND_SLOTS, "Hand card", HAND_SHOWN)
        self.in_play = _cards(self, "in_play", IN_PLAY_SLOTS, "Ship in play", IN_PLAY_SHOWN)
        self.used = _cards(self, "used", USED_SLOTS, "Ally used", 0)
        self.active_bases = Slots(
            [BaseRow(self, "active", i, active=True) for i in range(1, BASE_SLOTS + 1)], BASES_SHOWN
        )
        self.opponent_name = Field(
            "opponent_name",
            "opponent-name",
            text("opponent_name"),
            "Opponent's name",
            placeholder="Opponent",
        )
        self.opponent_health = Field(
            "opponent_health", "opponent-health", text("opponent_health", "15"), "Opponent's Health"
        )
        self.opponent_coins = Field(
            "opponent_coins", "opponent-coins", text("opponent_coins", "0"), "Opponent's Coins"
        )
        self.opponent_bases = Slots(
            [BaseRow(self, "opponent", i, active=False) for i in range(1, BASE_SLOTS + 1)],
            BASES_SHOWN,
        )
        self.shop_row = _cards(self, "shop_row", SHOP_ROW_SLOTS, "Shop card")
        # The counts of the active player's cards sit in a <details> too.
        self.counts = Slots([self.active_deck, self.active_discard_pile, self.active_drawn], 0)

    @property
    def known_open(self) -> bool:
        """At a table the fields the table fills in are folded away (issue 29): they open when
        one of them has a problem, so it shows by its field."""
        fields = [
            self.active_name,
            self.active_health,
            self.active_coins,
            self.active_combat,
            *self.counts,
            *self.in_play,
            *self.used,
            self.opponent_name,
            self.opponent_health,
            self.opponent_coins,
        ]
        for row in [*self.active_bases, *self.opponent_bases]:
            fields += [row.card, row.damage]
        return any(field.errors for field in fields)

    def board(self) -> dict[str, Any]:
        p = self.prefix
        active: dict[str, Any] = {}
        self.paths[f"{p}active"] = self.active_health
        if self.active_name.value:
            active["name"] = self.active_name.value
        self.paths[f"{p}active.name"] = self.active_name
        for field, key in (
            (self.active_health, "health"),
            (self.active_coins, "coins"),
            (self.active_combat, "combat"),
            (self.active_deck, "deck"),
            (self.active_discard_pile, "discard_pile"),
            (self.active_drawn, "drawn"),
        ):
            self.number(field, f"{p}active.{key}", active, key)
        active["hand"] = self.names(self.hand, f"{p}active.hand")
        active["in_play"] = self.names(self.in_play, f"{p}active.in_play")
        active["bases"] = self._bases(self.active_bases, f"{p}active.bases")
        active["used"] = self.names(self.used, f"{p}active.used")
        opponent: dict[str, Any] = {}
        self.paths[f"{p}opponent"] = self.opponent_health
        if self.opponent_name.value:
            opponent["name"] = self.opponent_name.value
        self.paths[f"{p}opponent.name"] = self.opponent_name
        for field, key in ((self.opponent_health, "health"), (self.opponent_coins, "coins")):
            self.number(field, f"{p}opponent.{key}", opponent, key)
        opponent["bases"] = self._bases(self.opponent_bases, f"{p}opponent.bases")
        return {
            "active": active,
            "opponent": opponent,
            "shop_row": self.names(self.shop_row, f"{p}shop_row"),
        }

    def _bases(self, rows: list[BaseRow], path: str) -> list[dict[str, Any]]:
        bases: list[dict[str, Any]] = []
        self.paths[path] = rows[0].card
        for row in rows:
            if not row.card.value:
                continue
            where = f"{path}[{len(bases)}]"
            self.paths[where] = row.card
            self.paths[f"{where}.card"] = row.card
            base: dict[str, Any] = {"card": row.card.value}
            self.number(row.damage, f"{where}.damage", base, "damage")
            if row.active:
                base["used"] = [
                    a
                    for a, f in ((engine.PRIMARY, row.primary), (engine.ALLY, row.ally))
                    if f.value
                ]
                self.paths[f"{where}.used"] = row.primary
            bases.append(base)
        return bases


HEALTH_WORDS = (
    "health",
    "opponent",
    "the opponent",
    "their health",
    "opponent's health",
    "the opponent's health",
    "authority",
)


def health_target(typed: str, opponent_name: Field | None) -> str:
    """An attack's target as a player types it: "health", "their Health", "the opponent", the
    opponent's name or "<name>'s Health" all mean the opponent (the API's word `health`); any
    other text is a base's name, for the service to find."""
    said = " ".join(typed.casefold().replace("’", "'").split()).rstrip(".")
    name = " ".join((opponent_name.value if opponent_name else "").casefold().split())
    names = {name, f"{name}'s health", f"{name}s health", f"{name} health"} if name else set()
    return "health" if said in HEALTH_WORDS or said in names else typed


class ActionRow:
    def __init__(self, form: PageForm, index: int, action: str = ""):
        self.n = index
        which = f"of action {index}" if index else ""
        self.action = Field(f"action_{index}", f"action-{index}", action, f"Action {index}")
        self.card = Field(
            f"card_{index}",
            f"card-{index}",
            form.text(f"card_{index}"),
            "Card",
            css_class="field--card for-card",
            label_hidden=which,
        )
        self.target = Field(
            f"target_{index}",
            f"target-{index}",
            form.text(f"target_{index}"),
            "Target",
            css_class="for-target",
            label_hidden=which,
            hint="A base of the opponent, or their Health (or their name).",
        )
        self.amount = Field(
            f"amount_{index}",
            f"amount-{index}",
            form.text(f"amount_{index}"),
            "Combat used",
            css_class="for-target",
            label_hidden=which,
            hint="Empty: what the target can take.",
        )
        self.refill = Field(
            f"refill_{index}",
            f"refill-{index}",
            form.text(f"refill_{index}"),
            "Refill (optional)",
            css_class="field--card for-refill",
            label_hidden=which,
            hint="The card that refilled the shop row.",
        )

    @property
    def has_content(self) -> bool:
        return any(
            f.value or f.errors
            for f in (self.action, self.card, self.target, self.amount, self.refill)
        )

    def move(self, form: PageForm, path: str) -> dict[str, Any]:
        action = self.action.value
        form.paths[path] = self.action
        form.paths[f"{path}.action"] = self.action
        move: dict[str, Any] = {"action": action}
        for field, key, uses in (
            (self.card, "card", ("play", "use_base", "use_ally", "buy")),
            (self.refill, "refill", ("buy",)),
            (self.target, "target", ("attack",)),
        ):
            form.paths[f"{path}.{key}"] = field
            if action in uses and field.value:
                move[key] = (
                    health_target(field.value, getattr(form, "opponent_name", None))
                    if key == "target"
                    else field.value
                )
        if action == engine.ATTACK:
            form.number(self.amount, f"{path}.amount", move, "amount")
        return move


class CheckForm(BoardForm):
    """ "Check a move": the board in the middle of a turn and the one move."""

    prefix = "position."

    def __init__(self, game: Game, data: QueryDict | None = None) -> None:
        super().__init__(game, data)
        self.row = ActionRow(self, 0, self.text("action_0", engine.PLAY) or engine.PLAY)
        self.row.action.label = "What the player does"
        self.actions = ACTION_LABELS

    def body(self) -> dict[str, Any]:
        return {"position": self.board(), "move": self.row.move(self, "move")}


class TurnForm(BoardForm):
    """ "Break down a turn": the board at the start of the turn and its actions, in order (the
    filled rows)."""

    def __init__(self, game: Game, data: QueryDict | None = None) -> None:
        super().__init__(game, data)
        self.rows = Slots(
            [ActionRow(self, i, self.text(f"action_{i}")) for i in range(1, ACTION_SLOTS + 1)],
            ACTIONS_SHOWN,
        )
        if not self.bound:
            self.rows[0].action.value = engine.PLAY
        self.actions = ACTION_LABELS

    def body(self) -> dict[str, Any]:
        moves: list[dict[str, Any]] = []
        self.paths["actions"] = self.rows[0].action
        for row in self.rows:
            if row.action.value:
                moves.append(row.move(self, f"actions[{len(moves)}]"))
        return {**self.board(), "actions": moves}


# --- The pages ----------------------------------------------------------------------------------


ruling_page = job_page(
    slug=GAME,
    kind="ruling",
    form=CheckForm,
    page_context=page_context,
    page="star_realms_academy/ruling.html",
)
score_page = job_page(
    slug=GAME,
    kind="score",
    form=TurnForm,
    page_context=page_context,
    page="star_realms_academy/score.html",
)


# --- A saved request as the form's fields ("Check again" / "Score again" on /r/<id>) ----------


def _board_pairs(board: dict[str, Any]) -> list[tuple[str, str]]:
    """The board's fields for a saved position (the reverse of BoardForm.board)."""
    pairs: list[tuple[str, str]] = []
    for owner, keys in (
        ("active", ("name", "health", "coins", "combat", "deck", "discard_pile", "drawn")),
        ("opponent", ("name", "health", "coins")),
    ):
        side = as_dict(board.get(owner))
        pairs += [(f"{owner}_{key}", str(side[key])) for key in keys if side.get(key) is not None]
        if owner == "active":
            for key in ("hand", "in_play", "used"):
                cards = as_list(side.get(key))
                pairs += [(key, str(card)) for card in cards]
        bases = as_list(side.get("bases"))
        for index, base in enumerate(bases[:BASE_SLOTS], start=1):
            base = as_dict(base)
            prefix = f"{owner}_base_{index}"
            pairs.append((prefix, str(base.get("card") or "")))
            if base.get("damage") is not None:
                pairs.append((f"{prefix}_damage", str(base["damage"])))
            used = as_list(base.get("used"))
            pairs += [
                (f"{prefix}_{name}", "on")
                for name, used_as in (("primary", engine.PRIMARY), ("ally", engine.ALLY))
                if used_as in used
            ]
    shop = as_list(board.get("shop_row"))
    return pairs + [("shop_row", str(card)) for card in shop]


def _move_pairs(move: dict[str, Any], index: int) -> list[tuple[str, str]]:
    return [
        (f"{key}_{index}", str(move[key]))
        for key in ("action", "card", "target", "amount", "refill")
        if move.get(key) is not None
    ]


def check_link_pairs(game: Game, body: dict[str, Any]) -> list[tuple[str, str]]:
    """Check a move's fields for a saved ruling request."""
    return _board_pairs(as_dict(body.get("position"))) + _move_pairs(as_dict(body.get("move")), 0)


def turn_link_pairs(game: Game, body: dict[str, Any]) -> list[tuple[str, str]]:
    """Break down a turn's fields for a saved score request."""
    actions = as_list(body.get("actions"))
    pairs = _board_pairs(body)
    for index, move in enumerate(actions[:ACTION_SLOTS], start=1):
        pairs += _move_pairs(as_dict(move), index)
    return pairs


def describe_move(move: dict[str, Any]) -> str:
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


def _bases_text(bases: list[dict[str, Any]], owner: str) -> list[str]:
    return [
        f"{b['card']}, {b['damage']} of {b['defense'] if b['defense'] is not None else '?'}"
        for b in bases
        if b.get("owner") == owner
    ]


def drawn_text(value: object) -> str:
    """A count of cards drawn as a player reads it: "3", or "up to 3" / "1 to 3" where the
    position leaves the number to the deck and discard pile counts (SRA-R9)."""
    if isinstance(value, dict):
        least, most = value.get("at_least", 0), value.get("at_most")
        return f"up to {most}" if not least else f"{least} to {most}"
    return "" if value is None else str(value)


def _unnamed_drawn(value: object) -> str:
    """The hand's note on cards drawn and not named: "2 drawn cards not named"."""
    if isinstance(value, dict):
        return (
            f"{drawn_text(value)} drawn cards not named (the deck and discard pile counts "
            f"decide how many)"
        )
    if isinstance(value, int) and value:
        return f"{value} drawn card{'' if value == 1 else 's'} not named"
    return ""


def ruling_context(game: Game, body: dict[str, Any]) -> dict[str, Any]:
    """A ruling body with what the template needs: the shared shape of results.contexts, plus
    the missing values with their links, the moves as sentences and the board after the move."""
    view = results_contexts.ruling_context(game, body)
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
            "draws": drawn_text(outcome.get("draws")),
            "own_bases": _bases_text(outcome.get("bases") or [], "active"),
            "their_bases": _bases_text(outcome.get("bases") or [], "opponent"),
            "hand": (position.get("active") or {}).get("hand", []),
            "drawn": _unnamed_drawn((position.get("active") or {}).get("drawn", 0)),
            "in_play": (position.get("active") or {}).get("in_play", []),
            "shop_row": position.get("shop_row", []),
            "shop_row_unknown": outcome.get("shop_row_unknown", 0),
            "winner": outcome.get("winner"),
            "turn_over": outcome.get("turn_over"),
            "destroyed": outcome.get("destroyed") or [],
            "to_discard_pile": outcome.get("to_discard_pile") or [],
        }
    return view


def breakdown_context(game: Game, body: dict[str, Any]) -> dict[str, Any]:
    steps = []
    links = {
        check["rule"]: check.get("link")
        for check in results_contexts.ruling_context(
            game, {"checks": [{"rule": s.get("rule")} for s in body.get("steps") or []]}
        )["checks"]
    }
    for step in body.get("steps") or []:
        label, symbol = VERDICTS.get(step["verdict"], (step["verdict"], "•"))
        steps.append(
            {
                **step,
                "move": describe_move(step.get("action") or {}),
                "verdict_label": label,
                "verdict_symbol": symbol,
                "link": links.get(step.get("rule")),
                "their_bases": _bases_text(step.get("bases") or [], "opponent"),
                "draws": drawn_text(step.get("draws")),
            }
        )
    ruling = body.get("ruling")
    final = body.get("final") or {}
    return {
        "body": body,
        "steps": steps,
        "start": {
            **(body.get("start") or {}),
            "draws": drawn_text((body.get("start") or {}).get("draws")),
        },
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
