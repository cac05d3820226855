"""A page's address with its input in the query string: what the games' pages and a saved result's
page (/r/<id>, its "Check again" / "Score again" link) both write."""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlencode


def form_link(path: str, pairs: Iterable[tuple[str, str]]) -> str:
    """The page's address with its input: path?name=value&…"""
    query = urlencode(list(pairs))
    return f"{path}?{query}" if query else path
