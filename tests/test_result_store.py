"""The store of saved results has a bound (issue 22): a result keeps the request as it was
understood, identical requests under one catalog version share one /r/<id>, and an operator's
bound (age, size) removes results never opened first."""

import datetime
import json

import pytest
from django.core.management import call_command
from django.db import models
from django.utils import timezone

from cards.models import Card
from results.models import SavedResult
from results.services import results_prune

pytestmark = pytest.mark.django_db

STAR_TREK_MISSIONS_SCORE = "/api/games/star-trek-missions/score/"
AC_RULING = "/api/games/academy-credits/rulings/"
HAND = [
    "Lieutenant Worf",
    "Commander Kurn",
    "Ambassador K'Ehleyr",
    "Commander Sela",
    "Diplomatic Conference",
    "Photon Torpedoes",
    "Bridge",
]
PLAY = {
    "position": {
        "players": [{"name": "Ana"}, {"name": "Ben"}],
        "turn": "Ana",
        "hand": ["Nahla Ake", "Jett Reno"],
        "deck_count": 18,
    },
    "move": {"play": "Nahla Ake"},
}


def post(client, url, body):
    response = client.post(url, json.dumps(body), content_type="application/json")
    assert response.status_code == 200, response.json()
    return response.json()


def backdate(result_id, **fields):
    """Move a result's dates back (the model refuses updates; this is the test's own clock)."""
    models.QuerySet.update(SavedResult.objects.filter(pk=result_id), **fields)


def test_the_saved_request_is_the_request_as_understood(client, catalog):
    sent = [
        "  lieutenant worf ",
        "commander-kurn",
        "AMBASSADOR K'EHLEYR",
        "Commander Sela",
        "diplomatic-conference",
        "photon torpedoes",
        "bridge",
    ]
    answer = post(client, STAR_TREK_MISSIONS_SCORE, {"hand": sent})
    assert SavedResult.objects.get(pk=answer["id"]).request == {"hand": HAND}


def test_identical_requests_share_one_result(client, catalog):
    first = post(client, STAR_TREK_MISSIONS_SCORE, {"hand": HAND})
    spelled_otherwise = post(
        client, STAR_TREK_MISSIONS_SCORE, {"hand": [name.upper() for name in HAND]}
    )
    again = post(client, STAR_TREK_MISSIONS_SCORE, {"hand": HAND})
    assert first["id"] == spelled_otherwise["id"] == again["id"]
    assert first == again
    assert SavedResult.objects.count() == 1
    # The permalink is the same page as before, opened by everyone who asked.
    page = client.get(first["url"])
    assert page.status_code == 200 and "66" in page.content.decode()
    assert client.get(f"/api/results/{first['id']}/").json() == first


def test_a_different_request_gets_its_own_result(client, catalog):
    first = post(client, STAR_TREK_MISSIONS_SCORE, {"hand": HAND})
    other = post(client, STAR_TREK_MISSIONS_SCORE, {"hand": HAND[:-1]})
    assert first["id"] != other["id"]
    assert SavedResult.objects.count() == 2


def test_a_ruling_with_a_default_written_out_shares_the_result(client, catalog):
    first = post(client, AC_RULING, PLAY)
    explicit = json.loads(json.dumps(PLAY))
    explicit["move"]["target"] = None  # the default, written out
    explicit["position"]["turn"] = " Ana "
    again = post(client, AC_RULING, explicit)
    assert first["id"] == again["id"] and SavedResult.objects.count() == 1


def test_a_catalog_edit_starts_a_new_result_for_the_same_request(client, catalog):
    first = post(client, STAR_TREK_MISSIONS_SCORE, {"hand": HAND})
    card = Card.objects.get(game__slug="star-trek-missions", name="Commander Sela")
    card.provenance_note += " Checked again."
    card.save()
    after = post(client, STAR_TREK_MISSIONS_SCORE, {"hand": HAND})
    assert after["id"] != first["id"]
    assert client.get(first["url"]).status_code == 200  # the old one is still there


def test_a_page_submission_shares_the_api_result(client, catalog):
    answer = post(client, STAR_TREK_MISSIONS_SCORE, {"hand": HAND})
    page = client.post("/games/star-trek-missions/score/", {"hand": HAND})
    assert page.status_code == 200
    assert SavedResult.objects.count() == 1
    assert answer["url"] in page.content.decode()


# --- The bound ------------------------------------------------------------------------------------


def test_results_nobody_opened_within_the_age_bound_are_pruned(client, catalog, settings):
    settings.RESULTS_MAX_AGE_DAYS = 30
    old = post(client, STAR_TREK_MISSIONS_SCORE, {"hand": HAND})
    old_but_opened = post(client, STAR_TREK_MISSIONS_SCORE, {"hand": HAND[:3]})
    recent = post(client, STAR_TREK_MISSIONS_SCORE, {"hand": HAND[:2]})
    long_ago = timezone.now() - datetime.timedelta(days=40)
    backdate(old["id"], created_at=long_ago)
    backdate(old_but_opened["id"], created_at=long_ago)
    assert client.get(old_but_opened["url"]).status_code == 200  # opened today

    call_command("prune_results")

    assert client.get(old["url"]).status_code == 404
    assert client.get(old_but_opened["url"]).status_code == 200
    assert client.get(recent["url"]).status_code == 200
    # An opened result goes too once nobody has opened it for the whole bound.
    backdate(old_but_opened["id"], last_opened_at=long_ago)
    assert results_prune().by_age == 1
    assert client.get(old_but_opened["url"]).status_code == 404


def test_past_the_size_bound_results_never_opened_go_first(client, catalog, settings):
    settings.RESULTS_MAX_AGE_DAYS = 0
    answers = [post(client, STAR_TREK_MISSIONS_SCORE, {"hand": HAND[:n]}) for n in range(1, 7)]
    opened = answers[0]  # the oldest, but shared: opened from its link
    assert client.get(opened["url"]).status_code == 200
    sizes = dict(SavedResult.objects.values_list("pk", "size"))
    assert all(size > 0 for size in sizes.values())
    # Room for about three results.
    settings.STORE_MAX_MB = sum(sorted(sizes.values())[-3:]) / 1_000_000

    pruned = results_prune()

    kept = set(SavedResult.objects.values_list("pk", flat=True))
    assert opened["id"] in kept
    assert pruned.by_size >= 3 and pruned.remaining_bytes <= settings.STORE_MAX_MB * 1_000_000
    # The newest of the never-opened ones are the ones kept beside it.
    newest_first = [answer["id"] for answer in reversed(answers[1:])]
    assert kept - {opened["id"]} == set(newest_first[: len(kept) - 1])


def test_a_save_prunes_now_and_then(client, catalog, settings):
    settings.RESULTS_MAX_AGE_DAYS = 30
    old = post(client, STAR_TREK_MISSIONS_SCORE, {"hand": HAND[:1]})
    backdate(old["id"], created_at=timezone.now() - datetime.timedelta(days=31))
    settings.RESULTS_PRUNE_CHANCE = 1.0
    post(client, STAR_TREK_MISSIONS_SCORE, {"hand": HAND[:2]})
    assert not SavedResult.objects.filter(pk=old["id"]).exists()


def test_the_prune_command_says_what_it_removed(catalog, capsys, settings):
    settings.RESULTS_MAX_AGE_DAYS = 30
    call_command("prune_results", "--max-mb", "0")
    out = capsys.readouterr().out
    assert out.startswith("Removed 0 result(s) past the age bound and 0 past the size bound")


def test_saved_results_still_refuse_ordinary_updates_and_deletes(client, catalog):
    from results.models import ResultImmutable

    answer = post(client, STAR_TREK_MISSIONS_SCORE, {"hand": HAND})
    with pytest.raises(ResultImmutable):
        SavedResult.objects.filter(pk=answer["id"]).delete()
    with pytest.raises(ResultImmutable):
        SavedResult.objects.filter(pk=answer["id"]).update(response={})


def test_a_twin_saved_a_moment_earlier_is_shared_not_duplicated(client, catalog, monkeypatch):
    from results import services

    first = post(client, STAR_TREK_MISSIONS_SCORE, {"hand": HAND})
    real = services._shared
    calls = []

    def not_yet_seen(key):
        # The twin's row was not yet visible when this request looked; its INSERT then clashes.
        calls.append(key)
        return None if len(calls) == 1 else real(key)

    monkeypatch.setattr(services, "_shared", not_yet_seen)
    second = post(client, STAR_TREK_MISSIONS_SCORE, {"hand": HAND})
    assert second["id"] == first["id"] and len(calls) == 2
    assert SavedResult.objects.count() == 1
