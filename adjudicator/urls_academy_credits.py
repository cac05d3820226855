"""The pages of one game: checking a move and scoring (or standings). Owned by that game's work."""

from django.urls import path

from . import views_academy_credits as views

app_name = "academy_credits"

urlpatterns = [
    path("games/academy-credits/check-play/", views.check_play, name="check-play"),
    path("games/academy-credits/score-round/", views.score_round, name="score-round"),
]
