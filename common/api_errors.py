"""The one error body of API.md for every 4xx: {status, code, detail, errors: [...]}."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import set_rollback


class ApiError(exceptions.APIException):
    """An error a view raises on purpose, already in the contract's shape."""

    def __init__(
        self,
        *,
        status_code: int,
        code: str,
        detail: str,
        errors: list[dict[str, Any]] | None = None,
    ):
        super().__init__(detail=detail, code=code)
        self.status_code = status_code
        self.error_code = code
        self.message = detail
        self.errors = errors or []


def error_entry(*, path: str, code: str, detail: str, **extra: Any) -> dict[str, Any]:
    return {"path": path, "code": code, "detail": detail, **extra}


def error_body(
    *, status_code: int, code: str, detail: str, errors: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    return {"status": status_code, "code": code, "detail": detail, "errors": errors or []}


def _flatten(detail: Any, path: str = "") -> list[dict[str, Any]]:
    """Turn DRF's nested validation detail into path-addressed entries."""
    if isinstance(detail, dict):
        entries = []
        for key, value in detail.items():
            sub = key if not path else (f"{path}.{key}" if key != "non_field_errors" else path)
            entries.extend(_flatten(value, sub))
        return entries
    if isinstance(detail, list):
        if all(isinstance(item, exceptions.ErrorDetail | str) for item in detail):
            return [
                error_entry(path=path, code=getattr(item, "code", "invalid"), detail=str(item))
                for item in detail
            ]
        entries = []
        for index, item in enumerate(detail):
            entries.extend(_flatten(item, f"{path}[{index}]"))
        return entries
    return [error_entry(path=path, code=getattr(detail, "code", "invalid"), detail=str(detail))]


_CODES = {
    exceptions.ParseError: ("malformed_request", "The request body is not valid JSON."),
    exceptions.NotFound: ("not_found", "Nothing exists at this address."),
    exceptions.MethodNotAllowed: ("method_not_allowed", None),
    exceptions.UnsupportedMediaType: ("unsupported_media_type", None),
    exceptions.NotAcceptable: ("not_acceptable", None),
    exceptions.Throttled: ("throttled", None),
    exceptions.PermissionDenied: ("forbidden", None),
    exceptions.NotAuthenticated: ("not_authenticated", None),
    exceptions.AuthenticationFailed: ("authentication_failed", None),
}


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    if not isinstance(exc, exceptions.APIException):
        return None  # a real fault: let Django's 500 handling log it

    set_rollback()
    headers = {}
    if getattr(exc, "wait", None):
        headers["Retry-After"] = str(int(exc.wait))
    if isinstance(exc, ApiError):
        body = error_body(
            status_code=exc.status_code, code=exc.error_code, detail=exc.message, errors=exc.errors
        )
    elif isinstance(exc, exceptions.ValidationError):
        errors = _flatten(exc.detail)
        body = error_body(
            status_code=status.HTTP_400_BAD_REQUEST,
            code="invalid_input",
            detail=errors[0]["detail"] if len(errors) == 1 else "The request has invalid values.",
            errors=errors,
        )
    else:
        code, detail = next(
            ((c, d) for cls, (c, d) in _CODES.items() if isinstance(exc, cls)), ("error", None)
        )
        body = error_body(status_code=exc.status_code, code=code, detail=detail or str(exc.detail))
    return Response(body, status=exc.status_code, headers=headers)
