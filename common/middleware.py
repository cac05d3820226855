"""Site-wide HTTP protections: a strict Content-Security-Policy on every response, and a 413 in
the API's error body for request bodies over the documented size."""

from __future__ import annotations

from django.conf import settings
from django.http import JsonResponse

from .api_errors import error_body

# Everything comes from this site: scripts and styles from our own files (htmx included), no
# inline code, nothing framed, forms post only here.
STRICT_POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "font-src": "'self'",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
# Swagger UI (served from local files) writes its layout with inline styles.
DOCS_POLICY = {**STRICT_POLICY, "style-src": "'self' 'unsafe-inline'"}


def _header(policy: dict[str, str]) -> str:
    return "; ".join(f"{directive} {sources}" for directive, sources in policy.items())


STRICT_HEADER = _header(STRICT_POLICY)
DOCS_HEADER = _header(DOCS_POLICY)


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            docs = request.path.startswith("/api/docs/")
            response["Content-Security-Policy"] = DOCS_HEADER if docs else STRICT_HEADER
        response.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
        return response


class RequestSizeLimitMiddleware:
    """Refuses API request bodies above settings.API_MAX_BODY_BYTES with a 413, before anything
    reads them."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path.startswith("/api/"):
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0
            limit = settings.API_MAX_BODY_BYTES
            if length > limit:
                body = error_body(
                    status_code=413,
                    code="request_too_large",
                    detail=f"The request body has {length} bytes; the API accepts at most {limit}.",
                )
                return JsonResponse(body, status=413)
        return self.get_response(request)
