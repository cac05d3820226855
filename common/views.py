"""Site-wide 404 and 500 handlers: the API gets the contract's JSON body, people get a page."""

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from .api_errors import error_body


def _wants_json(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _wants_json(request):
        body = error_body(
            status_code=404, code="not_found", detail="Nothing exists at this address."
        )
        return JsonResponse(body, status=404)
    return render(request, "404.html", status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    if _wants_json(request):
        body = error_body(
            status_code=500, code="server_error", detail="Something went wrong on our side."
        )
        return JsonResponse(body, status=500)
    return render(request, "500.html", status=500)


def login_locked_out(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    """django-axes' lockout answer (settings.AXES_LOCKOUT_CALLABLE): a 429 page with Retry-After.
    A guess during the lockout is counted and starts the cool-off again, so the wait is always the
    whole cool-off from now."""
    from axes.helpers import get_cool_off

    cool_off = get_cool_off(request)
    wait = int(cool_off.total_seconds()) if cool_off else 0
    minutes = max(1, -(-wait // 60))
    message = (
        "Too many failed logins from your address. Nothing was checked this time; try again "
        f"in {minutes} minute{'s' if minutes != 1 else ''}, without guessing in between."
    )
    response = render(
        request,
        "problem.html",
        {
            "title": "Too many failed logins",
            "message": message,
            "retry_after": wait,
            "back": request.get_full_path(),
        },
        status=429,
    )
    if wait:
        response["Retry-After"] = str(wait)
    return response
