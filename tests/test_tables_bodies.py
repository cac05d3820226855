"""Issue 31: the table API reads each body one way, through its pydantic model (tables/bodies.py,
common.requests.read_body), so every problem of a body is an entry of API.md's error body at its
field (`required`, `invalid_type`, `unknown_field`), all at once, and nothing changes; the
services get typed values. Each refused body has its legal neighbour, which acts. The API schema
documents the same models (common/request_schema.py)."""

import json

import pytest
from drf_spectacular.generators import SchemaGenerator

from tables.models import Event, Table

pytestmark = pytest.mark.django_db

GAME = "star-trek-missions"
TOMALAK = [
    "Commander Tomalak",
    "Captain Jean-Luc Picard",
    "Commander William Riker",
    "Lieutenant Commander Data",
]


def post(api, url, data, token=None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return api.post(url, data=json.dumps(data), content_type="application/json", **headers)


def delete(api, url, data, token):
    return api.delete(
        url,
        data=json.dumps(data),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )


def entries(response) -> list[tuple[str, str]]:
    """The (path, code) of each entry of a 400 invalid_input."""
    payload = response.json()
    assert response.status_code == 400, payload
    assert payload["code"] == "invalid_input", payload
    assert {"status", "code", "detail", "errors"} <= set(payload)
    return [(entry["path"], entry["code"]) for entry in payload["errors"]]


@pytest.fixture
def table(api) -> dict:
    """A table of three, seat 2 claimed: its code, version, the host's and seat 2's tokens."""
    made = post(api, "/api/tables/", {"game": GAME, "players": ["Ana", "Ben", "Cy"]}).json()
    seat = api.post(f"/api/tables/{made['code']}/seats/2/claim/").json()["seat_token"]
    return {
        "code": made["code"],
        "host": made["host_token"],
        "seat": seat,
        "version": Table.objects.get(code=made["code"]).version,
    }


def version(code: str) -> int:
    return Table.objects.get(code=code).version


# --- Starting a table ----------------------------------------------------------------------------


def test_a_new_table_without_game_or_players_names_both_as_required(api):
    assert entries(post(api, "/api/tables/", {})) == [("game", "required"), ("players", "required")]
    assert not Table.objects.exists()


def test_a_new_tables_fields_of_the_wrong_type_are_each_named(api):
    response = post(api, "/api/tables/", {"game": 7, "players": ["Ana", 3, None], "from": 5})
    assert entries(response) == [
        ("game", "invalid_type"),
        ("players[1]", "invalid_type"),
        ("players[2]", "invalid_type"),
        ("from", "invalid_type"),
    ]
    assert "players[1] must be text; got the number 3." in [
        entry["detail"] for entry in response.json()["errors"]
    ]
    assert not Table.objects.exists()


def test_an_unknown_field_of_a_new_table_is_refused_with_the_field_meant(api):
    response = post(api, "/api/tables/", {"game": GAME, "players": ["Ana", "Ben"], "form": "x"})
    assert entries(response) == [("form", "unknown_field")]
    assert response.json()["errors"][0]["suggestions"] == ["from"]
    assert not Table.objects.exists()


def test_the_legal_neighbours_of_the_refused_new_tables_start(api):
    first = post(api, "/api/tables/", {"game": GAME, "players": ["Ana", "Ben"]})
    assert first.status_code == 201, first.json()
    carried = post(
        api, "/api/tables/", {"game": GAME, "players": ["Ana", "Ben"], "from": first.json()["code"]}
    )
    assert carried.status_code == 201, carried.json()
    assert carried.json()["state"]["tally"] == {"Ana": 0, "Ben": 0}
    # What a type cannot say is still the service's: a table that is not there.
    nowhere = post(api, "/api/tables/", {"game": GAME, "players": ["Ana", "Ben"], "from": "zzz"})
    assert entries(nowhere) == [("from", "unknown_table")]


# --- Events --------------------------------------------------------------------------------------


def test_an_event_without_a_kind_names_it_as_required(api, table):
    response = post(
        api,
        f"/api/tables/{table['code']}/events/",
        {"seat": 1, "version": table["version"], "body": {"hand": TOMALAK}},
        table["host"],
    )
    assert entries(response) == [("kind", "required")]
    assert not Event.objects.exists()


def test_every_field_of_an_event_of_the_wrong_type_is_named_at_once(api, table):
    response = post(
        api,
        f"/api/tables/{table['code']}/events/",
        {"kind": 3, "seat": True, "version": "4", "body": [TOMALAK]},
        table["host"],
    )
    assert entries(response) == [
        ("kind", "invalid_type"),
        ("seat", "invalid_type"),
        ("version", "invalid_type"),
        ("body", "invalid_type"),
    ]
    assert not Event.objects.exists()
    assert version(table["code"]) == table["version"]


def test_a_field_an_event_does_not_have_is_refused(api, table):
    response = post(
        api,
        f"/api/tables/{table['code']}/events/",
        {"kind": "hand", "seat": 1, "version": table["version"], "body": {}, "hand": TOMALAK},
        table["host"],
    )
    assert entries(response) == [("hand", "unknown_field")]
    assert not Event.objects.exists()


def test_the_legal_neighbour_of_a_refused_event_is_recorded(api, table):
    response = post(
        api,
        f"/api/tables/{table['code']}/events/",
        {"kind": "hand", "seat": 1, "version": table["version"], "body": {"hand": TOMALAK}},
        table["host"],
    )
    assert response.status_code == 201, response.json()
    assert response.json()["event"]["result"]["total"] == 13
    # What a type cannot say is still the service's: a kind the game does not take.
    unknown = post(
        api,
        f"/api/tables/{table['code']}/events/",
        {"kind": "turn", "seat": 1, "version": version(table["code"])},
        table["host"],
    )
    assert entries(unknown) == [("kind", "unknown_kind")]


# --- The handover, the undo and the release ------------------------------------------------------


def test_a_handover_without_seat_or_version_names_both_as_required(api, table):
    response = post(api, f"/api/tables/{table['code']}/host/", {}, table["host"])
    assert entries(response) == [("seat", "required"), ("version", "required")]
    response = post(
        api, f"/api/tables/{table['code']}/host/", {"seat": "2", "version": 1.0}, table["host"]
    )
    assert entries(response) == [("seat", "invalid_type"), ("version", "invalid_type")]
    assert Table.objects.get(code=table["code"]).host_seat is None


def test_the_legal_neighbour_of_a_refused_handover_hands_the_role_over(api, table):
    response = post(
        api,
        f"/api/tables/{table['code']}/host/",
        {"seat": 2, "version": table["version"]},
        table["host"],
    )
    assert response.status_code == 201, response.json()
    assert Table.objects.get(code=table["code"]).host_seat == 2


def test_an_undo_naming_its_version_wrongly_is_refused_at_the_field(api, table):
    url = f"/api/tables/{table['code']}/events/last/"
    assert entries(delete(api, url, {"version": "1"}, table["host"])) == [
        ("version", "invalid_type")
    ]
    assert entries(delete(api, url, {"version": 1, "seat": 2}, table["host"])) == [
        ("seat", "unknown_field")
    ]
    # No version at all, in the body or If-Match: the service's `missing`, as API.md says.
    assert entries(delete(api, url, {}, table["host"])) == [("version", "missing")]
    assert version(table["code"]) == table["version"]
    # Its legal neighbour reaches the undo: nothing to undo yet.
    nothing = delete(api, url, {"version": table["version"]}, table["host"])
    assert (nothing.status_code, nothing.json()["code"]) == (409, "nothing_to_undo")


def test_a_release_naming_its_version_wrongly_is_refused_and_its_neighbour_releases(api, table):
    url = f"/api/tables/{table['code']}/seats/2/claim/"
    assert entries(delete(api, url, {"version": True}, table["host"])) == [
        ("version", "invalid_type")
    ]
    assert Table.objects.get(code=table["code"]).seats.get(number=2).claimed
    response = delete(api, url, {"version": table["version"]}, table["host"])
    assert response.status_code == 200, response.json()
    assert not Table.objects.get(code=table["code"]).seats.get(number=2).claimed


# --- The schema ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def schema() -> dict:
    return SchemaGenerator().get_schema(request=None, public=True)


@pytest.mark.parametrize(
    ("path", "component", "required"),
    [
        ("/api/tables/", "TableCreateRequest", ["game", "players"]),
        ("/api/tables/{code}/events/", "EventRequest", ["kind"]),
        ("/api/tables/{code}/host/", "HandoverRequest", ["seat", "version"]),
    ],
)
def test_the_schema_documents_each_body_from_its_model(schema, path, component, required):
    body = schema["paths"][path]["post"]["requestBody"]
    assert body["required"] is True
    assert body["content"]["application/json"]["schema"] == {
        "$ref": f"#/components/schemas/{component}"
    }
    documented = schema["components"]["schemas"][component]
    assert documented["type"] == "object"
    assert documented["additionalProperties"] is False  # the model refuses unknown fields
    assert documented["required"] == required


def test_the_schema_names_the_fields_as_a_body_gives_them(schema):
    created = schema["components"]["schemas"]["TableCreateRequest"]["properties"]
    assert list(created) == ["game", "players", "from"]
    assert created["from"]["nullable"] is True  # OpenAPI 3.0's null, not JSON Schema's
    event = schema["components"]["schemas"]["EventRequest"]["properties"]
    assert (event["seat"]["type"], event["version"]["type"]) == ("integer", "integer")
    assert event["body"]["type"] == "object"
