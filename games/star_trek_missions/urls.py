"""This game's pages: checking a turn, scoring a hand and scoring the whole table. config/urls.py
includes them from GAMES."""

from django.urls import path

from common.links import moved_to

from . import pages, turn_pages

app_name = "star_trek_missions"

urlpatterns = [
    path("games/star-trek-missions/check-move/", turn_pages.ruling_page, name="ruling"),
    path("games/star-trek-missions/score/", pages.score_page, name="score"),
    path("games/star-trek-missions/table/", pages.table_page, name="table"),
    # The address before issue 31 gave every game the same words.
    path("games/star-trek-missions/check-turn/", moved_to("star_trek_missions:ruling")),
]
