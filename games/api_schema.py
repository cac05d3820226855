"""Each game's request bodies in the API schema, read from the pydantic models its jobs declare
(`Job.request_models`), so a client can generate code from the schema and schemathesis can
send bodies of the right shape.

`publish_game_bodies` (a drf-spectacular postprocessing hook, SPECTACULAR_SETTINGS) does three
things for every endpoint marked as a game job (results.api.GameJobSchema):

- every game's request models become components, named after the game (`StarTrekMissionsHand`,
  `AcademyCreditsPlayRequest`, …: one game's `Position` is not another's), with one body per job
  (`<Game>RulingBody`, `<Game>ScoreBody`: the model, or `oneOf` its models where the job reads
  one of several shapes);
- each game that does the job gets its own operation at its own path
  (`POST /api/games/<slug>/score/`, a URL the generic route already answers), whose body is that
  game's, with that game's description and examples only;
- the generic operation (`POST /api/games/{game}/score/`) keeps every game's description and
  examples, and its body is `anyOf` the games' bodies.

Where a model names a card (common.requests.CardName), the game's shipped catalog
(`catalog.json`) gives its names (a component, one choice of `anyOf` beside any other text: a
slug, another case or a card an admin added is read too) and says whether a number (the card's
value) is a name too; where it names a choice of a catalog attribute (a faction), the attribute's
values and labels are listed the same way. Nothing here names a game: everything is read from
GAMES.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

from drf_spectacular.plumbing import build_examples_list
from pydantic.json_schema import models_json_schema

from common.games import GameEntry, games
from common.requests import ATTRIBUTE_CHOICE_MARK, CARD_NAME_JSON_SCHEMA, CARD_NAME_MARK
from common.schema import GAME_JOB_MARK, openapi_30
from games.package import RULING, SCORE

JOB_NAMES = {RULING: "Ruling", SCORE: "Score"}
VALUE_ATTRIBUTE = "value"  # the attribute a game that numbers its cards keeps the number in
COMPONENTS = "#/components/schemas/"


def component_prefix(game: GameEntry) -> str:
    """The game's slug as the first part of its components' names: "StarTrekMissions"."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", game.slug))


def body_name(game: GameEntry, kind: str) -> str:
    return f"{component_prefix(game)}{JOB_NAMES[kind]}Body"


def card_names_name(game: GameEntry) -> str:
    return f"{component_prefix(game)}CardName"


def card_names(game: GameEntry) -> list[str]:
    """The names of the cards the game ships (its catalog.json)."""
    catalog = shipped_catalog(game)
    return [
        card["name"]
        for card in catalog.get("cards", [])
        if isinstance(card, dict) and isinstance(card.get("name"), str)
    ]


def game_path(path: str, game: GameEntry) -> str:
    """The generic path with the game's slug in place of {game}."""
    return path.replace("{game}", game.slug)


def operation_id(operation_id: str, game: GameEntry) -> str:
    return f"{operation_id}_{re.sub(r'[^A-Za-z0-9]+', '_', game.slug)}"


def shipped_catalog(game: GameEntry) -> dict[str, Any]:
    try:
        data = json.loads(game.catalog_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def card_schema(game: GameEntry) -> dict[str, Any]:
    """What names a card of this game in a request: text (its name in any case, or its slug) and,
    where the game numbers its cards, its value. The shipped catalog's names are the examples."""
    catalog = shipped_catalog(game)
    names = card_names(game)
    numbered = any(
        isinstance(attribute, dict)
        and attribute.get("key") == VALUE_ATTRIBUTE
        and attribute.get("kind") == "integer"
        for attribute in catalog.get("attributes", [])
    )
    description = (
        f"a card of the game's catalog (GET /api/games/{game.slug}/cards/ lists them): "
        f"its name in any case, or its slug"
    )
    # Any text is read (a slug, another case, a card an admin added), so the shipped names
    # (a component of their own) are one choice beside any other text: together exactly the
    # values read, and a client or a fuzzer sees the names a real request uses. ("Any other
    # text" rather than "any text": a fuzzer folds a choice another choice holds into it.)
    choices: list[dict[str, Any]] = []
    if names:
        names_ref = {"$ref": COMPONENTS + card_names_name(game)}
        choices += [names_ref, {"type": "string", "minLength": 1, "not": names_ref}]
    else:
        choices.append({"type": "string", "minLength": 1})
    if numbered:
        choices.append({"type": "integer"})
        description += "; or its value, a whole number"
    if len(choices) == 1:
        return {**choices[0], "description": description}
    return {"anyOf": choices, "description": description}


def attribute_choices(game: GameEntry, key: str) -> list[str]:
    """The values and labels of a catalog attribute's choices (a faction: "amber-coast",
    "Amber Coast"), as the game ships them."""
    for attribute in shipped_catalog(game).get("attributes", []):
        if isinstance(attribute, dict) and attribute.get("key") == key:
            choices = [
                choice for choice in attribute.get("choices") or [] if isinstance(choice, dict)
            ]
            return list(
                dict.fromkeys(
                    str(choice[part])
                    for choice in choices
                    for part in ("label", "value")
                    if part in choice
                )
            )
    return []


def _choice_schema(node: dict[str, Any], game: GameEntry) -> dict[str, Any]:
    """A value naming one of an attribute's choices: its listed values and labels, or any other
    text (read in any case)."""
    plain = {key: value for key, value in node.items() if key != ATTRIBUTE_CHOICE_MARK}
    choices = attribute_choices(game, node[ATTRIBUTE_CHOICE_MARK])
    if not choices:
        return plain
    listed = {"type": "string", "enum": choices}
    other = {key: value for key, value in plain.items() if key in ("type", "pattern", "minLength")}
    kept = {key: value for key, value in plain.items() if key not in other}
    return {"anyOf": [listed, {**other, "not": listed}], **kept}


def _name_cards(node: Any, card: dict[str, Any], game: GameEntry | None = None) -> Any:
    """The schema with every card-name mark replaced by the game's own card schema (the field's
    own description, if any, kept), and every attribute-choice mark by the attribute's choices."""
    if isinstance(node, list):
        return [_name_cards(item, card, game) for item in node]
    if not isinstance(node, dict):
        return node
    if ATTRIBUTE_CHOICE_MARK in node and game is not None:
        return _choice_schema(node, game)
    if node.get(CARD_NAME_MARK):
        kept = {
            key: value
            for key, value in node.items()
            if key in ("description", "title", "default", "nullable")
        }
        described = {**card, **kept}
        if kept.get("description") and kept["description"] != CARD_NAME_JSON_SCHEMA["description"]:
            described["description"] = f"{kept['description']}: {card['description']}"
        else:
            described["description"] = card["description"]
        return described
    return {key: _name_cards(value, card, game) for key, value in node.items()}


def request_schemas(game: GameEntry) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The game's components (both jobs' models, read together so a model both read is one
    component) and each job's body: a reference, or `oneOf` references."""
    jobs = [(kind, job) for kind in (RULING, SCORE) if (job := game.job(kind)) is not None]
    classes = {kind: list(job.request_models) for kind, job in jobs}
    every = list(dict.fromkeys(cls for kind in classes for cls in classes[kind]))
    prefix = component_prefix(game)
    components: dict[str, Any] = {}
    bodies: dict[str, dict[str, Any]] = {}
    refs: dict[Any, Any] = {}
    if every:
        refs, top = models_json_schema(
            [(cls, "validation") for cls in every], ref_template=COMPONENTS + prefix + "{model}"
        )
        card = card_schema(game)
        components = {
            prefix + name: _name_cards(openapi_30(schema), card, game)
            for name, schema in top.get("$defs", {}).items()
        }
        if names := card_names(game):
            components[card_names_name(game)] = {
                "type": "string",
                "enum": names,
                "description": "The names of the cards the game ships, as its catalog spells them.",
            }
    for kind, _job in jobs:
        if not classes[kind]:  # a game that declares no model: its body is described in words
            bodies[kind] = {
                "type": "object",
                "description": "This game declares no request model; the "
                "description gives its body.",
            }
            continue
        choices = [dict(refs[(cls, "validation")]) for cls in classes[kind]]
        bodies[kind] = choices[0] if len(choices) == 1 else {"oneOf": choices}
    return components, bodies


def _request_examples(game: GameEntry, kind: str) -> dict[str, Any]:
    examples = [
        example for example in game.docs(f"{kind.upper()}_EXAMPLES") if not example.response_only
    ]
    return build_examples_list(examples)


def _body(schema: dict[str, Any], examples: dict[str, Any]) -> dict[str, Any]:
    content: dict[str, Any] = {"schema": schema}
    if examples:
        content["examples"] = examples
    return {"content": {"application/json": content}, "required": True}


def publish_game_bodies(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """The postprocessing hook: see the module's docstring."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    bodies: dict[tuple[str, str], dict[str, Any]] = {}
    for game in games():
        components, game_bodies = request_schemas(game)
        schemas.update(components)
        for kind, body in game_bodies.items():
            schemas[body_name(game, kind)] = body
            bodies[(game.slug, kind)] = {"$ref": COMPONENTS + body_name(game, kind)}
    paths: dict[str, Any] = {}
    for path, item in result.get("paths", {}).items():
        paths[path] = item
        for method, operation in list(item.items()):
            mark = operation.pop(GAME_JOB_MARK, None) if isinstance(operation, dict) else None
            if mark is None:
                continue
            kind = mark["kind"]
            games_doing = [game for game in games() if (game.slug, kind) in bodies]
            if not games_doing:
                continue
            generic = (
                operation.get("requestBody", {}).get("content", {}).get("application/json", {})
            )
            for parameter in operation.get("parameters", []):
                if parameter.get("in") == "path" and parameter.get("name") == "game":
                    # Any other slug is a 404: the games that do this job are the values.
                    parameter["schema"] = {
                        **parameter.get("schema", {}),
                        "type": "string",
                        "enum": [game.slug for game in games_doing],
                    }
            operation["requestBody"] = _body(
                {
                    "anyOf": [bodies[(game.slug, kind)] for game in games_doing],
                    "description": "The body of the game named in the path; each game's is its own "
                    "operation, at its own path.",
                },
                generic.get("examples", {}),
            )
            for game in games_doing:
                own = copy.deepcopy(operation)
                own["operationId"] = operation_id(operation["operationId"], game)
                own["summary"] = f"{operation.get('summary', '')}: {game.slug}".lstrip(": ")
                own["description"] = (
                    "\n\n".join(
                        filter(
                            None,
                            [
                                mark["description"].strip(),
                                game.docs(f"{kind.upper()}_DOCS").strip(),
                            ],
                        )
                    )
                    + "\n"
                )
                parameters = [
                    parameter
                    for parameter in own.get("parameters", [])
                    if not (parameter.get("in") == "path" and parameter.get("name") == "game")
                ]
                if parameters:
                    own["parameters"] = parameters
                else:
                    own.pop("parameters", None)
                own["requestBody"] = _body(bodies[(game.slug, kind)], _request_examples(game, kind))
                paths.setdefault(game_path(path, game), {})[method] = own
    result["paths"] = paths
    return result
