"""The pages of one game: checking a move and scoring (or standings). Owned by that game's work."""

from django.urls import path

from . import views_star_realms_academy as views

app_name = "star_realms_academy"

urlpatterns = [
    path("games/star-realms-academy/check-move/", views.check_move, name="check-move"),
    path("games/star-realms-academy/turn/", views.turn, name="turn"),
]
