"""This game's pages: checking a turn, scoring a hand and scoring the whole table. config/urls.py
includes them from GAMES."""

from django.urls import path

from . import pages, turn_pages

app_name = "star_trek_missions"

urlpatterns = [
    path("games/star-trek-missions/check-turn/", turn_pages.stm_check_turn, name="ruling"),
    path("games/star-trek-missions/score/", pages.stm_score, name="score"),
    path("games/star-trek-missions/table/", pages.stm_table, name="table"),
]
