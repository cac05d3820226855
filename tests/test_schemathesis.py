"""Fuzzing the API from its own OpenAPI schema (schemathesis, in-process, bounded): no input may
cause a 5xx, and every response must match the schema it documents."""

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.checks import positive_data_acceptance

# Hundreds of cases per operation over the whole API, a few seconds each.
MAX_EXAMPLES = 300

schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())


@pytest.fixture(autouse=True)
def keep_the_test_connection_open():
    """The WSGI handler closes database connections at each request's start and end; in a test
    that is the connection holding the test's transaction (PostgreSQL then fails every query).
    Django's test client disconnects those signals for the same reason; so does this."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def passed():
    """The requests this operation's test has already sent, and seen pass, on its database.

    Of the 300 cases hypothesis draws for an operation (plus the schema's examples and
    schemathesis' coverage cases), a third to two fifths are the very same request again:
    schemathesis feeds the values the schema documents (card names from its examples, game
    slugs, codes) back into every string, so `game` is "Lieutenant Worf" in about half the POST
    cases, and hypothesis draws the same few small bodies again and again. A request already
    checked on this database would get the same answer, so it is not sent twice. One that failed
    is never in here: hypothesis' shrinking and replay still send it as often as they need."""
    return set()


@pytest.mark.django_db
@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None,
          suppress_health_check=list(HealthCheck))
def test_the_api_never_fails_and_keeps_to_its_schema(case, catalog, passed):
    # A case equals another when it is the same request on the wire (schemathesis' Case hash)
    # with the same parameters, headers, cookies and body.
    if case in passed:
        return
    # Every check but one: the schema types game-specific shapes loosely (a score body is "an
    # object", an attribute filter "a string"; each game's shape is in the descriptions and
    # examples), so a random "schema-valid" value is rightly refused with a 400. No 5xx, responses
    # that match their schema and documented status codes are all still checked.
    case.call_and_validate(excluded_checks=[positive_data_acceptance])
    passed.add(case)
