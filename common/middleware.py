"""Site-wide HTTP protections: a strict Content-Security-Policy on every response; request bodies
sent in chunks (no Content-Length) read within the limits; a 413 in the API's error body for request
bodies over the documented size; and page forms whose fields are not UTF-8 text refused."""

from __future__ import annotations

import io
from urllib.parse import unquote_to_bytes

from django.conf import settings
from django.core.handlers.wsgi import LimitedStream
from django.http import JsonResponse
from django.shortcuts import render

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


def body_limit(request) -> int:
    """The largest body accepted: the API's documented limit, Django's for pages and forms."""
    if request.path.startswith("/api/"):
        return settings.API_MAX_BODY_BYTES
    return settings.DATA_UPLOAD_MAX_MEMORY_SIZE or settings.API_MAX_BODY_BYTES


def too_large(length: int, limit: int, *, more: bool = False) -> JsonResponse:
    size = f"more than {length}" if more else f"{length}"
    body = error_body(
        status_code=413,
        code="request_too_large",
        detail=f"The request body has {size} bytes; the API accepts at most {limit}.",
    )
    return JsonResponse(body, status=413)


class RequestSizeLimitMiddleware:
    """Refuses API request bodies above settings.API_MAX_BODY_BYTES with a 413, before anything
    reads them.

    A body sent with `Transfer-Encoding: chunked` has no Content-Length, and Django reads such a
    body as empty (under gunicorn a score request was answered "Give the hand"). It is read here
    instead, up to the limit (a 413 past it), and handed on as an ordinary body of known length."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if is_chunked(request):
            refused = read_chunked_body(request)
            if refused is not None:
                return refused
        if request.path.startswith("/api/"):
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0
            limit = settings.API_MAX_BODY_BYTES
            if length > limit:
                return too_large(length, limit)
        return self.get_response(request)


def is_chunked(request) -> bool:
    encoding = request.META.get("HTTP_TRANSFER_ENCODING", "")
    return "chunked" in encoding.lower() and not request.META.get("CONTENT_LENGTH")


def read_chunked_body(request) -> JsonResponse | None:
    """Read a chunked body (the server has already joined the chunks) up to the limit; a 413 past
    it. The request then carries it as a body of known length."""
    limit = body_limit(request)
    stream = request.environ.get("wsgi.input")
    data = stream.read(limit + 1) if stream is not None else b""
    if len(data) > limit:
        return too_large(limit, limit, more=True)
    request.META["CONTENT_LENGTH"] = str(len(data))
    request._stream = LimitedStream(io.BytesIO(data), len(data))
    request._read_started = False
    return None


class FormTextMiddleware:
    """A page form whose field holds bytes that are not UTF-8 text (a lone surrogate encoded as
    %ED%A0%80, say) is refused with a 400 page naming the field: Django would otherwise turn the
    bytes into U+FFFD silently, and the page would score or rule on text nobody typed."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        content_type = request.META.get("CONTENT_TYPE", "")
        if (request.method == "POST" and not request.path.startswith("/api/")
                and content_type.startswith("application/x-www-form-urlencoded")):
            field = first_field_not_text(request.body)
            if field is not None:
                message = (f"The form field “{field}” holds bytes that are not UTF-8 text, so "
                           f"nothing was scored or saved. Retype it and send the form again.")
                return render(request, "problem.html", {
                    "title": "This form holds invalid text", "message": message,
                    "back": request.path, "code": "invalid_text",
                }, status=400)
        return self.get_response(request)


def first_field_not_text(body: bytes) -> str | None:
    """The name of the first field of a urlencoded body whose name or value is not UTF-8."""
    for pair in body.split(b"&"):
        if not pair:
            continue
        key, _, value = pair.partition(b"=")
        raw_key = unquote_to_bytes(key.replace(b"+", b" "))
        for raw in (raw_key, unquote_to_bytes(value.replace(b"+", b" "))):
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError:
                return raw_key.decode("utf-8", "replace")[:80]
    return None
