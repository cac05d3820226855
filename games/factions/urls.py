"""This game's pages: checking a move and scoring (or standings). config/urls.py includes them from GAMES."""

from django.urls import URLPattern, path

from common.links import moved_to

from . import pages

app_name = "factions"

urlpatterns: list[URLPattern] = [
    path("games/factions/check-move/", pages.ruling_page, name="ruling"),
    path("games/factions/score/", pages.score_page, name="score"),
    # The address before issue 31 gave every game the same words.
    path("games/factions/standings/", moved_to("factions:score")),
]
