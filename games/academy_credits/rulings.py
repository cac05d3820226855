"""Academy Credits rulings: validate the request, resolve card and cadet names, ask the engine,
save the ruling.

Request body (API.md): ``{"position": {"players": [{"name", "in_round", "shielded", "marked",
"discards": [cards], "hand": card|null, "credits": n}], "turn": name, "hand": [two cards],
"deck_count": n, "options": {…}}, "move": {"play": card, "target": name|null, "guess":
card|null, "confirm": bool}}``. A cadet needs only ``name``: ``in_round`` defaults to true,
``shielded``/``marked`` to false, ``discards`` to none, ``hand`` to unknown, ``credits`` to 0.
``deck_count`` is the cards left in the deck after the cadet to move drew (AC-3.1); it may be
left out (or null): a play illegal whatever the deck holds is ruled without it, and a legal one
whose outcome depends on it is answered ``needs_information`` (``deck_count_required``, with a
``missing`` entry for ``position.deck_count``). Cards are named by name (any case), slug or
value; cadets by name, any case.

``position.options`` overrides the game's options (GameOption rows: ``credits_target``, an object
of player count → credits, merged over the game's; ``charles_vance_bonus``, one of its choices).
A play's ruling does not depend on them; a legal ruling's ``outcome.options`` says which readings
are in force for the round's score.

Errors: 400 ``invalid_input`` with entries ``required``, ``invalid_type``, ``unknown_field``,
``invalid_count``, ``invalid_name``, ``too_many``, ``unknown_player`` (a target who is not at the
table, with suggestions), ``unknown_option``, ``invalid_option`` and the card-name codes of
common.card_names (``unknown_card`` with suggestions, ``invalid_card``); 400
``impossible_position`` with the engine's entries (games.academy_credits.engine).
"""

from __future__ import annotations

import difflib

from cards.models import Card, Game
from cards.selectors import game_options
from common.api_errors import error_entry
from common.body_checks import json_type, required, required_object, shown, unknown_fields
from common.card_names import CardNameResolver, invalid_input
from games.academy_credits import engine
from games.protocol import ImpossiblePosition
from games.responses import impossible_position, ruling_response
from results.services import result_save

GAME = "academy-credits"
BODY_FIELDS = ("position", "move")
POSITION_FIELDS = ("players", "turn", "hand", "deck_count", "options")
PLAYER_FIELDS = ("name", "in_round", "shielded", "marked", "discards", "hand", "credits")
MOVE_FIELDS = ("play", "target", "guess", "confirm")
MAX_CADETS_LISTED = 50  # past this a request is refused before any name is resolved
MAX_NAME = 40
MAX_CARDS_LISTED = 30  # a list of cards longer than the deck
MAX_CREDITS = 1000
CREDITS_TARGET = "credits_target"
CHARLES_VANCE = "charles_vance_bonus"


# --- The service --------------------------------------------------------------------------------


def rule_play(*, game: Game, body) -> dict:
    """The ruling response of API.md, saved (with "id" and "url"). Raises ApiError for a 400."""
    position, move, warnings = parse_request(game=game, body=body)
    try:
        ruling = engine.check(position, move).rule(move)
    except ImpossiblePosition as impossible:
        raise impossible_position(impossible.errors) from None
    ruling.warnings = ruling.warnings + warnings
    response = ruling_response(game=game, ruling=ruling)
    return result_save(game=game, kind="ruling", request_body=body, response_body=response)


def card_spec(card: Card) -> engine.CardSpec:
    """The engine's view of a catalog card; a value the catalog holds as unknown stays None."""
    attributes = card.attributes or {}
    provenance = card.field_provenance or {}

    def known(key):
        return None if provenance.get(key) == "unknown" else attributes.get(key)

    value = known("value")
    effect = known("effect")
    return engine.CardSpec(
        name=card.name,
        value=value if isinstance(value, int) and not isinstance(value, bool) else None,
        effect=effect if isinstance(effect, str) else None,
        copies=card.copies,
    )


def game_specs(resolver: CardNameResolver) -> list[engine.CardSpec]:
    return [card_spec(card) for card in resolver.cards]


def provisional_warnings(cards: list[Card]) -> list[str]:
    """A warning for each card whose effect is inferred rather than stated (AC-R3)."""
    warnings, seen = [], set()
    for card in cards:
        if card is None or card.name in seen:
            continue
        seen.add(card.name)
        if (card.field_provenance or {}).get("effect") == "provisional":
            warnings.append(f"{card.name}'s effect is provisional: {card.provenance_note}")
    return warnings


# --- Parsing ------------------------------------------------------------------------------------


def parse_request(*, game: Game, body) -> tuple[engine.Position, engine.Move, list[str]]:
    errors: list[dict] = []
    if not isinstance(body, dict):
        raise invalid_input([error_entry(path="body", code="invalid_type",
                                         detail="The request body must be a JSON object.")])
    errors += unknown_fields(body, BODY_FIELDS, "")
    resolver = CardNameResolver(game)
    position_raw = required_object(body, "position", errors)
    move_raw = required_object(body, "move", errors)

    players: list[engine.Cadet] = []
    turn = ""
    hand: list[Card] = []
    deck_count: int | None = None
    options: dict = {}
    if position_raw is not None:
        errors += unknown_fields(position_raw, POSITION_FIELDS, "position.")
        players = parse_players(position_raw, "position.players", resolver, errors)
        if "turn" not in position_raw:
            errors.append(required("position.turn", "the name of the cadet whose turn it is"))
        elif not isinstance(position_raw["turn"], str) or not position_raw["turn"].strip():
            errors.append(error_entry(path="position.turn", code="invalid_type",
                                      detail="position.turn must be a cadet's name; got "
                                             f"{json_type(position_raw['turn'])}."))
        else:
            turn = canonical_name(position_raw["turn"], players)
        if "hand" not in position_raw:
            errors.append(required("position.hand", "the two cards of the cadet to move"))
        else:
            hand = card_list(position_raw["hand"], "position.hand", resolver, errors)
        deck_count = None  # not given: asked for only when the answer needs it
        if position_raw.get("deck_count") is not None:
            deck_count = count_field(position_raw, "deck_count", "position.deck_count", errors,
                                     what="the cards left in the deck", maximum=1000)
        options = parse_options(position_raw.get("options"), "position.options", game, errors)
    else:
        options = default_options(game)

    move = None
    played: list[Card] = []
    if move_raw is not None:
        errors += unknown_fields(move_raw, MOVE_FIELDS, "move.")
        play = guess = None
        if "play" not in move_raw:
            errors.append(required("move.play", "the card played"))
        else:
            play, error = resolver.resolve_one(move_raw["play"], path="move.play")
            errors += [error] if error else []
        if move_raw.get("guess") is not None:
            guess, error = resolver.resolve_one(move_raw["guess"], path="move.guess")
            errors += [error] if error else []
        target = move_raw.get("target")
        if target is not None:
            if not isinstance(target, str) or not target.strip():
                errors.append(error_entry(path="move.target", code="invalid_type",
                                          detail="move.target must be a cadet's name or null; "
                                                 f"got {json_type(target)}."))
                target = None
            else:
                names = [p.name for p in players]
                matched = canonical_name(target, players)
                if matched not in names and players:
                    errors.append(error_entry(
                        path="move.target", code="unknown_player",
                        detail=f"No cadet called '{shown(target)}' is at the table; the cadets "
                               f"are {', '.join(names)}.",
                        suggestions=difflib.get_close_matches(target, names, n=3, cutoff=0.4)
                        or names))
                target = matched
        confirm = move_raw.get("confirm", False)
        if confirm is None:
            confirm = False
        if not isinstance(confirm, bool):
            errors.append(error_entry(path="move.confirm", code="invalid_type",
                                      detail="move.confirm must be true or false."))
            confirm = False
        if play is not None:
            move = engine.Move(play=card_spec(play), target=target,
                               guess=card_spec(guess) if guess else None, confirm=confirm)
            played = [play]
    if errors or move is None:  # move is None only when an error entry says why
        raise invalid_input(errors)
    game_cards = game_specs(resolver)
    position = engine.Position(
        players=players,
        turn=turn,
        hand=[card_spec(card) for card in hand],
        deck_count=deck_count,
        cards=game_cards,
        min_players=game.min_players,
        max_players=game.max_players or engine.MAX_PLAYERS,
        options=options,
    )
    return position, move, provisional_warnings(played)


def parse_players(raw: dict, path: str, resolver: CardNameResolver,
                  errors: list[dict]) -> list[engine.Cadet]:
    """The cadets of a position or a round, in seat order."""
    if "players" not in raw:
        errors.append(required(path, "the cadets in seat order"))
        return []
    listed = raw["players"]
    if not isinstance(listed, list):
        errors.append(error_entry(path=path, code="invalid_type",
                                  detail=f"{path} must be a list of cadets in seat order; got "
                                         f"{json_type(listed)}."))
        return []
    if len(listed) > MAX_CADETS_LISTED:
        errors.append(error_entry(path=path, code="too_many",
                                  detail=f"{path} lists {len(listed)} cadets; Academy Credits is "
                                         "for 2 to 4."))
        return []
    players = []
    for index, item in enumerate(listed):
        where = f"{path}[{index}]"
        if not isinstance(item, dict):
            errors.append(error_entry(path=where, code="invalid_type",
                                      detail=f"{where} must be an object with the cadet's name; "
                                             f"got {json_type(item)}."))
            continue
        errors.extend(unknown_fields(item, PLAYER_FIELDS, f"{where}."))
        name = item.get("name")
        if "name" not in item:
            errors.append(required(f"{where}.name", "the cadet's name"))
            name = ""
        elif not isinstance(name, str) or not name.strip():
            errors.append(error_entry(path=f"{where}.name", code="invalid_name",
                                      detail=f"{where}.name must be a non-empty name; got "
                                             f"{json_type(name)}."))
            name = ""
        elif len(name.strip()) > MAX_NAME:
            errors.append(error_entry(path=f"{where}.name", code="invalid_name",
                                      detail=f"{where}.name is longer than {MAX_NAME} "
                                             "characters."))
            name = ""
        else:
            name = " ".join(name.split())
        flags = {}
        for key, default in (("in_round", True), ("shielded", False), ("marked", False)):
            value = item.get(key, default)
            if value is None:
                value = default
            if not isinstance(value, bool):
                errors.append(error_entry(path=f"{where}.{key}", code="invalid_type",
                                          detail=f"{where}.{key} must be true or false."))
                value = default
            flags[key] = value
        discards = card_list(item.get("discards") or [], f"{where}.discards", resolver, errors)
        hand = None
        if item.get("hand") is not None:
            card, error = resolver.resolve_one(item["hand"], path=f"{where}.hand")
            if error:
                errors.append(error)
            hand = card
        credits = count_field(item, "credits", f"{where}.credits", errors, what="credits",
                              default=0, maximum=MAX_CREDITS)
        players.append(engine.Cadet(
            name=name, in_round=flags["in_round"], shielded=flags["shielded"],
            marked=flags["marked"], discards=[card_spec(c) for c in discards if c is not None],
            hand=card_spec(hand) if hand is not None else None, credits=credits))
    return players


def card_list(value, path: str, resolver: CardNameResolver, errors: list[dict]) -> list[Card]:
    if not isinstance(value, list):
        errors.append(error_entry(path=path, code="invalid_type",
                                  detail=f"{path} must be a list of card names."))
        return []
    if len(value) > MAX_CARDS_LISTED:
        errors.append(error_entry(path=path, code="too_many",
                                  detail=f"{path} names {len(value)} cards; the deck has 22."))
        return []
    cards: list[Card] = []
    for index, name in enumerate(value):
        card, error = resolver.resolve_one(name, path=f"{path}[{index}]")
        if error:
            errors.append(error)
        elif card is not None:  # resolve_one gives a card whenever it gives no error
            cards.append(card)
    return cards


def count_field(raw: dict, key: str, path: str, errors: list[dict], *, what: str,
                default: int | None = None, maximum: int = 1000) -> int:
    if key not in raw or raw[key] is None:
        if default is None:
            errors.append(required(path, f"the number of {what}"))
            return 0
        return default
    value = raw[key]
    if isinstance(value, bool) or not isinstance(value, int):
        errors.append(error_entry(path=path, code="invalid_type",
                                  detail=f"{path} must be a whole number; got "
                                         f"{json_type(value)}."))
        return default or 0
    if value < 0 or value > maximum:
        errors.append(error_entry(path=path, code="invalid_count",
                                  detail=f"{path} must be between 0 and {maximum}; got {value}."))
        return default or 0
    return value


def canonical_name(name: str, players: list[engine.Cadet]) -> str:
    """The seated cadet's name for a name given in any case and spacing; else the name."""
    wanted = " ".join(str(name).split()).casefold()
    for cadet in players:
        if cadet.name.casefold() == wanted:
            return cadet.name
    return " ".join(str(name).split())


# --- Options ------------------------------------------------------------------------------------


def default_options(game: Game) -> dict:
    """The game's options as stored (GameOption rows), key → value."""
    return {option.key: option.value for option in game_options(game=game)}


def parse_options(raw, path: str, game: Game, errors: list[dict]) -> dict:
    """The game's options with the request's overrides, validated."""
    rows = {option.key: option for option in game_options(game=game)}
    options = {key: option.value for key, option in rows.items()}
    if raw is None:
        return options
    if not isinstance(raw, dict):
        errors.append(error_entry(path=path, code="invalid_type",
                                  detail=f"{path} must be an object of option → value."))
        return options
    for key, value in raw.items():
        where = f"{path}.{key}"
        if key not in rows:
            errors.append(error_entry(
                path=where, code="unknown_option",
                detail=f"'{shown(key)}' is not an option of {game.name}; the options are "
                       f"{', '.join(sorted(rows))}.",
                suggestions=difflib.get_close_matches(str(key), list(rows), n=3, cutoff=0.6)))
            continue
        row = rows[key]
        if row.choices:
            if value not in row.choices:
                errors.append(error_entry(
                    path=where, code="invalid_option",
                    detail=f"{where} must be one of {', '.join(map(str, row.choices))}; got "
                           f"{json_type(value)}.", suggestions=list(row.choices)))
                continue
            options[key] = value
        elif key == CREDITS_TARGET:
            merged = dict(options.get(key) or {})
            problem = None
            if not isinstance(value, dict) or not value:
                problem = (f"{where} must be an object of player count → credits, like "
                           '{"2": 4, "3": 5, "4": 6}.')
            else:
                for count, credits in value.items():
                    if not (isinstance(count, str) and count.isdigit()
                            and game.min_players <= int(count) <= (game.max_players or 99)):
                        problem = (f"{where}: '{shown(count)}' is not a player count of "
                                   f"{game.name} ({game.min_players} to {game.max_players}).")
                        break
                    if isinstance(credits, bool) or not isinstance(credits, int) or not (
                            1 <= credits <= 100):
                        problem = (f"{where}.{count} must be a whole number of credits from 1 "
                                   f"to 100; got {json_type(credits)}.")
                        break
                    merged[str(int(count))] = credits
            if problem:
                errors.append(error_entry(path=where, code="invalid_option", detail=problem))
                continue
            options[key] = merged
        else:
            options[key] = value
    return options


# --- Small helpers (shared with the score service) ----------------------------------------------




