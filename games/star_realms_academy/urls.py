"""This game's pages: checking a move and scoring (or standings). config/urls.py includes them from GAMES."""

from django.urls import path

from common.links import moved_to

from . import pages as views

app_name = "star_realms_academy"

urlpatterns = [
    path("games/star-realms-academy/check-move/", views.ruling_page, name="ruling"),
    path("games/star-realms-academy/score/", views.score_page, name="score"),
    # The address before issue 31 gave every game the same words.
    path("games/star-realms-academy/turn/", moved_to("star_realms_academy:score")),
]
