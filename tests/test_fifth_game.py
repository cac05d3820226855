"""The fifth game: Ascent (tests/fifth_game/), a real game behind the same protocol as the four
shipped ones, and one line in GAMES (issues 13 and 24).

Its Board is tested directly (every rule, an impossible position and its legal neighbour), then
through the one flow (games/services.py), the API and the pages once registered: `GAMES.append(GAME)`, the line a real game adds to
games/registry.py, is the only change; with it the game gets its catalog, its API answers, its
schema entry and its pages, and its saved results their page. tests/test_fifth_game_copy.py holds
that copying the package is the documented way to add a game.
"""

from __future__ import annotations

import contextlib
import html
import importlib
import itertools
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import modify_settings
from django.urls import clear_url_caches

from cards.models import Game
from cards.services import catalog_load
from games.protocol import ILLEGAL, LEGAL, Board, ImpossiblePosition, NotScored, Scored
from games.registry import GAMES
from tests.engines.board_conformance import assert_board_conforms

ROOT = Path(__file__).resolve().parents[1]
# The package under test, named once: a game copied from this one (games/README.md) changes this
# name with the rest, and its tests are these.
PACKAGE = "tests.fifth_game"
engine = importlib.import_module(f"{PACKAGE}.engine")
model = importlib.import_module(f"{PACKAGE}.model")
GAME = importlib.import_module(f"{PACKAGE}.game").GAME
Card, Pass, Play, Position = model.Card, model.Pass, model.Play, model.Position

ONE, TWO = Card("One", 1, 2), Card("Two", 2, 2)
THREE, FOUR = Card("Three", 3, 1), Card("Four", 4, 1, provisional=True)


def checks(ruling) -> list[tuple[str, bool, str]]:
    return [(check.rule, check.passed, check.detail) for check in ruling.checks]


# --- The Board, directly -----------------------------------------------------------------------


def test_a_card_higher_than_the_table_is_legal_and_moves_onto_it():
    board = engine.check(Position(hand=(ONE, THREE), table=TWO))
    assert isinstance(board, Board)
    ruling = board.rule(Play(THREE))
    assert (ruling.verdict, ruling.code, ruling.rule) == (LEGAL, "legal_play", "HC-2")
    assert ruling.reason == "Three (3) is higher than Two (2)."
    assert checks(ruling) == [
        ("HC-1", True, "Three is in the hand (One and Three)."),
        ("HC-2", True, "Three (3) is higher than Two (2)."),
    ]
    assert ruling.outcome == {"table": "Three", "hand": ["One"]}
    assert ruling.warnings == []


def test_a_card_not_higher_is_illegal_and_the_higher_ones_are_offered():
    board = engine.check(Position(hand=(ONE, TWO, THREE), table=TWO))
    ruling = board.rule(Play(ONE))
    assert (ruling.verdict, ruling.code, ruling.rule) == (ILLEGAL, "not_higher", "HC-2")
    assert checks(ruling)[-1] == ("HC-2", False, "One (1) is not higher than Two (2).")
    # An equal card is not higher either.
    assert board.rule(Play(TWO)).reason == "Two (2) is not higher than Two (2)."
    assert ruling.alternatives == [{"play": "Three"}]
    assert board.legal_moves() == [Play(THREE)]


def test_a_card_not_in_the_hand_cannot_be_played():
    ruling = engine.check(Position(hand=(ONE,), table=None)).rule(Play(THREE))
    assert (ruling.verdict, ruling.code, ruling.rule) == (ILLEGAL, "card_not_in_hand", "HC-1")
    assert checks(ruling) == [("HC-1", False, "Three is not in the hand (One).")]
    assert ruling.alternatives == [{"play": "One"}]


def test_any_card_starts_an_empty_table():
    board = engine.check(Position(hand=(THREE, ONE, ONE), table=None))
    assert board.legal_moves() == [Play(ONE), Play(THREE)]
    ruling = board.rule(Play(ONE))
    assert (ruling.verdict, ruling.reason) == (LEGAL, "One (1) is the first card on the table.")
    assert ruling.outcome == {"table": "One", "hand": ["Three", "One"]}


def test_a_player_passes_only_holding_no_higher_card():
    stuck = engine.check(Position(hand=(ONE, TWO), table=THREE))
    assert stuck.legal_moves() == [Pass()]
    passed = stuck.rule(Pass())
    assert (passed.verdict, passed.code, passed.rule) == (LEGAL, "legal_pass", "HC-4")
    assert passed.reason == (
        "No card of the hand (One (1) and Two (2)) is higher than Three (3): the player passes."
    )
    refused = engine.check(Position(hand=(ONE, THREE), table=TWO)).rule(Pass())
    assert (refused.verdict, refused.code, refused.rule) == (ILLEGAL, "must_play", "HC-4")
    assert checks(refused) == [
        (
            "HC-4",
            False,
            "Three (3) in the hand is higher than Two (2): a player who can play must play.",
        )
    ]
    assert refused.alternatives == [{"play": "Three"}]
    assert engine.check(Position(hand=(), table=None)).rule(Pass()).verdict == LEGAL
    assert engine.check(Position(hand=(TWO, ONE), table=None)).rule(Pass()).reason == (
        "The table is empty and the hand holds One (1) and Two (2): a player who can play must "
        "play."
    )


def test_its_legal_moves_are_the_moves_it_rules_legal_in_every_small_position():
    """Every hand of up to three cards and every table the copies allow: the Board conforms to
    the protocol, and its legal moves are exactly the candidate moves (each card, a pass) it rules
    legal, each illegal one ruled with the legal moves as alternatives."""
    cards = (ONE, TWO, THREE, FOUR)
    candidates = [Pass(), *(Play(card) for card in cards)]
    boards = 0
    for size in range(4):
        for hand in itertools.combinations_with_replacement(cards, size):
            for table in (None, *cards):
                try:
                    board = engine.check(Position(hand=hand, table=table))
                except ImpossiblePosition:
                    held = [*hand, *([table] if table else [])]
                    assert any(held.count(card) > card.copies for card in cards)
                    continue
                boards += 1
                legal = [move for move in candidates if board.rule(move).verdict == LEGAL]
                assert list(board.legal_moves()) == legal, (hand, table)
                assert_board_conforms(
                    board, illegal_moves=tuple(move for move in candidates if move not in legal)
                )
    assert boards > 50  # 89 positions the copies allow


def test_more_copies_than_the_game_has_is_an_impossible_position_and_one_fewer_is_not():
    with pytest.raises(ImpossiblePosition) as refused:
        engine.check(Position(hand=(THREE,), table=THREE))
    assert refused.value.errors == [
        {
            "path": "table",
            "code": "too_many_copies",
            "detail": "Three is in the position 2 times (1 in the hand and 1 on the table); "
            "the game has 1 copy (HC-1).",
        }
    ]
    # Its legal neighbour: the same hand, another card on the table.
    assert engine.check(Position(hand=(THREE,), table=TWO)).rule(Play(THREE)).verdict == LEGAL
    # Every contradiction at once, each at the first copy too many.
    with pytest.raises(ImpossiblePosition) as both:
        engine.check(Position(hand=(ONE, ONE, FOUR, ONE, FOUR), table=None))
    assert [(e["path"], e["detail"]) for e in both.value.errors] == [
        (
            "hand[3]",
            "One is in the position 3 times (3 in the hand); the game has 2 copies (HC-1).",
        ),
        ("hand[4]", "Four is in the position 2 times (2 in the hand); the game has 1 copy (HC-1)."),
    ]
    assert engine.check(Position(hand=(ONE, ONE, FOUR), table=None)).score().total == 6


def test_a_hand_scores_the_sum_of_its_values_step_by_step():
    board = engine.check(Position(hand=(TWO, THREE, ONE)))
    scored = board.score()
    assert isinstance(scored, Scored)
    assert scored.total == 6
    assert [(s.n, s.rule, s.card, s.points, s.running_total, s.detail) for s in scored.steps] == [
        (1, "HC-3", "Two", 2, 2, "2 for Two"),
        (2, "HC-3", "Three", 3, 5, "3 for Three"),
        (3, "HC-3", "One", 1, 6, "1 for One"),
    ]
    assert engine.check(Position(hand=())).score().total == 0
    with pytest.raises(NotScored):
        board.score([Play(TWO)])


def test_a_provisional_value_is_a_warning_on_every_answer_resting_on_it():
    board = engine.check(Position(hand=(ONE, FOUR), table=THREE))
    warning = "Four's value (4) is provisional: it has not been checked against the printed card."
    assert board.warnings == [warning]
    assert board.rule(Play(FOUR)).warnings == [warning]
    assert engine.check(Position(hand=(ONE, TWO), table=THREE)).warnings == []


def test_its_engine_and_model_load_without_django():
    code = (
        f"import sys, {PACKAGE}.engine, {PACKAGE}.model\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'django', 'rest_framework', 'pydantic', 'cards', 'common', 'results'}))"
    )
    run = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin"},
        check=True,
    )
    assert run.stdout.strip() == "[]"


# --- Registered: the API, the schema, the pages ------------------------------------------------


def _reload_urls():
    import config.urls

    importlib.reload(config.urls)
    clear_url_caches()


@pytest.fixture
def registered(catalog):
    """The game in GAMES: the one registry line, added here while it is not in registry.py, and
    its package installed as the app it is (a package under games/ is installed by its apps.py,
    config/settings/base.py's GAME_APPS; this one lives in tests/)."""
    added = GAME not in GAMES
    installed = (
        modify_settings(INSTALLED_APPS={"append": PACKAGE}) if added else contextlib.nullcontext()
    )
    with installed:
        if added:
            GAMES.append(GAME)
            _reload_urls()
        try:
            catalog_load()
            yield Game.objects.get(slug=GAME.slug)
        finally:
            if added:
                GAMES.remove(GAME)
                _reload_urls()


def text(response) -> str:
    """The page's words as a reader meets them: tags out, entities read, space folded."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", response.content.decode(), flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


def test_its_jobs_declare_the_requests_they_read():
    assert [model.__name__ for model in GAME.ruling.request_models] == ["PlayRequest"]
    assert [model.__name__ for model in GAME.score.request_models] == ["HandRequest"]
    assert GAME.check is engine.check


def test_its_answers_come_from_the_one_flow(api, client, registered, monkeypatch):
    """The game declares its requests, its `ask` and its engine; games/services.py reads, checks,
    rules or scores, and saves, for the API and the pages alike."""
    from games import services
    from results.services import unsaved

    saved = []
    real_save = services.result_save

    def recording_save(**kwargs):
        saved.append((kwargs["game"].slug, kwargs["kind"]))
        return real_save(**kwargs)

    monkeypatch.setattr(services, "result_save", recording_save)
    body = {"position": {"hand": ["One", "Three"], "table": "Two"}, "move": {"play": "Three"}}
    answered = api.post("/api/games/ascent/rulings/", body, format="json").json()
    client.post("/games/ascent/score/", {"hand": "One, Two"})
    assert saved == [("ascent", "ruling"), ("ascent", "score")]
    with unsaved():
        direct = services.answer(game=registered, kind="ruling", body=body)
    assert direct == {key: value for key, value in answered.items() if key not in ("id", "url")}
    assert GAME.check(Position(hand=(THREE,), table=TWO)).rule(Play(THREE)).code == "legal_play"


def test_its_catalog_loads_from_its_package_and_its_pages_are_linked(client, registered):
    assert sorted(registered.cards.values_list("name", flat=True)) == [
        "Four",
        "One",
        "Three",
        "Two",
    ]
    assert registered.rule_sections.get(rule_id="HC-2").title == "Higher"
    page = client.get("/games/ascent/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'href="/games/ascent/check-move/"' in html and 'href="/games/ascent/score/"' in html
    assert "Check a move" in text(page) and "Score a hand" in text(page)
    cards = client.get("/api/games/ascent/cards/").json()
    assert {card["name"] for card in cards["results"]} == {"One", "Two", "Three", "Four"}


def test_its_ruling_comes_from_its_board_and_quotes_its_rule(api, registered):
    response = api.post(
        "/api/games/ascent/rulings/",
        {"position": {"hand": ["One", "Three"], "table": "Two"}, "move": {"play": "One"}},
        format="json",
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["verdict"], body["code"]) == ("illegal", "not_higher")
    assert body["rule"]["id"] == "HC-2"
    assert body["rule"]["text"] == "The card you play must be higher than the card on the table."
    assert body["alternatives"] == [{"play": "Three"}]
    assert body["checks"] == [
        {"rule": "HC-1", "passed": True, "detail": "One is in the hand (One and Three)."},
        {"rule": "HC-2", "passed": False, "detail": "One (1) is not higher than Two (2)."},
    ]
    passed = api.post(
        "/api/games/ascent/rulings/",
        {"position": {"hand": ["one", "Four"], "table": "Three"}, "move": {"pass": True}},
        format="json",
    ).json()
    assert (passed["verdict"], passed["code"], passed["rule"]["id"]) == (
        "illegal",
        "must_play",
        "HC-4",
    )
    assert passed["reason"] == (
        "Four (4) in the hand is higher than Three (3): a player who can play must play."
    )
    assert passed["warnings"] == [
        "Four's value (4) is provisional: it has not been checked against the printed card."
    ]


def test_its_request_errors_have_the_shape_of_every_games(api, registered):
    bad = api.post(
        "/api/games/ascent/rulings/",
        {"position": {"hand": ["Thre"]}, "move": {"play": "One"}, "extra": 1},
        format="json",
    ).json()
    assert bad["code"] == "invalid_input"
    assert {(e["path"], e["code"]) for e in bad["errors"]} == {
        ("extra", "unknown_field"),
        ("position.hand[0]", "unknown_card"),
    }
    assert next(e for e in bad["errors"] if e["code"] == "unknown_card")["suggestions"] == ["Three"]
    for move, given in (({}, "neither"), ({"play": "One", "pass": True}, "both")):
        refused = api.post(
            "/api/games/ascent/rulings/",
            {"position": {"hand": ["One"]}, "move": move},
            format="json",
        ).json()
        assert [(e["path"], e["code"]) for e in refused["errors"]] == [("move", "invalid_move")]
        assert refused["detail"] == (
            f'A move is {{"play": a card name}} or {{"pass": true}}; this one gives {given}.'
        )


def test_an_impossible_position_is_refused_where_it_is_and_its_neighbour_ruled(api, registered):
    refused = api.post(
        "/api/games/ascent/rulings/",
        {"position": {"hand": ["Three"], "table": "Three"}, "move": {"play": "Three"}},
        format="json",
    )
    assert refused.status_code == 400
    assert refused.json()["code"] == "impossible_position"
    assert [(e["path"], e["code"]) for e in refused.json()["errors"]] == [
        ("position.table", "too_many_copies")
    ]
    neighbour = api.post(
        "/api/games/ascent/rulings/",
        {"position": {"hand": ["Three"], "table": "Two"}, "move": {"play": "Three"}},
        format="json",
    )
    assert neighbour.status_code == 200 and neighbour.json()["verdict"] == "legal"
    # A hand to score is a position too: its paths are the request's own.
    score = api.post("/api/games/ascent/score/", {"hand": ["Four", "Four"]}, format="json")
    assert score.status_code == 400
    assert [(e["path"], e["code"]) for e in score.json()["errors"]] == [
        ("hand[1]", "too_many_copies")
    ]


def test_its_score_has_steps_to_follow(api, registered):
    body = api.post("/api/games/ascent/score/", {"hand": ["Two", "Three"]}, format="json").json()
    assert body["total"] == 5
    assert [(s["card"], s["points"], s["running_total"]) for s in body["steps"]] == [
        ("Two", 2, 2),
        ("Three", 3, 5),
    ]
    assert body["warnings"] == []
    four = api.post("/api/games/ascent/score/", {"hand": ["Four"]}, format="json").json()
    assert (four["total"], len(four["warnings"])) == (4, 1)


def test_its_schema_entry(client, registered):
    schema = client.get("/api/schema/?format=json").json()
    rulings = schema["paths"]["/api/games/{game}/rulings/"]["post"]
    assert "**ascent.**" in rulings["description"] and "`must_play`" in rulings["description"]
    examples = rulings["requestBody"]["content"]["application/json"]["examples"]
    assert any(example["value"].get("move") == {"play": "Three"} for example in examples.values())
    score = schema["paths"]["/api/games/{game}/score/"]["post"]
    assert "the sum of the values (HC-3)" in score["description"]


def test_its_pages_and_the_saved_result(client, registered):
    form = client.get("/games/ascent/check-move/")
    assert form.status_code == 200 and "Check a move (Ascent)" in form.content.decode()
    answer = client.post(
        "/games/ascent/check-move/", {"hand": "One, Three", "table": "Two", "play": "Three"}
    )
    words = text(answer)
    assert "Legal" in words and "Three (3) is higher than Two (2)." in words
    saved = re.search(r"/r/([a-z0-9]{10})", answer.content.decode()).group(1)
    permalink = text(client.get(f"/r/{saved}"))
    assert "Ruling: Legal" in permalink and "Check again" in permalink
    assert (
        "/games/ascent/check-move/?hand=One%2C+Three" in client.get(f"/r/{saved}").content.decode()
    )
    passed = client.post("/games/ascent/check-move/", {"hand": "One", "table": "Two", "pass": "on"})
    assert "No card of the hand (One (1)) is higher than Two (2): the player passes." in text(
        passed
    )
    saved = re.search(r"/r/([a-z0-9]{10})", passed.content.decode()).group(1)
    again = client.get(f"/r/{saved}").content.decode()
    assert "/games/ascent/check-move/?hand=One&amp;table=Two&amp;pass=on" in again
    # Neither a card nor a pass: the problem shows by the Play field, nothing is guessed.
    neither = client.post("/games/ascent/check-move/", {"hand": "One", "table": "Two"})
    assert neither.status_code == 400
    assert 'A move is {"play": a card name} or {"pass": true}' in text(neither)
    posted = client.post("/games/ascent/score/", {"hand": "One, Two"})
    scored = text(posted)
    assert "Score a hand (Ascent)" in posted.content.decode() and "3" in scored
    # The shared job page (games.pages.job_page) gives it the rest: a problem shown by its field,
    # the form kept, and to an htmx submit the result fragment alone.
    refused = client.post("/games/ascent/score/", {"hand": "One, Zebra"})
    assert refused.status_code == 400
    assert (
        "No card named 'Zebra'" in text(refused)
        and 'value="One, Zebra"' in refused.content.decode()
    )
    fragment = client.post("/games/ascent/score/", {"hand": "Three"}, HTTP_HX_REQUEST="true")
    assert "<form" not in fragment.content.decode() and "Saved:" in text(fragment)


def test_without_the_registry_line_the_game_is_unknown(api, registered):
    place = GAMES.index(GAME)
    GAMES.remove(GAME)
    try:
        _reload_urls()
        response = api.post("/api/games/ascent/score/", {"hand": ["Two"]}, format="json")
        assert response.status_code == 404 and response.json()["code"] == "not_available"
    finally:
        GAMES.insert(place, GAME)
        _reload_urls()
