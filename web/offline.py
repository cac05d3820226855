"""Tableside as an installable app that stays calm when the network is not (issue 23): the web app
manifest and the service worker, served from the site's root so the worker's scope is every page.

The worker (templates/sw.js) keeps the pages, the static files and the catalog in the browser's
cache: static files are served from the cache first, pages and the catalog's API from the network
first and from the cache when it fails. It never answers a POST: a score or ruling sent offline
fails in the page, which keeps what was entered and sends it again once the connection is back
(static/js/offline.js)."""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_GET

from cards.models import Game
from common.games import games

ICONS = [
    {"src": "icons/icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any"},
    {"src": "icons/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any"},
    {
        "src": "icons/icon-maskable-512.png",
        "sizes": "512x512",
        "type": "image/png",
        "purpose": "maskable",
    },
    {"src": "icons/icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
]
THEME = "#1d3557"
BACKGROUND = "#f6f4ef"
# The project's own static files kept for offline use (not the admin's nor the API docs').
STATIC_KINDS = (".css", ".js", ".svg", ".png")


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    body = {
        "name": "Tableside",
        "short_name": "Tableside",
        "description": "A referee for tabletop card games: card catalogs, scores and rulings.",
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": BACKGROUND,
        "theme_color": THEME,
        "lang": "en-GB",
        "icons": [{**icon, "src": static(icon["src"])} for icon in ICONS],
        # Each game's pages for a hand at the table (GamePackage.shortcuts), from the home screen.
        "shortcuts": [
            {"name": name, "url": reverse(url_name)}
            for game in games()
            for name, url_name in game.shortcuts
        ],
    }
    response = HttpResponse(json.dumps(body, indent=1), content_type="application/manifest+json")
    response["Cache-Control"] = "public, max-age=3600"
    return response


def _static_paths() -> list[tuple[str, Path]]:
    """The project's static files, those every page shares (static/) and each game's own
    (static/<package name>/ in its package, an app): (their path under STATIC_URL, the file)."""
    files = []
    for folder in [*settings.STATICFILES_DIRS, *(game.static for game in games())]:
        root = Path(folder)
        for path in sorted(root.rglob("*")):
            if path.is_file() and path.suffix in STATIC_KINDS:
                files.append((path.relative_to(root).as_posix(), path))
    return files


def _static_files() -> list[str]:
    return [name for name, _ in _static_paths()]


@lru_cache(maxsize=1)
def _static_version() -> str:
    """Changes with any of the files the worker keeps, so a new version replaces the old cache."""
    digest = hashlib.sha256()
    for name, path in _static_paths():
        digest.update(name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def offline_pages() -> list[str]:
    """The pages kept from the start: home, each game's page and catalog, and the pages that
    take a hand at the table."""
    pages = [reverse("pages:home")]
    for slug in Game.objects.order_by("name").values_list("slug", flat=True):
        pages += [reverse("pages:game", args=[slug]), reverse("pages:catalog", args=[slug])]
    pages += [reverse(url_name) for game in games() for _, url_name in game.shortcuts]
    return pages


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    statics = [static(name) for name in _static_files()]
    pages = offline_pages()
    version = hashlib.sha256((_static_version() + "|".join(pages + statics)).encode()).hexdigest()[
        :12
    ]
    script = render_to_string(
        "sw.js",
        {
            "version": version,
            "precache": json.dumps(pages + statics),
            "static_url": json.dumps(settings.STATIC_URL),
        },
    )
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    # The browser asks for the worker again on each visit; it must never be an old one.
    response["Cache-Control"] = "no-cache"
    return response
