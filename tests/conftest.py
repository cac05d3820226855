"""Fixtures shared by the whole suite.

The shipped catalog is not in the migrations: it is loaded once into the test database, through
the same service `make run` uses, and each test's transaction is rolled back over it. Live-server
browser tests flush the database after themselves (pytest-django runs them last), so `catalog`
puts it back whenever it finds it gone.

Putting it back copies the rows the load wrote, kept in snapshot tables beside the real ones right
after that load, in one INSERT … SELECT per table: the same rows, keys included, in milliseconds,
where loading the catalog again through the service takes seconds (every card is validated and
gets its history row).

Under pytest-xdist (`make test` runs one worker more than the cores) each worker has its own
test database (pytest-django: a SQLite file per process, see config/settings/test.py, or
test_<name>_gw<N> on PostgreSQL), its own loaded catalog and snapshot, and its own browser. On
SQLite the first worker to need a database builds it and the others copy that file, catalog and
snapshot included (tests/shared_database.py); on PostgreSQL each worker builds its own.
"""

import gc
import os

import pytest
from django.core.management.color import no_style
from django.db import connection, connections, transaction
from rest_framework.test import APIClient

from cards.models import Game
from cards.services import catalog_load
from tests.shared_database import SNAPSHOT_PREFIX, SharedDatabase, remove, shares
from tests.tables_server import run_folder, tables_site_fixture  # noqa: F401 - the fixture tables_site, one per process


def _row_counts():
    with connection.cursor() as cursor:
        counts = {}
        for table in connection.introspection.django_table_names(only_existing=True):
            cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")
            counts[table] = cursor.fetchone()[0]
    return counts


def _columns(table):
    with connection.cursor() as cursor:
        description = connection.introspection.get_table_description(cursor, table)
    return [column.name for column in description]


class CatalogSnapshot:
    """The tables the catalog load wrote to, copied whole right after it."""

    def __init__(self, tables):
        quote = connection.ops.quote_name
        self.copies = []
        with connection.cursor() as cursor:
            for table in tables:
                snapshot = SNAPSHOT_PREFIX + table
                columns = ", ".join(quote(column) for column in _columns(table))
                cursor.execute(f"DROP TABLE IF EXISTS {quote(snapshot)}")
                cursor.execute(
                    f"CREATE TABLE {quote(snapshot)} AS SELECT {columns} FROM {quote(table)}"
                )
                self.copies.append((quote(table), quote(snapshot), columns))
        table_models = {model._meta.db_table: model for model in _all_models()}
        self.models = [table_models[table] for table in tables if table in table_models]

    def restore(self):
        with transaction.atomic(), connection.cursor() as cursor:
            for table, snapshot, columns in self.copies:
                cursor.execute(f"INSERT INTO {table} ({columns}) SELECT {columns} FROM {snapshot}")
            # PostgreSQL: the sequences continue after the restored keys (SQLite needs nothing).
            for sql in connection.ops.sequence_reset_sql(no_style(), self.models):
                cursor.execute(sql)


def _all_models():
    from django.apps import apps

    for app_config in apps.get_app_configs():
        yield from app_config.get_models(include_auto_created=True)


def pytest_configure(config):
    # The cycle collector runs after 50,000 new objects, not 700: a worker holds the catalog,
    # the API's schema and hypothesis' strategies, and at the default it ran some 3,000 times
    # in a third of the suite, each young collection cheap but the full ones walking all of it.
    # Measured with gc.callbacks on that part (939 tests, two workers): 5.9 s of collection
    # against 3.3 s, for 30 MB more at the peak (docs/MEASUREMENTS.md).
    gc.set_threshold(50_000, 20, 20)


def pytest_report_header():
    return f"browser: {os.environ.get('TABLESIDE_CHROMIUM', '/usr/bin/chromium')}"


@pytest.fixture(scope="session")
def shared_database(tmp_path_factory, django_db_modify_db_settings):
    """The run's built test database that the workers copy (tests/shared_database.py), where
    they do (SQLite under pytest-xdist); None elsewhere."""
    if not shares(connection.settings_dict):
        return None
    return SharedDatabase(run_folder(tmp_path_factory))


@pytest.fixture(scope="session")
def django_db_keepdb(request, shared_database):
    """pytest-django's `--reuse-db`, or a worker's copy of the run's built database: kept, so
    that Django does not create it anew."""
    name = connection.settings_dict["TEST"]["NAME"]
    copied = shared_database is not None and shared_database.copy_to(name)
    return copied or bool(request.config.getvalue("reuse_db"))


@pytest.fixture(scope="session")
def django_db_setup(request, django_db_setup, django_db_blocker, shared_database):
    with django_db_blocker.unblock():
        try:
            if shared_database is not None and shared_database.copied:
                # The catalog came with the copy, and its snapshot tables too.
                snapshot = CatalogSnapshot(_snapshotted_tables())
            else:
                snapshot = _load_catalog()
                if shared_database is not None:
                    shared_database.keep()
        finally:
            if shared_database is not None:
                shared_database.release()  # never leave the other workers waiting
    yield snapshot
    if (
        shared_database is not None
        and shared_database.copied
        and not request.config.getvalue("reuse_db")
    ):
        # pytest-django keeps a database it was told to keep: this copy is the worker's own.
        name = connection.settings_dict["NAME"]
        connections.close_all()
        remove(name)


def _load_catalog():
    before = _row_counts()
    catalog_load()
    after = _row_counts()
    changed = [table for table, count in after.items() if count != before.get(table)]
    return CatalogSnapshot(changed)


def _snapshotted_tables():
    names = connection.introspection.table_names()
    return sorted(
        name[len(SNAPSHOT_PREFIX) :] for name in names if name.startswith(SNAPSHOT_PREFIX)
    )


@pytest.fixture
def catalog(db, django_db_setup):
    if not Game.objects.exists():
        django_db_setup.restore()


# The fixtures through which a test reaches the database.
DATABASE_FIXTURES = {"db", "transactional_db", "django_db_reset_sequences", "live_server"}


@pytest.fixture(autouse=True)
def catalog_for_every_database_test(request):
    """Every test that reaches the database finds the shipped catalog, whether or not it names
    `catalog`. pytest-django runs the flushing tests last on each worker, but pytest-xdist's
    worksteal scheduling can hand a worker that has already run them some of another worker's
    plain tests (the back half of its queue): a tables test that created a Star Trek: Missions
    table then found no such game. One `exists()` query per test; the rows come back only when
    a flush took them."""
    if request.node.get_closest_marker("django_db") or DATABASE_FIXTURES & set(
        request.fixturenames
    ):
        request.getfixturevalue("catalog")


@pytest.fixture(autouse=True)
def no_refusal_remembered():
    """Each test's throttle starts with no client refused: the refusals a process remembers
    (common.throttling._refused) belong to the database of the test that made them."""
    from common.throttling import forget_refusals

    forget_refusals()
    yield
    forget_refusals()


@pytest.fixture(autouse=True)
def no_random_throttle_prune(monkeypatch):
    """The throttle prunes old counters on 1 request in 100 (common.throttling.PRUNE_CHANCE): one
    more query, by chance. A test that counts a request's queries would fail 1 time in 100; the
    tests of the prune itself set the chance to 1."""
    from common import throttling

    monkeypatch.setattr(throttling, "PRUNE_CHANCE", 0.0)


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def register_game():
    """Adds a GamePackage to GAMES for one test (the one registry line of a new game)."""
    from games.registry import GAMES

    added = []

    def register(package):
        GAMES.append(package)
        added.append(package)
        return package

    yield register
    for package in added:
        GAMES.remove(package)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    """The browser tests of a shared table (marked `table`) first among the live-server tests.

    pytest-django orders the tests (database tests, then the live-server ones, then the rest) and
    leaves each group in file order, where tests/browser/test_tables_*.py come last of the
    browser tests. Those tests spend much of their time waiting on a table page's next poll
    (every 2 s) with their worker's core idle: run last, they left a core idle for most of the
    suite's last minute (bench/suite_cpu.py's idle cores by half-minute: 0.23 and 0.50); run
    first of their group, their waits overlap the CPU-bound tests still queued (0.02 and 0.10
    in the last two whole half-minutes). They stay among the live-server tests, after every
    test that expects the database as the catalog load left it."""
    table = [item for item in items if item.get_closest_marker("table")]
    chosen = set(table)
    rest = [item for item in items if item not in chosen]
    live = next(
        (i for i, item in enumerate(rest) if "live_server" in getattr(item, "fixturenames", ())),
        len(rest),
    )
    items[:] = rest[:live] + table + rest[live:]
