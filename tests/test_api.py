"""The catalog API exactly as docs/API.md fixes it, and its error body for every 4xx."""

import pytest

from cards.models import Card
from tests.factories import AttributeDefinitionFactory, CardFactory, CardRulingFactory, GameFactory

pytestmark = pytest.mark.django_db


def assert_error_body(response, status, code):
    body = response.json()
    assert response.status_code == status, body
    assert set(body) == {"status", "code", "detail", "errors"}
    assert body["status"] == status and body["code"] == code
    assert isinstance(body["detail"], str) and body["detail"]
    return body


def test_game_list(api, catalog):
    body = api.get("/api/games/").json()
    by_slug = {g["slug"]: g for g in body}
    ac = by_slug["academy-credits"]
    assert ac["name"] == "Academy Credits"
    assert ac["players"] == {"min": 2, "max": 4}
    assert (ac["card_count"], ac["copies"]) == (11, 22)
    assert ac["links"]["cards"] == "/api/games/academy-credits/cards/"
    assert by_slug["star-trek-missions"]["card_count"] == 74
    from games.registry import GAMES

    assert [g["slug"] for g in body] == sorted(game.slug for game in GAMES)
    assert {"academy-credits", "factions", "star-realms-academy", "star-trek-missions"} <= set(
        by_slug
    )


def test_game_detail_has_rule_sections_options_and_attributes(api, catalog):
    body = api.get("/api/games/academy-credits/").json()
    ids = [s["id"] for s in body["rule_sections"]]
    assert "AC-4.1" in ids and "AC-R11" in ids
    assert all(set(s) >= {"id", "title"} for s in body["rule_sections"])
    options = {o["key"]: o for o in body["options"]}
    assert options["credits_target"]["value"] == {"2": 4, "3": 5, "4": 6}
    assert options["charles_vance_bonus"]["choices"] == ["literal", "still_in_round"]
    assert [a["key"] for a in body["attributes"]] == ["value", "effect"]


def test_rule_section(api, catalog):
    body = api.get("/api/games/academy-credits/rules/AC-4.1/").json()
    assert body["id"] == "AC-4.1"
    assert "Nahla Ake" in body["text"]
    assert body["url"] == "/games/academy-credits/#rule-AC-4.1"


def test_unknown_rule_section_suggests_ids(api, catalog):
    body = assert_error_body(
        api.get("/api/games/academy-credits/rules/AC-99/"), 404, "unknown_rule"
    )
    assert body["errors"][0]["path"] == "rule_id"
    assert body["errors"][0]["suggestions"]


def test_unknown_game(api, catalog):
    body = assert_error_body(api.get("/api/games/academy-credit/cards/"), 404, "unknown_game")
    assert "academy-credits" in body["errors"][0]["suggestions"]


def test_card_list_is_paginated_with_flat_attributes(api, catalog):
    body = api.get("/api/games/star-trek-missions/cards/?page_size=10").json()
    assert body["count"] == 74
    assert body["previous"] is None and "page=2" in body["next"]
    assert len(body["results"]) == 10
    card = body["results"][0]
    for field in (
        "slug",
        "name",
        "game",
        "copies",
        "text",
        "provenance",
        "provenance_note",
        "rulings",
        "url",
        "number",
        "deck",
        "type",
        "specialty",
        "lifeform",
        "affiliation",
    ):
        assert field in card


def test_card_list_search_and_filters(api, catalog):
    def names(query):
        response = api.get(f"/api/games/star-realms-academy/cards/?{query}")
        assert response.status_code == 200, response.json()
        return {c["name"] for c in response.json()["results"]}

    assert names("q=frigate") == {"Imperial Frigate"}
    assert names("faction=blob&kind=base") == {"The Hive", "Blob World"}
    assert names("cost=1") == {"Ram"}
    assert names("faction=blob&faction=star-empire&kind=base") == {
        "The Hive",
        "Blob World",
        "Recycling Station",
        "Fleet HQ",
    }
    assert names("provenance=verified") == set()
    # `q` also searches the rendered text.
    assert "Jett Reno" in {
        c["name"]
        for c in api.get("/api/games/academy-credits/cards/?q=trade hands").json()["results"]
    }


def test_card_list_multi_valued_filter(api, catalog):
    body = api.get(
        "/api/games/star-trek-missions/cards/?specialty=command&affiliation=klingon-empire"
    ).json()
    assert {c["name"] for c in body["results"]} >= {"Chancellor Gowron", "Commander Kurn"}
    assert all(
        "command" in c["specialty"] and "klingon-empire" in c["affiliation"]
        for c in body["results"]
    )


def test_card_list_ordering(api, catalog):
    values = [
        c["value"]
        for c in api.get("/api/games/academy-credits/cards/?ordering=-value").json()["results"]
    ]
    assert values == sorted(values, reverse=True) and values[0] == 10
    costs = [
        c["cost"]
        for c in api.get("/api/games/star-realms-academy/cards/?ordering=cost").json()["results"]
    ]
    assert costs[0] == 1 and costs[-1] is None  # unknown values sort last


@pytest.mark.parametrize(
    "query, path, code",
    [
        ("faction=purple", "query.faction", "invalid_filter"),
        ("cost=cheap", "query.cost", "invalid_filter"),
        ("colour=red", "query.colour", "unknown_parameter"),
        ("ordering=price", "query.ordering", "invalid_ordering"),
        ("provenance=sure", "query.provenance", "invalid_filter"),
        ("page_size=1000", "query.page_size", "invalid_page_size"),
    ],
)
def test_bad_filters_are_400_naming_the_parameter(api, catalog, query, path, code):
    body = assert_error_body(
        api.get(f"/api/games/star-realms-academy/cards/?{query}"), 400, "invalid_filter"
    )
    assert body["errors"][0]["path"] == path and body["errors"][0]["code"] == code


def test_bad_filter_value_suggests_the_right_one(api, catalog):
    body = api.get("/api/games/star-realms-academy/cards/?faction=blobb").json()
    assert body["errors"][0]["suggestions"][0] == "blob"


def test_page_past_the_end_is_404(api, catalog):
    assert_error_body(api.get("/api/games/academy-credits/cards/?page=9"), 404, "not_found")


def test_one_card(api, catalog):
    body = api.get("/api/games/academy-credits/cards/jett-reno/").json()
    assert body["name"] == "Jett Reno" and body["value"] == 7 and body["copies"] == 1
    assert body["text"] == "Choose another cadet and trade hands with them."
    assert body["provenance"] == "provisional" and body["provenance_note"]
    assert body["url"] == "/games/academy-credits/cards/jett-reno/"
    assert all(set(r) == {"date", "rule", "text"} for r in body["rulings"])


def test_one_card_lists_unknown_fields(api, catalog):
    body = api.get("/api/games/star-realms-academy/cards/corvette/").json()
    assert body["cost"] is None and "cost" in body["unknown"]
    assert body["provenance"] == "incomplete"


def test_unknown_card_slug_suggests(api, catalog):
    body = assert_error_body(
        api.get("/api/games/academy-credits/cards/jet-reno/"), 404, "unknown_card"
    )
    assert body["errors"][0]["suggestions"][0] == "Jett Reno"


@pytest.mark.parametrize(
    "query, name",
    [
        ("exact=jett%20reno", "Jett Reno"),
        ("exact=JETT%20RENO", "Jett Reno"),
        ("exact=jett-reno", "Jett Reno"),
        ("fuzzy=jet%20renno", "Jett Reno"),
        ("fuzzy=tarima", "Tarima Sadel"),
    ],
)
def test_named_exact_and_fuzzy(api, catalog, query, name):
    response = api.get(f"/api/games/academy-credits/cards/named/?{query}")
    assert response.status_code == 200, response.json()
    assert response.json()["name"] == name


def test_named_fuzzy_forgives_accents_and_punctuation(api, catalog):
    body = api.get(
        "/api/games/star-trek-missions/cards/named/?fuzzy=ambassador%20k%C3%A9hleyr"
    ).json()
    assert body["name"] == "Ambassador K'Ehleyr"
    body = api.get("/api/games/star-trek-missions/cards/named/?fuzzy=batleth").json()
    assert body["name"] == "Bat'leth"


def test_named_ambiguous_prefix_is_404_with_suggestions(api, catalog):
    body = assert_error_body(
        api.get("/api/games/star-trek-missions/cards/named/?fuzzy=commander"), 404, "unknown_card"
    )
    suggestions = body["errors"][0]["suggestions"]
    assert "Commander Kurn" in suggestions and "Commander Sela" in suggestions


def test_named_exact_does_not_guess(api, catalog):
    body = assert_error_body(
        api.get("/api/games/academy-credits/cards/named/?exact=jet%20reno"), 404, "unknown_card"
    )
    assert body["errors"][0]["suggestions"] == ["Jett Reno"]


@pytest.mark.parametrize("query", ["", "exact=", "exact=a&fuzzy=b"])
def test_named_needs_exactly_one_name(api, catalog, query):
    assert_error_body(
        api.get(f"/api/games/academy-credits/cards/named/?{query}"), 400, "invalid_input"
    )


def test_autocomplete(api, catalog):
    body = api.get("/api/games/star-trek-missions/cards/autocomplete/?q=comm").json()
    assert body["results"][:2] == ["Commander Bruce Maddox", "Commander Kurn"]
    assert "Lieutenant Commander Data" in body["results"]  # contains, after the prefixes


@pytest.mark.parametrize("q", ["", "zzzzzz", "%27%22%3B--", "x" * 5000])
def test_autocomplete_never_errors_and_caps_at_twenty(api, catalog, q):
    response = api.get(f"/api/games/star-trek-missions/cards/autocomplete/?q={q}")
    assert response.status_code == 200
    assert len(response.json()["results"]) <= 20


def test_autocomplete_unknown_game_is_empty_not_an_error(api, catalog):
    response = api.get("/api/games/chess/cards/autocomplete/?q=k")
    assert (response.status_code, response.json()) == (200, {"results": []})


def test_catalog_responses_carry_etag_and_cache_control(api, catalog):
    response = api.get("/api/games/academy-credits/cards/")
    assert "max-age=60" in response["Cache-Control"] and "public" in response["Cache-Control"]
    etag = response["ETag"]
    again = api.get("/api/games/academy-credits/cards/", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    Card.objects.filter(slug="jett-reno").first().save()  # unchanged content keeps the ETag
    card = Card.objects.get(slug="tarima-sadel")
    card.copies = 2
    card.save()
    assert api.get("/api/games/academy-credits/cards/", HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_unknown_api_path_and_method_use_the_error_body(api, catalog):
    assert_error_body(api.get("/api/nowhere/"), 404, "not_found")
    assert_error_body(api.post("/api/games/", {}, format="json"), 405, "method_not_allowed")


def test_schema_and_docs_are_served_offline(api, catalog):
    schema = api.get("/api/schema/?format=json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    assert "/api/games/{game}/cards/named/" in paths
    docs = api.get("/api/docs/")
    assert docs.status_code == 200
    html = docs.content.decode()
    assert "swagger-ui" in html and "http://" not in html.replace("http://testserver", "")
    assert "https://" not in html


def test_card_list_of_100_cards_takes_a_fixed_number_of_queries(api, django_assert_num_queries):
    game = GameFactory(slug="big-game", name="Big Game")
    AttributeDefinitionFactory(game=game)
    cards = CardFactory.create_batch(
        100,
        game=game,
        attributes={"colour": "red"},
        field_provenance={"copies": "verified", "colour": "verified"},
    )
    for card in cards[:10]:
        CardRulingFactory(card=card)
    # game lookup, attribute definitions, count, page of cards (with game), rulings
    with django_assert_num_queries(5):
        response = api.get("/api/games/big-game/cards/?page_size=100&colour=red")
    assert response.status_code == 200
    assert len(response.json()["results"]) == 100


@pytest.mark.parametrize(
    "url",
    [
        "/api/games/academy-credits/cards/?q=a%00b",
        "/api/games/academy-credits/cards/autocomplete/?q=%00",
        "/api/games/academy-credits/rules/AC%00-1/",
        "/api/games/academy-credits/cards/named/?fuzzy=je%00tt",
        "/api/games/academy-credits/cards/?value=%00",
        "/api/games/academy-credits/cards/?effect=%00",
    ],
)
def test_nul_characters_never_cause_a_server_error(api, catalog, url):
    # PostgreSQL refuses NUL in query text; the API must answer, not fail.
    assert api.get(url).status_code < 500


def test_openapi_schema_is_valid(tmp_path):
    from django.core.management import call_command

    # --validate raises on any schema that breaks the OpenAPI 3 specification.
    call_command(
        "spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yaml")
    )
    assert (tmp_path / "schema.yaml").read_text().startswith("openapi: 3")
