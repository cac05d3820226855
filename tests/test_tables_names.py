"""Issue 30, finding 5: names that look alike are one name. "Ana" and "Аna" (a Cyrillic А) sat at
one table as two players, and a name of one letter under 39 combining marks was accepted. A name is
kept in Unicode NFKC; two names are one when their UTS #39 skeletons (Unicode's confusables data)
match as typed, in capitals or in lower case; a letter carries at most 4 nonspacing marks, never
the same one twice (common/names.py). Each refusal has its legal neighbour."""

import json

import pytest
from django.test import Client

from common.names import look_alike, too_many_marks
from tables.models import Seat, Table

pytestmark = pytest.mark.django_db

CYRILLIC_ANA = "\u0410na"  # "Аna": CYRILLIC CAPITAL LETTER A, then Latin "na"
GREEK_ANA = "\u0391\u039d\u0391"  # "ΑΝΑ": Greek capitals alpha, nu, alpha
ZALGO = "a" + "".join(chr(0x0300 + i) for i in range(39))  # one letter, 39 different marks


def create(api, players):
    return api.post(
        "/api/tables/",
        json.dumps({"game": "star-trek-missions", "players": players}),
        content_type="application/json",
    )


def refused_name(response, index: int) -> dict:
    body = response.json()
    assert response.status_code == 400, body
    assert body["code"] == "invalid_input"
    [entry] = body["errors"]
    assert entry["path"] == f"players[{index}]"
    assert not Table.objects.exists()
    return entry


@pytest.mark.parametrize("alike", [CYRILLIC_ANA, GREEK_ANA])
def test_a_name_that_looks_like_another_players_is_refused_naming_both(api, alike):
    entry = refused_name(create(api, ["Ana", "Ben", alike]), 2)
    assert entry["code"] == "look_alike_name"
    assert entry["detail"].startswith("'")
    assert "looks like 'Ana' (seat 1)" in entry["detail"]


def test_a_name_in_another_script_that_looks_different_sits_at_the_table(api):
    # "Анна" (Cyrillic) is not "Ana": its н looks like no n.
    response = create(api, ["Ana", "Ben", "\u0410\u043d\u043d\u0430"])
    assert response.status_code == 201, response.json()
    assert [p["name"] for p in response.json()["players"]] == ["Ana", "Ben", "Анна"]


def test_the_same_name_in_another_case_is_still_the_same_name(api):
    entry = refused_name(create(api, ["Ana", "ANA"]), 1)
    assert entry["code"] == "invalid_name"
    assert "Two players are named 'ANA'" in entry["detail"]


def test_a_name_of_fullwidth_letters_is_the_same_name_once_in_nfkc(api):
    entry = refused_name(create(api, ["Ana", "\uff21na"]), 1)  # "Ａna": fullwidth A
    assert "Two players are named 'Ana'" in entry["detail"]


def test_a_name_is_kept_in_nfkc(api):
    response = create(api, ["\uff22en", "Cy"])  # "Ｂen": fullwidth B
    assert response.status_code == 201, response.json()
    assert Seat.objects.get(number=1).name == "Ben"


def test_a_letter_under_39_combining_marks_is_refused(api):
    entry = refused_name(create(api, ["Ana", ZALGO]), 1)
    assert entry["code"] == "invalid_name"
    assert "at most 4 combining marks" in entry["detail"]


def test_the_same_mark_twice_on_a_letter_is_refused(api):
    entry = refused_name(create(api, ["Ana", "Be\u0301\u0301n"]), 1)
    assert "cannot repeat a combining mark" in entry["detail"]


@pytest.mark.parametrize("name", ["Nguy\u1ec5n", "Be\u0301\u0302\u0303\u0304n", "Zoë", "José"])
def test_names_with_up_to_4_marks_on_a_letter_sit_at_the_table(api, name):
    response = create(api, ["Ana", name])
    assert response.status_code == 201, response.json()


def test_the_start_page_says_which_name_looks_like_which():
    response = Client().post(
        "/t/", {"game": "star-trek-missions", "players": f"Ana\nBen\n{CYRILLIC_ANA}"}
    )
    assert response.status_code == 400
    assert "&#x27;Аna&#x27; looks like &#x27;Ana&#x27; (seat 1)" in response.content.decode()
    assert not Table.objects.exists()


# --- The rule itself, on pairs a person would and would not confuse --------------------------------


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Ana", CYRILLIC_ANA),
        ("Ana", GREEK_ANA),
        ("Ben", "\u0412\u0435n"),
        ("Ian", "lan"),
        ("Ana", "ana"),
        ("m", "rn"),
        ("\ufb01ona", "fiona"),
    ],
)
def test_look_alike_pairs(one, other):
    assert look_alike(one, other) and look_alike(other, one)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Ian", "Lan"),
        ("Ana", "Anna"),
        ("José", "Jose"),
        ("Даша", "Dasha"),
        ("Li", "Lí"),
    ],
)
def test_pairs_that_look_different(one, other):
    assert not look_alike(one, other) and not look_alike(other, one)


def test_the_mark_limit_is_four_in_a_row():
    four = "a" + "\u0301\u0302\u0303\u0304"
    assert too_many_marks(four) == ""
    assert too_many_marks(four + "\u0305")
    assert too_many_marks(four + "b\u0305") == ""  # a new letter starts a new run
