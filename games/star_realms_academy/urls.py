"""This game's pages: checking a move and scoring (or standings). config/urls.py includes them from GAMES."""

from django.urls import path

from . import pages as views

app_name = "star_realms_academy"

urlpatterns = [
    path("games/star-realms-academy/check-move/", views.ruling_page, name="ruling"),
    path("games/star-realms-academy/turn/", views.score_page, name="score"),
]
