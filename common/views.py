"""Site-wide 404 and 500 handlers: the API gets the contract's JSON body, people get a page."""

from django.http import JsonResponse
from django.shortcuts import render

from .api_errors import error_body


def _wants_json(request) -> bool:
    return request.path.startswith("/api/")


def page_not_found(request, exception=None):
    if _wants_json(request):
        body = error_body(status_code=404, code="not_found", detail="Nothing exists at this address.")
        return JsonResponse(body, status=404)
    return render(request, "404.html", status=404)


def server_error(request):
    if _wants_json(request):
        body = error_body(
            status_code=500, code="server_error", detail="Something went wrong on our side."
        )
        return JsonResponse(body, status=500)
    return render(request, "500.html", status=500)
