"""This game's pages: checking a move and scoring (or standings). config/urls.py includes them from GAMES."""

from django.urls import path

from common.links import moved_to

from . import pages as views

app_name = "academy_credits"

urlpatterns = [
    path("games/academy-credits/check-move/", views.ruling_page, name="ruling"),
    path("games/academy-credits/score/", views.score_page, name="score"),
    # The addresses before issue 31 gave every game the same words.
    path("games/academy-credits/check-play/", moved_to("academy_credits:ruling")),
    path("games/academy-credits/score-round/", moved_to("academy_credits:score")),
]
