"""The web pages, through Django's test client: home, a game's rules, the catalog and a card."""

import html
import re

import pytest
from django.urls import reverse

from cards.models import Card, Game
from tests.factories import (
    AttributeDefinitionFactory,
    CardFactory,
    CardRulingFactory,
    GameFactory,
)

HTMX = {"HTTP_HX_REQUEST": "true"}


def tile_names(html: str) -> list[str]:
    return re.findall(r'<span class="tile__name">([^<]*)</span>', html)


def catalog_url(game: str) -> str:
    return reverse("pages:catalog", kwargs={"game": game})


# --- Home ------------------------------------------------------------------------------------


def test_home_lists_every_game_with_its_jobs(client, catalog):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    for name in ("Academy Credits", "Star Realms Academy", "Factions", "Star Trek: Missions"):
        assert name in html
    assert "2–4 players" in html  # Academy Credits
    assert "2+ players" in html  # no upper limit
    assert "11 cards" in html and "22 copies in all" in html
    assert f'href="{catalog_url("academy-credits")}"' in html
    # The jobs without a page yet are said to be coming, not linked.
    from games.registry import GAMES

    assert html.count("Browse the catalog") == len(GAMES)
    for label in ("Score a round", "Break down a turn", "Score a hand", "Check a move"):
        assert label in html
    # Pages that exist are linked (from GAMES); the rest are coming soon.
    built = [
        url for game in GAMES for job in (game.ruling, game.score) if job and (url := job.url())
    ]
    assert 'href="/games/star-trek-missions/check-move/"' in html
    assert all(f'href="{url}"' in html for url in built)
    assert html.count("coming soon") == 2 * len(GAMES) - len(built)
    assert 'href="/api/docs/"' in html and 'href="/admin/"' in html


def test_home_says_what_is_there_now(client, catalog):
    """Every game has its catalog, scores and rulings: the home page promises nothing for later."""
    html = client.get("/").content.decode()
    lede = re.search(r'<p class="lede">(.*?)</p>', html, re.S).group(1)
    assert "soon" not in lede
    assert "score a game" in lede and "settle a disputed move" in lede
    assert "coming soon" not in html  # every job of every game has its page


def test_home_offers_to_start_a_table(client, catalog):
    """A game night starts from the home page: "Start a table" is among the first links."""
    html = client.get("/").content.decode()
    quick = re.search(r'<nav class="quick-jobs".*?</nav>', html, re.S).group(0)
    first = re.search(
        r'<a class="quick-job[^"]*" href="([^"]+)"><span class="quick-job__label">'
        r"([^<]+)</span>",
        quick,
    )
    assert first.groups() == ("/t/", "Start a table")
    start = client.get("/t/")
    assert start.status_code == 200 and "Start the table" in start.content.decode()


def test_home_with_no_games(client, db):
    Card.objects.all().delete()
    Game.objects.all().delete()
    response = client.get("/")
    assert response.status_code == 200
    assert "No games yet" in response.content.decode()


def test_pages_load_nothing_from_elsewhere_and_run_no_inline_script(client, catalog):
    for url in (
        "/",
        "/games/academy-credits/",
        catalog_url("academy-credits"),
        "/games/academy-credits/cards/jett-reno/",
    ):
        html = client.get(url).content.decode()
        assert "<script>" not in html and "<script " not in html.replace("<script src=", "")
        assert "style=" not in html
        assert not re.search(r'(src|href)="(https?:)?//', html), url
        assert 'href="#main"' in html  # skip link


# --- Game page -------------------------------------------------------------------------------


def test_game_page_shows_rules_with_anchors_nested_sections_and_options(client, catalog):
    response = client.get("/games/academy-credits/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>Academy Credits</h1>" in html
    assert "2–4 players" in html and "11 cards" in html
    assert f'href="{catalog_url("academy-credits")}"' in html
    # Options: label, description and default value.
    assert "Credits target" in html and "2: 4, 3: 5, 4: 6" in html
    assert "Charles Vance bonus" in html and "literal" in html
    # Every rule section has its anchor, and children sit inside their parent section.
    assert '<section class="rule rule--level-3" id="rule-AC-R4"' in html
    assert "Card effects not spelled out" in html
    parent = html.index('id="rule-AC-2"')
    child = html.index('id="rule-AC-2.1"')
    next_parent = html.index('id="rule-AC-3"')
    assert parent < child < next_parent
    assert '<section class="rule rule--level-4" id="rule-AC-2.1"' in html
    # A table of contents links to the top-level sections.
    assert 'href="#rule-AC-R4"' in html
    # Line breaks are kept and HTML in the text is escaped.
    assert "<br>" in html or html.count("<p>") > 40


def test_game_page_escapes_rule_text(client, db):
    game = GameFactory(slug="escaped")
    game.rule_sections.create(
        rule_id="E-1", title="Tags", text="<b>bold</b>\nnext line", position=0
    )
    html = client.get("/games/escaped/").content.decode()
    assert "&lt;b&gt;bold&lt;/b&gt;<br>next line" in html


def test_unknown_game_is_a_404_page_with_suggestions(client, catalog):
    response = client.get("/games/academy/")
    assert response.status_code == 404
    html = response.content.decode()
    assert "There is no game &#x27;academy&#x27;." in html
    assert 'href="/games/academy-credits/"' in html
    assert 'href="/"' in html
    assert client.get(catalog_url("nope")).status_code == 404


def test_any_unknown_address_gets_the_friendly_404(client, db):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    assert "Nothing exists at this address." in response.content.decode()


@pytest.mark.parametrize(
    "url",
    [
        "/games/academy-credits/check-move/",
        "/games/academy-credits/score/",
        "/games/star-realms-academy/check-move/",
        "/games/star-realms-academy/score/",
        "/games/factions/check-move/",
        "/games/factions/score/",
        "/games/star-trek-missions/check-move/",
        "/games/star-trek-missions/score/",
        "/games/star-trek-missions/table/",
    ],
)
def test_a_game_page_before_its_catalog_is_loaded_says_so(client, db, url):
    # The pages of a game whose catalog is not loaded yet (a fresh database before load_catalog):
    # no game of that slug. Cards protect their game from deletion, so the games are renamed.
    for game in Game.objects.all():
        Game.objects.filter(pk=game.pk).update(slug=f"not-loaded-{game.pk}")
    response = client.get(url)
    assert response.status_code == 404
    text = html.unescape(re.sub(r"\s+", " ", response.content.decode()))
    assert "This game's cards are not in the catalog yet" in text
    assert 'href="/"' in text


def test_500_page_renders_without_context_or_database():
    from django.template.loader import render_to_string

    html = render_to_string("500.html")
    assert "Something went wrong" in html and 'href="/"' in html


# --- Catalog ---------------------------------------------------------------------------------


def test_catalog_shows_every_card_as_a_tile(client, catalog):
    response = client.get(catalog_url("academy-credits"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "11 cards" in html
    assert len(tile_names(html)) == 11
    assert 'href="/games/academy-credits/cards/jett-reno/"' in html
    # The value badge, the copies and the provenance badge of Jett Reno's tile.
    tile = html[html.index('href="/games/academy-credits/cards/jett-reno/"') :]
    tile = tile[: tile.index("</a>")]
    assert "Jett Reno" in tile
    assert "Value: </span>7</span>" in tile
    assert "×1" in tile and "1 copy" in tile
    assert "Trade hands" in tile
    assert "Provisional" in tile or "Verified" in tile
    # The form: search box wired to htmx, one select per filterable attribute, a real submit.
    assert 'name="q"' in html and 'hx-trigger="input changed delay:300ms, search"' in html
    assert 'hx-target="#results"' in html and 'hx-push-url="true"' in html
    assert '<select id="filter-value" name="value"' in html
    assert '<select id="filter-effect" name="effect"' in html
    assert '<select id="filter-provenance" name="provenance"' in html
    assert '<select id="filter-ordering" name="ordering"' in html
    assert '<button type="submit"' in html and 'method="get"' in html
    assert 'aria-live="polite"' in html


def test_star_realms_tiles_show_cost_faction_and_kind(client, catalog):
    html = client.get(catalog_url("star-realms-academy")).content.decode()
    assert "17 cards" in html
    assert len(tile_names(html)) == 17
    assert "tile--faction-blob" in html and "tile--faction-star-empire" in html
    ram = html[html.index('href="/games/star-realms-academy/cards/ram/"') :]
    ram = ram[: ram.index("</a>")]
    assert "Cost: </span>1</span>" in ram and "Ship" in ram and "Blob" in ram
    freighter = html[html.index('href="/games/star-realms-academy/cards/freighter/"') :]
    freighter = freighter[: freighter.index("</a>")]
    assert "tile__badge--unknown" in freighter and "unknown" in freighter
    assert "Incomplete" in freighter
    # Integer filters offer the values present.
    assert '<select id="filter-cost" name="cost"' in html
    assert '<option value="1">1</option>' in html


def test_star_trek_tiles_show_number_affiliation_and_type(client, catalog):
    html = client.get(catalog_url("star-trek-missions")).content.decode()
    assert "74 cards" in html
    assert "tile--faction-federation" in html and "tile--faction-klingon-empire" in html
    sarek = html[html.index('href="/games/star-trek-missions/cards/ambassador-sarek/"') :]
    sarek = sarek[: sarek.index("</a>")]
    assert "Number: </span>G02</span>" in sarek and "Galaxy · Civilian" in sarek
    for key in ("deck", "type", "specialty", "lifeform", "affiliation"):
        assert f'name="{key}"' in html


def test_filters_narrow_the_grid(client, catalog):
    html = client.get(catalog_url("academy-credits"), {"value": "7"}).content.decode()
    assert tile_names(html) == ["Jett Reno"]
    assert "1 card" in html

    html = client.get(catalog_url("star-realms-academy"), {"faction": "blob"}).content.decode()
    assert sorted(tile_names(html)) == ["Blob World", "Mothership", "Ram", "The Hive", "Trade Pod"]
    assert '<option value="blob" selected>' in html

    html = client.get(
        catalog_url("star-trek-missions"), {"affiliation": "klingon-empire", "deck": "galaxy"}
    ).content.decode()
    names = tile_names(html)
    assert names and len(names) < 74
    expected = Card.objects.filter(
        game__slug="star-trek-missions",
        attribute_values__key="affiliation",
        attribute_values__value="klingon-empire",
    ).filter(attributes__deck="galaxy")
    assert len(names) == expected.count()


def test_search_narrows_the_grid_and_empty_params_are_ignored(client, catalog):
    url = catalog_url("academy-credits")
    html = client.get(
        url, {"q": "reno", "value": "", "effect": "", "ordering": ""}
    ).content.decode()
    assert tile_names(html) == ["Jett Reno"]
    assert "matching “reno”" in html
    html = client.get(url, {"q": "zzzz"}).content.decode()
    assert tile_names(html) == [] and "No card matches" in html and "0 cards" in html


def test_ordering_and_provenance(client, catalog):
    url = catalog_url("academy-credits")
    html = client.get(url, {"ordering": "-value"}).content.decode()
    assert tile_names(html)[:2] == ["Tarima Sadel", "Nahla Ake"]
    html = client.get(catalog_url("star-realms-academy"), {"provenance": "incomplete"})
    incomplete = Card.objects.filter(game__slug="star-realms-academy", provenance="incomplete")
    assert 10 <= incomplete.count() < Card.objects.filter(game__slug="star-realms-academy").count()
    assert sorted(tile_names(html.content.decode())) == sorted(c.name for c in incomplete)


def test_htmx_request_gets_the_results_fragment_only(client, catalog):
    response = client.get(catalog_url("academy-credits"), {"q": "jett"}, **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html and "<form" not in html
    assert tile_names(html) == ["Jett Reno"]
    assert 'id="result-count" hx-swap-oob="innerHTML"' in html
    assert "HX-Request" in response["Vary"]
    # A history restore asks for the whole page.
    response = client.get(
        catalog_url("academy-credits"), HTTP_HX_HISTORY_RESTORE_REQUEST="true", **HTMX
    )
    assert "<html" in response.content.decode()


def test_bad_filter_is_a_400_page_with_the_message_and_no_results(client, catalog):
    response = client.get(catalog_url("star-realms-academy"), {"faction": "blub"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "&#x27;blub&#x27; is not a faction of this game" in html
    assert tile_names(html) == []
    assert 'role="alert"' in html
    assert "?faction=blob" in html  # the suggestion links to the corrected search

    response = client.get(catalog_url("academy-credits"), {"colour": "red"})
    assert response.status_code == 400
    assert "&#x27;colour&#x27; is not a filter of this game." in response.content.decode()

    response = client.get(catalog_url("academy-credits"), {"value": "seven"})
    assert response.status_code == 400
    assert "Value must be a whole number" in response.content.decode()

    response = client.get(catalog_url("academy-credits"), {"ordering": "shoe"})
    assert response.status_code == 400

    response = client.get(catalog_url("academy-credits"), {"page_size": "lots"})
    assert response.status_code == 400
    assert "Page size must be a whole number" in response.content.decode()

    # Through htmx too: the fragment carries the message.
    response = client.get(catalog_url("academy-credits"), {"value": "x"}, **HTMX)
    assert response.status_code == 400
    assert "<html" not in response.content.decode()
    assert "must be a whole number" in response.content.decode()


def test_catalog_paginates(client, db):
    game = GameFactory(slug="big")
    CardFactory.create_batch(70, game=game)
    html = client.get(catalog_url("big")).content.decode()
    assert len(tile_names(html)) == 60
    assert "70 cards, showing 1–60" in html
    assert "Page 1 of 2" in html and "?page=2" in html
    html = client.get(catalog_url("big"), {"page": "2"}).content.decode()
    assert len(tile_names(html)) == 10
    html = client.get(catalog_url("big"), {"page_size": "500"}).content.decode()
    assert len(tile_names(html)) == 70  # capped at 100 per page
    html = client.get(catalog_url("big"), {"page_size": "25", "page": "3"}).content.decode()
    assert len(tile_names(html)) == 20
    assert 'name="page_size" value="25"' in html  # filters keep the page size


def test_catalog_of_100_cards_runs_a_fixed_number_of_queries(client, db, django_assert_num_queries):
    game = GameFactory(slug="hundred")
    AttributeDefinitionFactory(game=game)  # colour: a choice
    AttributeDefinitionFactory(
        game=game, key="value", label="Value", kind="integer", choices=[], position=1
    )
    game = Game.objects.get(pk=game.pk)
    for n in range(100):
        card = CardFactory(
            game=game,
            copies=1 + n % 3,
            attributes={"colour": "red" if n % 2 else "blue", "value": n % 10},
            field_provenance={"copies": "verified", "colour": "verified", "value": "provisional"},
        )
        if n % 10 == 0:
            CardRulingFactory(card=card)
    # 1 the game, 2 its attribute definitions, 3 the integer values present (for the value
    # select), 4 the count, 5 the page of cards, 6 the games of the site navigation.
    with django_assert_num_queries(6):
        response = client.get(catalog_url("hundred"), {"page_size": "100"})
    assert response.status_code == 200
    assert len(tile_names(response.content.decode())) == 100


# --- Card page -------------------------------------------------------------------------------


def test_card_page_shows_everything_about_the_card(client, catalog):
    response = client.get("/games/academy-credits/cards/lura-thok/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<h1 id="card-name">Lura Thok</h1>' in html
    assert "Academy Credits" in html
    assert "Choose another cadet and name a card other than this one." in html
    assert "<dt>Copies</dt>" in html and "<dt>Value</dt>" in html and "<dt>Effect</dt>" in html
    assert "Guess a card" in html
    assert "badge--provisional" in html and "badge--verified" in html
    assert "Copy count inferred from the classic 21-card deck" in html
    # Rulings link to their rule section on the game page.
    assert 'href="/games/academy-credits/#rule-AC-R4"' in html
    assert "AC-R4</span> Card effects not spelled out" in html
    assert '<time datetime="2026-11-29">29 November 2026</time>' in html
    assert 'href="/api/games/academy-credits/cards/lura-thok/"' in html
    assert f'href="{catalog_url("academy-credits")}"' in html


def test_card_page_unknown_and_not_applicable_values(client, catalog):
    html = client.get("/games/star-realms-academy/cards/barter-world/").content.decode()
    assert html.count("Unknown</span>") >= 4  # cost, primary, ally, defense
    assert "nobody has transcribed it yet" in html
    assert "Incomplete" in html
    html = client.get("/games/star-realms-academy/cards/survey-ship/").content.decode()
    assert "1 Draw, 2 Coin" in html
    # A ship has no defense: not applicable, not unknown.
    assert "Not applicable" in html


def test_star_trek_card_text_is_written_from_its_rule_and_joins_multiple_values(client, catalog):
    html = client.get("/games/star-trek-missions/cards/ambassador-kehleyr/").content.decode()
    assert "10 with Lieutenant Worf." in html
    assert "Ambassador, Security" in html and "Klingon, Human" in html
    html = client.get("/games/star-trek-missions/cards/batleth/").content.decode()
    assert "<dt>Lifeform</dt>" in html


def test_factions_card_page(client, catalog):
    html = client.get("/games/factions/cards/harbour-captain/").content.decode()
    assert "A unit of Amber Coast." in html
    assert "tile--faction-amber-coast" in html
    assert "Not applicable" in html  # its action


def test_unknown_card_is_a_404_page_with_suggestions(client, catalog):
    response = client.get("/games/academy-credits/cards/jet-reno/")
    assert response.status_code == 404
    html = response.content.decode()
    assert "Academy Credits has no card &#x27;jet-reno&#x27;." in html
    assert 'href="/games/academy-credits/cards/jett-reno/"' in html
    assert f'href="{catalog_url("academy-credits")}"' in html


@pytest.mark.parametrize(
    "url", ["/", "/games/factions/", "/games/factions/cards/", "/games/factions/cards/attack/"]
)
def test_navigation_marks_the_current_game(client, catalog, url):
    html = client.get(url).content.decode()
    for slug in ("academy-credits", "star-realms-academy", "factions", "star-trek-missions"):
        assert f'href="/games/{slug}/"' in html
    if url != "/":
        assert re.search(r'href="/games/factions/" aria-current="(page|true)"', html)


FORM_PAGES = [
    "/games/academy-credits/check-move/",
    "/games/academy-credits/score/",
    "/games/star-realms-academy/check-move/",
    "/games/star-realms-academy/score/",
    "/games/factions/check-move/",
    "/games/factions/score/",
    "/games/star-trek-missions/check-move/",
    "/games/star-trek-missions/score/",
    "/games/star-trek-missions/table/",
]


@pytest.mark.parametrize("url", FORM_PAGES)
def test_a_shared_link_with_tracking_parameters_opens_the_empty_form(client, catalog, url):
    """What a messenger or a newsletter adds to a link (utm_…, fbclid) is not form input: the
    page is the empty form, not a form of problems."""

    def without_token(response):
        return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", response.content.decode())

    plain = client.get(url)
    tracked = client.get(url + "?utm_source=newsletter&utm_medium=email&fbclid=abc123")
    assert plain.status_code == tracked.status_code == 200
    assert without_token(tracked) == without_token(plain)


@pytest.mark.parametrize(
    "url, shown",
    [
        (
            "/games/star-trek-missions/check-move/?hand=Bridge&galaxy_deck=-4&mission_deck=abc"
            "&action=draw_galaxy",
            [
                "Galaxy deck cannot be negative; got -4.",
                "Mission deck must be the number of cards",
                "Card drawn is required.",
                "Card discarded is required.",
            ],
        ),
        (
            "/games/star-realms-academy/check-move/?active_health=abc&action_0=attack&target_0=health"
            "&amount_0=-5",
            [
                "Health must be the player's Health (0 to 15); got the text 'abc'.",
                "Combat used must be at least 1; got -5.",
            ],
        ),
        ("/games/factions/check-move/?p1-name=A&p2-name=B&action=play", ["The card is required."]),
    ],
)
def test_a_problem_names_the_field_not_the_request_path(client, catalog, url, shown):
    # The services word problems for the API ("position.galaxy_deck is required: the number of
    # cards …", with the JSON it wants); a page names the field by its label instead.
    response = client.get(url)
    assert response.status_code == 400
    main = re.search(r"<main.*?</main>", response.content.decode(), re.S).group(0)
    text = html.unescape(" ".join(re.sub(r"<[^>]+>", " ", main).split()))
    for words in shown:
        assert words in text
    assert not re.search(r"\b(position|move|actions)\.\w", text)
    assert '{"card"' not in text
