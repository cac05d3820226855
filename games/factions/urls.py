"""This game's pages: checking a move and scoring (or standings). config/urls.py includes them from GAMES."""

from django.urls import URLPattern, path

from . import pages

app_name = "factions"

urlpatterns: list[URLPattern] = [
    path("games/factions/check-move/", pages.ruling_page, name="ruling"),
    path("games/factions/standings/", pages.score_page, name="score"),
]
