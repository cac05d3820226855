"""docs/API.md, the HTTP contract kept in the repository, checked against the OpenAPI schema the
code generates: the same endpoints, every error code the schema names documented, and each
game's body fields as its request models declare them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import get_args

import pytest
from drf_spectacular.generators import SchemaGenerator
from jsonschema import Draft4Validator
from pydantic import BaseModel

from common.schema import openapi_30
from games.api_schema import card_schema, component_prefix, game_path
from games.package import RULING, SCORE
from games.registry import GAMES

ROOT = Path(__file__).resolve().parent.parent
CONTRACT = (ROOT / "docs" / "API.md").read_text(encoding="utf-8")
METHODS = ("get", "post", "put", "patch", "delete")
# An endpoint in the contract's tables: `GET /api/games/{game}/cards/named/?exact=…`.
DOCUMENTED = re.compile(r"`(GET|POST|PUT|PATCH|DELETE) (/[^`\s?]*)")
CODE = re.compile(r"`([a-z]+(?:_[a-z]+)+)`")
# The schema and its page describe the API; they are not operations of it.
ABOUT_THE_API = {("GET", "/api/schema/"), ("GET", "/api/docs/")}


@pytest.fixture(scope="module")
def schema() -> dict:
    return SchemaGenerator().get_schema(request=None, public=True)


def operations(schema: dict) -> set[tuple[str, str]]:
    return {
        (method.upper(), path)
        for path, item in schema["paths"].items()
        for method in item
        if method in METHODS
    }


def pattern(path: str) -> re.Pattern:
    """A path whose {parameters} match any one segment (the contract says {id} where the schema
    says {result_id}; a game's own path is the {game} path with its slug)."""
    parts = re.split(r"\{[^}]+\}", path)
    return re.compile("[^/]+".join(re.escape(part) for part in parts) + r"\Z")


def test_the_contracts_endpoints_are_the_schemas(schema):
    documented = set(DOCUMENTED.findall(CONTRACT))
    generated = operations(schema)
    undocumented = sorted(
        (method, path)
        for method, path in generated
        if not any(
            method == doc_method and pattern(doc_path).match(path)
            for doc_method, doc_path in documented
        )
    )
    assert undocumented == [], f"in the schema, not in docs/API.md: {undocumented}"
    missing = sorted(
        (method, path)
        for method, path in documented - ABOUT_THE_API
        if not any(
            method == generated_method
            and (pattern(path).match(generated_path) or pattern(generated_path).match(path))
            for generated_method, generated_path in generated
        )
    )
    assert missing == [], f"in docs/API.md, not in the schema: {missing}"


def test_the_schema_and_its_page_are_served(client):
    for _method, path in sorted(ABOUT_THE_API):
        assert client.get(path).status_code == 200, path


def test_each_game_has_its_own_score_and_ruling_operation(schema):
    """The {game} paths' bodies are typed per game: each game that does a job has its own
    operation, whose body is that game's (never a bare object) and whose examples are its own."""
    for game in GAMES:
        for kind, job_path in (
            (RULING, "/api/games/{game}/rulings/"),
            (SCORE, "/api/games/{game}/score/"),
        ):
            if game.job(kind) is None:
                assert game_path(job_path, game) not in schema["paths"]
                continue
            operation = schema["paths"][game_path(job_path, game)]["post"]
            body = operation["requestBody"]
            assert body["required"] is True
            content = body["content"]["application/json"]
            assert content["schema"] != {"type": "object"}
            examples = [example["value"] for example in content.get("examples", {}).values()]
            own = [
                example.value
                for example in game.docs(f"{kind.upper()}_EXAMPLES")
                if not example.response_only
            ]
            assert examples == own
            generic = schema["paths"][job_path]["post"]["requestBody"]["content"]
            assert content["schema"] in generic["application/json"]["schema"]["anyOf"]


def test_the_bodies_refuse_what_the_models_refuse(schema):
    """The models are strict and refuse unknown fields: so does their schema (additionalProperties
    false), and a model that takes fields of its own says so."""
    components = schema["components"]["schemas"]
    checked = 0
    for game in GAMES:
        prefix = component_prefix(game)
        models = {
            model
            for kind in (RULING, SCORE)
            if game.job(kind)
            for cls in game.job(kind).request_models
            for model in _models(cls)
        }
        for model in models:
            component = components[prefix + model.__name__]
            shaped = next(
                choice
                for choice in [component, *component.get("anyOf", [])]
                if choice.get("type") == "object"
            )
            expected = model.model_config.get("extra") != "forbid"
            assert shaped["additionalProperties"] is expected, (game.slug, model.__name__)
            checked += 1
    assert checked >= len(GAMES)


def _models(cls: type[BaseModel]) -> set[type[BaseModel]]:
    """The model and every model its fields hold."""
    seen: dict[str, type[BaseModel]] = {}

    def visit(model: type[BaseModel]) -> None:
        if model.__name__ in seen:
            return
        seen[model.__name__] = model
        for field in model.model_fields.values():
            for inner in _models_in(field.annotation):
                visit(inner)

    visit(cls)
    return set(seen.values())


def _models_in(annotation) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [model for arg in get_args(annotation) for model in _models_in(arg)]


def error_codes(schema: dict) -> dict[str, set[str]]:
    """Every error code the schema names, and where: the codes of its 4xx examples, the codes
    its 4xx answers' descriptions name, the **Errors.** paragraph of each operation, and each
    game's 400s (its "`impossible_position` entries: …" and "400s: …")."""
    named: dict[str, set[str]] = {}

    def add(code, where: str) -> None:
        if isinstance(code, str) and code:
            named.setdefault(code, set()).add(where)

    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if method not in METHODS:
                continue
            where = f"{method.upper()} {path}"
            for paragraph in operation.get("description", "").split("\n\n"):
                if paragraph.startswith("**Errors.**"):
                    for code in CODE.findall(paragraph):
                        add(code, where)
                for part in re.findall(
                    r"(?:`impossible_position` entries:|400s?:)(.*?)"
                    r"(?:\.\s|\.\Z|\Z)",
                    paragraph,
                    re.S,
                ):
                    for code in CODE.findall(part):
                        add(code, where)
            for status, response in operation.get("responses", {}).items():
                if not status.startswith("4"):
                    continue
                for code in CODE.findall(response.get("description", "")):
                    add(code, where)
                content = response.get("content", {}).get("application/json", {})
                for example in content.get("examples", {}).values():
                    value = example.get("value") or {}
                    add(value.get("code"), where)
                    for entry in value.get("errors", []):
                        add(entry.get("code"), where)
    return named


def test_every_error_code_the_schema_names_is_in_the_contract(schema):
    named = error_codes(schema)
    assert {"invalid_input", "unknown_card", "impossible_position"} <= set(named)
    documented = set(CODE.findall(CONTRACT))
    missing = {code: sorted(where)[0] for code, where in named.items() if code not in documented}
    assert missing == {}, f"error codes the schema names that docs/API.md does not: {missing}"


def bodies_section() -> dict[str, str]:
    """docs/API.md's "The bodies of each game": each game's subsection by its heading."""
    section = CONTRACT.split("## The bodies of each game", 1)[1].split("\n## ", 1)[0]
    parts = re.split(r"^### (.+)$", section, flags=re.M)
    return {title.strip(): text for title, text in zip(parts[1::2], parts[2::2], strict=True)}


def shipped_name(game) -> str:
    return json.loads(game.catalog_file.read_text(encoding="utf-8"))["game"]["name"]


def documented_fields(cls: type[BaseModel]) -> set[str]:
    """A body's top-level fields and, for a field that is itself an object (a ruling's position
    and move), that object's fields."""
    fields: set[str] = set()
    for name, field in cls.model_fields.items():
        fields.add(field.alias or name)
        for inner in _models_in(field.annotation):
            fields |= {info.alias or key for key, info in inner.model_fields.items()}
    return fields


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.slug)
def test_each_games_body_fields_are_in_the_contract(game):
    sections = bodies_section()
    name = shipped_name(game)
    assert name in sections, f"docs/API.md has no section for {name}"
    text = sections[name]
    for kind in (RULING, SCORE):
        job = game.job(kind)
        for cls in job.request_models if job else []:
            missing = sorted(field for field in documented_fields(cls) if f'"{field}"' not in text)
            assert missing == [], f"{name} {kind} ({cls.__name__}): not in docs/API.md: {missing}"


def _enum_values(node) -> set[str]:
    if isinstance(node, list):
        return {value for item in node for value in _enum_values(item)}
    if not isinstance(node, dict):
        return set()
    own = {value for value in node.get("enum", []) if isinstance(value, str)}
    return own | {
        value for key, item in node.items() if key != "enum" for value in _enum_values(item)
    }


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.slug)
def test_the_contract_names_no_field_the_game_does_not_read(game, schema):
    """Every quoted name in the game's section of the contract is a field of one of its request
    models (at any depth) or a value its schema lists (an action, "health"); where a model takes
    fields of its own (a card's choice), those are the catalog's attributes."""
    text = bodies_section()[shipped_name(game)]
    models = {
        model
        for kind in (RULING, SCORE)
        if game.job(kind)
        for cls in game.job(kind).request_models
        for model in _models(cls)
    }
    known = {info.alias or name for model in models for name, info in model.model_fields.items()}
    prefix = component_prefix(game)
    known |= {
        value
        for name, component in schema["components"]["schemas"].items()
        if name.startswith(prefix) and not name.endswith("CardName")
        for value in _enum_values(component)
    }
    if any(model.model_config.get("extra") == "allow" for model in models):
        catalog = json.loads(game.catalog_file.read_text(encoding="utf-8"))
        known |= {attribute["key"] for attribute in catalog.get("attributes", [])}
    quoted = set(re.findall(r'"([a-z][a-z_]*)"', text))
    assert sorted(quoted - known) == []


def json_schema(node):
    """An OpenAPI 3.0 schema as plain JSON Schema: `nullable` as a null alternative."""
    if isinstance(node, list):
        return [json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {key: json_schema(value) for key, value in node.items() if key != "nullable"}
    if node.get("nullable"):
        return {"anyOf": [converted, {"type": "null"}]}
    return converted


def validator(schema: dict, body: dict) -> Draft4Validator:
    return Draft4Validator({**json_schema(body), "components": json_schema(schema["components"])})


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.slug)
def test_each_games_examples_are_bodies_of_its_schema(game, schema):
    """The examples the schema gives a game's operation are valid against that operation's body,
    and a body the models refuse as a whole (an unknown field) is not."""
    for kind, job_path in (
        (RULING, "/api/games/{game}/rulings/"),
        (SCORE, "/api/games/{game}/score/"),
    ):
        if game.job(kind) is None or not game.job(kind).request_models:
            continue
        content = schema["paths"][game_path(job_path, game)]["post"]["requestBody"]["content"]
        check = validator(schema, content["application/json"]["schema"])
        examples = [
            example["value"] for example in content["application/json"]["examples"].values()
        ]
        assert examples
        for example in examples:
            assert list(check.iter_errors(example)) == [], example
            assert not check.is_valid({**example, "an_unknown_field": 1})


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.slug)
def test_a_card_named_any_way_the_api_reads_is_valid(game, schema):
    """Where a body names a card, the schema takes every way the API reads: the catalog's name,
    its slug, the name in another case; and refuses what it refuses (no text at all)."""
    cards = json.loads(game.catalog_file.read_text(encoding="utf-8"))["cards"]
    check = Draft4Validator(
        {**json_schema(card_schema(game)), "components": json_schema(schema["components"])}
    )
    card = cards[0]
    for name in (card["name"], card["slug"], card["name"].upper()):
        assert check.is_valid(name), name
    assert not check.is_valid("")
    assert not check.is_valid(None)


def test_pydantic_json_schema_reads_as_openapi_30():
    ref = {"$ref": "#/components/schemas/Move"}
    assert openapi_30({"const": "play", "type": "string"}) == {"type": "string", "enum": ["play"]}
    assert openapi_30({"anyOf": [ref, {"type": "null"}], "description": "a move"}) == {
        "allOf": [ref],
        "description": "a move",
        "nullable": True,
    }
    assert openapi_30(
        {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}], "le": 9}
    ) == {"type": "integer", "minimum": 0, "maximum": 9, "nullable": True}
    assert openapi_30({"type": "integer", "minimum": 0, "ge": 2}) == {
        "type": "integer",
        "minimum": 2,
    }
    assert openapi_30({"anyOf": [{"enum": ["a"], "type": "string"}, {"type": "null"}]}) == {
        "enum": ["a", None],
        "type": "string",
        "nullable": True,
    }
    assert openapi_30({**ref, "description": "x"}) == {"allOf": [ref], "description": "x"}
