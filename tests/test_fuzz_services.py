"""Random positions for every game's score and ruling services: each answer is a result or a 4xx
in the error body, never a server error (hypothesis, in-process, bounded).

The bodies start from the request examples of the OpenAPI schema (one per game and endpoint, so
every game that lands is fuzzed too) and are mutated at random places: values replaced by other
JSON values, card names swapped for other cards or nonsense, numbers pushed out of range, keys
dropped or added; text that is not text (lone UTF-16 surrogates, in values and keys), names far
longer than any card's; and some bodies are sent in chunks (Transfer-Encoding: chunked)."""

import io
import json

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.models import Card

pytestmark = pytest.mark.django_db

ENDPOINTS = ("/api/games/{game}/score/", "/api/games/{game}/rulings/")


def _examples():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    found = []
    for path in ENDPOINTS:
        content = schema["paths"][path]["post"]["requestBody"]["content"]["application/json"]
        for example in content.get("examples", {}).values():
            game = example.get("summary", "").split(":")[0].strip()
            found.append(
                pytest.param(
                    path.replace("{game}", game),
                    example["value"],
                    id=f"{game}-{path.split('/')[-2]}-{len(found)}",
                )
            )
    return found


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=10,
)


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, prefix + (index,))


def _replace(value, path, new):
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _replace(value[head], rest, new)}
    copy = list(value)
    copy[head] = _replace(copy[head], rest, new)
    return copy


def _drop(value, path):
    if len(path) != 1:
        head, rest = path[0], path[1:]
        if isinstance(value, dict):
            return {**value, head: _drop(value[head], rest)}
        copy = list(value)
        copy[head] = _drop(copy[head], rest)
        return copy
    if isinstance(value, dict):
        return {k: v for k, v in value.items() if k != path[0]}
    return [v for i, v in enumerate(value) if i != path[0]]


lone_surrogate = st.integers(0xD800, 0xDFFF).map(chr)
bad_text = st.one_of(
    # A lone surrogate, alone or inside ordinary text ("Ana\ud800").
    st.tuples(st.text(max_size=6), lone_surrogate, st.text(max_size=6)).map("".join),
    # A name far longer than any card's: a few hundred to twenty thousand characters.
    st.tuples(st.sampled_from("xQ é-"), st.integers(100, 20_000)).map(lambda p: p[0] * p[1]),
)


@st.composite
def mutated(draw, body, names):
    for _ in range(draw(st.integers(1, 4))):
        paths = list(_paths(body))
        path = draw(st.sampled_from(paths))
        action = draw(st.sampled_from(["replace", "name", "number", "drop", "bad_text", "bad_key"]))
        if action == "drop" and path:
            body = _drop(body, path)
        elif action == "bad_text":
            body = _replace(body, path, draw(bad_text))
        elif action == "bad_key" and isinstance(body, dict):
            body = {**body, draw(bad_text): draw(json_values)}
        elif action == "name":
            body = _replace(body, path, draw(st.sampled_from(names)))
        elif action == "number":
            body = _replace(body, path, draw(st.integers(-3, 30)))
        else:
            body = _replace(body, path, draw(json_values))
    return body


@pytest.mark.parametrize("url, example", _examples())
def test_random_positions_get_a_result_or_a_4xx_never_an_exception(url, example, catalog):
    game = url.split("/")[3]
    names = list(Card.objects.filter(game__slug=game).values_list("name", flat=True)) + [
        "Nobody",
        "",
    ]
    client = Client(raise_request_exception=True)

    @settings(
        max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), database=None
    )
    @given(mutated(example, names), st.booleans())
    def check(body, chunked):
        data = json.dumps(body).encode()
        if chunked:
            # As gunicorn passes a chunked body on: no Content-Length, the chunks joined.
            response = client.generic(
                "POST",
                url,
                data,
                content_type="application/json",
                HTTP_TRANSFER_ENCODING="chunked",
                CONTENT_LENGTH="",
                **{"wsgi.input": io.BytesIO(data)},
            )
        else:
            response = client.post(url, data, content_type="application/json")
        assert response.status_code in (200, 400, 404, 413), (response.status_code, body)
        if response.status_code != 200:
            assert set(response.json()) == {"status", "code", "detail", "errors"}

    check()


@pytest.mark.parametrize("url, example", _examples())
def test_every_schema_example_is_a_valid_request(url, example, catalog):
    # The documented examples are what a client copies first: each must be answered, not refused.
    response = Client().post(url, json.dumps(example), content_type="application/json")
    assert response.status_code == 200, response.json()
