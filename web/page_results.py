"""What the games' score and ruling pages share: run the very service the API calls on the body a
page's form built, show its answer or its problems, and answer with the whole page or, to an htmx
submit, the result fragment.

A page never rules or scores by itself: the service does, and saves its result, whose permalink
and JSON address the page shows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol

from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_vary_headers

from cards.models import Game
from common.api_errors import ApiError
from common.links import form_link
from common.page_throttle import check_page_throttle
from web.page_names import call_reading_names


def is_htmx_submit(request: HttpRequest) -> bool:
    return request.method == "POST" and request.headers.get("HX-Request") == "true"


# --- The input in the address -----------------------------------------------------------------
#
# A page's input lives in its address too: a GET with the form's field names in the query string
# fills the form in and shows the answer, worked out again and not saved (a GET never writes; the
# saved result, with its permalink, comes from submitting). After a submit the address is set to
# the input (htmx: HX-Replace-Url; without JavaScript the answer links to it), so Back, reload and
# a shared link give the same form.

NOT_INPUT = ("csrfmiddlewaretoken",)
# What messengers, mail and ad links add to a shared address: never a form's field, so such a link
# opens the form it points to (empty, or as filled in), not a form of problems.
TRACKING = ("fbclid", "gclid", "dclid", "msclkid", "mc_cid", "mc_eid", "igshid", "_ga")


def is_input(key: str) -> bool:
    return key not in NOT_INPUT and key not in TRACKING and not key.startswith("utm_")


def page_input(request: HttpRequest) -> QueryDict | None:
    """The form's data: what was posted, or the query string of a GET that carries input; None
    for the empty form. Input means work (reading names, the service, a form of many fields), so
    it counts against the client's limit (common.page_throttle), GET or POST; the empty form is
    a read, never counted."""
    if request.method == "POST":
        check_page_throttle(request)
        return request.POST
    if not link_pairs(request.GET):
        return None
    check_page_throttle(request)
    return request.GET


def link_pairs(data: QueryDict | None) -> list[tuple[str, str]]:
    """The non-empty fields of a form's data, in order, as (name, value) pairs for its address."""
    if data is None:
        return []
    return [
        (key, value)
        for key, values in data.lists()
        if is_input(key)
        for value in values
        if value.strip()
    ]


def evaluate_on_page(
    request: HttpRequest,
    context: dict[str, Any],
    *,
    service: Callable[..., dict[str, Any]],
    game: Game,
    body: dict[str, Any],
    show: Callable[[dict[str, Any]], dict[str, Any]],
    show_errors: Callable[[ApiError], dict[str, Any]],
) -> int:
    """Run `service` on `body`. Its answer goes into the context through `show` (with the saved
    result's links); a 400 it raises goes into context["error"] through `show_errors`, which also
    puts each problem by its field. Returns the page's status. On a GET the result is not saved
    (no links then). No transaction: the service's one
    write, the saved result, is a single INSERT. Each call counts against the client's limit,
    shared with the API (common.page_throttle; once per request, however many of page_input
    and this it calls): past it, PageThrottled (a friendly 429 page)."""
    check_page_throttle(request)
    try:
        if request.method == "POST":
            response = call_reading_names(service, game=game, body=body)
        else:
            # A GET (the input in the query string) shows the answer without saving it, from the
            # cache of computed answers when the same question was asked before.
            from web.computed import computed_answer

            response = computed_answer(service, game=game, body=body)
    except ApiError as error:
        context["error"] = show_errors(error)
        return 400
    context.update(show(response))
    if "url" in response:
        context["share_url"] = request.build_absolute_uri(response["url"])
        context["json_url"] = reverse("results:api-result", args=[response["id"]])
    return 200


class ErrorForm(Protocol):
    """What form_errors needs of a form (web.page_forms.PageForm, which imports this module)."""

    def add_errors(self, entries: list[dict[str, Any]]) -> None: ...

    def error_summary(self, entries: list[dict[str, Any]]) -> list[dict[str, Any]]: ...


def form_errors(error: ApiError, form: ErrorForm) -> dict[str, Any]:
    """context["error"] for a form that places entries by path (`add_errors`) and lists them
    (`error_summary`)."""
    form.add_errors(error.errors)
    return {
        "detail": error.message,
        "code": error.error_code,
        "entries": form.error_summary(error.errors),
    }


def did_you_mean(suggestions: list[str]) -> str:
    """ " Did you mean A, B or C?" for up to three suggestions; "" for none."""
    if not suggestions:
        return ""
    shown = suggestions[:3]
    names = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]
    return f" Did you mean {names}?"


class Problem(str):
    """A problem as a page shows it (the text), which also knows its detail alone and, for a card
    name that matched nothing, what was typed and the names to offer as links that fill the
    field in (web.page_names; templates/partials/problem_text.html)."""

    detail: str = ""
    typed: str = ""
    suggestions: tuple[str, ...] = ()


def problem(
    text: str, *, detail: str = "", typed: str = "", suggestions: Iterable[str] = ()
) -> Problem:
    made = Problem(text)
    made.detail, made.typed, made.suggestions = detail or text, typed, tuple(suggestions)
    return made


def problem_message(
    entry: dict[str, Any], *, suggest_for: tuple[str, ...] = ("unknown_card",)
) -> str:
    """An error entry of the API as a page shows it: its detail, and for the codes in
    `suggest_for` (a name that matched nothing) the suggestions as a question."""
    detail = entry.get("detail", "")
    if entry.get("code") not in suggest_for:
        return problem(detail)
    suggestions = entry.get("suggestions") or []
    typed = entry.get("typed", "") if entry.get("code") == "unknown_card" else ""
    return problem(
        detail + did_you_mean(suggestions), detail=detail, typed=typed, suggestions=suggestions
    )


def render_result_page(
    request: HttpRequest,
    context: dict[str, Any],
    *,
    status: int,
    page: str,
    fragment: str,
    link: Iterable[tuple[str, str]] | None = None,
) -> HttpResponse:
    """The page, or to an htmx submit the fragment. `link`: the (name, value) pairs of the input
    in the page's address (by default the non-empty fields posted, or the GET's query string);
    the answer links to it as form_url and an htmx submit replaces the address with it."""
    partial = is_htmx_submit(request)
    pairs = link_pairs(page_input(request)) if link is None else list(link)
    context["form_url"] = form_link(request.path, pairs) if pairs else ""
    # An htmx answer with problems also swaps the form in again (out of band), so each problem
    # shows by its field as it does without JavaScript. At a table every answer does: the form's
    # entry key (a new one once the answer is recorded), the table version it sends on and what
    # it says of a conflict change with each answer (tables/jobs.py).
    context["oob_form"] = partial and (
        context.get("error") is not None or bool(context.get("asked_at"))
    )
    response = render(request, fragment if partial else page, context, status=status)
    # The same address answers with a fragment or a page: caches must tell them apart.
    patch_vary_headers(response, ["HX-Request"])
    if partial and status < 500:
        response["HX-Replace-Url"] = form_link(request.path, pairs)
    return response
