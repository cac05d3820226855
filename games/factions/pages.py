"""The Factions pages: "Check a move" (a ruling) and "Standings" (the table as it stands).

Both pages set up the table the same way: the players in seat order (a name, their own faction,
and on the check-a-move page their lost turns and hand), then every faction of the catalog with
who controls it (or nobody: not in play) and which of its units are defeated. Faction, unit and
card names all come from the catalog (the "faction" attribute's choices and the unit and action
cards), so an admin's renaming shows here at once; sample names are marked provisional.

The form (a web.page_forms.PageForm) is turned into the API's request body and handed to the
very services the API calls, named in GAMES (games.factions.game), by games.pages.job_page: no
rule is checked here. An htmx submit gets the result fragment (and, when there are problems, the
form again out of band, each problem by its field); a plain POST gets the whole page with the
values kept. Every field has a name of its own (site.js drops empty fields from htmx requests).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import QueryDict
from django.utils.text import slugify

from cards.models import AttributeDefinition, Game
from common.numbers import plain_int
from games.factions import engine
from games.package import RULING, SCORE
from games.pages import job_page
from results.contexts import ruling_context, score_context
from web.page_fields import FormField
from web.page_forms import PageForm, Slots, as_dict, as_list, has_content

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
                    PageUnit(card.name, card.slug, provisional)
                )
            elif attributes.get("kind") == "action":
                cards.append(PageCard(card.name, card.slug, attributes.get("action")))
        labels = dict(faction_choices)
        self.factions = [
            PageFaction(
                slug, labels.get(slug, slug), members, any(unit.provisional for unit in members)
            )
            for slug, members in units.items()
        ]
        # Keyed by str | None: a card whose action the catalog does not give sorts last.
        rank: dict[str | None, int] = {action: index for index, action in enumerate(action_order)}
        self.cards = sorted(cards, key=lambda c: (rank.get(c.action, len(rank)), c.name))
        self.by_slug = {f.slug: f for f in self.factions}

    @property
    def seats(self) -> int:
        return max(len(self.factions), MIN_SEATS)

    def card_groups(self, only: tuple[str, ...] | None = None) -> list[tuple[str, list[Any]]]:
        """<optgroup>s of action cards, one per faction: (label, [(value, text)])."""
        return [
            (
                faction.label,
                [
                    (f"{card.slug}{SEP}{faction.slug}", f"{card.name} ({faction.label})")
                    for card in self.cards
                    if only is None or card.action in only
                ],
            )
            for faction in self.factions
        ]

    def unit_groups(self) -> list[tuple[str, list[Any]]]:
        return [
            (
                faction.label,
                [(f"{faction.slug}{SEP}{unit.slug}", unit.name) for unit in faction.units],
            )
            for faction in self.factions
        ]

    def card_text(self, ref: dict[str, Any]) -> str:
        card = next(
            (c.name for c in self.cards if c.slug == ref.get("card") or c.name == ref.get("card")),
            ref.get("card"),
        )
        return f"{card} ({self.faction_label(ref.get('faction'))})"

    def unit_text(self, ref: dict[str, Any]) -> str:
        return f"{ref.get('unit')} ({self.faction_label(ref.get('faction'))})"

    def faction_label(self, slug: Any) -> str:
        faction = self.by_slug.get(slug)
        return faction.label if faction else str(slug)


def _choices(definition: AttributeDefinition | None) -> list[tuple[str, str]]:
    if definition is None:
        return []
    return [
        (c["value"], c.get("label") or c["value"])
        for c in definition.choices or []
        if isinstance(c, dict) and c.get("value")
    ]


# --- The form ---------------------------------------------------------------------------------------


def _parse_ref(value: str, first: str, second: str) -> dict[str, Any] | None:
    """An option value as the API's reference (the reverse of _ref): ("attack@amber-coast",
    "card", "faction") → {"card": "attack", "faction": "amber-coast"}; None unless both halves."""
    one, _, two = value.partition(SEP)
    return {first: one, second: two} if one and two else None


class Seat:
    def __init__(self, index: int, form: TableForm):
        self.index = index
        prefix = f"p{index}"
        self.placeholder = f"Player {index}"
        self.name = form.field(f"{prefix}-name", f"Player {index}'s name")
        self.own = form.field(f"{prefix}-own", "Own faction")
        self.lost = form.field(f"{prefix}-lost", "Lost turns to come")
        self.hand = Slots(
            [
                form.field(f"{prefix}-hand-{slot}", f"Player {index}, card {slot}")
                for slot in range(1, HAND_SLOTS + 1)
            ]
            if form.with_move
            else [],
            HAND_SHOWN,
        )

    @property
    def display_name(self) -> str:
        return self.name.value or self.placeholder

    @property
    def has_data(self) -> bool:
        return bool(
            self.name.value
            or self.own.value
            or (self.lost.value not in ("", "0"))
            or any(f.value for f in self.hand)
        )

    @property
    def has_errors(self) -> bool:
        return any(f.errors for f in (self.name, self.own, self.lost, *self.hand))


class FactionBlock:
    def __init__(self, faction: PageFaction, form: TableForm, *, initial_seat: str = ""):
        self.faction = faction
        prefix = f"f-{faction.slug}"
        self.controller = form.field(
            f"{prefix}-controller",
            "Controlled by",
            value=form.text(f"{prefix}-controller", initial_seat),
        )
        # The controller the page chose, not the player: a hidden field carries it, so a
        # controller still equal to it gives way to the players' own factions (see
        # TableForm.follow_own_factions). The script marks a select a person changed.
        self.auto = form.text(f"{prefix}-controller-auto", initial_seat)
        self.units = [
            (
                unit,
                form.field(
                    f"{prefix}-{unit.slug}-defeated",
                    unit.name,
                    value=form.ticked(f"{prefix}-{unit.slug}-defeated"),
                ),
            )
            for unit in faction.units
        ]

    @property
    def id(self) -> str:
        return f"faction-{self.faction.slug}"

    @property
    def automatic(self) -> bool:
        return self.controller.value == self.auto

    def set_automatic(self, seat: str) -> None:
        self.controller.value = self.auto = seat


class TableForm(PageForm):
    """The table (seats and factions) and, for a ruling, the turn, a pending attack and the move."""

    suggest_for = ("unknown_card", "unknown_faction", "unknown_player")

    def __init__(
        self, catalog: PageCatalog, data: QueryDict | None = None, *, with_move: bool = True
    ) -> None:
        super().__init__(data)
        self.catalog = catalog
        self.with_move = with_move
        # Seats beyond the first two sit in a <details>, open per more_seats_open (not
        # seats.open: a seat also counts as used when a select names it).
        self.seats = Slots([Seat(i, self) for i in range(1, catalog.seats + 1)], MIN_SEATS)
        self.blocks = [
            FactionBlock(f, self, initial_seat=str(i + 1) if i < MIN_SEATS else "")
            for i, f in enumerate(catalog.factions)
        ]
        self.follow_own_factions()
        self.turn = self.field("turn", "Whose turn it is", value=self.text("turn") or "1")
        self.turn_lost = self.field("turn_lost", value=self.ticked("turn_lost"))
        self.pending_card = self.field("pending_card", "The ATTACK or AMBUSH played")
        self.pending_target = self.field("pending_target", "The unit it targets")
        self.action = self.field(
            "action", "What the player does", value=self.text("action") or engine.PLAY
        )
        self.card = self.field("card", "The card", css_class="for-card")
        self.target_player = self.field(
            "target_player", "Target player (SPY, SACK, SABOTAGE)", css_class="for-play"
        )
        self.target_unit = self.field(
            "target_unit", "Target unit (ATTACK, AMBUSH, DOCTOR)", css_class="for-play"
        )
        self.actions = ACTION_LABELS
        # Options for the selects.
        self.seat_options = [(str(seat.index), seat.display_name) for seat in self.seats]
        self.faction_options = [(f.slug, f.label) for f in catalog.factions]
        self.card_groups = catalog.card_groups()
        self.attack_groups = catalog.card_groups(only=engine.ATTACKS)
        self.unit_groups = catalog.unit_groups()

    def field(
        self, name: str, label: str = "", *, css_class: str = "", value: str | None = None
    ) -> FormField:
        """A field of these pages, whose id is its name, holding what was typed (or `value`)."""
        return FormField(
            name, name, self.text(name) if value is None else value, label, css_class=css_class
        )

    def follow_own_factions(self) -> None:
        """The controller follows the choice: a player's own faction is controlled by them, and
        a faction the page gave a seat by default (seat order) is no longer in play once that
        seat chose another faction. A controller a person chose stays as chosen (a conquered
        faction is controlled by its conqueror)."""
        owners = {seat.own.value: str(seat.index) for seat in self.seats if seat.own.value}
        chose = set(owners.values())
        for block in self.blocks:
            if not block.automatic:
                continue
            slug = block.faction.slug
            if slug in owners:
                block.set_automatic(owners[slug])
            elif block.controller.value in chose:
                block.set_automatic("")

    @property
    def seats_more_range(self) -> str:
        more = self.seats.more
        return (
            f"{more[0].index} to {more[-1].index}"
            if len(more) > 1
            else str(more[0].index)
            if more
            else ""
        )

    @property
    def more_seats_open(self) -> bool:
        """A seat beyond the first two is in use once it has something, or a select names it."""
        used = {block.controller.value for block in self.blocks}
        used |= {self.turn.value, self.target_player.value} if self.with_move else set()
        return any(
            seat.has_data or seat.has_errors or str(seat.index) in used for seat in self.seats.more
        )

    @property
    def turn_name(self) -> str:
        """The name of the player whose turn it is (the `turn` select's seat)."""
        seat = self._seat(self.turn.value)
        return seat.display_name if seat is not None else self.turn.value

    @property
    def table_open(self) -> bool:
        """At a table the players, factions and turn the table filled in are folded away (issue
        29): they open when one of their fields has a problem, so it shows by its field."""
        fields = [self.turn, self.turn_lost, self.pending_card, self.pending_target]
        for block in self.blocks:
            fields += [block.controller, *(box for _, box in block.units)]
        return any(seat.has_errors for seat in self.seats) or any(field.errors for field in fields)

    @property
    def pending_open(self) -> bool:
        return has_content(self.pending_card) or has_content(self.pending_target)

    def _seat(self, value: str) -> Seat | None:
        return next((seat for seat in self.seats if str(seat.index) == value), None)

    # The request body, recording the field behind each path (PageForm.field_for finds the
    # nearest enclosing one).
    def body(self) -> dict[str, Any]:
        """The API request body: for a ruling {"position", "move"}; for the standings the
        position itself."""
        controlled = {
            block.faction.slug: self._seat(block.controller.value) for block in self.blocks
        }
        in_use = [
            seat
            for seat in self.seats
            if seat.has_data
            or seat in controlled.values()
            or (self.with_move and str(seat.index) == self.turn.value)
        ]
        prefix = "position." if self.with_move else ""
        players = []
        for k, seat in enumerate(in_use):
            path = f"{prefix}players[{k}]"
            self.paths[f"{path}.name"] = seat.name
            entry: dict[str, Any] = {"name": seat.display_name}
            if self.with_move:
                hand: list[dict[str, Any]] = []
                self.paths[f"{path}.hand"] = seat.hand[0]
                for slot in seat.hand:
                    ref = _parse_ref(slot.value, "card", "faction")
                    if ref is not None:
                        self.paths[f"{path}.hand[{len(hand)}]"] = slot
                        hand.append(ref)
                entry["hand"] = hand
                self.paths[f"{path}.lost_turns"] = seat.lost
                lost = seat.lost.value  # the text as typed when not a whole number (the API says)
                turns = plain_int(lost, most=9999)
                entry["lost_turns"] = turns if turns is not None else lost or 0
            if seat.own.value:
                self.paths[f"{path}.faction"] = seat.own
                entry["faction"] = seat.own.value
            players.append(entry)
        factions: list[dict[str, Any]] = []
        for block in self.blocks:
            controller = controlled[block.faction.slug]
            if controller is None:
                continue
            path = f"{prefix}factions[{len(factions)}]"
            if not factions:
                self.paths[f"{prefix}factions"] = block.controller
            self.paths[path] = block.controller
            units = []
            for index, (unit, box) in enumerate(block.units):
                self.paths[f"{path}.units[{index}]"] = box
                units.append({"name": unit.name, "alive": not box.checked})
            factions.append(
                {"name": block.faction.slug, "controller": controller.display_name, "units": units}
            )
        position: dict[str, Any] = {"factions": factions, "players": players}
        self.paths[f"{prefix}players"] = self.seats[0].name
        if not self.with_move:
            return position
        turn = self._seat(self.turn.value)
        self.paths["position"] = self.paths["position.turn"] = self.turn
        position["turn"] = turn.display_name if turn else self.turn.value
        if self.turn_lost.value:
            position["turn_lost"] = True
            self.paths["position.turn_lost"] = self.turn_lost
        if self.pending_card.value or self.pending_target.value:
            self.paths["position.pending"] = self.pending_card
            self.paths["position.pending.target_unit"] = self.pending_target
            position["pending"] = _given(
                {
                    "by": position["turn"],
                    "card": _parse_ref(self.pending_card.value, "card", "faction"),
                    "target_unit": _parse_ref(self.pending_target.value, "faction", "unit"),
                }
            )
        return {"position": position, "move": self._move()}

    def _move(self) -> dict[str, Any]:
        action = self.action.value
        self.paths.update(
            {
                "move.action": self.action,
                "move.card": self.card,
                "move.target_unit": self.target_unit,
                "move.target_player": self.target_player,
            }
        )
        move: dict[str, Any] = {"action": action}
        if action in engine.CARD_ACTIONS:
            move["card"] = _parse_ref(self.card.value, "card", "faction")
        if action == engine.PLAY:
            seat = self._seat(self.target_player.value)
            move["target_player"] = seat.display_name if seat else None
            move["target_unit"] = _parse_ref(self.target_unit.value, "faction", "unit")
        return _given(move)


def _given(entries: dict[str, Any]) -> dict[str, Any]:
    """The entries that are there (None: left out of the request)."""
    return {key: value for key, value in entries.items() if value is not None}


# --- The pages ----------------------------------------------------------------------------------------


ruling_page = job_page(
    slug=GAME,
    kind=RULING,
    form=lambda game, data: TableForm(PageCatalog(game), data),
    page="factions/ruling.html",
)
score_page = job_page(
    slug=GAME,
    kind=SCORE,
    form=lambda game, data: TableForm(PageCatalog(game), data, with_move=False),
    page="factions/score.html",
)


# --- Describing a ruling and a standings result --------------------------------------------------------


MOVE_GROUPS = {
    engine.PLAY: "Play a card",
    engine.DEFEND: "Answer the attack",
    engine.DISCARD: "Discard a card",
    engine.PASS: "Pass or end the turn",
    engine.END_TURN: "Pass or end the turn",
}


def describe_move(catalog: PageCatalog, move: dict[str, Any], *, pending: bool = False) -> str:
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


def factions_ruling_view(
    game: Game, body: dict[str, Any], request_body: dict[str, Any]
) -> dict[str, Any]:
    """A ruling as the page shows it, and a saved one on /r/<id> (its presenter in GAMES)."""
    catalog = PageCatalog(game)
    view = ruling_context(game, body)
    pending = bool((request_body.get("position") or {}).get("pending"))
    groups: list[dict[str, Any]] = []
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


def standings_view(game: Game, body: dict[str, Any]) -> dict[str, Any]:
    view = score_context(game, body)
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


# --- A saved request as the form's fields ("Check again" / "Score again" on /r/<id>) ----------


def _ref(value: Any, first: str, second: str) -> str:
    """A card or unit reference as the selects' option value ("sabotage@ashen-peaks")."""
    value = as_dict(value)
    # A saved request names cards and units by their catalog names (issue 22), the options by
    # slugs: slugify is the same on a slug and turns a name into its slug.
    return (
        f"{slugify(str(value.get(first)))}{SEP}{slugify(str(value.get(second)))}"
        if value.get(first)
        else ""
    )


def table_link_pairs(game: Game, body: dict[str, Any]) -> list[tuple[str, str]]:
    """The form's fields for a saved request (the reverse of TableForm.body): a ruling's
    {"position", "move"} or the standings' position. Players sit in seats 1, 2, … in order."""
    ruling = "move" in body
    position = as_dict(body.get("position")) if ruling else body
    catalog = PageCatalog(game)
    players = as_list(position.get("players"))
    pairs: list[tuple[str, str]] = []
    seats: dict[Any, str] = {}  # keyed by the saved names, which were checked when ruled on
    for index, player in enumerate(players[: catalog.seats], start=1):
        player = as_dict(player)
        seats[player.get("name")] = str(index)
        pairs.append((f"p{index}-name", str(player.get("name") or "")))
        if player.get("faction"):
            pairs.append((f"p{index}-own", str(player["faction"])))
        if player.get("lost_turns"):
            pairs.append((f"p{index}-lost", str(player["lost_turns"])))
        pairs += [
            (f"p{index}-hand-{slot}", _ref(card, "card", "faction"))
            for slot, card in enumerate(as_list(player.get("hand"))[:HAND_SLOTS], start=1)
        ]
    for faction in as_list(position.get("factions")):
        faction = as_dict(faction)
        name = faction.get("name")
        page_faction = catalog.by_slug.get(name) if isinstance(name, str) else None
        if page_faction is None:
            continue
        prefix = f"f-{page_faction.slug}"
        pairs.append((f"{prefix}-controller", seats.get(faction.get("controller"), "")))
        units = {unit.name: unit.slug for unit in page_faction.units}
        pairs += [
            (f"{prefix}-{units[unit['name']]}-defeated", "on")
            for unit in faction.get("units") or []
            if isinstance(unit, dict) and unit.get("alive") is False and unit.get("name") in units
        ]
    if not ruling:
        return pairs
    move = as_dict(body.get("move"))
    pending = as_dict(position.get("pending"))
    pairs += [("turn", seats.get(position.get("turn"), "1"))]
    if position.get("turn_lost"):
        pairs.append(("turn_lost", "on"))
    pairs += [
        ("pending_card", _ref(pending.get("card"), "card", "faction")),
        ("pending_target", _ref(pending.get("target_unit"), "faction", "unit")),
        ("action", str(move.get("action") or "")),
        ("card", _ref(move.get("card"), "card", "faction")),
        ("target_player", seats.get(move.get("target_player"), "")),
        ("target_unit", _ref(move.get("target_unit"), "faction", "unit")),
    ]
    return [(name, value) for name, value in pairs if value]


def defence_choices(factions_in_play: list[str]) -> list[tuple[str, str]]:
    """(card name, faction slug) of every DEFENCE a defender may hold at a table of these
    factions: each faction in play adds its copies of each action card (FAC-F1)."""
    catalog = PageCatalog(Game.objects.get(slug=GAME))
    defences = [card.name for card in catalog.cards if card.action == engine.DEFENCE]
    return [(card, faction) for card in defences for faction in factions_in_play]
