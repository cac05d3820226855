"""The Factions pages: "Check a move" (a ruling) and "Standings" (the table as it stands).

Both pages set up the table the same way: the players in seat order (a name, their own faction,
and on the check-a-move page their lost turns and hand), then every faction of the catalog with
who controls it (or nobody: not in play) and which of its units are defeated. Faction, unit and
card names all come from the catalog (the "faction" attribute's choices and the unit and action
cards), so an admin's renaming shows here at once; sample names are marked provisional.

The form is turned into the API's request body and handed to the very services the API calls
(games.factions.rulings via the registry, games.factions.scores): no rule is checked
here. An htmx submit gets the result fragment (and, when there are problems, the form again out
of band, each problem by its field); a plain POST gets the whole page with the values kept.
Every field has a name of its own (site.js drops empty fields from htmx requests).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from cards.models import Game
from cards.selectors import GameNotFound, clean_text, game_get
from common.page_fields import FormField
from common.page_results import (
    evaluate_on_page,
    form_errors,
    page_input,
    problem_message,
    render_result_page,
)
from games.factions import engine, rulings, scores
from results.views import ruling_view, score_view

GAME = "factions"
HAND_SHOWN = 7  # hand slots shown; the rest sit in a <details>
HAND_SLOTS = 12
SEP = "@"  # joins two slugs in one option value ("attack@amber-coast")
MIN_SEATS = 2
ACTION_LABELS = [
    (engine.PLAY, "Play a card"),
    (engine.DEFEND, "Defend (answer the attack with DEFENCE)"),
    (engine.DISCARD, "Discard a card"),
    (engine.PASS, "Pass (or let the attack through)"),
    (engine.END_TURN, "End the turn"),
]


# --- The catalog, for the page ---------------------------------------------------------------------


@dataclass
class PageUnit:
    name: str
    slug: str
    provisional: bool


@dataclass
class PageFaction:
    slug: str
    label: str
    units: list[PageUnit]
    provisional: bool


@dataclass
class PageCard:
    name: str
    slug: str
    action: str | None


class PageCatalog:
    """The game's factions, units and action cards for the forms (two queries)."""

    def __init__(self, game: Game):
        self.game = game
        definitions = {d.key: d for d in game.attribute_definitions.all()}
        faction_choices = _choices(definitions.get("faction"))
        action_order = [value for value, _label in _choices(definitions.get("action"))]
        units: dict[str, list[PageUnit]] = {value: [] for value, _label in faction_choices}
        cards: list[PageCard] = []
        for card in game.cards.order_by("name"):
            attributes = card.attributes or {}
            if attributes.get("kind") == "unit" and attributes.get("faction"):
                provisional = card.provenance != "verified"
                units.setdefault(attributes["faction"], []).append(
                    PageUnit(card.name, card.slug, provisional))
            elif attributes.get("kind") == "action":
                cards.append(PageCard(card.name, card.slug, attributes.get("action")))
        labels = dict(faction_choices)
        self.factions = [
            PageFaction(slug, labels.get(slug, slug), members,
                        any(unit.provisional for unit in members))
            for slug, members in units.items()
        ]
        # Keyed by str | None: a card whose action the catalog does not give sorts last.
        rank: dict[str | None, int] = {action: index for index, action in enumerate(action_order)}
        self.cards = sorted(cards, key=lambda c: (rank.get(c.action, len(rank)), c.name))
        self.by_slug = {f.slug: f for f in self.factions}

    @property
    def seats(self) -> int:
        return max(len(self.factions), MIN_SEATS)

    def card_groups(self, only: tuple[str, ...] | None = None) -> list[tuple[str, list]]:
        """<optgroup>s of action cards, one per faction: (label, [(value, text)])."""
        return [
            (faction.label, [(f"{card.slug}{SEP}{faction.slug}", f"{card.name} ({faction.label})")
                             for card in self.cards if only is None or card.action in only])
            for faction in self.factions
        ]

    def unit_groups(self) -> list[tuple[str, list]]:
        return [(faction.label, [(f"{faction.slug}{SEP}{unit.slug}", unit.name)
                                 for unit in faction.units])
                for faction in self.factions]

    def card_ref(self, value: str) -> dict | None:
        card, _, faction = value.partition(SEP)
        if not card or not faction:
            return None
        return {"card": card, "faction": faction}

    def unit_ref(self, value: str) -> dict | None:
        faction, _, unit = value.partition(SEP)
        if not faction or not unit:
            return None
        return {"faction": faction, "unit": unit}

    def card_text(self, ref: dict) -> str:
        card = next((c.name for c in self.cards if c.slug == ref.get("card")
                     or c.name == ref.get("card")), ref.get("card"))
        return f"{card} ({self.faction_label(ref.get('faction'))})"

    def unit_text(self, ref: dict) -> str:
        return f"{ref.get('unit')} ({self.faction_label(ref.get('faction'))})"

    def faction_label(self, slug) -> str:
        faction = self.by_slug.get(slug)
        return faction.label if faction else str(slug)


def _choices(definition) -> list[tuple[str, str]]:
    if definition is None:
        return []
    return [(c["value"], c.get("label") or c["value"]) for c in definition.choices or []
            if isinstance(c, dict) and c.get("value")]


# --- The form ---------------------------------------------------------------------------------------


def Field(name: str, value: str = "", label: str = "", css_class: str = "") -> FormField:  # noqa: N802
    """A field of these pages, whose id is its name."""
    return FormField(name, name, value, label, css_class)


class Seat:
    def __init__(self, index: int, data, *, with_hands: bool):
        self.index = index
        prefix = f"p{index}"
        self.placeholder = f"Player {index}"
        self.name = Field(f"{prefix}-name", clean_text(data.get(f"{prefix}-name")),
                          f"Player {index}'s name")
        self.own = Field(f"{prefix}-own", clean_text(data.get(f"{prefix}-own")), "Own faction")
        self.lost = Field(f"{prefix}-lost", clean_text(data.get(f"{prefix}-lost")),
                          "Lost turns to come")
        self.hand = [
            Field(f"{prefix}-hand-{slot}", clean_text(data.get(f"{prefix}-hand-{slot}")),
                  f"Player {index}, card {slot}")
            for slot in range(1, HAND_SLOTS + 1)
        ] if with_hands else []

    @property
    def display_name(self) -> str:
        return self.name.value or self.placeholder

    @property
    def hand_shown(self) -> list[FormField]:
        return self.hand[:HAND_SHOWN]

    @property
    def hand_more(self) -> list[FormField]:
        return self.hand[HAND_SHOWN:]

    @property
    def more_open(self) -> bool:
        return any(f.value or f.errors for f in self.hand_more)

    @property
    def has_data(self) -> bool:
        return bool(self.name.value or self.own.value or (self.lost.value not in ("", "0"))
                    or any(f.value for f in self.hand))

    @property
    def has_errors(self) -> bool:
        return any(f.errors for f in (self.name, self.own, self.lost, *self.hand))


class FactionBlock:
    def __init__(self, faction: PageFaction, data, *, initial_seat: str = ""):
        self.faction = faction
        prefix = f"f-{faction.slug}"
        value = clean_text(data.get(f"{prefix}-controller")) if data else initial_seat
        self.controller = Field(f"{prefix}-controller", value, "Controlled by")
        self.units = [
            (unit, Field(f"{prefix}-{unit.slug}-defeated",
                         "on" if data and data.get(f"{prefix}-{unit.slug}-defeated") else "",
                         unit.name))
            for unit in faction.units
        ]

    @property
    def id(self) -> str:
        return f"faction-{self.faction.slug}"


@dataclass
class TableForm:
    """The table (seats and factions) and, for a ruling, the turn, a pending attack and the move."""

    catalog: PageCatalog
    data: Mapping[str, Any] | None = None
    with_move: bool = True
    seats: list[Seat] = field(init=False)
    blocks: list[FactionBlock] = field(init=False)

    def __post_init__(self) -> None:
        posted = self.data is not None
        data: Mapping[str, Any] = self.data if self.data is not None else {}
        self.posted = posted
        self.seats = [Seat(i, data, with_hands=self.with_move)
                      for i in range(1, self.catalog.seats + 1)]
        self.blocks = [FactionBlock(f, data if posted else None,
                                    initial_seat=str(i + 1) if i < MIN_SEATS else "")
                       for i, f in enumerate(self.catalog.factions)]
        self.turn = Field("turn", clean_text(data.get("turn")) or "1", "Whose turn it is")
        self.turn_lost = Field("turn_lost", "on" if data.get("turn_lost") else "")
        self.pending_card = Field("pending_card", clean_text(data.get("pending_card")),
                                  "The ATTACK or AMBUSH played")
        self.pending_target = Field("pending_target", clean_text(data.get("pending_target")),
                                    "The unit it targets")
        self.action = Field("action", clean_text(data.get("action")) or engine.PLAY,
                            "What the player does")
        self.card = Field("card", clean_text(data.get("card")), "The card", "for-card")
        self.target_player = Field("target_player", clean_text(data.get("target_player")),
                                   "Target player (SPY, SACK, SABOTAGE)", "for-play")
        self.target_unit = Field("target_unit", clean_text(data.get("target_unit")),
                                 "Target unit (ATTACK, AMBUSH, DOCTOR)", "for-play")
        self.actions = ACTION_LABELS
        self._paths: dict[str, FormField] = {}

    # Seats beyond the first two sit in a <details>, open once one is used.
    @property
    def seats_shown(self) -> list[Seat]:
        return self.seats[:MIN_SEATS]

    @property
    def seats_more(self) -> list[Seat]:
        return self.seats[MIN_SEATS:]

    @property
    def seats_more_range(self) -> str:
        more = self.seats_more
        return (f"{more[0].index} to {more[-1].index}" if len(more) > 1
                else str(more[0].index) if more else "")

    @property
    def more_seats_open(self) -> bool:
        used = {block.controller.value for block in self.blocks}
        used |= {self.turn.value, self.target_player.value} if self.with_move else set()
        return any(seat.has_data or seat.has_errors or str(seat.index) in used
                   for seat in self.seats_more)

    # Options for the selects.
    @property
    def seat_options(self) -> list[tuple[str, str]]:
        return [(str(seat.index), seat.display_name) for seat in self.seats]

    @property
    def faction_options(self) -> list[tuple[str, str]]:
        return [(f.slug, f.label) for f in self.catalog.factions]

    @property
    def card_groups(self):
        return self.catalog.card_groups()

    @property
    def attack_groups(self):
        return self.catalog.card_groups(only=engine.ATTACKS)

    @property
    def unit_groups(self):
        return self.catalog.unit_groups()

    @property
    def pending_open(self) -> bool:
        return bool(self.pending_card.value or self.pending_target.value
                    or self.pending_card.errors or self.pending_target.errors)

    def _seat(self, value: str) -> Seat | None:
        return next((seat for seat in self.seats if str(seat.index) == value), None)

    # The request body.
    def body(self) -> dict:
        """The API request body: for a ruling {"position", "move"}; for the standings the
        position itself."""
        controlled = {block.faction.slug: self._seat(block.controller.value)
                      for block in self.blocks}
        in_use = [seat for seat in self.seats
                  if seat.has_data or seat in controlled.values()
                  or (self.with_move and str(seat.index) == self.turn.value)]
        prefix = "position." if self.with_move else ""
        players = []
        for k, seat in enumerate(in_use):
            path = f"{prefix}players[{k}]"
            self._paths[f"{path}.name"] = seat.name
            entry: dict = {"name": seat.display_name}
            if self.with_move:
                hand: list[dict[str, Any]] = []
                self._paths[f"{path}.hand"] = seat.hand[0]
                for slot in seat.hand:
                    ref = self.catalog.card_ref(slot.value)
                    if ref is not None:
                        self._paths[f"{path}.hand[{len(hand)}]"] = slot
                        self._paths[f"{path}.hand[{len(hand)}].card"] = slot
                        self._paths[f"{path}.hand[{len(hand)}].faction"] = slot
                        hand.append(ref)
                entry["hand"] = hand
                self._paths[f"{path}.lost_turns"] = seat.lost
                lost = seat.lost.value
                entry["lost_turns"] = int(lost) if re.fullmatch(r"\d{1,4}", lost) else (
                    lost or 0)
            if seat.own.value:
                self._paths[f"{path}.faction"] = seat.own
                entry["faction"] = seat.own.value
            players.append(entry)
        factions: list[dict[str, Any]] = []
        for block in self.blocks:
            controller = controlled[block.faction.slug]
            if controller is None:
                continue
            path = f"{prefix}factions[{len(factions)}]"
            if not factions:
                self._paths[f"{prefix}factions"] = block.controller
            for key in ("", ".name", ".controller", ".units"):
                self._paths[path + key] = block.controller
            units = []
            for index, (unit, box) in enumerate(block.units):
                self._paths[f"{path}.units[{index}]"] = box
                units.append({"name": unit.name, "alive": not box.checked})
            factions.append({"name": block.faction.slug, "controller": controller.display_name,
                             "units": units})
        position: dict = {"factions": factions, "players": players}
        self._paths[f"{prefix}players"] = self.seats[0].name
        if not self.with_move:
            return position
        turn = self._seat(self.turn.value)
        self._paths["position.turn"] = self.turn
        self._paths["position"] = self.turn
        position["turn"] = turn.display_name if turn else self.turn.value
        if self.turn_lost.value:
            position["turn_lost"] = True
            self._paths["position.turn_lost"] = self.turn_lost
        if self.pending_card.value or self.pending_target.value:
            pending: dict = {"by": position["turn"]}
            for key in ("position.pending", "position.pending.card", "position.pending.card.card",
                        "position.pending.card.faction", "position.pending.by"):
                self._paths[key] = self.pending_card
            for key in ("position.pending.target_unit", "position.pending.target_unit.unit",
                        "position.pending.target_unit.faction"):
                self._paths[key] = self.pending_target
            card = self.catalog.card_ref(self.pending_card.value)
            if card:
                pending["card"] = card
            target = self.catalog.unit_ref(self.pending_target.value)
            if target:
                pending["target_unit"] = target
            position["pending"] = pending
        return {"position": position, "move": self._move()}

    def _move(self) -> dict:
        action = self.action.value
        self._paths["move.action"] = self.action
        move: dict = {"action": action}
        for key in ("move.card", "move.card.card", "move.card.faction"):
            self._paths[key] = self.card
        for key in ("move.target_unit", "move.target_unit.unit", "move.target_unit.faction"):
            self._paths[key] = self.target_unit
        self._paths["move.target_player"] = self.target_player
        if action in engine.CARD_ACTIONS:
            card = self.catalog.card_ref(self.card.value)
            if card:
                move["card"] = card
        if action == engine.PLAY:
            seat = self._seat(self.target_player.value)
            if seat is not None:
                move["target_player"] = seat.display_name
            target = self.catalog.unit_ref(self.target_unit.value)
            if target:
                move["target_unit"] = target
        return move

    # Errors by field.
    def field_for(self, path: str) -> FormField | None:
        while path:
            if path in self._paths:
                return self._paths[path]
            if "." not in path and "[" not in path:
                return None
            path = re.sub(r"(\.[^.\[]*|\[\d+\])$", "", path)
        return None

    def add_errors(self, entries: list[dict]) -> None:
        for entry in entries:
            found = self.field_for(entry.get("path", ""))
            if found is not None:
                found.errors.append(_message(entry))

    def error_summary(self, entries: list[dict]) -> list[dict]:
        summary = []
        for entry in entries:
            found = self.field_for(entry.get("path", ""))
            summary.append({"message": _message(entry), "field_id": found.id if found else ""})
        return summary


def _message(entry: dict) -> str:
    return problem_message(entry, suggest_for=("unknown_card", "unknown_faction", "unknown_player"))


# --- Describing a ruling and a standings result --------------------------------------------------------


MOVE_GROUPS = {
    engine.PLAY: "Play a card",
    engine.DEFEND: "Answer the attack",
    engine.DISCARD: "Discard a card",
    engine.PASS: "Pass or end the turn",
    engine.END_TURN: "Pass or end the turn",
}


# --- A saved request as the form's fields ("Check again" / "Score again" on /r/<id>) ----------


def _dict(value) -> dict:
    return value if isinstance(value, dict) else {}


def _ref(value, first: str, second: str) -> str:
    """A card or unit reference as the selects' option value ("sabotage@ashen-peaks")."""
    value = _dict(value)
    return f"{value.get(first)}{SEP}{value.get(second)}" if value.get(first) else ""


def table_link_pairs(game: Game, body: dict) -> list[tuple[str, str]]:
    """The form's fields for a saved request (the reverse of TableForm.body): a ruling's
    {"position", "move"} or the standings' position. Players sit in seats 1, 2, … in order."""
    ruling = "move" in body
    position = _dict(body.get("position")) if ruling else body
    catalog = PageCatalog(game)
    raw_players = position.get("players")
    players = raw_players if isinstance(raw_players, list) else []
    pairs: list[tuple[str, str]] = []
    seats: dict[Any, str] = {}  # keyed by the saved names, which were checked when ruled on
    for index, player in enumerate(players[:catalog.seats], start=1):
        player = _dict(player)
        seats[player.get("name")] = str(index)
        pairs.append((f"p{index}-name", str(player.get("name") or "")))
        if player.get("faction"):
            pairs.append((f"p{index}-own", str(player["faction"])))
        if player.get("lost_turns"):
            pairs.append((f"p{index}-lost", str(player["lost_turns"])))
        raw_hand = player.get("hand")
        hand = raw_hand if isinstance(raw_hand, list) else []
        pairs += [(f"p{index}-hand-{slot}", _ref(card, "card", "faction"))
                  for slot, card in enumerate(hand[:HAND_SLOTS], start=1)]
    raw_factions = position.get("factions")
    factions = raw_factions if isinstance(raw_factions, list) else []
    for faction in factions:
        faction = _dict(faction)
        name = faction.get("name")
        page_faction = catalog.by_slug.get(name) if isinstance(name, str) else None
        if page_faction is None:
            continue
        prefix = f"f-{page_faction.slug}"
        pairs.append((f"{prefix}-controller", seats.get(faction.get("controller"), "")))
        units = {unit.name: unit.slug for unit in page_faction.units}
        pairs += [(f"{prefix}-{units[unit['name']]}-defeated", "on")
                  for unit in faction.get("units") or []
                  if isinstance(unit, dict) and unit.get("alive") is False
                  and unit.get("name") in units]
    if not ruling:
        return pairs
    move = _dict(body.get("move"))
    pending = _dict(position.get("pending"))
    pairs += [("turn", seats.get(position.get("turn"), "1"))]
    if position.get("turn_lost"):
        pairs.append(("turn_lost", "on"))
    pairs += [("pending_card", _ref(pending.get("card"), "card", "faction")),
              ("pending_target", _ref(pending.get("target_unit"), "faction", "unit")),
              ("action", str(move.get("action") or "")),
              ("card", _ref(move.get("card"), "card", "faction")),
              ("target_player", seats.get(move.get("target_player"), "")),
              ("target_unit", _ref(move.get("target_unit"), "faction", "unit"))]
    return [(name, value) for name, value in pairs if value]


def describe_move(catalog: PageCatalog, move: dict, *, pending: bool = False) -> str:
    action = move.get("action")
    card = catalog.card_text(move["card"]) if isinstance(move.get("card"), dict) else ""
    if action == engine.PLAY:
        if isinstance(move.get("target_unit"), dict):
            return f"Play {card} on {catalog.unit_text(move['target_unit'])}"
        if move.get("target_player"):
            return f"Play {card} on {move['target_player']}"
        return f"Play {card}"
    if action == engine.DEFEND:
        return f"Defend with {card}"
    if action == engine.DISCARD:
        return f"Discard {card}"
    if action == engine.PASS:
        return "Let the attack through (pass)" if pending else "Pass"
    return "End the turn"


def factions_ruling_view(game: Game, catalog: PageCatalog, body: dict, request_body: dict) -> dict:
    view = ruling_view(game, body)
    pending = bool((request_body.get("position") or {}).get("pending"))
    groups: list[dict] = []
    for move in body.get("alternatives") or []:
        label = MOVE_GROUPS.get(move.get("action"), "Moves")
        if pending and move.get("action") == engine.PASS:
            label = "Answer the attack"
        if not groups or groups[-1]["label"] != label:
            groups.append({"label": label, "moves": []})
        groups[-1]["moves"].append(describe_move(catalog, move, pending=pending))
    view["alternatives"] = groups
    outcome = body.get("outcome") or None
    if outcome:
        sizes = outcome.get("hand_sizes") or {}
        view["factions_outcome"] = {
            "events": outcome.get("events") or [],
            "if_let_through": (outcome.get("if_let_through") or {}).get("events") or [],
            "hand_sizes": list(sizes.items()),
            "winner": outcome.get("winner"),
        }
    return view


# --- The pages ----------------------------------------------------------------------------------------


def _game(request: HttpRequest) -> Game | HttpResponse:
    try:
        return game_get(slug=GAME)
    except GameNotFound:
        return render(request, "404.html", {"message": "The Factions catalog is not loaded."},
                      status=404)


@require_http_methods(["GET", "POST"])
def check_move(request: HttpRequest) -> HttpResponse:
    game = _game(request)
    if isinstance(game, HttpResponse):
        return game
    catalog = PageCatalog(game)
    data = page_input(request)  # posted, or the input in the address
    form = TableForm(catalog, data, with_move=True)
    context = {"game": game, "form": form, "catalog": catalog, "ruling": None, "error": None}
    status = 200
    if data is not None:
        body = form.body()
        status = evaluate_on_page(
            request, context, service=rulings.rule_move, game=game, body=body,
            show=lambda response: {"ruling": factions_ruling_view(game, catalog, response, body)},
            show_errors=lambda error: form_errors(error, form),
        )
    return render_result_page(request, context, status=status, page="factions/check_move.html",
                              fragment="factions/_move_result.html")


@require_http_methods(["GET", "POST"])
def standings(request: HttpRequest) -> HttpResponse:
    game = _game(request)
    if isinstance(game, HttpResponse):
        return game
    catalog = PageCatalog(game)
    data = page_input(request)  # posted, or the input in the address
    form = TableForm(catalog, data, with_move=False)
    context = {"game": game, "form": form, "catalog": catalog, "result": None, "error": None}
    status = 200
    if data is not None:
        status = evaluate_on_page(
            request, context, service=scores.score_factions, game=game, body=form.body(),
            show=lambda response: {"result": standings_view(game, response)},
            show_errors=lambda error: form_errors(error, form),
        )
    return render_result_page(request, context, status=status, page="factions/standings.html",
                              fragment="factions/_standings_result.html")


def standings_view(game: Game, body: dict) -> dict:
    view = score_view(game, body)
    rows = []
    for row in body.get("standings") or []:
        factions = []
        for entry in row.get("factions") or []:
            kind = {True: "own", False: "conquered"}.get(entry.get("own"), "")
            factions.append({**entry, "kind": kind})
        status = {True: "Eliminated", False: "In the game"}.get(row.get("eliminated"), "Unknown")
        if body.get("winner") == row.get("player"):
            status = "Winner"
        rows.append({**row, "factions": factions, "status": status})
    view["rows"] = rows
    view["winner"] = body.get("winner")
    view["eliminated"] = body.get("eliminated") or []
    return view




def saved_ruling_view(game: Game, body: dict, request_body: dict) -> dict:
    """A saved ruling as this page shows it (GAMES: /r/<id> reuses the page's fragment)."""
    return factions_ruling_view(game, PageCatalog(game), body, request_body)
