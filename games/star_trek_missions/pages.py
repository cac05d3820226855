"""The "Score a hand" and "Score the table" pages of Star Trek: Missions.

The hand lives in the form itself (one hidden `hand` field per card), so the page needs no state
of its own: every submit carries the hand, the button pressed (`toggle` a card from its tile,
`remove` one from the hand, `action=add` the card typed) and the choices the player fixed. The form
is turned into the API's request body and handed to the very service the API calls
(games.star_trek_missions.scores): nothing is scored here. An htmx submit gets a fragment: the
hand and choices, and out of band the breakdown, the tiles whose card went in or out and the
status line (the other tiles stay, so a tap on one is never lost to a swap); a plain POST (no
JavaScript) gets the whole page.
Every scoring saves a result, so each breakdown shown has its permalink.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse, QueryDict
from django.views.decorators.http import require_http_methods

from cards.models import Card, Game
from cards.naming import NamedCard
from cards.selectors import GameNotFound, clean_text, game_get
from common.api_errors import ApiError
from common.links import form_link
from common.numbers import plain_int
from games.package import SCORE
from games.pages import SERVICES, AskedAt, catalog_not_loaded
from games.star_trek_missions.language import (
    CHOICE_EFFECTS,
    criterion_matches_attributes,
)
from games.star_trek_missions.scores import (
    MAX_NAME,
    WIN_RULE,
    vocabulary_and_labels,
)
from games.star_trek_missions.table import headline, is_table, standing_rows, table_result_context
from games.wording import listing as _names
from results.contexts import score_context
from web.card_names import shown
from web.page_cache import computed_page
from web.page_fields import FormField
from web.page_forms import PageForm, as_dict, as_list
from web.page_names import read_name
from web.page_results import (
    did_you_mean,
    evaluate_on_page,
    form_errors,
    is_htmx_submit,
    page_input,
    problem,
    problem_message,
    render_result_page,
)

GAME = "star-trek-missions"
# Galaxy tiles are grouped by a card's first type, in this order; Missions come last.
TYPE_ORDER = (
    "captain",
    "personnel",
    "civilian",
    "location",
    "system",
    "equipment",
    "artifact",
    "entity",
    "wild",
)
BEST = ""  # the value of the "let Tableside choose" option of every choice
BEST_LABEL = "Best (let Tableside choose)"
NOT_USED = "none"
WILD_FIELDS = ("type", "lifeform", "affiliation", "specialty")
# What the line above each choice's controls says it is (else the card's name).
CHOICE_TITLES = {"assimilate": "{card} blanks", "copy_score": "{card} copies"}


def with_deck(
    view: Callable[[HttpRequest, Game, Deck], HttpResponse],
) -> Callable[..., HttpResponse]:
    """A page of the game's cards: the view is given the game and its Deck, or the page is a 404
    while the catalog is not loaded."""

    @wraps(view)
    def page(request: HttpRequest, **asked: Any) -> HttpResponse:
        try:
            game = game_get(slug=GAME)
        except GameNotFound:
            return catalog_not_loaded(request)
        # Input counts against the client's limit before the Deck (10 ms) is built: past it,
        # the 429 costs no more (common.page_throttle).
        page_input(request)
        return view(request, game, Deck(game), **asked)

    return page


def _loaded_game() -> Game | None:
    try:
        return game_get(slug=GAME)
    except GameNotFound:
        return None


@require_http_methods(["GET", "HEAD", "POST"])  # HEAD: a GET without its body
# A hand in the address (a shared link, Back, a reload) is a lookup the second time: its answer
# and its page of 74 tiles are both kept (web.page_cache; issue 30: a repeat cost 106 ms of CPU).
@computed_page(_loaded_game)
@with_deck
def score_page(
    request: HttpRequest, game: Game, deck: Deck, *, asked: AskedAt | None = None
) -> HttpResponse:
    data = page_input(request)  # posted, or the hand in the address
    # At a table (games.pages.AskedAt, tables/jobs.py): the empty form is the table's, and the
    # hand is the seat's event only when "Enter this hand at the table" is pressed (each tile
    # tapped scores the hand as it grows; only the hand entered goes into the table's history).
    held = asked.held if asked is not None else {}
    form = ScoreForm(
        deck, asked.initial if data is None and asked is not None else data, held=tuple(held)
    )
    context = {
        "game": game,
        "deck": deck,
        "form": form,
        "score": None,
        "error": None,
        "asked_at": asked.context if asked else None,
    }
    at_table = (
        asked is not None and request.method == "POST" and request.POST.get("at_table") == "1"
    )
    service = asked.run if asked is not None and at_table else SERVICES[SCORE]
    status = 400 if form.add_card_errors else 200
    if form.hand:

        def show(response: dict[str, Any]) -> dict[str, Any]:
            form.apply_result(response)
            return {"score": score_context(game, response)}

        # A name the form could not add keeps the page's 400 even when the hand scores.
        if (
            evaluate_on_page(
                request,
                context,
                service=service,
                game=game,
                body=form.body(),
                show=show,
                show_errors=lambda error: form_errors(error, form),
            )
            == 400
        ):
            status = 400
        elif at_table:
            context["entered_at_table"] = True
    context["partial"] = is_htmx_submit(request)
    if not context["partial"]:
        context["picker"] = deck.picker(hand=form.hand, holders=held, data=page_input(request))
    return render_result_page(
        request,
        context,
        status=status,
        page="star_trek_missions/score.html",
        fragment="star_trek_missions/_score_form.html",
        link=form.link_pairs(),
    )


score_page.asked_at_table = True  # type: ignore[attr-defined]  # tables/jobs.py serves it at a table


# --- The game's cards ---------------------------------------------------------------------------


def score_link_pairs(game: Game, body: dict[str, Any]) -> list[tuple[str, str]]:
    """ "Score again" on /r/<id>: the saved hand as the score page's fields, its fixed choices
    set again (the reverse of ScoreForm.body)."""
    hand = as_list(body.get("hand"))
    form = ScoreForm(Deck(game), QueryDict(urlencode([("hand", str(n)) for n in hand])))
    saved = as_dict(body.get("choices"))
    for control in form.choices:
        _fix(control, saved.get(control.card.name), form.deck)
    return form.link_pairs()


def table_link_pairs(game: Game, body: dict[str, Any]) -> list[tuple[str, str]]:
    """ "Score the table again" on /r/<id>: each saved player as the table page's fields (their
    name, hand and fixed choices, under their seat's prefix), the first one open."""
    players = [p for p in body.get("players") or [] if isinstance(p, dict)]
    pairs = [("players", str(len(players))), ("current", "0")] if players else []
    for seat, player in enumerate(players):
        prefix = f"p{seat}-"
        pairs.append((f"{prefix}name", str(player.get("name") or "")))
        pairs += [(prefix + key, value) for key, value in score_link_pairs(game, player)]
    return pairs


def _fix(control: ChoiceControl, choice: Any, deck: Deck) -> None:
    """Set a control's selects to a saved choice (API.md's shape), where it is one they offer."""
    if not isinstance(choice, dict):
        return
    slugs = {card.name: card.slug for card in deck.cards}
    if control.kind == "wild":
        values = [str(choice.get(key) or "") for key in WILD_FIELDS]
    elif control.kind == "change_affiliation":
        values = [
            f"{slugs.get(str(choice.get('target')), '')}:{choice.get('affiliation', '')}"
            if choice.get("target")
            else NOT_USED
        ]
    elif control.kind == "assimilate":
        blank = choice.get("blank") if isinstance(choice.get("blank"), list) else []
        values = ["+".join(slugs.get(name, "") for name in blank) if blank else NOT_USED]
    elif control.kind == "choose":
        values = [str(choice.get(control.effect.get("attribute"), "") or NOT_USED)]
    else:
        values = [
            slugs.get(str(choice.get("copies")), NOT_USED) if choice.get("copies") else NOT_USED
        ]
    for select, value in zip(control.selects, values, strict=False):
        if value in select.values:
            select.value = value
    if control.kind == "wild":
        control.shown = {key: str(choice[key]) for key in WILD_FIELDS if choice.get(key)}


@dataclass
class TileGroup:
    key: str
    label: str
    cards: list[Card]


# A tile is small (three to a row on a phone), so its badges show a short form of each value, with
# the whole word for screen readers and as the badge's title; the hand shows whole words. A value
# not listed here is shortened to its first letters.
SHORT = {
    "type": {
        "captain": "Capt",
        "personnel": "Pers",
        "civilian": "Civ",
        "location": "Loc",
        "system": "Sys",
        "equipment": "Equip",
        "artifact": "Art",
        "entity": "Ent",
        "wild": "Wild",
    },
    "specialty": {
        "ambassador": "Amb",
        "archaeologist": "Arch",
        "combat": "Cbt",
        "command": "Cmd",
        "cosmic": "Cos",
        "counselor": "Csl",
        "engineer": "Eng",
        "medical": "Med",
        "science": "Sci",
        "security": "Sec",
        "weapon": "Wpn",
    },
    "lifeform": {
        "android": "Andr",
        "betazoid": "Betaz",
        "crystal": "Cryst",
        "el-aurian": "ElAur",
        "ferengi": "Fer",
        "hologram": "Holo",
        "human": "Hum",
        "klingon": "Kling",
        "romulan": "Rom",
        "vulcan": "Vulc",
    },
    "affiliation": {
        "federation": "Fed",
        "ferengi-alliance": "FerA",
        "hostile": "Host",
        "klingon-empire": "KlgE",
        "romulan-star-empire": "RomE",
    },
}
BADGE_KINDS = ("type", "specialty", "lifeform", "affiliation")


@dataclass(frozen=True)
class Badge:
    """One value of a card shown as a small badge: its kind (for its colour), the value, its
    short form (a tile) and its label (the hand, and the text alternative)."""

    kind: str
    value: str
    short: str
    label: str
    kind_label: str


class Deck:
    """The game's cards for the page (one query), their attribute labels, and the tile groups."""

    def __init__(self, game: Game):
        self.game = game
        self.cards = sorted(game.cards.all(), key=lambda c: (_number(c), c.name))
        self.by_name = {card.name: card for card in self.cards}
        self.named = [NamedCard(name=card.name, slug=card.slug) for card in self.cards]
        self.vocabulary, self.labels = vocabulary_and_labels(game)
        self.badges_of: dict[str, list[Badge]] = {}
        for card in self.cards:
            badges = self.badges_of[card.name] = self.badges(card)
            # The templates read a tile's badges and the text "Find a card" searches from its card.
            vars(card).update(
                badges=badges,
                find_text=" ".join([card.name, _number(card)] + [badge.label for badge in badges]),
            )

    def label(self, attribute: str, value: str) -> str:
        return self.labels.get(attribute, {}).get(value, value)

    def badges(self, card: Card) -> list[Badge]:
        """The card's type, specialties, lifeforms and affiliations, in that order."""
        badges = []
        for kind in BADGE_KINDS:
            values = _attr(card, kind) or []
            for value in values if isinstance(values, list) else [values]:
                label = self.label(kind, str(value))
                short = SHORT.get(kind, {}).get(str(value)) or label[:4]
                badges.append(Badge(kind, str(value), short, label, kind.capitalize()))
        return badges

    def group_of(self, name: str) -> str:
        """The key of the tile group a card sits in ("" for no card of the game)."""
        for group in self.groups():
            if any(card.name == name for card in group.cards):
                return group.key
        return ""

    def picker(
        self, *, hand: list[str], holders: dict[str, str], data: QueryDict | None
    ) -> dict[str, Any]:
        """The tile picker: its groups (each tile pressed, held by another player, or free) and
        the group open: the one posted (the picker's radio buttons travel in the form), else the
        group of the card just pressed, else the first."""
        groups = self.groups()
        keys = [group.key for group in groups]
        posted = clean_text(data.get("group")) if data is not None else ""
        toggled = clean_text(data.get("toggle")) if data is not None else ""
        open_key = posted if posted in keys else self.group_of(toggled) or (keys[0] if keys else "")
        in_hand = set(hand)
        return {
            "open": open_key,
            "groups": [
                {
                    "key": group.key,
                    "label": group.label,
                    "cards": group.cards,
                    "compact": not any(self.badges_of[card.name] for card in group.cards),
                    "tiles": [
                        {
                            "card": card,
                            "holder": holders.get(card.name, ""),
                            "pressed": card.name in in_hand,
                        }
                        for card in group.cards
                    ],
                }
                for group in groups
            ],
        }

    def groups(self) -> list[TileGroup]:
        by_type: dict[str, list[Card]] = {key: [] for key in TYPE_ORDER}
        missions, other = [], []
        for card in self.cards:
            attributes = card.attributes or {}
            types = attributes.get("type") or []
            if attributes.get("deck") == "mission":
                missions.append(card)
            elif types and types[0] in by_type:
                by_type[types[0]].append(card)
            else:
                other.append(card)
        groups = [
            TileGroup(key, self.label("type", key), cards)
            for key, cards in by_type.items()
            if cards
        ]
        if other:
            groups.append(TileGroup("other", "Other Galaxy cards", other))
        if missions:
            groups.append(TileGroup("mission", "Missions", missions))
        return groups

    def options(self) -> list[tuple[str, str]]:
        """(name, "Galaxy G27") for the <datalist>, by name."""
        return sorted(
            (
                (card.name, f"{str(_attr(card, 'deck')).capitalize()} {_number(card)}".strip())
                for card in self.cards
            ),
            key=lambda option: option[0].casefold(),
        )

    def find(self, typed: str, *, held: Collection[str] = ()) -> tuple[Card | None, str]:
        """The card a person typed (any case, the slug, or a unique part of the name), or the
        problem with it. A card in `held` (another player's hand) is never suggested."""
        match = read_name(typed, self.named)
        if match.card is not None:
            return self.by_name[match.card.name], ""
        message = f"No card named '{shown(typed)}' in {self.game.name}."
        if match.ambiguous:
            message = f"Several cards match '{shown(typed)}'."
        suggestions = [name for name in match.suggestions if name not in held]
        # The suggestions show as buttons that add the card (star_trek_missions/_pick_problem.html).
        return None, problem(
            message + did_you_mean(suggestions),
            detail=message,
            typed=typed,
            suggestions=suggestions,
        )


def _attr(card: Card, key: str) -> Any:
    return (card.attributes or {}).get(key)


def _number(card: Card) -> str:
    return str(_attr(card, "number") or "")


# --- The form -------------------------------------------------------------------------------------


class Select(FormField):
    """One <select> of a choice (its id is its name): its options (in groups), the value posted
    and its problems."""

    def __init__(self, name: str, label: str, groups: list[tuple[str, list[tuple[str, str]]]]):
        super().__init__(name, name, BEST, label)
        self.groups = groups  # (group label or "", [(value, label)])

    @property
    def values(self) -> set[str]:
        return {value for _, options in self.groups for value, _ in options}


@dataclass
class ChoiceControl:
    """The choice one card of the hand makes: its controls, what was used, and whether the player
    fixed it."""

    card: Card
    kind: str
    effect: dict[str, Any]
    title: str
    selects: list[Select]
    shown: dict[str, str] = field(default_factory=dict)  # the choice last used (Unidentified Ship)
    summary: str = ""

    @property
    def id(self) -> str:
        return f"choices-{self.card.slug}"

    @property
    def fixed(self) -> bool:
        return any(select.value != BEST for select in self.selects)


class HandCard(FormField):
    """A card of the hand: its hidden field and what the scorer made of it. The field's `name` is
    the form's ("hand", as for every card); the card's name is its `value`."""

    def __init__(self, name: str, index: int, card: Card | None):
        super().__init__("hand", f"hand-{index + 1}", name)
        self.card = card
        self.points: int | None = None
        self.blanked, self.blanked_reason = False, ""
        # By place, not by card: when a card is taken out, the focus stays on the Remove button
        # that takes its place (htmx gives it back to the same id).
        self.remove_id = f"remove-{index + 1}"


class ScoreForm(PageForm):
    """The hand, the action the player took on it, the choices and their problems."""

    # data: the posted QueryDict, or a table player's PlayerData, which reads as one.
    def __init__(self, deck: Deck, data: Any = None, *, held: Collection[str] = ()) -> None:
        super().__init__(data)
        self.deck = deck
        self.held = held  # cards in the other players' hands (the table page): never suggested
        self.hand: list[str] = [name for name in self.texts("hand", len(deck.cards)) if name]
        self.posted_hand = list(self.hand)
        self.add_value = self.text("add")
        self.add_card_errors: list[str] = []  # problems with the name typed to add a card
        self.notes: list[str] = []
        removed, toggled, picked = self.text("remove"), self.text("toggle"), self.text("pick")
        if removed in self.hand:
            self.hand.remove(removed)
        if toggled in self.hand:
            self.hand.remove(toggled)
        elif toggled in deck.by_name:
            self.hand.append(toggled)
        if picked in deck.by_name:  # a "Did you mean …?" button of the name typed: adds that card
            if picked not in self.hand:
                self.hand.append(picked)
            self.add_value = ""
        self.adding = self.data.get("action") == "add"
        if self.adding:
            self._add()
        # After a name typed (added or not) or a "Did you mean …?" button, the page opens with the
        # focus in the name field, ready for the next name (static/js/site.js selects a failed one).
        self.refocus = self.adding or picked in deck.by_name
        self.cards = [HandCard(name, i, deck.by_name.get(name)) for i, name in enumerate(self.hand)]
        self.choices = self._choice_controls()
        self.scored = False

    def _add(self) -> None:
        if not self.add_value:
            self.add_card_errors.append("Type the name of a card to add it.")
            return
        card, problem = self.deck.find(self.add_value, held=self.held)
        if card is None:
            self.add_card_errors.append(problem)
        elif card.name in self.hand:
            self.notes.append(f"{card.name} is already in the hand.")
            self.add_value = ""
        else:
            self.hand.append(card.name)
            self.add_value = ""

    # Counts shown with the hand ----------------------------------------------------------------

    @property
    def missions(self) -> int:
        return sum(1 for c in self.cards if c.card and _attr(c.card, "deck") == "mission")

    @property
    def galaxy(self) -> int:
        return sum(1 for c in self.cards if c.card and _attr(c.card, "deck") == "galaxy")

    @property
    def changed_tiles(self) -> list[dict[str, Any]]:
        """The tiles of the cards that went into or out of the hand with this submit."""
        before, after = set(self.posted_hand), set(self.hand)
        return [
            {"card": card, "pressed": card.name in after, "holder": ""}
            for card in self.deck.cards
            if (card.name in before) != (card.name in after)
        ]

    # Choices -------------------------------------------------------------------------------------

    def _choice_controls(self) -> list[ChoiceControl]:
        controls, seen = [], set()
        for hand_card in self.cards:
            card = hand_card.card
            if card is None or card.name in seen:
                continue
            seen.add(card.name)
            for effect in (card.rule or {}).get("effects", []):
                if effect.get("kind") in CHOICE_EFFECTS:
                    control = self._control(card, effect)
                    for select in control.selects:
                        posted = self.text(select.name)
                        select.value = posted if posted in select.values else BEST
                    if control.kind == "wild":
                        for key in WILD_FIELDS:
                            value = self.text(f"shown-{card.slug}-{key}")
                            if value:
                                control.shown[key] = value
                    controls.append(control)
        return controls

    def _others(self, card: Card) -> list[Card]:
        """The other cards of the hand, in hand order, each once."""
        others, seen = [], {card.name}
        for hand_card in self.cards:
            if hand_card.card is not None and hand_card.value not in seen:
                seen.add(hand_card.value)
                others.append(hand_card.card)
        return others

    def _matching(self, card: Card, criterion: dict[str, Any]) -> list[Card]:
        return [
            other
            for other in self._others(card)
            if criterion_matches_attributes(criterion, other.name, other.attributes or {})
        ]

    def _control(self, card: Card, effect: dict[str, Any]) -> ChoiceControl:
        kind = effect["kind"]
        deck = self.deck
        prefix = f"choice-{card.slug}"
        best = ("", [(BEST, BEST_LABEL)])

        def values(attribute: str, allowed: list[str] | None = None) -> list[tuple[str, str]]:
            allowed = deck.vocabulary.get(attribute, []) if allowed is None else allowed
            return [(value, deck.label(attribute, value)) for value in allowed]

        selects: list[Select] = []
        if kind == "wild":
            allowed_by_key = {"type": effect.get("types", [])}
            for key in WILD_FIELDS:
                selects.append(
                    Select(
                        f"{prefix}-{key}",
                        key.capitalize(),
                        [best, ("", values(key, allowed_by_key.get(key)))],
                    )
                )
        elif kind == "change_affiliation":
            groups = [best, ("", [(NOT_USED, "Not used")])]
            for target in self._others(card):
                wild = any(e.get("kind") == "wild" for e in (target.rule or {}).get("effects", []))
                if not wild and not criterion_matches_attributes(
                    effect["target"], target.name, target.attributes or {}
                ):
                    continue
                current = set(_attr(target, "affiliation") or [])
                options = [
                    (f"{target.slug}:{value}", f"{target.name} → {label}")
                    for value, label in values("affiliation")
                    if wild or current != {value}
                ]
                groups.append((target.name, options))
            selects.append(Select(prefix, "Change the Affiliation of", groups))
        elif kind == "assimilate":
            targets = self._matching(card, effect["target"])
            groups = [best, ("", [(NOT_USED, "Nothing")])]
            for size in range(1, int(effect.get("max", 0)) + 1):
                options = [
                    ("+".join(c.slug for c in combo), _names([c.name for c in combo]))
                    for combo in itertools.combinations(targets, size)
                ]
                if options:
                    groups.append(("One card" if size == 1 else f"{size} cards", options))
            selects.append(Select(prefix, "Blank", groups))
        elif kind == "choose":
            attribute = effect["attribute"]
            excluded = set(effect.get("exclude", []))
            allowed = [v for v in deck.vocabulary.get(attribute, []) if v not in excluded]
            selects.append(
                Select(prefix, attribute.capitalize(), [best, ("", values(attribute, allowed))])
            )
        elif kind == "copy_score":
            options = [(c.slug, c.name) for c in self._matching(card, effect["of"])]
            selects.append(Select(prefix, "Copy", [best, ("", options)]))
        title = CHOICE_TITLES.get(kind, "{card}").format(card=card.name)
        return ChoiceControl(card, kind, effect, title, selects)

    def _choice(self, control: ChoiceControl) -> dict[str, Any] | None:
        """The fixed choice in the API's shape (API.md), or None to let the scorer choose."""
        if not control.fixed:
            return None
        by_slug = {c.slug: c for c in self.deck.cards}
        value = control.selects[0].value
        if control.kind == "wild":
            # A fixed field fixes the whole card: the fields left at "Best" keep what was used.
            choice = {}
            for select, key in zip(control.selects, WILD_FIELDS, strict=True):
                picked = select.value or control.shown.get(key)
                if picked:
                    choice[key] = picked
            return choice
        if value == NOT_USED:
            return {"blank": []} if control.kind == "assimilate" else {}
        if control.kind == "change_affiliation":
            slug, _, affiliation = value.partition(":")
            return {"target": by_slug[slug].name, "affiliation": affiliation}
        if control.kind == "assimilate":
            return {"blank": [by_slug[slug].name for slug in value.split("+")]}
        if control.kind == "choose":
            return {control.effect["attribute"]: value}
        return {"copies": by_slug[value].name}

    # The request body and the answer -----------------------------------------------------------

    def body(self) -> dict[str, Any]:
        """The API request body (API.md) the form describes; the service validates it. The field
        of each path: the card of "hand[2]", the select of a choice (of a wild card's field)."""
        body: dict[str, Any] = {"hand": list(self.hand)}
        self.paths.update((f"hand[{i}]", hand_card) for i, hand_card in enumerate(self.cards))
        choices = {}
        for control in self.choices:
            path = f"choices[{control.card.name!r}]"  # as the scorer names it
            self.paths[path] = control.selects[0]
            if control.kind == "wild":
                self.paths.update(
                    (f"{path}.{key}", select)
                    for key, select in zip(WILD_FIELDS, control.selects, strict=True)
                )
            choice = self._choice(control)
            if choice is not None:
                choices[control.card.name] = choice
        if choices:
            body["choices"] = choices
        return body

    def link_pairs(self, prefix: str = "") -> list[tuple[str, str]]:
        """The hand and the choices fixed, as the page's address carries them (the hand after
        this submit's change: no button in it)."""
        pairs = [(f"{prefix}hand", name) for name in self.hand]
        for control in self.choices:
            pairs += [
                (prefix + select.name, select.value) for select in control.selects if select.value
            ]
            if control.kind == "wild" and control.fixed:
                pairs += [
                    (f"{prefix}shown-{control.card.slug}-{key}", value)
                    for key, value in control.shown.items()
                ]
        return pairs

    def apply_result(self, response: dict[str, Any]) -> None:
        """What the scorer made of each card and each choice."""
        self.scored = True
        for hand_card, result in zip(self.cards, response.get("cards") or [], strict=False):
            hand_card.points = result.get("points")
            hand_card.blanked = bool(result.get("blanked"))
            hand_card.blanked_reason = result.get("blanked_reason") or ""
        used = response.get("choices") or {}
        for control in self.choices:
            choice = used.get(control.card.name)
            if isinstance(choice, dict):
                control.summary = self._describe(control, choice)
                if control.kind == "wild":
                    control.shown = {k: v for k, v in choice.items() if k in WILD_FIELDS and v}

    def _describe(self, control: ChoiceControl, choice: dict[str, Any]) -> str:
        label = self.deck.label
        if control.kind == "wild":
            return ", ".join(label(key, choice[key]) for key in WILD_FIELDS if choice.get(key))
        if control.kind == "change_affiliation":
            if not choice.get("target"):
                return "not used"
            return f"{choice['target']} → {label('affiliation', choice.get('affiliation', ''))}"
        if control.kind == "assimilate":
            blank = choice.get("blank") or []
            return _names(blank) if blank else "nothing"
        if control.kind == "choose":
            attribute = control.effect["attribute"]
            return label(attribute, choice.get(attribute, ""))
        copied = choice.get("copies")
        return copied if copied else "nothing (no card it may copy is in the hand)"


# --- Score the table ------------------------------------------------------------------------------
#
# The whole table at game end, on one phone passed around: the players (name, hand, choices) live
# in the form (fields "p<i>-name", "p<i>-hand", "p<i>-choice-…"), the player being entered is
# "current" (their hand and controls in view, the others one line each). Each player's part of the
# form is read by the score page's own ScoreForm, through PlayerData, so typing and tapping work
# exactly as there; the table is then scored by the API's own service, in one request.

TABLE_ACTIONS = ("add", "remove", "toggle", "pick", "action")


class PlayerData:
    """One player's fields of the posted form, under the names the score page's ScoreForm reads.
    The buttons that change a hand (add, remove, toggle) act on the current player only."""

    def __init__(
        self,
        data: QueryDict | None,
        prefix: str | None,
        *,
        active: bool,
        action: str = "",
        blocked: tuple[str, ...] = (),
    ) -> None:
        self.data, self.prefix, self.active, self.blocked = data, prefix, active, blocked
        self.action = action

    def get(self, key: str, default: Any = None) -> Any:
        if key in TABLE_ACTIONS:
            if not self.active or key in self.blocked or self.data is None:
                return default
            return self.action if key == "action" else self.data.get(key, default)
        if self.prefix is None or self.data is None:
            return default
        return self.data.get(self.prefix + key, default)

    def getlist(self, key: str) -> list[Any]:
        if key in TABLE_ACTIONS or self.prefix is None or self.data is None:
            return []
        return self.data.getlist(self.prefix + key)


@dataclass
class TablePlayer:
    index: int
    name: str
    form: ScoreForm
    current: bool
    name_errors: list[str] = field(default_factory=list)
    answer: dict[str, Any] | None = None
    standing: dict[str, Any] = field(default_factory=dict)
    score: dict[str, Any] | None = None

    @property
    def prefix(self) -> str:
        return f"p{self.index}-"

    @property
    def id(self) -> str:
        return f"player-{self.index + 1}"

    @property
    def partial(self) -> bool:
        return any(
            str(w).startswith("Partial hand") for w in (self.answer or {}).get("warnings", [])
        )


def _index(value: Any, upper: int) -> int | None:
    return plain_int(clean_text(value), most=upper - 1)


class TableForm:
    """The players, the current one, the change made by this submit and its problems."""

    def __init__(
        self, deck: Deck, data: QueryDict | None = None, *, max_players: int | None
    ) -> None:
        self.deck = deck
        self.max_players = max_players or 10
        get = data.get if data is not None else (lambda key, default=None: default)
        posted = _index(get("players"), self.max_players + 1) or 0
        sources: list[int | None] = list(range(posted))
        names = [clean_text(get(f"p{i}-name"))[:MAX_NAME] for i in range(posted)]
        current = _index(get("current"), max(posted, 1))
        self.errors: list[str] = []  # problems with this submit's change (a 400)
        self.notes: list[str] = []
        self.new_name = clean_text(get("new_name"))[:MAX_NAME]
        action = clean_text(get("action"))
        if action == "enter":
            # Enter pressed in a text field submits with the form's first button: it adds what
            # was typed, a card for the current player or else a new player.
            action = "add" if clean_text(get("add")) else ("add_player" if self.new_name else "")
        self.action = action
        self.adding_player = action == "add_player"
        self.focus = ""
        action_player = current
        # A player leaves, or another becomes the current one.
        leaving = _index(get("remove_player"), posted)
        if leaving is not None:
            self.notes.append(f"{names[leaving] or f'Player {leaving + 1}'} left the table.")
            del sources[leaving], names[leaving]
            current = (
                None
                if current == leaving
                else (current - 1 if current is not None and current > leaving else current)
            )
            action_player = None
        editing = _index(get("edit"), posted)
        if editing is not None and leaving is None:
            current = editing
            action_player = None
        if self.adding_player:
            action_player = None
            name = self.new_name or f"Player {len(names) + 1}"
            if len(names) >= self.max_players:
                self.errors.append(f"{deck.game.name} is played by at most {self.max_players}.")
            elif name.casefold() in {n.casefold() for n in names}:
                self.errors.append(
                    f"{name} is already at the table: give each player a name of their own."
                )
            else:
                sources.append(None)
                names.append(name)
                current = len(names) - 1
                self.new_name = ""
                self.focus = "add-card"
        if current is None and names:
            current = 0
        self.current = current
        # Who holds which card, before this submit's change (the current player's hand may change).
        holders: dict[str, str] = {}
        for seat, source in enumerate(sources):
            if seat == current or source is None:
                continue
            for name in data.getlist(f"p{source}-hand") if data is not None else []:
                holders.setdefault(clean_text(name), names[seat] or f"Player {seat + 1}")
        self.holders = holders
        blocked = self._blocked(get, action) if action_player is not None else ()
        self.players: list[TablePlayer] = []
        for seat, (source, name) in enumerate(zip(sources, names, strict=True)):
            active = seat == current and action_player is not None
            player_data = PlayerData(
                data,
                None if source is None else f"p{source}-",
                active=active,
                action=action,
                blocked=blocked,
            )
            form = ScoreForm(deck, player_data, held=holders if seat == current else ())
            self.players.append(
                TablePlayer(seat, name or f"Player {seat + 1}", form, seat == current)
            )
        player = self.current_player
        if player is not None:
            if action_player is not None and (
                player.form.refocus or action == "add" or clean_text(get("pick"))
            ):
                self.focus = "add-card"
            self.errors += player.form.add_card_errors
            self.notes += player.form.notes

    def _blocked(self, get: Callable[..., Any], action: str) -> tuple[str, ...]:
        """The hand changes refused because the card is in another player's hand."""
        wanted = {"toggle": clean_text(get("toggle")), "pick": clean_text(get("pick"))}
        if action == "add" and clean_text(get("add")):
            card, _ = self.deck.find(clean_text(get("add")))
            wanted["add"] = card.name if card is not None else ""
        blocked: list[str] = []
        for key, name in wanted.items():
            if name and name in self.holders:
                # A card typed is not added, and no longer in the field.
                blocked += ["action", "add"] if key == "add" else [key]
                self.errors.append(
                    f"{name} is in {self.holders[name]}'s hand: every card exists once."
                )
        return tuple(blocked)

    @property
    def current_player(self) -> TablePlayer | None:
        if self.current is None or self.current >= len(self.players):
            return None
        return self.players[self.current]

    @property
    def full(self) -> bool:
        return len(self.players) >= self.max_players

    @property
    def cards_in_play(self) -> int:
        return sum(len(player.form.hand) for player in self.players)

    def picker(self, data: QueryDict | None) -> dict[str, Any]:
        """The tile picker for the current player: each card pressed (in their hand), held (by
        another player: marked with their name, and not a button that adds it) or free."""
        player = self.current_player
        holders = {
            name: other.name
            for other in self.players
            if other is not player
            for name in other.form.hand
        }
        return self.deck.picker(hand=player.form.hand if player else [], holders=holders, data=data)

    def body(self) -> dict[str, Any]:
        """The API's table body (API.md), or the single-hand body while one player sits alone."""
        bodies = [{"name": player.name, **player.form.body()} for player in self.players]
        if len(bodies) == 1:
            return {key: value for key, value in bodies[0].items() if key != "name"}
        return {"players": bodies}

    def apply_result(self, response: dict[str, Any]) -> dict[str, Any]:
        """Each player's answer onto their form; the response as a table (one player alone: a
        table of one, with no winner)."""
        if "players" not in response:
            answer = {
                "name": self.players[0].name,
                **{k: v for k, v in response.items() if k not in {"game", "id", "url"}},
            }
            response = {
                **response,
                "players": [answer],
                "winners": [],
                "standings": [
                    {"rank": 1, "name": answer["name"], "total": answer["total"], "margin": 0}
                ],
            }
        standings = {row["name"]: row for row in standing_rows(response)}
        for player, answer in zip(self.players, response["players"], strict=False):
            player.answer = answer
            player.standing = standings.get(player.name, {})
            player.form.apply_result(answer)
        return response

    def link_pairs(self) -> list[tuple[str, str]]:
        """The table as the page's address carries it: the players, the one being entered, and
        each one's name, hand and fixed choices (after this submit's change)."""
        if not self.players:
            return []
        pairs = [("players", str(len(self.players))), ("current", str(self.current or 0))]
        for player in self.players:
            pairs.append((f"{player.prefix}name", player.name))
            pairs += player.form.link_pairs(player.prefix)
        return pairs

    def add_service_errors(self, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Each problem by its player and field; the summary lists them all (field ids under the
        player's prefix)."""
        summary = []
        for entry in entries:
            match = re.fullmatch(r"players\[(\d+)\]\.?(.*)", entry.get("path", ""))
            player = None
            if match and int(match.group(1)) < len(self.players):
                player = self.players[int(match.group(1))]
            elif len(self.players) == 1:
                player = self.players[0]
            message = problem_message(entry)
            # A problem of the table as a whole (STM-R16: too many players to finish) is by
            # the list of players.
            field_id = "players" if entry.get("path") == "players" else ""
            if player is not None:
                path = match.group(2) if match else entry.get("path", "")
                if path == "name":
                    player.name_errors.append(message)
                    field_id = "name"
                else:
                    player.form.add_errors([{**entry, "path": path}])
                    target = player.form.field_for(path)
                    field_id = target.id if target else ""
                # Only the current player's fields are in view; the others have their line.
                field_id = (
                    f"{player.prefix}{field_id}" if field_id and player.current else (player.id)
                )
                if not match:  # one player alone: the single-hand answer has no name in it
                    message = f"{player.name}: {message}"
            summary.append({"message": message, "field_id": field_id})
        return summary


@require_http_methods(["GET", "HEAD", "POST"])  # HEAD: a GET without its body
@with_deck
def table_page(request: HttpRequest, game: Game, deck: Deck) -> HttpResponse:
    form = TableForm(deck, page_input(request), max_players=game.max_players)
    context = {
        "game": game,
        "deck": deck,
        "table": form,
        "result": None,
        "error": None,
        "win_rule": WIN_RULE,
        "min_players": game.min_players,
    }
    status = 400 if form.errors else 200
    if form.cards_in_play:

        def show(response: dict[str, Any]) -> dict[str, Any]:
            table = form.apply_result(response)
            return {
                "result": {
                    "headline": headline(table) if table["winners"] else "",
                    "standings": standing_rows(table),
                    "partial": [p.name for p in form.players if p.partial],
                    "warnings": response.get("warnings") or [],
                    "alone": "players" not in response,
                }
            }

        def show_errors(error: ApiError) -> dict[str, Any]:
            return {
                "detail": error.message,
                "code": error.error_code,
                "entries": form.add_service_errors(error.errors),
            }

        if (
            evaluate_on_page(
                request,
                context,
                service=SERVICES[SCORE],
                game=game,
                body=form.body(),
                show=show,
                show_errors=show_errors,
            )
            == 400
        ):
            status = 400
        if context["result"]:
            for player in form.players:
                if player.answer is not None:
                    player.score = score_context(game, player.answer)
    context["partial"] = is_htmx_submit(request)
    context["picker"] = form.picker(page_input(request))
    return render_result_page(
        request,
        context,
        status=status,
        page="star_trek_missions/score_table.html",
        fragment="star_trek_missions/_score_table_fragment.html",
        link=form.link_pairs(),
    )


def table_result_page(
    game: Game, body: dict[str, Any], request_body: dict[str, Any] | None
) -> dict[str, Any]:
    """/r/<id> of a saved whole table (GAMES: result_context): the standings lead the page, and
    "Score again" reopens the table with every player."""
    if not is_table(body):
        return {}
    context = table_result_context(game, body)
    if isinstance(request_body, dict):
        context["again_url"] = form_link(context["again_url"], table_link_pairs(game, request_body))
        context["again_label"] = "Score again"
    return context
