"""The "check a turn" page of Star Trek: Missions.

The form is turned into the API's request body and handed to the very service the API calls
(games.star_trek_missions.rulings via the registry): no rule is checked here. An htmx
submit gets the result fragment; a plain POST (no JavaScript) gets the whole page again, with the
values kept and each problem next to its field.
"""

from __future__ import annotations

import re

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from cards.models import Game
from cards.selectors import GameNotFound, clean_text, game_get
from common.page_fields import FormField as Field
from common.page_fields import filled_names
from common.page_results import (
    evaluate_on_page,
    form_errors,
    is_htmx_submit,
    page_input,
    problem_message,
    render_result_page,
)
from games.star_trek_missions import engine
from games.star_trek_missions.rulings import rule_turn
from results.views import ruling_view

GAME = "star-trek-missions"
HAND_SLOTS = 7
DISCARD_AREA_SLOTS = 18  # at most 7 Galaxy and 11 Mission cards before the game ends
DISCARD_AREA_SHOWN = 8  # the rest sit in a <details> ("more slots")
ACTION_LABELS = [
    (engine.TAKE_DISCARD, "Took from the discard area"),
    (engine.DRAW_GALAXY, "Drew a Galaxy card"),
    (engine.DRAW_MISSIONS, "Drew two Mission cards"),
]


@require_http_methods(["GET", "POST"])
def stm_check_turn(request: HttpRequest) -> HttpResponse:
    try:
        game = game_get(slug=GAME)
    except GameNotFound:
        return render(request, "404.html", {"message": "The Star Trek: Missions catalog is not "
                                            "loaded."}, status=404)
    data = page_input(request)  # posted, or the input in the address
    form = TurnForm(data)
    context = {"game": game, "form": form, "ruling": None, "error": None}
    status = 200
    if data is not None:
        status = evaluate_on_page(
            request, context, service=rule_turn, game=game, body=form.body(),
            show=lambda response: {"ruling": ruling_view(game, response)},
            show_errors=lambda error: form_errors(error, form),
        )
    if not is_htmx_submit(request):
        context["card_options"] = _card_options(game)
    return render_result_page(request, context, status=status,
                              page="star_trek_missions/stm_check_turn.html",
                              fragment="star_trek_missions/_stm_turn_result.html")


def turn_link_pairs(game: Game, body: dict) -> list[tuple[str, str]]:
    """The form's fields for a saved request body ("Check again" on /r/<id> opens the form
    filled in): the reverse of TurnForm.body."""
    saved_position, saved_move = body.get("position"), body.get("move")
    position = saved_position if isinstance(saved_position, dict) else {}
    move = saved_move if isinstance(saved_move, dict) else {}

    def names(value) -> list[str]:
        return [str(v) for v in (value if isinstance(value, list) else [value]) if v]

    pairs = [("hand", name) for name in names(position.get("hand"))]
    pairs += [("discard_area", name) for name in names(position.get("discard_area"))]
    pairs += [(key, str(position[key])) for key in ("galaxy_deck", "mission_deck")
              if position.get(key) is not None]
    if position.get("extra_turn"):
        pairs.append(("extra_turn", "on"))
    pairs.append(("action", str(move.get("action") or engine.TAKE_DISCARD)))
    for key in ("take", "draw", "discard"):
        pairs += [(key, name) for name in names(move.get(key))]
    return pairs


def _card_options(game: Game) -> list[tuple[str, str]]:
    """(name, "Galaxy G27") for the <datalist>: one query."""
    options = []
    for name, attributes in game.cards.order_by("name").values_list("name", "attributes"):
        attributes = attributes or {}
        deck = str(attributes.get("deck") or "").capitalize()
        options.append((name, f"{deck} {attributes.get('number') or ''}".strip()))
    return options


class TurnForm:
    """The form's fields, their values and errors, and the request body they make."""

    def __init__(self, data=None):
        data = data if data is not None else {}
        getlist = data.getlist if hasattr(data, "getlist") else (lambda key: [])

        def values(name: str, slots: int) -> list[str]:
            given = [clean_text(v) for v in getlist(name)][:slots]
            return given + [""] * (slots - len(given))

        self.hand = [Field("hand", f"hand-{i + 1}", v, f"Card {i + 1}")
                     for i, v in enumerate(values("hand", HAND_SLOTS))]
        self.discard_area = [
            Field("discard_area", f"discard-area-{i + 1}", v, f"Discard area card {i + 1}")
            for i, v in enumerate(values("discard_area", DISCARD_AREA_SLOTS))
        ]
        self.galaxy_deck = Field("galaxy_deck", "galaxy-deck", clean_text(data.get("galaxy_deck")),
                                 "Galaxy deck")
        self.mission_deck = Field("mission_deck", "mission-deck",
                                  clean_text(data.get("mission_deck")), "Mission deck")
        self.extra_turn = Field("extra_turn", "extra-turn", "on" if data.get("extra_turn") else "")
        action = clean_text(data.get("action")) or engine.TAKE_DISCARD
        self.action = Field("action", "action", action, "What the player did")
        self.take = Field("take", "take", clean_text(data.get("take")),
                          "Card taken from the discard area", "for-take")
        drawn, discarded = values("draw", 2), values("discard", 2)
        self.draw = [
            Field("draw", "draw-1", drawn[0], "Card drawn", "for-draw"),
            Field("draw", "draw-2", drawn[1], "Second Mission card drawn", "for-draw-missions"),
        ]
        self.discard = [
            Field("discard", "discard-1", discarded[0], "Card discarded"),
            Field("discard", "discard-2", discarded[1], "Second card discarded",
                  "for-draw-missions"),
        ]
        self.actions = ACTION_LABELS
        self._paths: dict[str, Field] = {}

    @property
    def discard_area_shown(self) -> list[Field]:
        return self.discard_area[:DISCARD_AREA_SHOWN]

    @property
    def discard_area_more(self) -> list[Field]:
        return self.discard_area[DISCARD_AREA_SHOWN:]

    @property
    def more_open(self) -> bool:
        return any(f.value or f.errors for f in self.discard_area_more)

    def _names(self, fields: list[Field], path: str) -> list[str]:
        return filled_names(fields, path, self._paths)

    def body(self) -> dict:
        """The API request body (API.md) the form describes; the service validates it."""
        position: dict = {
            "hand": self._names(self.hand, "position.hand"),
            "discard_area": self._names(self.discard_area, "position.discard_area"),
        }
        for field, key in ((self.galaxy_deck, "galaxy_deck"), (self.mission_deck, "mission_deck")):
            self._paths[f"position.{key}"] = field
            if field.value:
                position[key] = int(field.value) if re.fullmatch(r"-?\d{1,6}", field.value) else (
                    field.value)
        if self.extra_turn.value:
            position["extra_turn"] = True
            self._paths["position.extra_turn"] = self.extra_turn
        action = self.action.value
        self._paths["move.action"] = self.action
        move: dict = {"action": action}
        if action == engine.TAKE_DISCARD:
            self._paths["move.take"] = self.take
            if self.take.value:
                move["take"] = self.take.value
            discards = self.discard[:1]
        elif action == engine.DRAW_GALAXY:
            self._paths["move.draw"] = self.draw[0]
            if self.draw[0].value:
                move["draw"] = self.draw[0].value
            discards = self.discard[:1]
        else:
            drawn = self._names(self.draw, "move.draw")
            if drawn:
                move["draw"] = drawn
            discards = self.discard
        discarded = self._names(discards, "move.discard")
        if discarded:
            move["discard"] = discarded
        return {"position": position, "move": move}

    def add_errors(self, entries: list[dict]) -> None:
        """Each problem next to its field (the summary lists them all, fields or not)."""
        for entry in entries:
            field = self._paths.get(entry.get("path", ""))
            if field is not None:
                field.errors.append(problem_message(entry))

    def error_summary(self, entries: list[dict]) -> list[dict]:
        """One line per problem, linking to its field when it has one."""
        summary = []
        for entry in entries:
            field = self._paths.get(entry.get("path", ""))
            summary.append({"message": problem_message(entry), "field_id": field.id if field else ""})
        return summary


