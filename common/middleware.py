"""Site-wide HTTP protections: a strict Content-Security-Policy on every response; request bodies
sent in chunks (no Content-Length) read within the limits; a 413 for request bodies over the
documented size (the API's error body, or a page for a form), and a 400 page for a form of more
fields than any page has; and page forms whose fields are not UTF-8 text refused."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from urllib.parse import unquote_to_bytes

from django.conf import settings
from django.core.handlers.wsgi import LimitedStream
from django.http import HttpRequest, HttpResponse, JsonResponse
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
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            docs = request.path.startswith("/api/docs/")
            response["Content-Security-Policy"] = DOCS_HEADER if docs else STRICT_HEADER
        response.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
        return response


def body_limit(request: HttpRequest) -> int:
    """The largest body accepted at the request's path (see body_limit_for)."""
    return body_limit_for(request.path)


def body_limit_for(path: str) -> int:
    """The largest body accepted: the API's documented limit; a page form's (a page builds an API
    body from its fields, so it never needs more); the admin's, whose import confirms a whole
    catalog file in one form."""
    if path.startswith("/api/"):
        return settings.API_MAX_BODY_BYTES
    if path.startswith("/admin/"):
        return settings.DATA_UPLOAD_MAX_MEMORY_SIZE or settings.API_MAX_BODY_BYTES
    return settings.PAGE_MAX_BODY_BYTES


def too_large(length: int, limit: int, *, more: bool = False) -> JsonResponse:
    size = f"more than {length}" if more else f"{length}"
    body = error_body(
        status_code=413,
        code="request_too_large",
        detail=f"The request body has {size} bytes; the API accepts at most {limit}.",
    )
    return JsonResponse(body, status=413)


# Methods no page or endpoint answers: TRACE echoes a request back (cross-site tracing), TRACK is
# its IIS twin, CONNECT opens a tunnel. A view that checks only for POST would otherwise answer them
# as a GET (TRACE / answered 200).
REFUSED_METHODS = frozenset({"TRACE", "TRACK", "CONNECT"})


class MethodMiddleware:
    """TRACE, TRACK and CONNECT get a 405 everywhere (the API's error body under /api/), before
    any view runs."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if (request.method or "").upper() in REFUSED_METHODS:  # None only for a bare HttpRequest()
            allowed = "GET, HEAD, POST, OPTIONS"
            response: HttpResponse
            if request.path.startswith("/api/"):
                response = JsonResponse(
                    error_body(
                        status_code=405,
                        code="method_not_allowed",
                        detail=f'Method "{request.method}" not allowed.',
                    ),
                    status=405,
                )
            else:
                response = render(
                    request,
                    "problem.html",
                    {
                        "title": "Method not allowed",
                        "message": f"This address does not answer {request.method} requests.",
                        "back": "/",
                        "code": "method_not_allowed",
                    },
                    status=405,
                )
            response["Allow"] = allowed
            return response
        return self.get_response(request)


class RequestSizeLimitMiddleware:
    """Refuses API request bodies above settings.API_MAX_BODY_BYTES with a 413, before anything
    reads them.

    So too every request body over the limit of its path (body_limit_for): a page form gets a 413
    page. A page form with more fields than a form has is a 400 page before any middleware splits
    it (the text check below, the CSRF check and the throttle come later: 2.6 MB of `a=&` pairs
    cost a second of CPU there).

    A body sent with `Transfer-Encoding: chunked` has no Content-Length, and Django reads such a
    body as empty (under gunicorn a score request was answered "Give the hand"). It is read here
    instead, up to the limit (a 413 past it), and handed on as an ordinary body of known length."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if is_chunked(request):
            refused = read_chunked_body(request)
            if refused is not None:
                return refused
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        limit = body_limit(request)
        if length > limit:
            return page_too_large(request, length, limit)
        refused = too_many_fields(request)
        if refused is not None:
            return refused
        return self.get_response(request)


def form_refused(
    request: HttpRequest, *, status: int, title: str, message: str, code: str
) -> HttpResponse:
    """A page form refused before anything parsed it: a page that says why (no session, CSRF
    check or throttle has run yet, so it shows no more than that)."""
    return render(
        request,
        "problem.html",
        {
            "title": title,
            "message": message,
            "back": request.path,
            "code": code,
        },
        status=status,
    )


def page_too_large(
    request: HttpRequest, length: int, limit: int, *, more: bool = False
) -> HttpResponse:
    """A 413 for a body over the limit: the API's error body, or a page for a form."""
    if request.path.startswith("/api/"):
        return too_large(length, limit, more=more)
    size = f"more than {limit:,}" if more else f"{length:,}"
    return form_refused(
        request,
        status=413,
        title="This form is too large",
        code="request_too_large",
        message=(
            f"The form sent {size} bytes; Tableside takes at most {limit:,} from a form, "
            f"so nothing was read, scored or saved."
        ),
    )


def too_many_fields(request: HttpRequest) -> HttpResponse | None:
    """A 400 page for a form body with more fields than settings.DATA_UPLOAD_MAX_NUMBER_FIELDS,
    counted on the raw body (already bounded in size) before anything splits or decodes it: the
    `&`s of a urlencoded form, the boundaries of a multipart one."""
    limit = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
    if limit is None or request.method != "POST" or request.path.startswith("/api/"):
        return None
    content_type = request.META.get("CONTENT_TYPE", "")
    if content_type.startswith("application/x-www-form-urlencoded"):
        fields = request.body.count(b"&") + 1
    elif content_type.startswith("multipart/form-data"):
        boundary = MULTIPART_BOUNDARY.search(content_type)
        if boundary is None:
            return None  # Django's parser refuses it
        fields = request.body.count(b"--" + boundary.group(1).strip('"').encode("latin-1")) - 1
    else:
        return None
    if fields <= limit:
        return None
    return form_refused(
        request,
        status=400,
        title="This form has too many fields",
        code="too_many_fields",
        message=(
            f"The form sent {fields:,} fields; Tableside takes at most {limit:,}, so "
            f"nothing was read, scored or saved."
        ),
    )


MULTIPART_BOUNDARY = re.compile(r'boundary=("[^"]{1,70}"|[^;\s]{1,70})', re.IGNORECASE)


def is_chunked(request: HttpRequest) -> bool:
    encoding = request.META.get("HTTP_TRANSFER_ENCODING", "")
    return "chunked" in encoding.lower() and not request.META.get("CONTENT_LENGTH")


def read_chunked_body(request: HttpRequest) -> HttpResponse | None:
    """Read a chunked body (the server has already joined the chunks) up to the limit; a 413 past
    it. The request then carries it as a body of known length. Under WSGI the body is read from
    wsgi.input (Django's own stream reads nothing without a Content-Length); under ASGI the
    server's body is the request's stream (config.asgi has read at most a byte past the limit)."""
    limit = body_limit(request)
    environ = getattr(request, "environ", None)
    stream = environ.get("wsgi.input") if environ is not None else request._stream
    data = stream.read(limit + 1) if stream is not None else b""
    if len(data) > limit:
        return page_too_large(request, limit, limit, more=True)
    request.META["CONTENT_LENGTH"] = str(len(data))
    # Django's private stream and flag: django-stubs types _stream as BinaryIO (a LimitedStream
    # reads the same) and leaves _read_started out.
    request._stream = LimitedStream(io.BytesIO(data), len(data))  # type: ignore[assignment]
    request._read_started = False  # type: ignore[attr-defined]
    return None


class FormTextMiddleware:
    """A page form whose field holds bytes that are not UTF-8 text (a lone surrogate encoded as
    %ED%A0%80, say) is refused with a 400 page naming the field: Django would otherwise turn the
    bytes into U+FFFD silently, and the page would score or rule on text nobody typed."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        content_type = request.META.get("CONTENT_TYPE", "")
        field = None
        if request.method == "POST" and not request.path.startswith("/api/"):
            if content_type.startswith("application/x-www-form-urlencoded"):
                field = first_field_not_text(request.body)
            elif content_type.startswith("multipart/form-data") and not request.path.startswith(
                "/admin/"
            ):
                # A page form sent as multipart (a script can; Django would decode its fields
                # with U+FFFD just the same). The admin's file uploads are left to Django: they
                # may be larger than a body read in one piece, and the import checks its file.
                field = first_multipart_field_not_text(request.body, content_type)
        if field is not None:
            message = (
                f"The form field “{field}” holds bytes that are not UTF-8 text, so "
                f"nothing was scored or saved. Retype it and send the form again."
            )
            return render(
                request,
                "problem.html",
                {
                    "title": "This form holds invalid text",
                    "message": message,
                    "back": request.path,
                    "code": "invalid_text",
                },
                status=400,
            )
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


def first_multipart_field_not_text(body: bytes, content_type: str) -> str | None:
    """The name of the first field of a multipart/form-data body whose name or value is not
    UTF-8 (parts that are files are not text, and are skipped)."""
    from email.parser import BytesParser
    from email.policy import HTTP

    head = b"Content-Type: " + content_type.encode("latin-1", "replace") + b"\r\n\r\n"
    message = BytesParser(policy=HTTP).parsebytes(head + body)
    if not message.is_multipart():
        return None
    for part in message.iter_parts():
        if part.get_param("filename", header="content-disposition") is not None:
            continue
        # The parser reads a header's bytes as UTF-8, putting U+FFFD where they are not.
        name = str(part.get_param("name", header="content-disposition") or "")
        payload = part.get_payload(decode=True)
        try:
            (payload if isinstance(payload, bytes) else b"").decode("utf-8")
        except UnicodeDecodeError:
            return name[:80]
        if "\ufffd" in name:
            return name[:80]
    return None
