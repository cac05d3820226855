"""Seat and host tokens: 32 random bytes (256 bits) each, shown once, stored as SHA-256, compared
in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets

TOKEN_BYTES = 32


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str, stored_hash: str) -> bool:
    """Whether `token` is the one whose hash is `stored_hash` (never for an empty hash: an
    unclaimed seat has none)."""
    if not stored_hash:
        return False
    return hmac.compare_digest(token_hash(token), stored_hash)
