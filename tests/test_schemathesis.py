"""Fuzzing the API from its own OpenAPI schema (schemathesis, in-process, bounded): no input may
cause a 5xx, and every response must match the schema it documents."""

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, settings
from schemathesis.checks import positive_data_acceptance

# Hundreds of cases per operation over the whole API, a few seconds each.
MAX_EXAMPLES = 300

schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())


@pytest.mark.django_db
@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None,
          suppress_health_check=list(HealthCheck))
def test_the_api_never_fails_and_keeps_to_its_schema(case, catalog):
    # Every check but one: the schema types game-specific shapes loosely (a score body is "an
    # object", an attribute filter "a string"; each game's shape is in the descriptions and
    # examples), so a random "schema-valid" value is rightly refused with a 400. No 5xx, responses
    # that match their schema and documented status codes are all still checked.
    case.call_and_validate(excluded_checks=[positive_data_acceptance])
