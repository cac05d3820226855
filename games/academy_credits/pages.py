"""The pages of Academy Credits: "Check a play" and "Score a round".

Each form is turned into the API's request body and handed (by games.pages.job_page) to the very
service the API calls (games.academy_credits.rulings / games.academy_credits.scores): no rule is
checked here. An htmx submit gets the result fragment; a plain POST (no JavaScript) gets the whole
page again, with the values kept and each problem next to its field.

The table has four seats; a seat with no name is empty. Cards in front of a cadet are typed in
one field, separated by commas (names, slugs or values: "Lura Thok, 4").
"""

from __future__ import annotations

import re
from typing import Any

from django.http import QueryDict

from cards.models import Card, Game
from common.numbers import plain_int
from games.pages import job_page
from results.contexts import ruling_context, score_context
from web.page_fields import FormField as Field
from web.page_forms import NUMBER_BOUND, PageForm, Slots, as_dict, as_list

GAME = "academy-credits"
SEATS = 4
SEATS_SHOWN = 2  # seats 3 and 4 sit in a <details> until used
SPLIT = re.compile(r"[,;\n]+")


def page_context(game: Game) -> dict[str, Any]:
    """What only the whole page needs: `card_options`, the cards of its <datalist> as (name,
    "Value 7 · Trade hands"), by value; one query."""
    labels = {}
    for definition in game.attribute_definitions.filter(key="effect"):
        labels = {c["value"]: c["label"] for c in definition.choices or []}
    rows = []
    for name, attributes in game.cards.values_list("name", "attributes"):
        attributes = attributes or {}
        value = attributes.get("value")
        effect = labels.get(attributes.get("effect"), "")
        label = " · ".join(
            part for part in (f"Value {value}" if value is not None else "", effect) if part
        )
        rows.append((value if isinstance(value, int) else 99, name, label))
    return {"card_options": [(name, label) for _, name, label in sorted(rows)]}


# --- A saved request as the form's fields ("Check again" / "Score again" on /r/<id>) ----------


def _seat_pairs(
    players: list[Any], *, with_credits: bool
) -> tuple[list[tuple[str, str]], dict[Any, str]]:
    """The seats' fields, and each cadet's seat number by name (the reverse of Seat.body)."""
    pairs: list[tuple[str, str]] = []
    seats: dict[Any, str] = {}
    for number, player in enumerate(players[:SEATS], start=1):
        if not isinstance(player, dict):
            continue
        prefix = f"player-{number}"
        seats[player.get("name")] = str(number)
        pairs.append((f"{prefix}-name", str(player.get("name") or "")))
        if player.get("in_round") is False:
            pairs.append((f"{prefix}-out", "on"))
        for key in ("shielded", "marked"):
            if player.get(key):
                pairs.append((f"{prefix}-{key}", "on"))
        discards = player.get("discards")
        if isinstance(discards, list) and discards:
            pairs.append((f"{prefix}-discards", ", ".join(str(d) for d in discards)))
        if player.get("hand") is not None:
            pairs.append((f"{prefix}-hand", str(player["hand"])))
        if with_credits and player.get("credits") is not None:
            pairs.append((f"{prefix}-credits", str(player["credits"])))
    return pairs, seats


def play_link_pairs(game: Game, body: dict[str, Any]) -> list[tuple[str, str]]:
    """Check a play's fields for a saved ruling request (the reverse of PlayForm.body)."""
    position, move = as_dict(body.get("position")), as_dict(body.get("move"))
    pairs, seats = _seat_pairs(as_list(position.get("players")), with_credits=False)
    if position.get("turn") in seats:
        pairs.append(("turn", seats[position["turn"]]))
    pairs += [("hand", str(card)) for card in as_list(position.get("hand"))]
    if position.get("deck_count") is not None:
        pairs.append(("deck_count", str(position["deck_count"])))
    for key in ("play", "guess"):
        if move.get(key):
            pairs.append((key, str(move[key])))
    if move.get("target") in seats:
        pairs.append(("target", seats[move["target"]]))
    if move.get("confirm"):
        pairs.append(("confirm", "on"))
    return pairs


def round_link_pairs(game: Game, body: dict[str, Any]) -> list[tuple[str, str]]:
    """Score a round's fields for a saved score request (the reverse of RoundForm.body)."""
    pairs, seats = _seat_pairs(as_list(body.get("players")), with_credits=True)
    if body.get("deck_count") is not None:
        pairs.append(("deck_count", str(body["deck_count"])))
    if body.get("starter") in seats:
        pairs.append(("starter", seats[body["starter"]]))
    options = as_dict(body.get("options"))
    if options.get("charles_vance_bonus"):
        pairs.append(("charles_vance_bonus", str(options["charles_vance_bonus"])))
    target = options.get("credits_target")
    if isinstance(target, dict) and target:
        pairs.append(("credits_target", str(next(iter(target.values())))))
    return pairs


# --- Showing a ruling and a score ------------------------------------------------------------


def play_ruling_view(game: Game, body: dict[str, Any]) -> dict[str, Any]:
    """The ruling with the alternatives grouped as sentences and the outcome as lines."""
    view = ruling_context(game, body)
    view["play_alternatives"] = describe_alternatives(body.get("alternatives") or [])
    outcome = body.get("outcome") if isinstance(body.get("outcome"), dict) else None
    view["play_outcome"] = outcome
    view["missing_items"] = [
        {**item, "field_id": MISSING_FIELDS.get(str(item.get("path")), "")}
        for item in body.get("missing") or []
        if isinstance(item, dict)
    ]
    return view


# A fact a ruling asks for, and the field of "Check a play" that gives it (linked from the ruling).
MISSING_FIELDS = {
    "position.deck_count": "deck-count",
    "move.target": "target",
    "move.guess": "guess",
}


def describe_alternatives(moves: list[dict[str, Any]]) -> list[str]:
    """ "Lura Thok at Ben, naming any of: …" — one line per card and target."""
    # (card, target): its first move, guesses
    groups: dict[tuple[Any, Any], tuple[dict[str, Any], list[str]]] = {}
    for move in moves:
        _, named = groups.setdefault((move.get("play"), move.get("target")), (move, []))
        if move.get("guess"):
            named.append(move["guess"])
    lines: list[str] = []
    for (play, target), (move, named) in groups.items():
        line = f"Play {play}"
        if target:
            line += f" at {target}"
        if len(named) == 1:
            line += f", naming {named[0]}"
        elif named:
            line += ", naming any of " + ", ".join(named)
        if move.get("confirm"):
            line += " (confirmed)"
        lines.append(line)
    return lines


def round_score_view(game: Game, body: dict[str, Any]) -> dict[str, Any]:
    view = score_context(game, body)
    for key in ("round_winners", "awards", "standings", "match_winners"):
        view[key] = body.get(key) or []
    view["target"] = body.get("target")
    view["next_starter"] = body.get("next_starter")
    ended_by = str(body.get("ended_by"))
    view["ended_by"] = {
        "last_cadet_standing": "Last cadet standing",
        "deck_out_showdown": "Deck-out showdown",
    }.get(ended_by, "")
    options = body.get("options") or {}
    view["options"] = options
    view["reading"] = READINGS.get(str(options.get("charles_vance_bonus")), "")
    return view


READINGS = {
    "literal": "Literal: every cadet who played or discarded a Charles Vance counts, eliminated "
    "or not (AC-R7).",
    "still_in_round": "Still in the round: only cadets still in the round at its end count "
    "(AC-R7, the later edition).",
}


# --- Forms -----------------------------------------------------------------------------------


class Seat:
    """One seat of the table: its fields, named player-<n>-<field>."""

    def __init__(self, number: int, form: TableForm):
        self.number = number
        self.with_credits, self.with_state = form.with_credits, form.with_state
        prefix = f"player-{number}-"
        self.name = form.field(prefix + "name", "Name")
        self.out = form.field(prefix + "out", "Out of the round", kind="checkbox")
        self.shielded = form.field(prefix + "shielded", "Shielded (Jay-Den Kraag)", kind="checkbox")
        self.marked = form.field(prefix + "marked", "Marked (Caleb Mir)", kind="checkbox")
        self.discards = form.field(
            prefix + "discards",
            "Cards in front (played or discarded)",
            hint="Names or values, separated by commas.",
        )
        self.hand = form.field(
            prefix + "hand", "Card in hand", hint="If known; leave empty if not."
        )
        self.credits = form.field(prefix + "credits", "Credits before this round", kind="number")

    @property
    def used(self) -> bool:
        return bool(self.name.value)

    @property
    def label(self) -> str:
        return self.name.value or f"Seat {self.number}"

    @property
    def has_content(self) -> bool:
        return any(f.value or f.errors for f in self.fields)

    @property
    def fields(self) -> list[Field]:
        fields = [self.name, self.out, self.discards, self.hand]
        if self.with_state:
            fields += [self.shielded, self.marked]
        if self.with_credits:
            fields.append(self.credits)
        return fields

    def body(self, form: PageForm, path: str) -> dict[str, Any]:
        """The cadet at `path` of the request; a problem at a path of theirs with no field of
        its own (the name, the cadet) shows by the name."""
        player: dict[str, Any] = {"name": self.name.value, "in_round": not self.out.value}
        if self.with_state:
            player.update(shielded=bool(self.shielded.value), marked=bool(self.marked.value))
        player["discards"] = [
            part.strip() for part in SPLIT.split(self.discards.value) if part.strip()
        ]
        player["hand"] = self.hand.value or None
        if self.with_credits:
            player["credits"] = 0  # unless given
            form.number(self.credits, f"{path}.credits", player, "credits")
        form.paths[path] = self.name
        keys = {
            "in_round": self.out,
            "shielded": self.shielded,
            "marked": self.marked,
            "discards": self.discards,
            "hand": self.hand,
        }
        form.paths.update({f"{path}.{key}": field for key, field in keys.items() if key in player})
        return player


class TableForm(PageForm):
    """The seats of the table, and the fields the two forms build alike."""

    suggest_for = ("unknown_card", "unknown_player")
    with_credits = False
    with_state = True
    prefix = "position."

    def __init__(self, game: Game, data: QueryDict | None = None) -> None:
        super().__init__(data)
        self.game = game
        self.seats = Slots([Seat(n, self) for n in range(1, SEATS + 1)], SEATS_SHOWN)

    def field(self, name: str, label: str, *, hint: str = "", kind: str = "text") -> Field:
        """The field `name` as submitted; its id is the name with hyphens."""
        value = self.ticked(name) if kind == "checkbox" else self.text(name)
        return Field(name, name.replace("_", "-"), value, label, hint=hint, kind=kind)

    def players(self) -> list[dict[str, Any]]:
        """The cadets of the filled seats, in seat order; a seat with values but no name is a
        problem shown by its name field."""
        players: list[dict[str, Any]] = []
        for seat in self.seats:
            if seat.used:
                players.append(seat.body(self, f"{self.prefix}players[{len(players)}]"))
            elif any(f.value for f in seat.fields if f is not seat.name):
                seat.name.errors.append(
                    f"Seat {seat.number} has cards or marks but no "
                    "name: give the cadet's name, or clear the seat."
                )
        self.paths[f"{self.prefix}players"] = self.seats[0].name
        return players

    def seat_name(self, number: str) -> str | None:
        seat_number = plain_int(number, least=1, most=SEATS)
        if seat_number is None:
            return None
        seat = self.seats[seat_number - 1]
        return seat.name.value or None

    def seat_cadet(
        self, field: Field, path: str, target: dict[str, Any], key: str, problem: str
    ) -> None:
        """target[key] = the cadet of the seat the field gives (a number), if it gives one; a
        seat with no cadet is a problem ("Seat 3 " + `problem`) by the field."""
        self.paths[path] = field
        if field.value:
            name = self.seat_name(field.value)
            if name is None:
                field.errors.append(f"Seat {field.value} {problem}")
            target[key] = name or f"Seat {field.value}"

    @property
    def all_fields(self) -> list[Field]:
        return [field for seat in self.seats for field in seat.fields]

    @property
    def local_errors(self) -> list[dict[str, Any]]:
        """Problems the form finds before asking the service (a seat with cards but no name, a
        turn or target given to an empty seat): the service is not asked then."""
        return [
            {"message": message, "field_id": field.id}
            for field in self.all_fields
            for message in field.errors
        ]


class PlayForm(TableForm):
    def __init__(self, game: Game, data: QueryDict | None = None) -> None:
        super().__init__(game, data)
        self.turn = self.field("turn", "Whose turn")
        self.hand = [
            Field("hand", f"hand-{i}", value, f"Card {i} in hand")
            for i, value in enumerate(self.texts("hand", 2), start=1)
        ]
        self.deck_count = self.field(
            "deck_count",
            "Cards left in the deck",
            hint="After this turn's draw; the set-aside card is not counted. "
            "Only needed to say what happens next: a play that is not "
            "allowed is ruled without it.",
            kind="number",
        )
        self.play = self.field("play", "Card played")
        self.target = self.field("target", "Target")
        self.guess = self.field(
            "guess", "Guess (Lura Thok)", hint="The card named; only Lura Thok needs one."
        )
        self.confirm = self.field("confirm", "The player confirmed (Tarima Sadel)", kind="checkbox")

    @property
    def all_fields(self) -> list[Field]:
        return super().all_fields + [
            self.turn,
            *self.hand,
            self.deck_count,
            self.play,
            self.target,
            self.guess,
            self.confirm,
        ]

    @property
    def target_choices(self) -> list[tuple[str, str]]:
        return [("", "Nobody")] + [(str(seat.number), seat.label) for seat in self.seats]

    def body(self) -> dict[str, Any]:
        position: dict[str, Any] = {"players": self.players()}
        self.seat_cadet(
            self.turn,
            "position.turn",
            position,
            "turn",
            "has no cadet: name them, or give the turn to another seat.",
        )
        position["hand"] = self.names(self.hand, "position.hand")
        self.paths["position.deck_count"] = self.deck_count
        count = _count(self.deck_count.value)
        if count is not None:
            position["deck_count"] = count
        elif self.deck_count.value:  # said here in a player's words, not the API's
            self.deck_count.errors.append(
                "The cards left in the deck must be a whole number, 0 or more; leave it "
                "empty if you do not know it."
            )
        move: dict[str, Any] = {}
        for field, key in ((self.play, "play"), (self.guess, "guess")):
            self.paths[f"move.{key}"] = field
            if field.value:
                move[key] = field.value
        self.seat_cadet(self.target, "move.target", move, "target", "has no cadet to target.")
        move["confirm"] = bool(self.confirm.value)
        self.paths["move.confirm"] = self.confirm
        return {"position": position, "move": move}


class RoundForm(TableForm):
    with_credits = True
    with_state = False
    prefix = ""

    def __init__(self, game: Game, data: QueryDict | None = None) -> None:
        super().__init__(game, data)
        self.deck_count = self.field(
            "deck_count", "Cards left in the deck", hint="0 when the deck ran out.", kind="number"
        )
        self.starter = self.field(
            "starter",
            "Who started this round",
            hint="Decides who starts the next round after a shared win (AC-R10).",
        )
        options = {option.key: option for option in game.options.all()}
        vance = options.get("charles_vance_bonus")
        self.vance_choices = [
            (choice, READING_LABELS.get(choice, choice))
            for choice in ((vance.choices or []) if vance else [])
        ]
        self.vance_default = vance.value if vance else ""
        self.vance = Field(
            "charles_vance_bonus",
            "charles-vance-bonus",
            self.text("charles_vance_bonus") or self.vance_default,
            "Charles Vance bonus (AC-R7)",
        )
        target = options.get("credits_target")
        self.targets = target.value if target and isinstance(target.value, dict) else {}
        self.target = self.field(
            "credits_target",
            "Credits target",
            hint="Leave empty for the game's: "
            + ", ".join(
                f"{credits} for {count} cadets" for count, credits in sorted(self.targets.items())
            )
            + ".",
            kind="number",
        )

    @property
    def all_fields(self) -> list[Field]:
        return super().all_fields + [self.deck_count, self.starter, self.vance, self.target]

    @property
    def starter_choices(self) -> list[tuple[str, str]]:
        return [("", "Not given")] + [(str(seat.number), seat.label) for seat in self.seats]

    def body(self) -> dict[str, Any]:
        players = self.players()
        body: dict[str, Any] = {"players": players}
        self.paths["deck_count"] = self.deck_count
        count = _count(self.deck_count.value)
        if count is not None:
            body["deck_count"] = count
        else:  # the score needs it (how the round ended); said in a player's words
            self.deck_count.errors.append(
                "Give the number of cards left in the deck as a whole number: 0 when the deck "
                "ran out."
            )
        self.seat_cadet(self.starter, "starter", body, "starter", "has no cadet.")
        options: dict[str, Any] = {}
        self.paths["options.charles_vance_bonus"] = self.vance
        if self.vance.value and self.vance.value != self.vance_default:
            options["charles_vance_bonus"] = self.vance.value
        target: dict[str, Any] = {}  # the target for this many cadets
        self.number(self.target, "options.credits_target", target, str(len(players)))
        if target:
            options["credits_target"] = target
        if options:
            body["options"] = options
        return body


READING_LABELS = {
    "literal": "Literal: every cadet counts",
    "still_in_round": "Only cadets still in count",
}


def _count(value: str) -> int | None:
    """A count of cards as typed: a whole number, 0 or more (None: it is not one)."""
    return plain_int(value, most=NUMBER_BOUND)


ruling_page = job_page(
    slug=GAME,
    kind="ruling",
    form=PlayForm,
    page_context=page_context,
    page="academy_credits/ruling.html",
)
score_page = job_page(
    slug=GAME,
    kind="score",
    form=RoundForm,
    page_context=page_context,
    page="academy_credits/score.html",
)


def deck_cards() -> list[tuple[str, int | None, int]]:
    """(name, value, copies) of every card of the deck, by value (AC-R2): the cards a cadet at a
    table may name as the one they hold."""
    cards = Card.objects.filter(game__slug=GAME).only("name", "attributes", "copies")
    listed = [(card.name, (card.attributes or {}).get("value"), card.copies) for card in cards]
    return sorted(listed, key=lambda row: (row[1] if isinstance(row[1], int) else 99, row[0]))
