"""Fuzzing the API from its own OpenAPI schema (schemathesis, in-process, bounded): no input may
cause a 5xx, and every response must match the schema it documents. Each game's score and ruling
bodies are typed in the schema (games/api_schema.py), so the generated bodies have the game's
shape, and a share of them are requests the game answers (bench/schema_share.py prints it)."""

import json
import os
import re
from collections import Counter

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis.checks import negative_data_rejection, positive_data_acceptance

# How many cases hypothesis draws per operation (the fuzzing phase), after schemathesis' coverage
# phase (every boundary the schema states: a value at and past each bound, each required field
# left out, each type swapped; not counted here, and for a game's body the larger part: 126 to
# 873 cases) and the schema's examples. Chosen by what the draws reached: the distinct answers
# (status, error code, and each error's field and code) counted draw by draw on a run of 300 per
# operation (docs/TESTING.md has the figures).
#
# The other operations (catalog, results, tables): all they answered, the draws had reached by
# the 9th of 300 (most by the coverage phase alone), so 50 keep five times that margin.
# tests/test_tables_hostile.py sends the table endpoints the hostile values besides.
MAX_EXAMPLES = 50
# Each game's own score and rulings operations: drawn bodies of that game's shape still reached
# answers the coverage phase had not (an unknown key refused at one nesting level or another)
# past the 150th draw, most of them before the 100th (31 of the 37 parts the first 150
# reach; a run of 100, which draws other cases, reached 31: docs/TESTING.md). `make test` draws 100; `make test-postgres`, and so every CI run, 150
# (SCHEMATHESIS_GAME_DRAWS): the last 50, which reach few new ones, are spent once per CI run.
ONE_GAME_EXAMPLES = int(os.environ.get("SCHEMATHESIS_GAME_DRAWS", "100") or 100)
# The `{game}` score and rulings operations take any game's body (anyOf each game's own), which
# each game's own operation already draws, and reach the same view (the game's own path is
# /api/games/<slug>/…, the same route): these draw fewer, mostly to pair slugs and bodies that do
# not match, and run no coverage phase of their own. Theirs was each game's coverage cases again
# under one slug or another (2,543 for the rulings, 1,457 for the score), the most expensive
# cases of the suite (180 s on a loaded machine); what only they reached (a game's body under
# another game's slug, an unknown slug) every documented body under every slug below reaches.
ANY_GAME_EXAMPLES = 50
# Every phase but the explicit one (the schema's examples and schemathesis' coverage cases).
GENERATED_ONLY = [Phase.reuse, Phase.generate, Phase.target, Phase.shrink]
# SCHEMATHESIS_SCALE=… draws that many times as many, on fresh random draws (a night's hunt);
# otherwise the draws are derandomized: the same cases on every run of the same code, so that a
# failure in CI is the one a developer's run sees.
SCALE = float(os.environ.get("SCHEMATHESIS_SCALE", "0") or 0)
DERANDOMIZE = SCALE == 0
# bench/schemathesis_draws.py sets these: every operation draws SCHEMATHESIS_DRAWS cases (still
# derandomized), and each case's answer is written to SCHEMATHESIS_ANSWERS_FILE, in the order sent,
# to count which draw first reached each answer.
DRAWS = int(os.environ.get("SCHEMATHESIS_DRAWS", "0") or 0)
ANSWERS_FILE = os.environ.get("SCHEMATHESIS_ANSWERS_FILE", "")


def draws(count: int) -> int:
    if DRAWS:
        return DRAWS
    return max(1, round(count * SCALE)) if SCALE else count


LIST_INDEX = re.compile(r"\[\d+\]")
MAP_KEY = re.compile(r"""\[(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")\]""")
FIELD_NAME = re.compile(r"[a-z][a-z0-9_]*(\[\]|\[key\])*")


def error_place(error: dict) -> str:
    """An error's place and code, its list indices and map keys dropped, and every name the draw
    made up (an unknown key, echoed in the place) written `<key>`:
    `players[].choices[key].<key> unknown_field`."""
    path = MAP_KEY.sub("[key]", LIST_INDEX.sub("[]", str(error.get("path"))))
    parts = [part if FIELD_NAME.fullmatch(part) else "<key>" for part in path.split(".")]
    if error.get("code") in ("unknown_field", "unknown_option"):
        parts[-1] = "<key>"  # the unknown key itself, even one that reads like a field's name
    return f"{'.'.join(parts)} {error.get('code')}"


def record_answer(case, response) -> None:
    """One line for bench/schemathesis_draws.py: the operation, the case's phase (coverage,
    examples, fuzzing) and what the answer says (its status, error code and the distinct places
    and codes of its errors), or null for a request already sent."""
    answer = None
    if response is not None:
        answer = [response.status_code]
        try:
            body = response.json()
        except ValueError:
            body = None
        if isinstance(body, dict):
            answer.append(body.get("code"))
            errors = body.get("errors") or []
            answer.extend(sorted({error_place(e) for e in errors if isinstance(e, dict)}))
    with open(ANSWERS_FILE, "a") as out:
        # A case the test builds itself (every documented body under every slug) has no phase.
        phase = case.meta.phase.name.value if case.meta else "examples"
        out.write(json.dumps([RUNNING["label"], phase, answer]) + "\n")


schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())
GAME_JOBS_PATH = r"^/api/games/[^/]+/(score|rulings)/$"
ONE_GAME = r"^/api/games/[a-z][a-z0-9-]*/(score|rulings)/$"
ANY_GAME = r"^/api/games/\{game\}/(score|rulings)/$"


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

    Of the cases hypothesis draws for an operation (plus the schema's examples and
    schemathesis' coverage cases), a tenth to a half are the very same request again:
    schemathesis feeds the values the schema documents (card names from its examples, game
    slugs, codes) back into every string, so `game` is "Lieutenant Worf" in about half the POST
    cases, and hypothesis draws the same few small bodies again and again. A request already
    checked on this database would get the same answer, so it is not sent twice. One that failed
    is never in here: hypothesis' shrinking and replay still send it as often as they need."""
    return set()


def never_fails_and_keeps_to_its_schema(case, passed) -> int | None:
    """The answer's status (None: the same request already passed on this database)."""
    # A case equals another when it is the same request on the wire (schemathesis' Case hash)
    # with the same parameters, headers, cookies and body.
    if case in passed:
        if ANSWERS_FILE:
            record_answer(case, None)
        return None
    # Every check but one: a body of the right shape can still be refused with a 400 (a card
    # name no card has, a position no game could reach, a player named twice: what a schema
    # cannot say), and an attribute filter is "a string". No 5xx, responses that match their
    # schema, documented status codes, and schema-violating requests refused are all checked.
    response = case.call()
    if ANSWERS_FILE:
        record_answer(case, response)
    excluded = [positive_data_acceptance]
    if response.status_code == 413:
        # A body over the size limit is refused for its size before it is read (413
        # request_too_large, documented): a refusal all the same, which the negative-data check
        # does not count among the codes it expects (a draw of a Factions body with too many
        # factions came out at 74 kB once).
        excluded.append(negative_data_rejection)
    case.validate_response(response, excluded_checks=excluded)
    passed.add(case)
    return response.status_code


def operation_labels(include) -> list[str]:
    """The labels (`POST /api/games/factions/score/`) of the schema's operations `include` keeps."""
    return [
        result.ok().label
        for result in schema.get_all_operations()
        if include(result.ok().method.upper(), result.ok().path)
    ]


def is_game_job(method: str, path: str) -> bool:
    return method == "POST" and re.fullmatch(GAME_JOBS_PATH, path) is not None


# Each operation is one test, its schemathesis test built when it runs: a lazy schema, whose
# fixture names the operation. Built at collection instead (`schema.parametrize()`), every
# pytest-xdist worker built every operation's coverage and example cases, though one worker runs
# each: collecting the whole suite took 21.6 s of CPU, 6.9 s now. The coverage cases are the same;
# the drawn ones come from another seed (still derandomized: the same on every run), as many.
#
# schemathesis applies a lazy schema's own filters, not those of the schema its fixture returns:
# the filter reads which operation the running test is for (RUNNING, set by its fixture; a
# process runs one test at a time).
RUNNING = {"label": ""}


def is_running(context) -> bool:
    return context.operation.label == RUNNING["label"]


def running(label: str):
    RUNNING["label"] = label
    return schema


@pytest.fixture(autouse=True)
def node_id_for_schemathesis(request):
    """schemathesis' lazy schema names the operation it runs by rewriting the test's
    `request.node._nodeid`, which pytest 9 no longer has (its node ids are built otherwise): it
    gets a plain attribute to rewrite, read by nothing else."""
    request.node._nodeid = request.node.nodeid


@pytest.fixture(params=operation_labels(lambda method, path: not is_game_job(method, path)))
def other_operation(request):
    return running(request.param)


@pytest.fixture(
    params=operation_labels(
        lambda method, path: method == "POST" and re.fullmatch(ONE_GAME, path) is not None
    )
)
def one_game_operation(request):
    return running(request.param)


@pytest.fixture(
    params=operation_labels(
        lambda method, path: method == "POST" and re.fullmatch(ANY_GAME, path) is not None
    )
)
def any_game_operation(request):
    return running(request.param)


@pytest.mark.django_db
@schemathesis.pytest.from_fixture("other_operation").include(is_running).parametrize()
@settings(
    max_examples=draws(MAX_EXAMPLES),
    derandomize=DERANDOMIZE,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_the_api_never_fails_and_keeps_to_its_schema(case, catalog, passed):
    never_fails_and_keeps_to_its_schema(case, passed)


@pytest.mark.django_db
@schemathesis.pytest.from_fixture("one_game_operation").include(is_running).parametrize()
@settings(
    max_examples=draws(ONE_GAME_EXAMPLES),
    derandomize=DERANDOMIZE,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_each_games_operations_never_fail_and_keep_to_their_schema(case, catalog, passed):
    never_fails_and_keeps_to_its_schema(case, passed)


@pytest.mark.django_db
@schemathesis.pytest.from_fixture("any_game_operation").include(is_running).parametrize()
@settings(
    max_examples=draws(ANY_GAME_EXAMPLES),
    derandomize=DERANDOMIZE,
    phases=GENERATED_ONLY,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_any_games_operations_never_fail_and_keep_to_their_schema(case, catalog, passed):
    never_fails_and_keeps_to_its_schema(case, passed)


# Every game's documented body (the `{game}` operation's examples hold them all) sent under every
# game's slug and an unknown one: the mismatched pairs and the unknown game, which the `{game}`
# operations' coverage phase reached (a body's fields refused as another game's, 404
# unknown_game) among its thousands of cases, each sent once.
UNKNOWN_SLUG = "no-such-game"


def example_bodies(operation) -> list[tuple[str, object]]:
    content = operation.definition.raw["requestBody"]["content"]["application/json"]
    return [(name, example["value"]) for name, example in content["examples"].items()]


ANY_GAME_OPERATIONS = [
    result.ok()
    for result in schema.get_all_operations()
    if result.ok().method.upper() == "POST" and "{game}" in result.ok().path
]
GAME_SLUGS = sorted(
    {
        result.ok().path.split("/")[3]
        for result in schema.get_all_operations()
        if re.fullmatch(ONE_GAME, result.ok().path) and result.ok().method.upper() == "POST"
    }
)
EVERY_PAIR = [
    pytest.param(
        operation, name, body, slug, id=f"{operation.path.rsplit('/', 2)[1]}-{name}-{slug}"
    )
    for operation in ANY_GAME_OPERATIONS
    for name, body in example_bodies(operation)
    for slug in [*GAME_SLUGS, UNKNOWN_SLUG]
]


def test_every_pair_of_a_documented_body_and_a_slug_is_held():
    assert len(GAME_SLUGS) == 4 and len(ANY_GAME_OPERATIONS) == 2
    bodies = {name for operation in ANY_GAME_OPERATIONS for name, _ in example_bodies(operation)}
    # Every game's examples, each under every slug.
    assert {name.split(":")[0].lower() for name in bodies} == set(GAME_SLUGS)
    assert len(EVERY_PAIR) == len(bodies) * (len(GAME_SLUGS) + 1)


@pytest.mark.django_db
@pytest.mark.parametrize(("operation", "name", "body", "slug"), EVERY_PAIR)
def test_each_games_body_under_any_slug_never_fails_and_keeps_to_its_schema(
    operation, name, body, slug, catalog, passed
):
    case = operation.Case(path_parameters={"game": slug}, body=body, media_type="application/json")
    status = never_fails_and_keeps_to_its_schema(case, passed)
    # Its own game answers it; another game refuses it for its fields; no game, not found.
    own = name.split(":")[0].lower()
    assert status == (404 if slug == UNKNOWN_SLUG else 200 if slug == own else 400)


# Each game's own score and ruling operations: the ones a typed client calls.
GAME_JOBS = [
    result.ok()
    for result in schema.get_all_operations()
    if result.ok().method.upper() == "POST" and re.fullmatch(ONE_GAME, result.ok().path)
]
SHARE_CASES = 60


@pytest.mark.django_db
@pytest.mark.parametrize("operation", GAME_JOBS, ids=lambda operation: operation.label)
def test_generated_bodies_reach_valid_requests(operation, catalog):
    """With typed bodies, schemathesis' own generation reaches requests the game answers: of
    SHARE_CASES cases drawn for each game's own score and ruling operation (derandomized, so the
    same cases on every run of the same code), some are answered 2xx. The share is printed (-s).

    The `{game}` operations are not held to it: they pair any game's slug with any game's body
    (their body is anyOf the games'), so most draws are a mismatch the schema cannot rule out
    (bench/schema_share.py prints their share, 2 to 11% of 200), and their draws are sent by
    test_any_games_operations_never_fail_and_keep_to_their_schema."""
    answers: Counter = Counter()

    @settings(
        max_examples=SHARE_CASES,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy())
    def send(case):
        status = case.call().status_code
        assert status < 500
        answers[200 <= status < 300] += 1

    send()
    sent = sum(answers.values())
    print(
        f"\n{operation.label}: {answers[True]}/{sent} generated requests answered 2xx "
        f"({answers[True] / sent:.0%})"
    )
    assert answers[True] > 0
