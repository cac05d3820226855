"""Tables idle for longer than TABLE_IDLE_DAYS are removed, their seats and history with them; the
results they saved stay (issue 25)."""

import json
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from results.models import SavedResult
from tables.models import Event, Seat, Table

pytestmark = pytest.mark.django_db


def new_table(api) -> dict:
    response = api.post(
        "/api/tables/",
        data=json.dumps({"game": "star-trek-missions", "players": ["Ana", "Ben"]}),
        content_type="application/json",
    )
    assert response.status_code == 201
    return response.json()


def test_an_idle_table_goes_and_its_saved_results_stay(api, settings):
    settings.TABLE_IDLE_DAYS = 30
    old, fresh = new_table(api), new_table(api)
    entered = api.post(
        f"/api/tables/{old['code']}/events/",
        data=json.dumps(
            {
                "kind": "hand",
                "seat": 1,
                "version": 1,
                "body": {"hand": ["Holodeck 1", "Leah Brahms"]},
            }
        ),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {old['host_token']}",
    )
    result_id = entered.json()["event"]["result"]["id"]
    now = timezone.now()
    Table.objects.filter(code=old["code"]).update(last_active_at=now - timedelta(days=31))
    # Its neighbour: a table idle for 29 days stays.
    Table.objects.filter(code=fresh["code"]).update(last_active_at=now - timedelta(days=29))
    out = StringIO()
    call_command("remove_idle_tables", stdout=out)
    assert "Removed 1 table idle for more than 30 days." in out.getvalue()
    assert list(Table.objects.values_list("code", flat=True)) == [fresh["code"]]
    assert not Seat.objects.filter(table__code=old["code"]).exists()
    assert not Event.objects.exists()
    assert SavedResult.objects.filter(pk=result_id).exists()
    assert api.get(f"/r/{result_id}").status_code == 200
    assert api.get(f"/api/tables/{old['code']}/").status_code == 404
