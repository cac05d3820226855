"""The pages of Academy Credits: "Check a play" and "Score a round".

Each form is turned into the API's request body and handed to the very service the API calls
(games.academy_credits.rulings / games.academy_credits.scores): no rule is checked
here. An htmx submit gets the result fragment; a plain POST (no JavaScript) gets the whole page
again, with the values kept and each problem next to its field.

The table has four seats; a seat with no name is empty. Cards in front of a cadet are typed in
one field, separated by commas (names, slugs or values: "Lura Thok, 4").
"""

from __future__ import annotations

import re
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from cards.models import Game
from cards.selectors import GameNotFound, clean_text, game_get
from common.page_fields import FormField as Field
from common.page_results import (
    evaluate_on_page,
    form_errors,
    is_htmx_submit,
    page_input,
    problem_message,
    render_result_page,
)
from games.academy_credits import rulings as ruling_service
from games.academy_credits import scores as score_service
from results.views import ruling_view, score_view

GAME = "academy-credits"
SEATS = 4
SEATS_SHOWN = 2  # seats 3 and 4 sit in a <details> until used
CARD_LIST = "ac-cards"
SPLIT = re.compile(r"[,;\n]+")
NUMBER = re.compile(r"-?\d{1,6}")


# --- Views -----------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def check_play(request: HttpRequest) -> HttpResponse:
    return _page(request, form_class=PlayForm, service=ruling_service.rule_play,
                 template="academy_credits/check_play.html",
                 fragment="academy_credits/_play_result.html", kind="ruling")


@require_http_methods(["GET", "POST"])
def score_round(request: HttpRequest) -> HttpResponse:
    return _page(request, form_class=RoundForm, service=score_service.score_round,
                 template="academy_credits/score_round.html",
                 fragment="academy_credits/_round_result.html", kind="score")


def _page(request, *, form_class, service, template: str, fragment: str, kind: str):
    try:
        game = game_get(slug=GAME)
    except GameNotFound:
        return render(request, "404.html", {"message": "The Academy Credits catalog is not "
                                            "loaded."}, status=404)
    data = page_input(request)  # posted, or the input in the address
    form = form_class(game, data)
    context = {"game": game, "form": form, "ruling": None, "score": None, "error": None}
    status = 200
    if data is not None:
        body = form.body()
        local = form.local_errors
    if data is not None and local:
        status = 400
        context["error"] = {"detail": local[0]["message"], "code": "invalid_input",
                            "entries": local}
    elif data is not None:
        status = evaluate_on_page(
            request, context, service=service, game=game, body=body,
            show=lambda response: (
                {"ruling": play_ruling_view(game, response)} if kind == "ruling"
                else {"score": round_score_view(game, response)}
            ),
            show_errors=lambda error: form_errors(error, form),
        )
    if not is_htmx_submit(request):
        context["card_options"] = card_options(game)
    return render_result_page(request, context, status=status, page=template, fragment=fragment)


def card_options(game: Game) -> list[tuple[str, str]]:
    """(name, "Value 7 · Trade hands") for the <datalist>, by value: one query."""
    labels = {}
    for definition in game.attribute_definitions.filter(key="effect"):
        labels = {c["value"]: c["label"] for c in definition.choices or []}
    rows = []
    for name, attributes in game.cards.values_list("name", "attributes"):
        attributes = attributes or {}
        value = attributes.get("value")
        effect = labels.get(attributes.get("effect"), "")
        label = " · ".join(part for part in (f"Value {value}" if value is not None else "",
                                             effect) if part)
        rows.append((value if isinstance(value, int) else 99, name, label))
    return [(name, label) for _, name, label in sorted(rows)]


# --- A saved request as the form's fields ("Check again" / "Score again" on /r/<id>) ----------


def _seat_pairs(players: list, *, with_credits: bool) -> tuple[list[tuple[str, str]], dict]:
    """The seats' fields, and each cadet's seat number by name (the reverse of Seat.body)."""
    pairs, seats = [], {}
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


def play_link_pairs(game: Game, body: dict) -> list[tuple[str, str]]:
    """Check a play's fields for a saved ruling request (the reverse of PlayForm.body)."""
    raw_position, raw_move = body.get("position"), body.get("move")
    position = raw_position if isinstance(raw_position, dict) else {}
    move = raw_move if isinstance(raw_move, dict) else {}
    raw_players = position.get("players")
    players = raw_players if isinstance(raw_players, list) else []
    pairs, seats = _seat_pairs(players, with_credits=False)
    if position.get("turn") in seats:
        pairs.append(("turn", seats[position["turn"]]))
    raw_hand = position.get("hand")
    hand = raw_hand if isinstance(raw_hand, list) else []
    pairs += [("hand", str(card)) for card in hand]
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


def round_link_pairs(game: Game, body: dict) -> list[tuple[str, str]]:
    """Score a round's fields for a saved score request (the reverse of RoundForm.body)."""
    raw_players = body.get("players")
    players = raw_players if isinstance(raw_players, list) else []
    pairs, seats = _seat_pairs(players, with_credits=True)
    if body.get("deck_count") is not None:
        pairs.append(("deck_count", str(body["deck_count"])))
    if body.get("starter") in seats:
        pairs.append(("starter", seats[body["starter"]]))
    raw_options = body.get("options")
    options = raw_options if isinstance(raw_options, dict) else {}
    if options.get("charles_vance_bonus"):
        pairs.append(("charles_vance_bonus", str(options["charles_vance_bonus"])))
    target = options.get("credits_target")
    if isinstance(target, dict) and target:
        pairs.append(("credits_target", str(next(iter(target.values())))))
    return pairs


# --- Showing a ruling and a score ------------------------------------------------------------


def play_ruling_view(game: Game, body: dict) -> dict:
    """The ruling with the alternatives grouped as sentences and the outcome as lines."""
    view = ruling_view(game, body)
    view["play_alternatives"] = describe_alternatives(body.get("alternatives") or [])
    outcome = body.get("outcome") if isinstance(body.get("outcome"), dict) else None
    view["play_outcome"] = outcome
    view["missing_items"] = [
        {**item, "field_id": MISSING_FIELDS.get(str(item.get("path")), "")}
        for item in body.get("missing") or [] if isinstance(item, dict)]
    return view


# A fact a ruling asks for, and the field of "Check a play" that gives it (linked from the ruling).
MISSING_FIELDS = {"position.deck_count": "deck-count", "move.target": "target",
                  "move.guess": "guess"}


def describe_alternatives(moves: list[dict]) -> list[str]:
    """"Lura Thok at Ben, naming any of: …" — one line per card and target."""
    lines: list[str] = []
    guesses: dict[tuple, list[str]] = {}
    order: list[tuple] = []
    for move in moves:
        key = (move.get("play"), move.get("target"))
        if key not in guesses:
            guesses[key] = []
            order.append((key, move))
        if move.get("guess"):
            guesses[key].append(move["guess"])
    for (play, target), move in order:
        line = f"Play {play}"
        if target:
            line += f" at {target}"
        named = guesses[(play, target)]
        if len(named) == 1:
            line += f", naming {named[0]}"
        elif named:
            line += ", naming any of " + ", ".join(named)
        if move.get("confirm"):
            line += " (confirmed)"
        lines.append(line)
    return lines


def round_score_view(game: Game, body: dict) -> dict:
    view = score_view(game, body)
    view["round_winners"] = body.get("round_winners") or []
    view["awards"] = body.get("awards") or []
    view["standings"] = body.get("standings") or []
    view["target"] = body.get("target")
    view["match_winners"] = body.get("match_winners") or []
    view["next_starter"] = body.get("next_starter")
    ended_by = str(body.get("ended_by"))
    view["ended_by"] = {"last_cadet_standing": "Last cadet standing",
                        "deck_out_showdown": "Deck-out showdown"}.get(ended_by, "")
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

    def __init__(self, number: int, data, *, with_credits: bool, with_state: bool):
        prefix = f"player-{number}"
        self.number = number

        def text(key: str) -> str:
            return clean_text(data.get(f"{prefix}-{key}"))

        self.name = Field(f"{prefix}-name", f"{prefix}-name", text("name"), "Name")
        self.out = Field(f"{prefix}-out", f"{prefix}-out", "on" if data.get(f"{prefix}-out")
                         else "", "Out of the round", kind="checkbox")
        self.shielded = Field(f"{prefix}-shielded", f"{prefix}-shielded",
                              "on" if data.get(f"{prefix}-shielded") else "",
                              "Shielded (Jay-Den Kraag)", kind="checkbox")
        self.marked = Field(f"{prefix}-marked", f"{prefix}-marked",
                            "on" if data.get(f"{prefix}-marked") else "",
                            "Marked (Caleb Mir)", kind="checkbox")
        self.discards = Field(f"{prefix}-discards", f"{prefix}-discards", text("discards"),
                              "Cards in front (played or discarded)",
                              "Names or values, separated by commas.")
        self.hand = Field(f"{prefix}-hand", f"{prefix}-hand", text("hand"), "Card in hand",
                          "If known; leave empty if not.")
        self.credits = Field(f"{prefix}-credits", f"{prefix}-credits", text("credits"),
                             "Credits before this round", kind="number")
        self.with_credits = with_credits
        self.with_state = with_state

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

    def body(self, paths: dict, path: str) -> dict:
        player: dict = {"name": self.name.value}
        paths[f"{path}.name"] = self.name
        paths[path] = self.name
        player["in_round"] = not self.out.value
        paths[f"{path}.in_round"] = self.out
        if self.with_state:
            player["shielded"] = bool(self.shielded.value)
            player["marked"] = bool(self.marked.value)
            paths[f"{path}.shielded"] = self.shielded
            paths[f"{path}.marked"] = self.marked
        discards = [part.strip() for part in SPLIT.split(self.discards.value) if part.strip()]
        player["discards"] = discards
        paths[f"{path}.discards"] = self.discards
        for index in range(len(discards)):
            paths[f"{path}.discards[{index}]"] = self.discards
        player["hand"] = self.hand.value or None
        paths[f"{path}.hand"] = self.hand
        if self.with_credits:
            player["credits"] = _number(self.credits.value, default=0)
            paths[f"{path}.credits"] = self.credits
        return player


class TableForm:
    """The seats of the table and the mapping from request paths back to fields."""

    with_credits = False
    with_state = True
    prefix = "position."

    def __init__(self, game: Game, data=None):
        self.game = game
        data = data if data is not None else {}
        self.data = data
        self.seats = [Seat(n, data, with_credits=self.with_credits, with_state=self.with_state)
                      for n in range(1, SEATS + 1)]
        self._paths: dict[str, Field] = {}
        self.seat_errors: list[str] = []

    @property
    def seats_shown(self) -> list[Seat]:
        return self.seats[:SEATS_SHOWN]

    @property
    def seats_more(self) -> list[Seat]:
        return self.seats[SEATS_SHOWN:]

    @property
    def more_open(self) -> bool:
        return any(seat.has_content for seat in self.seats_more)

    def players(self) -> list[dict]:
        """The cadets of the filled seats, in seat order; a seat with values but no name is a
        problem shown by its name field."""
        players: list[dict[str, Any]] = []
        for seat in self.seats:
            if not seat.used:
                if any(f.value for f in seat.fields if f is not seat.name):
                    seat.name.errors.append(f"Seat {seat.number} has cards or marks but no "
                                            "name: give the cadet's name, or clear the seat.")
                continue
            players.append(seat.body(self._paths, f"{self.prefix}players[{len(players)}]"))
        self._paths[f"{self.prefix}players"] = self.seats[0].name
        return players

    def seat_name(self, number: str) -> str | None:
        if not number.isdigit() or not 1 <= int(number) <= SEATS:
            return None
        seat = self.seats[int(number) - 1]
        return seat.name.value or None

    def add_errors(self, entries: list[dict]) -> None:
        for entry in entries:
            field = self._field(entry.get("path", ""))
            if field is not None:
                message = _message(entry)
                if message not in field.errors:
                    field.errors.append(message)

    def error_summary(self, entries: list[dict]) -> list[dict]:
        summary = []
        for entry in entries:
            field = self._field(entry.get("path", ""))
            summary.append({"message": _message(entry), "field_id": field.id if field else ""})
        return summary

    def _field(self, path: str) -> Field | None:
        while path:
            if path in self._paths:
                return self._paths[path]
            if "." not in path and "[" not in path:
                return None
            path = re.sub(r"(\.[^.\[\]]*|\[\d+\])$", "", path)
        return None

    @property
    def all_fields(self) -> list[Field]:
        return [field for seat in self.seats for field in seat.fields]

    @property
    def local_errors(self) -> list[dict]:
        """Problems the form finds before asking the service (a seat with cards but no name, a
        turn or target given to an empty seat): the service is not asked then."""
        return [{"message": message, "field_id": field.id}
                for field in self.all_fields for message in field.errors]


class PlayForm(TableForm):
    def __init__(self, game: Game, data=None):
        super().__init__(game, data)
        data = self.data
        self.turn = Field("turn", "turn", clean_text(data.get("turn")), "Whose turn")
        self.hand = [Field("hand", f"hand-{i + 1}", v, f"Card {i + 1} in hand")
                     for i, v in enumerate(_values(data, "hand", 2))]
        self.deck_count = Field("deck_count", "deck-count", clean_text(data.get("deck_count")),
                                "Cards left in the deck",
                                "After this turn's draw; the set-aside card is not counted. "
                                "Only needed to say what happens next: a play that is not "
                                "allowed is ruled without it.",
                                kind="number")
        self.play = Field("play", "play", clean_text(data.get("play")), "Card played")
        self.target = Field("target", "target", clean_text(data.get("target")), "Target")
        self.guess = Field("guess", "guess", clean_text(data.get("guess")), "Guess (Lura Thok)",
                           "The card named; only Lura Thok needs one.")
        self.confirm = Field("confirm", "confirm", "on" if data.get("confirm") else "",
                             "The player confirmed (Tarima Sadel)", kind="checkbox")

    @property
    def all_fields(self) -> list[Field]:
        return super().all_fields + [self.turn, *self.hand, self.deck_count, self.play,
                                     self.target, self.guess, self.confirm]

    @property
    def target_choices(self) -> list[tuple[str, str]]:
        return [("", "Nobody")] + [(str(seat.number), seat.label) for seat in self.seats]

    def body(self) -> dict:
        players = self.players()
        position: dict = {"players": players}
        self._paths["position.turn"] = self.turn
        turn = self.seat_name(self.turn.value) if self.turn.value else None
        if turn:
            position["turn"] = turn
        elif self.turn.value:
            self.turn.errors.append(f"Seat {self.turn.value} has no cadet: name them, or give the "
                                    "turn to another seat.")
        hand: list[str] = []
        for field in self.hand:
            if field.value:
                self._paths[f"position.hand[{len(hand)}]"] = field
                hand.append(field.value)
        self._paths["position.hand"] = self.hand[0]
        position["hand"] = hand
        self._paths["position.deck_count"] = self.deck_count
        if self.deck_count.value:
            count = _number(self.deck_count.value)
            if isinstance(count, int) and count >= 0:
                position["deck_count"] = count
            else:  # said here in a player's words, not the API's
                self.deck_count.errors.append(
                    "The cards left in the deck must be a whole number, 0 or more; leave it "
                    "empty if you do not know it.")
        move: dict = {}
        for field, key in ((self.play, "play"), (self.guess, "guess")):
            self._paths[f"move.{key}"] = field
            if field.value:
                move[key] = field.value
        self._paths["move.target"] = self.target
        if self.target.value:
            name = self.seat_name(self.target.value)
            if name is None:
                self.target.errors.append(f"Seat {self.target.value} has no cadet to target.")
            move["target"] = name or f"Seat {self.target.value}"
        move["confirm"] = bool(self.confirm.value)
        self._paths["move.confirm"] = self.confirm
        return {"position": position, "move": move}


class RoundForm(TableForm):
    with_credits = True
    with_state = False
    prefix = ""

    def __init__(self, game: Game, data=None):
        super().__init__(game, data)
        data = self.data
        self.deck_count = Field("deck_count", "deck-count", clean_text(data.get("deck_count")),
                                "Cards left in the deck", "0 when the deck ran out.",
                                kind="number")
        self.starter = Field("starter", "starter", clean_text(data.get("starter")),
                             "Who started this round",
                             "Decides who starts the next round after a shared win (AC-R10).")
        options = {option.key: option for option in game.options.all()}
        vance = options.get("charles_vance_bonus")
        self.vance_choices = [(choice, READING_LABELS.get(choice, choice))
                              for choice in (vance.choices if vance else [])]
        self.vance_default = vance.value if vance else ""
        self.vance = Field("charles_vance_bonus", "charles-vance-bonus",
                           clean_text(data.get("charles_vance_bonus")) or self.vance_default,
                           "Charles Vance bonus (AC-R7)")
        target = options.get("credits_target")
        self.targets = target.value if target and isinstance(target.value, dict) else {}
        self.target = Field("credits_target", "credits-target",
                            clean_text(data.get("credits_target")), "Credits target",
                            "Leave empty for the game's: " + ", ".join(
                                f"{credits} for {count} cadets"
                                for count, credits in sorted(self.targets.items())) + ".",
                            kind="number")

    @property
    def all_fields(self) -> list[Field]:
        return super().all_fields + [self.deck_count, self.starter, self.vance, self.target]

    @property
    def starter_choices(self) -> list[tuple[str, str]]:
        return [("", "Not given")] + [(str(seat.number), seat.label) for seat in self.seats]

    def body(self) -> dict:
        players = self.players()
        body: dict = {"players": players}
        self._paths["deck_count"] = self.deck_count
        count = _number(self.deck_count.value)
        if isinstance(count, int) and count >= 0:
            body["deck_count"] = count
        else:  # the score needs it (how the round ended); said in a player's words
            self.deck_count.errors.append(
                "Give the number of cards left in the deck as a whole number: 0 when the deck "
                "ran out.")
        self._paths["starter"] = self.starter
        if self.starter.value:
            name = self.seat_name(self.starter.value)
            if name is None:
                self.starter.errors.append(f"Seat {self.starter.value} has no cadet.")
            body["starter"] = name or f"Seat {self.starter.value}"
        options: dict = {}
        self._paths["options.charles_vance_bonus"] = self.vance
        if self.vance.value and self.vance.value != self.vance_default:
            options["charles_vance_bonus"] = self.vance.value
        self._paths["options.credits_target"] = self.target
        if self.target.value:
            count = str(len(players))
            options["credits_target"] = {count: _number(self.target.value)}
        if options:
            body["options"] = options
        return body


READING_LABELS = {
    "literal": "Literal: every cadet counts",
    "still_in_round": "Only cadets still in count",
}


def _values(data, name: str, slots: int) -> list[str]:
    getlist = data.getlist if hasattr(data, "getlist") else (lambda key: [])
    given = [clean_text(v) for v in getlist(name)][:slots]
    return given + [""] * (slots - len(given))


def _number(value: str, default=None):
    if not value:
        return default
    return int(value) if NUMBER.fullmatch(value) else value


def _message(entry: dict) -> str:
    return problem_message(entry, suggest_for=("unknown_card", "unknown_player"))
