"""This game's pages: checking a move and scoring (or standings). config/urls.py includes them from GAMES."""

from django.urls import path

from . import pages as views

app_name = "academy_credits"

urlpatterns = [
    path("games/academy-credits/check-play/", views.ruling_page, name="ruling"),
    path("games/academy-credits/score-round/", views.score_page, name="score"),
]
