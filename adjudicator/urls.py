from django.urls import path

from . import api, views

app_name = "adjudicator"

urlpatterns = [
    path("api/games/<slug:game>/rulings/", api.RulingApi.as_view(), name="api-rulings"),
    path("games/star-trek-missions/check-turn/", views.stm_check_turn, name="stm-check-turn"),
]
