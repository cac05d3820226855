from django.urls import path

from . import api, views

app_name = "scoring"

urlpatterns = [
    path("api/games/<slug:game>/score/", api.ScoreApi.as_view(), name="api-score"),
    path("games/star-trek-missions/score/", views.stm_score, name="stm-score"),
    path("games/star-trek-missions/table/", views.stm_table, name="stm-table"),
]
