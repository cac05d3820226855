"""Computed answers shown by a page GET, kept in a cache shared by every app server.

A page GET with its input in the address (a shared link, Back, a reload) works the answer out
again and saves nothing; some take 100 ms of CPU or more (a hand of many choices, a ten-player
table). The same question is answered from the cache: the key is the service, the game, the
catalog's version stamp (cards.selectors.catalog_stamp: any edit of the catalog, on any server,
gives new keys) and the request body as the page built it, written canonically (keys sorted), so
two addresses that build the same body share an answer. A 400 is kept too, as the error it was.

A page whose whole answer is costly to draw as well keeps the page itself in the same cache
(web.page_cache).

The cache is the database's (settings.CACHES["computed"]: one table, shared by every app server,
as the throttle's counters are); entries expire after COMPUTED_CACHE_SECONDS and the table keeps
at most its MAX_ENTRIES, the oldest culled first. Kept entries outlive a restart, so every key
also holds the code's stamp (`code_stamp`): after an upgrade, the answers and pages are those of
the new code, never the old code's for up to a day.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.apps import apps
from django.conf import settings
from django.core.cache import caches

from cards.models import Game
from cards.selectors import catalog_stamp
from common.api_errors import ApiError
from results.services import unsaved
from web.page_names import call_reading_names

CACHE = "computed"
# The files an answer or a page is drawn from, besides the catalog (its own stamp).
SOURCE_SUFFIXES = {".py", ".html", ".js", ".css", ".svg"}


def source_digest(base: Path, roots: Iterable[Path]) -> str:
    """A digest of every source file (SOURCE_SUFFIXES) under `roots`, by its path from `base`
    and its content: any file edited, added, moved or removed gives another."""
    files = {
        path
        for root in roots
        for path in root.rglob("*")
        if path.suffix in SOURCE_SUFFIXES and "__pycache__" not in path.parts and path.is_file()
    }
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(path.relative_to(base).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]


@lru_cache(maxsize=1)
def code_stamp() -> str:
    """The stamp of the code this process serves: the digest of the project's own packages (the
    top folder, in BASE_DIR, of every installed app found there: the apps, the games and their
    engines), its templates and static folders and its settings. Worked out once a process."""
    base = Path(settings.BASE_DIR).resolve()
    roots = {base / "config"}
    for app in apps.get_app_configs():
        package = base / app.name.split(".")[0]  # the project's own, not an installed package's
        if Path(app.path).resolve().is_relative_to(package):
            roots.add(package)
    folders = [*settings.STATICFILES_DIRS]
    for engine in settings.TEMPLATES:
        dirs = engine.get("DIRS") or []
        if isinstance(dirs, (list, tuple)):
            folders += dirs
    roots |= {Path(str(folder)).resolve() for folder in folders}
    return source_digest(base, roots)


def answer_key(service: Callable[..., dict[str, Any]], *, game: Game, body: dict[str, Any]) -> str:
    canonical = json.dumps(
        [
            f"{service.__module__}.{service.__qualname__}",
            game.pk,
            str(catalog_stamp(game)),
            code_stamp(),
            body,
        ],
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
        default=str,
    )
    return "answer:" + hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


def computed_answer(
    service: Callable[..., dict[str, Any]], *, game: Game, body: dict[str, Any]
) -> dict[str, Any]:
    """What `service` answers to `body` as a page reads names (web.page_names), unsaved: from
    the cache, or worked out and then kept there. A 400 is raised as the ApiError it was."""
    cache = caches[CACHE]
    key = answer_key(service, game=game, body=body)
    kept = cache.get(key)
    if kept is not None:
        kind, value = kept
        if kind == "error":
            raise ApiError(**value)
        kept_value: dict[str, Any] = value
        return kept_value
    try:
        with unsaved():
            answer = call_reading_names(service, game=game, body=body)
    except ApiError as error:
        if error.status_code == 400:
            cache.set(
                key,
                (
                    "error",
                    {
                        "status_code": error.status_code,
                        "code": error.error_code,
                        "detail": error.message,
                        "errors": error.errors,
                    },
                ),
            )
        raise
    cache.set(key, ("answer", answer))
    return answer
