"""Fixtures shared by the whole suite.

The shipped catalog is not in the migrations: it is loaded once into the test database, through
the same service `make run` uses, and each test's transaction is rolled back over it. Live-server
browser tests flush the database after themselves (pytest-django runs them last), so `catalog`
loads it again whenever it finds it gone.
"""

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from cards.models import Game
from cards.services import catalog_load


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        catalog_load(directory=settings.CATALOG_DIR)


@pytest.fixture
def catalog(db):
    if not Game.objects.exists():
        catalog_load(directory=settings.CATALOG_DIR)


@pytest.fixture
def api():
    return APIClient()
