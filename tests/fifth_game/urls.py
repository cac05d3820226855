"""Ascent's pages, in the namespace named after its package."""

from django.urls import path

from . import pages

app_name = "fifth_game"

urlpatterns = [
    path("games/ascent/check-move/", pages.ruling_page, name="ruling"),
    path("games/ascent/score/", pages.score_page, name="score"),
]
