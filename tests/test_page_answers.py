"""A page GET that carries its input in the address works an answer out: identical questions are
answered from the cache of computed answers (keyed on the request and the catalog's version), and
such GETs count against the same per-client limit as a submission."""

import re
from urllib.parse import urlencode

import pytest

from cards.models import Card
from games.package import SCORE
from games.services import SERVICES
from results.models import SavedResult

pytestmark = pytest.mark.django_db

PAGE = "/games/star-trek-missions/score/"
HAND = [
    "Lieutenant Worf",
    "Commander Kurn",
    "Ambassador K'Ehleyr",
    "Commander Sela",
    "Diplomatic Conference",
    "Photon Torpedoes",
    "Bridge",
]
LINK = PAGE + "?" + urlencode([("hand", name) for name in HAND])


@pytest.fixture
def service_calls(monkeypatch):
    """The one flow's score calls from the page, counted."""
    calls = []
    real = SERVICES[SCORE]

    def counted(*, game, body):
        calls.append(body)
        return real(game=game, body=body)

    monkeypatch.setitem(SERVICES, SCORE, counted)
    return calls


def total(response) -> str:
    return re.search(
        r'<strong class="score-total__value">(\d+)</strong>', response.content.decode()
    ).group(1)


def without_token(response) -> str:
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", response.content.decode())


def test_the_same_link_twice_is_worked_out_once(client, catalog, service_calls):
    first = client.get(LINK)
    assert first.status_code == 200 and total(first) == "66"
    assert len(service_calls) == 1
    again = client.get(LINK)
    assert again.status_code == 200 and total(again) == "66"
    assert len(service_calls) == 1  # answered from the cache
    assert without_token(again) == without_token(first)
    assert SavedResult.objects.count() == 0  # a GET saves nothing, cached or not


def test_the_same_hand_in_another_order_of_fields_is_a_new_question(client, catalog, service_calls):
    client.get(LINK)
    client.get(PAGE + "?" + urlencode([("hand", name) for name in reversed(HAND)]))
    assert len(service_calls) == 2  # the hand's order is the request's (API.md): not the same


def test_an_edit_of_the_catalog_is_never_answered_from_before_it(client, catalog, service_calls):
    client.get(LINK)
    card = Card.objects.get(game__slug="star-trek-missions", name="Bridge")
    card.save()  # any edit changes the catalog's version stamp, on every server
    client.get(LINK)
    assert len(service_calls) == 2


def test_a_refused_question_is_kept_too(client, catalog, service_calls):
    three_missions = ["Away Team", "Borg Cube", "Lieutenant Worf", "Mysterious Plague"]
    link = PAGE + "?" + urlencode([("hand", name) for name in three_missions])
    first = client.get(link)
    assert first.status_code == 400
    calls = len(service_calls)
    again = client.get(link)
    assert again.status_code == 400 and calls >= 1
    assert len(service_calls) == calls
    assert "The hand has 3 Missions (Away Team, Borg Cube, Mysterious Plague)" in (
        again.content.decode()
    )


def test_a_post_is_never_answered_from_the_cache(client, catalog, service_calls):
    client.get(LINK)
    response = client.post(PAGE, {"hand": HAND})
    assert response.status_code == 200 and total(response) == "66"
    assert len(service_calls) == 2
    assert SavedResult.objects.count() == 1


# The hand issue 30 reported as the costliest (32 ms of scoring, a page of 74 tiles drawn again
# at every repeat: 106 ms of CPU).
COSTLY = [
    "Thought Maker",
    "Unidentified Ship",
    "Chancellor Gowron",
    "Lursa and B'Etor",
    "Hand Phaser",
    "Space Confrontation",
    "Blossoming Romance",
]
COSTLY_LINK = PAGE + "?" + urlencode([("hand", name) for name in COSTLY])


def token(response) -> str:
    return re.search(
        r'name="csrfmiddlewaretoken" value="([^"]+)"', response.content.decode()
    ).group(1)


def test_a_repeat_of_the_costliest_hand_is_a_lookup(
    client, catalog, service_calls, django_assert_max_num_queries
):
    first = client.get(COSTLY_LINK)
    assert first.status_code == 200 and total(first) == "57"
    assert [t.name for t in first.templates][:1] == ["star_trek_missions/score.html"]
    # Again: no scoring, no form, no tile, no template drawn; the catalog's stamp (one query),
    # the throttle's count and the cache's row are all it reads.
    with django_assert_max_num_queries(4):
        again = client.get(COSTLY_LINK)
    assert again.status_code == 200 and again.templates == []
    assert len(service_calls) == 1
    assert without_token(again) == without_token(first)
    assert again["Vary"] == first["Vary"]


def test_the_empty_form_is_kept_too(client, catalog, django_assert_max_num_queries):
    """The page every phone opens first: its 74 tiles drawn once, then a lookup (about 90 ms of
    CPU against 5 in one process), with each visitor's own token put back."""
    first = client.get(PAGE)
    assert first.status_code == 200
    assert [t.name for t in first.templates][:1] == ["star_trek_missions/score.html"]
    with django_assert_max_num_queries(4):
        again = client.get(PAGE)
    assert again.status_code == 200 and again.templates == []
    assert without_token(again) == without_token(first)
    assert token(again) != "\x00csrf\x00"
    # What messengers add to an address is no input: the same kept page.
    assert client.get(PAGE + "?utm_source=chat").templates == []
    # Its neighbour: a hand in the address is another page, drawn the first time.
    assert client.get(LINK).templates != []


def test_the_page_opened_from_a_table_is_never_the_kept_one(client, catalog):
    """A table's Score a hand (its form enters the seat's hand) is drawn for its seat each time,
    beside a kept plain page at the same game."""
    from tests.test_tables_ask import ask_links, stm_table

    client.get(PAGE)
    assert client.get(PAGE).templates == []  # kept
    code, _, ana = stm_table()
    url = ask_links(ana, code)["Score a hand"]
    for _ in range(2):
        page = ana.get(url)
        assert page.templates != []
        assert "Enter this hand at the table" in page.content.decode()
    assert "Enter this hand at the table" not in client.get(PAGE).content.decode()


def test_a_kept_page_carries_each_visitors_own_working_token(catalog):
    from django.test import Client

    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    assert first.get(COSTLY_LINK).status_code == 200
    kept = second.get(COSTLY_LINK)
    assert kept.templates == []  # the kept page
    assert token(kept) != "\x00csrf\x00" and "csrftoken" in kept.cookies
    # The form of the kept page submits: its token is this visitor's.
    posted = second.post(PAGE, {"hand": COSTLY, "csrfmiddlewaretoken": token(kept)})
    assert posted.status_code == 200 and total(posted) == "57"
    # Its neighbour: a token taken from another visitor's page is refused.
    stranger = Client(enforce_csrf_checks=True)
    stranger.get(PAGE)
    assert (
        stranger.post(PAGE, {"hand": COSTLY, "csrfmiddlewaretoken": token(kept)}).status_code == 403
    )


def test_a_kept_page_is_drawn_again_after_an_edit_of_the_catalog(client, catalog, service_calls):
    client.get(COSTLY_LINK)
    card = Card.objects.get(game__slug="star-trek-missions", name="Hand Phaser")
    card.save()
    again = client.get(COSTLY_LINK)
    assert again.templates != [] and len(service_calls) == 2


def test_an_upgrade_of_the_code_is_never_answered_from_before_it(
    client, catalog, service_calls, monkeypatch
):
    """The cache is a database table and outlives a restart: after an upgrade (another code
    stamp) a link and the empty form are worked out and drawn again, not the old code's."""
    import web.computed
    import web.page_cache

    client.get(COSTLY_LINK)
    client.get(PAGE)
    assert client.get(COSTLY_LINK).templates == [] and client.get(PAGE).templates == []
    assert len(service_calls) == 1
    for module in (web.computed, web.page_cache):
        monkeypatch.setattr(module, "code_stamp", lambda: "the next release")
    assert client.get(COSTLY_LINK).templates != [] and client.get(PAGE).templates != []
    assert len(service_calls) == 2  # the answer too
    assert client.get(COSTLY_LINK).templates == []  # then kept under the new stamp


def test_the_code_stamp_follows_every_source_file(tmp_path):
    from web.computed import source_digest

    (tmp_path / "app" / "templates").mkdir(parents=True)
    (tmp_path / "app" / "views.py").write_text("x = 1\n")
    (tmp_path / "app" / "templates" / "page.html").write_text("<p>1</p>")
    (tmp_path / "static").mkdir()
    (tmp_path / "static" / "site.css").write_text("p {}")

    def stamp() -> str:
        return source_digest(tmp_path, [tmp_path / "app", tmp_path / "static"])

    seen = {stamp()}
    # Bytecode and files of other kinds are not the code's.
    (tmp_path / "app" / "__pycache__").mkdir()
    (tmp_path / "app" / "__pycache__" / "views.cpython-311.pyc").write_bytes(b"\0")
    (tmp_path / "app" / "notes.txt").write_text("a note")
    assert stamp() in seen
    for change in (
        lambda: (tmp_path / "app" / "templates" / "page.html").write_text("<p>2</p>"),
        lambda: (tmp_path / "static" / "site.css").write_text("p { color: red }"),
        lambda: (tmp_path / "app" / "views.py").rename(tmp_path / "app" / "pages.py"),
        lambda: (tmp_path / "app" / "forms.py").write_text(""),
    ):
        change()
        assert stamp() not in seen
        seen.add(stamp())


def test_another_address_is_another_page(client, catalog, service_calls):
    client.get(COSTLY_LINK)
    other = client.get(COSTLY_LINK + "&hand=Quarters")  # eight cards: refused, its own page
    assert other.status_code == 400 and other.templates != []
    assert client.get(COSTLY_LINK + "&utm_source=chat").templates == []  # tracking is no input


@pytest.fixture
def three_a_minute(monkeypatch):
    from common.throttling import EvaluationRateThrottle

    monkeypatch.setattr(EvaluationRateThrottle, "THROTTLE_RATES", {"evaluations": "3/minute"})


def test_page_gets_with_input_count_against_the_submission_limit(client, catalog, three_a_minute):
    assert [client.get(LINK).status_code for _ in range(3)] == [200] * 3
    refused = client.get(LINK)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Too many submissions" in refused.content.decode()
    # The same counter as a submission's and the API's.
    assert client.post(PAGE, {"hand": HAND}).status_code == 429
    assert (
        client.post(
            "/api/games/star-trek-missions/score/", {"hand": HAND}, content_type="application/json"
        ).status_code
        == 429
    )


def test_a_ten_player_table_in_the_address_counts_once(client, catalog, three_a_minute):
    names = sorted(
        Card.objects.filter(game__slug="star-trek-missions").values_list("name", flat=True)
    )
    pairs = [("players", "10"), ("current", "0")]
    for seat in range(10):
        pairs.append((f"p{seat}-name", f"Player {seat}"))
        pairs += [(f"p{seat}-hand", name) for name in names[seat * 7 : seat * 7 + 7]]
    link = "/games/star-trek-missions/table/?" + urlencode(pairs)
    statuses = [client.get(link).status_code for _ in range(4)]
    assert statuses[:3] != [429] * 3 and 429 not in statuses[:3] and statuses[3] == 429


def test_a_kept_page_counts_against_the_limit_too(client, catalog, three_a_minute):
    statuses = [client.get(COSTLY_LINK).status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]


def test_the_empty_form_is_a_read_never_counted(client, catalog, three_a_minute):
    assert [client.get(PAGE).status_code for _ in range(5)] == [200] * 5
    # Addresses that only carry what messengers add are the empty form too.
    assert client.get(PAGE + "?utm_source=chat&fbclid=x").status_code == 200
    assert client.get(LINK).status_code == 200


def test_the_migration_creates_the_cache_table_on_a_database_that_has_none(db):
    """A database migrated before the cache existed (0001's table was dropped by 0002) gets
    it from 0003, under the name settings.CACHES gives it."""
    from importlib import import_module

    from django.conf import settings
    from django.db import connection

    migration = import_module("common.migrations.0003_computed_cache_table")
    table = settings.CACHES["computed"]["LOCATION"]
    assert migration.TABLE == table

    class Editor:  # what the migration's functions use of a schema editor
        def __init__(self):
            self.connection = connection

        def execute(self, sql):
            with connection.cursor() as cursor:
                cursor.execute(sql)

    migration.drop_cache_table(None, Editor())
    assert table not in connection.introspection.table_names()
    migration.create_cache_table(None, Editor())
    assert table in connection.introspection.table_names()
