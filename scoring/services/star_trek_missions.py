"""Scores a Star Trek: Missions hand for the API and the pages: parse the body, resolve the card
names, check the hand is a legal final hand, call the engine, save the result."""

from __future__ import annotations

from cards.models import Card, Game
from cards.selectors import game_attribute_specs
from common.api_errors import ApiError, error_entry
from common.card_names import CardNameResolver, invalid_input
from results.services import result_save
from scoring.engines.star_trek_missions import CardSpec, ChoiceError, check_final_hand, score_hand
from scoring.registry import scorers

ATTRIBUTES = ("type", "specialty", "lifeform", "affiliation")
BODY_FIELDS = {"hand", "choices"}
# Choice fields that name cards of the hand (resolved like every card name in a request).
NAMED_FIELDS = ("target", "copies")


def card_spec(card: Card) -> CardSpec:
    attributes = card.attributes or {}
    return CardSpec(
        name=card.name,
        number=attributes.get("number") or "",
        deck=attributes.get("deck") or "galaxy",
        attributes={key: tuple(attributes.get(key) or ()) for key in ATTRIBUTES},
        rule=card.rule,
    )


def vocabulary_and_labels(game: Game) -> tuple[dict[str, list[str]], dict[str, dict[str, str]]]:
    specs = game_attribute_specs(game=game)
    vocabulary = {s.key: list(s.choice_values) for s in specs if s.key in ATTRIBUTES}
    labels = {s.key: dict(s.choices) for s in specs if s.choices}
    return vocabulary, labels


def _parse(game: Game, body: dict) -> tuple[list[Card], dict[str, dict]]:
    errors = [error_entry(path=key, code="unknown_field",
                          detail=f"'{key}' is not a field of a score request; send hand and choices.")
              for key in sorted(set(body) - BODY_FIELDS)]
    if "hand" not in body:
        errors.append(error_entry(path="hand", code="required",
                                  detail="Give the hand: a list of card names."))
    resolver = CardNameResolver(game)
    cards, hand_errors = resolver.resolve(body.get("hand", []), path="hand")
    errors += hand_errors
    choices: dict[str, dict] = {}
    raw_choices = body.get("choices", {})
    if raw_choices is None:
        raw_choices = {}
    if not isinstance(raw_choices, dict):
        errors.append(error_entry(path="choices", code="invalid_type",
                                  detail="choices must be an object: card name to its choice."))
        raw_choices = {}
    for key, choice in raw_choices.items():
        path = f"choices[{key!r}]"
        card, error = resolver.resolve_one(key, path=path)
        if error:
            errors.append(error)
            continue
        if not isinstance(choice, dict):
            errors.append(error_entry(path=path, code="invalid_type",
                                      detail=f"The choice for {card.name} must be an object."))
            continue
        choice = dict(choice)
        for field in NAMED_FIELDS:
            if isinstance(choice.get(field), str):
                named, error = resolver.resolve_one(choice[field], path=f"{path}.{field}")
                errors += [error] if error else []
                choice[field] = named.name if named else choice[field]
        if isinstance(choice.get("blank"), list):
            blanked, blank_errors = resolver.resolve(choice["blank"], path=f"{path}.blank")
            errors += blank_errors
            choice["blank"] = [c.name for c in blanked if c is not None]
        choices[card.name] = choice
    if errors:
        raise invalid_input(errors)
    return cards, choices


@scorers.register("star-trek-missions")
def score_star_trek_missions(*, game: Game, body: dict) -> dict:
    cards, choices = _parse(game, body)
    specs = [card_spec(card) for card in cards]
    problems, warnings = check_final_hand(specs)
    if problems:
        raise ApiError(
            status_code=400,
            code="illegal_hand",
            detail=problems[0]["detail"] if len(problems) == 1
            else "This is not a legal final hand; each problem is listed in errors.",
            errors=[error_entry(**problem) for problem in problems],
        )
    vocabulary, labels = vocabulary_and_labels(game)
    try:
        result = score_hand(specs, vocabulary=vocabulary, labels=labels, choices=choices)
    except ChoiceError as wrong:
        raise ApiError(status_code=400, code="invalid_choice", detail=wrong.detail,
                       errors=[error_entry(path=wrong.path, code="invalid_choice",
                                           detail=wrong.detail)]) from None
    for card in cards:
        if (card.field_provenance or {}).get("rule") == "provisional":
            warnings.append(f"{card.name}'s rule is provisional: {card.provenance_note}")
    response = {
        "game": game.slug,
        "total": result.total,
        "steps": [
            {"n": s.n, "rule": s.rule, "card": s.card, "giving": s.giving, "detail": s.detail,
             "points": s.points, "running_total": s.running_total}
            for s in result.steps
        ],
        "warnings": warnings,
        "cards": [
            {"name": c.name, "points": c.points, "blanked": c.blanked,
             "blanked_reason": c.blanked_reason}
            for c in result.cards
        ],
        "choices": result.choices,
    }
    return result_save(game=game, kind="score", request_body=body, response_body=response)
