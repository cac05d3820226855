"""Fixtures shared by the whole suite.

The shipped catalog is not in the migrations; a test that needs it asks for `catalog`, which loads
it through the same service `make run` uses. That also keeps live-server browser tests (whose
database is flushed between tests) working: each loads what it needs.
"""

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from cards.services import catalog_load


@pytest.fixture
def catalog(db):
    return catalog_load(directory=settings.CATALOG_DIR)


@pytest.fixture
def api():
    return APIClient()
