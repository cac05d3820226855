"""The pages of one game: checking a move and scoring (or standings). Owned by that game's work."""

from django.urls import path

from . import views_factions

app_name = "factions"

urlpatterns: list = [
    path("games/factions/check-move/", views_factions.check_move, name="check-move"),
    path("games/factions/standings/", views_factions.standings, name="standings"),
]
