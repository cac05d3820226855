"""The "check a turn" page of Star Trek: Missions.

The form is turned into the API's request body and handed to the very service the API calls
(games.star_trek_missions.rulings, from GAMES, by games.pages.job_page): no rule is checked
here. An htmx submit gets the result fragment; a plain POST (no JavaScript) gets the whole page
again, with the values kept and each problem next to its field.
"""

from __future__ import annotations

from typing import Any

from django.http import QueryDict

from cards.models import Game
from games.pages import job_page
from games.star_trek_missions import engine
from web.page_fields import FormField as Field
from web.page_forms import PageForm, Slots, as_dict

GAME = "star-trek-missions"
HAND_SLOTS = 7
DISCARD_AREA_SLOTS = 18  # at most 7 Galaxy and 11 Mission cards before the game ends
DISCARD_AREA_SHOWN = 8  # the rest sit in a <details> ("more slots")
ACTION_LABELS = [
    (engine.TAKE_DISCARD, "Took from the discard area"),
    (engine.DRAW_GALAXY, "Drew a Galaxy card"),
    (engine.DRAW_MISSIONS, "Drew two Mission cards"),
]


def turn_link_pairs(game: Game, body: dict[str, Any]) -> list[tuple[str, str]]:
    """The form's fields for a saved request body ("Check again" on /r/<id> opens the form
    filled in): the reverse of TurnForm.body."""
    position, move = as_dict(body.get("position")), as_dict(body.get("move"))

    def names(value: Any) -> list[str]:
        return [str(v) for v in (value if isinstance(value, list) else [value]) if v]

    pairs = [("hand", name) for name in names(position.get("hand"))]
    pairs += [("discard_area", name) for name in names(position.get("discard_area"))]
    pairs += [
        (key, str(position[key]))
        for key in ("galaxy_deck", "mission_deck")
        if position.get(key) is not None
    ]
    if position.get("extra_turn"):
        pairs.append(("extra_turn", "on"))
    pairs.append(("action", str(move.get("action") or engine.TAKE_DISCARD)))
    for key in ("take", "draw", "discard"):
        pairs += [(key, name) for name in names(move.get(key))]
    return pairs


def page_context(game: Game) -> dict[str, Any]:
    """What only the whole page needs: `card_options`, (name, "Galaxy G27") for the <datalist>;
    one query."""
    options = []
    for name, attributes in game.cards.order_by("name").values_list("name", "attributes"):
        attributes = attributes or {}
        deck = str(attributes.get("deck") or "").capitalize()
        options.append((name, f"{deck} {attributes.get('number') or ''}".strip()))
    return {"card_options": options}


class TurnForm(PageForm):
    """The form's fields, their values and errors, and the request body they make."""

    def __init__(self, data: QueryDict | None = None) -> None:
        super().__init__(data)
        self.hand = [
            Field("hand", f"hand-{i + 1}", v, f"Card {i + 1}")
            for i, v in enumerate(self.texts("hand", HAND_SLOTS))
        ]
        self.discard_area = Slots(
            (
                Field("discard_area", f"discard-area-{i + 1}", v, f"Discard area card {i + 1}")
                for i, v in enumerate(self.texts("discard_area", DISCARD_AREA_SLOTS))
            ),
            DISCARD_AREA_SHOWN,
        )
        self.galaxy_deck = Field(
            "galaxy_deck", "galaxy-deck", self.text("galaxy_deck"), "Galaxy deck"
        )
        self.mission_deck = Field(
            "mission_deck", "mission-deck", self.text("mission_deck"), "Mission deck"
        )
        self.extra_turn = Field("extra_turn", "extra-turn", self.ticked("extra_turn"))
        self.action = Field(
            "action", "action", self.text("action") or engine.TAKE_DISCARD, "What the player did"
        )
        self.take = Field(
            "take", "take", self.text("take"), "Card taken from the discard area", "for-take"
        )
        drawn, discarded = self.texts("draw", 2), self.texts("discard", 2)
        self.draw = [
            Field("draw", "draw-1", drawn[0], "Card drawn", "for-draw"),
            Field("draw", "draw-2", drawn[1], "Second Mission card drawn", "for-draw-missions"),
        ]
        self.discard = [
            Field("discard", "discard-1", discarded[0], "Card discarded"),
            Field(
                "discard", "discard-2", discarded[1], "Second card discarded", "for-draw-missions"
            ),
        ]
        self.actions = ACTION_LABELS

    def body(self) -> dict[str, Any]:
        """The API request body (API.md) the form describes; the service validates it."""
        position: dict[str, Any] = {
            "hand": self.names(self.hand, "position.hand"),
            "discard_area": self.names(self.discard_area, "position.discard_area"),
        }
        self.number(self.galaxy_deck, "position.galaxy_deck", position, "galaxy_deck")
        self.number(self.mission_deck, "position.mission_deck", position, "mission_deck")
        if self.extra_turn.value:
            position["extra_turn"] = True
            self.paths["position.extra_turn"] = self.extra_turn
        action = self.action.value
        self.paths["move.action"] = self.action
        move: dict[str, Any] = {"action": action}
        if action in (engine.TAKE_DISCARD, engine.DRAW_GALAXY):
            # One card taken from the discard area or drawn, and one discarded.
            key, field = (
                ("take", self.take) if action == engine.TAKE_DISCARD else ("draw", self.draw[0])
            )
            self.paths[f"move.{key}"] = field
            if field.value:
                move[key] = field.value
            discards = self.discard[:1]
        else:
            drawn = self.names(self.draw, "move.draw")
            if drawn:
                move["draw"] = drawn
            discards = self.discard
        discarded = self.names(discards, "move.discard")
        if discarded:
            move["discard"] = discarded
        return {"position": position, "move": move}


ruling_page = job_page(
    slug=GAME,
    kind="ruling",
    form=lambda game, data: TurnForm(data),
    page="star_trek_missions/ruling.html",
    page_context=page_context,
)
