"""The installable app's manifest and service worker (web/offline.py), as served: the browser
tests (tests/browser/test_offline.py) run them in Chromium with the network cut."""

import json
import re

from django.templatetags.static import static

from games.registry import GAMES


def test_the_manifest(client, catalog):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["display"] == "standalone" and manifest["scope"] == "/"
    assert [icon["src"] for icon in manifest["icons"]][:2] == [
        static("icons/icon-192.png"),
        static("icons/icon-512.png"),
    ]
    assert {"/games/star-trek-missions/score/", "/games/star-trek-missions/table/"} == {
        shortcut["url"] for shortcut in manifest["shortcuts"]
    }


def test_the_service_worker_keeps_pages_static_files_and_the_catalog(client, catalog):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    script = response.content.decode()
    precache = json.loads(re.search(r"var PRECACHE = (\[.*?\]);", script).group(1))
    for page in (
        "/",
        "/games/star-trek-missions/score/",
        "/games/star-trek-missions/table/",
        "/games/star-trek-missions/cards/",
        "/games/academy-credits/cards/",
    ):
        assert page in precache
    for file in ("css/site.css", "js/offline.js", "vendor/htmx.min.js", "icons/icon-192.png"):
        assert static(file) in precache
    # Each game's own scripts and stylesheets (games/<game>/static/<game>/), as its pages ask.
    for file in (
        "star_trek_missions/js/picker.js",
        "star_trek_missions/css/pages.css",
        "factions/js/pages.js",
        "academy_credits/css/pages.css",
    ):
        assert static(file) in precache
    games_own = [
        path.relative_to(game.static).as_posix()
        for game in GAMES
        if game.static.is_dir()
        for path in game.static.rglob("*.*")
    ]
    assert len(games_own) >= 10
    assert {static(file) for file in games_own} <= set(precache)
    # Never the admin's files nor a POST.
    assert not [url for url in precache if "/admin/" in url]
    assert 'request.method !== "GET"' in script
    # Every page links the manifest.
    page = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page


def test_only_get(client, catalog):
    assert client.post("/sw.js").status_code == 405
    assert client.post("/manifest.webmanifest").status_code == 405
