from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from common.games import games
from web import offline

urlpatterns = [
    # The installable app: its manifest and service worker, at the root (the worker's scope).
    path("manifest.webmanifest", offline.manifest, name="manifest"),
    path("sw.js", offline.service_worker, name="service-worker"),
    # Scores, rulings and saved results (their own paths, listed before the catalog's).
    path("", include("results.urls")),
    path("", include("adjudicator.urls")),
    path("", include("scoring.urls")),
    # Tables: /t/<code> and /api/tables/ (one game at a real table, across phones).
    path("", include("tables.urls")),
    # Each game's own pages (check a move, score), from its package.
    *[path("", include(game.urls)) for game in games()],
    path("", include("cards.urls")),
    path("api/", include("cards.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves Swagger UI's start-up script as a file: no inline script (CSP).
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("admin/", admin.site.urls),
]

handler404 = "common.views.page_not_found"
handler500 = "common.views.server_error"
