"""A table's unchanged poll is answered from the version alone (issue 25): one query on the
unique index of the table's code, before the rest of the stack — before Django's handler in the
server as deployed (config/asgi.py's TablePolls), and right after SecurityMiddleware elsewhere
(tables.middleware). Its neighbours go on to the views: a tag the table has left, a request
without one, another method, another path."""

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.testing import ApplicationCommunicator
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cards.models import Game
from config.asgi import TablePolls
from tables.middleware import unchanged_poll
from tables.models import Table


def create(client) -> dict:
    response = client.post(
        "/api/tables/",
        data=json.dumps({"game": "academy-credits", "players": ["Ana", "Ben"]}),
        content_type="application/json",
    )
    assert response.status_code == 201
    return response.json()


@pytest.mark.django_db
def test_an_unchanged_poll_costs_one_query_on_the_codes_index(client):
    code = create(client)["code"]
    for path, etag in ((f"/api/tables/{code}/", '"v1"'), (f"/t/{code}/live", '"p1"')):
        with CaptureQueriesContext(connection) as queries:
            assert unchanged_poll(path, f'"x", {etag}') == etag
        assert len(queries.captured_queries) == 1
        sql = queries.captured_queries[0]["sql"]
        assert "tables_table" in sql and "code" in sql
        # The query reads the unique index of `code`, not the whole table.
        with connection.cursor() as cursor:
            if connection.vendor == "sqlite":
                cursor.execute("EXPLAIN QUERY PLAN " + sql)
                plan = " ".join(str(row) for row in cursor.fetchall())
                assert "USING INDEX" in plan or "USING COVERING INDEX" in plan, plan
            else:  # PostgreSQL: a few rows would be scanned; with scans off the index must serve
                cursor.execute("SET LOCAL enable_seqscan = off")
                cursor.execute("EXPLAIN " + sql)
                plan = " ".join(row[0] for row in cursor.fetchall())
                assert "Index" in plan, plan
        # Its neighbours: a stale tag, no tag, an unknown table.
        assert unchanged_poll(path, etag.replace("1", "2")) is None
        assert unchanged_poll(path, None) is None
    assert unchanged_poll("/api/tables/nosuchtable/", '"v1"') is None
    assert unchanged_poll("/api/games/", '"v1"') is None


def asgi_get(app, path: str, headers: list[tuple[bytes, bytes]], method: str = "GET"):
    scope = {
        "type": "http",
        "method": method,
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": headers,
        "http_version": "1.1",
        "scheme": "http",
        "server": ("127.0.0.1", 80),
        "client": ("127.0.0.1", 1234),
        "root_path": "",
    }

    async def run():
        communicator = ApplicationCommunicator(app, scope)
        await communicator.send_input({"type": "http.request", "body": b"", "more_body": False})
        start = await communicator.receive_output(5)
        await communicator.receive_output(5)
        await communicator.wait(5)
        return start

    # In a thread of its own: a browser test before this one may have left an event loop
    # running in the test's thread (Playwright's sync API), where asgiref refuses to start one.
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, run()).result()


@pytest.mark.django_db(transaction=True)  # the ASGI app reads in its own thread
def test_the_served_app_answers_an_unchanged_poll_before_django(client, django_db_setup):
    if not Game.objects.exists():  # a transactional test before this one flushed the catalog
        django_db_setup.restore()
    code = create(client)["code"]
    passed = []

    async def django(scope, receive, send):  # stands for Django's handler: records what reaches it
        passed.append(
            (scope["method"], scope["path"], dict(scope["headers"]).get(b"if-none-match"))
        )
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    app = TablePolls(django)
    start = asgi_get(app, f"/api/tables/{code}/", [(b"if-none-match", b'"v1"')])
    assert start["status"] == 304
    assert dict(start["headers"]) == {b"etag": b'"v1"', b"cache-control": b"no-cache"}
    assert asgi_get(app, f"/t/{code}/live", [(b"if-none-match", b'"p1"')])["status"] == 304
    assert passed == []
    # The neighbours reach Django: a tag the table has left, none, a POST, another path.
    Table.objects.filter(code=code).update(version=2)
    for path, headers, method in (
        (f"/api/tables/{code}/", [(b"if-none-match", b'"v1"')], "GET"),
        (f"/api/tables/{code}/", [], "GET"),
        (f"/api/tables/{code}/", [(b"if-none-match", b'"v2"')], "POST"),
        ("/api/games/", [(b"if-none-match", b'"v2"')], "GET"),
    ):
        assert asgi_get(app, path, headers, method)["status"] == 200
    assert len(passed) == 4
