"""A JSON body's shape costs what its size does: nesting is capped early (a 400 naming the depth)
and the text check builds the path of a value only when it reports one.

Before: a 61 kB body (200 keys of 150 characters, one inside the other, around a list of 15,000
numbers) grew a worker by ~430 MB, since the text check built one path string per list item, each
as long as every key above it.
"""

import io
import json
import tracemalloc

import pytest

from common import parsers
from common.parsers import MAX_DEPTH, TextJSONParser

pytestmark = pytest.mark.django_db

RULINGS = "/api/games/academy-credits/rulings/"


def nested(levels: int, inner: str = "0", key: str = "k" * 150) -> str:
    """`levels` objects, one inside the other, each with one long key, around `inner`."""
    return (
        (json.dumps(key) + ":").join(["{"] * levels) + json.dumps(key) + ":" + inner + "}" * levels
    )


def test_the_reported_body_is_a_400_naming_the_depth(client, catalog):
    body = ('{"' + "k" * 150 + '":') * 200 + "[" + ",".join(["0"] * 15000) + "]" + "}" * 200
    assert len(body) > 60_000
    response = client.post(RULINGS, body, content_type="application/json")
    answer = response.json()
    assert response.status_code == 400
    assert set(answer) == {"status", "code", "detail", "errors"} and answer["status"] == 400
    assert answer["code"] == "nested_too_deeply"
    assert answer["detail"].startswith(
        f"The request body is nested more than {MAX_DEPTH} levels deep (level {MAX_DEPTH + 1} at "
    )
    assert answer["detail"].endswith(
        f"at most {MAX_DEPTH} levels of objects and lists are accepted."
    )
    [entry] = answer["errors"]
    assert entry["code"] == "nested_too_deeply" and entry["path"].startswith("k" * 79)


@pytest.mark.parametrize("inner", ["[0]", "{}", "[[]]"])
def test_one_level_past_the_cap_is_refused_and_the_cap_itself_is_not(client, catalog, inner):
    # `inner` adds one level of its own (and [[]] two, the inner list being empty).
    extra = inner.count("[") + inner.count("{")
    for levels, refused in ((MAX_DEPTH - extra, False), (MAX_DEPTH - extra + 1, True)):
        body = nested(levels, inner)
        answer = client.post(RULINGS, body, content_type="application/json").json()
        assert (answer["code"] == "nested_too_deeply") is refused, (levels, answer)
        if not refused:  # checked as any body is: the rulings' own 400 for a body of no position
            assert answer["status"] == 400 and answer["code"] != "malformed_request"


def test_a_list_under_long_keys_builds_no_path_for_its_items():
    """30 levels of 150-character keys around 15,000 numbers: one path string per item would
    take 68 MB; the check keeps well under a tenth of that (a generous bound, not a timing)."""
    body = nested(MAX_DEPTH - 2, "[" + ",".join(["0"] * 15000) + "]").encode()
    tracemalloc.start()
    try:
        TextJSONParser().parse(io.BytesIO(body), "application/json")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 6_000_000, peak


def test_paths_are_built_only_for_the_values_reported(monkeypatch):
    built = []
    real = parsers.path_of

    def counting(place, root=""):
        built.append(place)
        return real(place, root)

    monkeypatch.setattr(parsers, "path_of", counting)
    data = {"a": {"b": ["ok"] * 5000 + ["bad\ud800", "ok"]}, "c\udc00": 1}
    entries = parsers.invalid_text_entries(data)
    assert [entry["path"] for entry in entries] == ["a.b[5000]", "c\\udc00"]  # document order
    assert len(built) == 2
