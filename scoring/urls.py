from django.urls import path

from . import api

app_name = "scoring"

urlpatterns = [
    path("api/games/<slug:game>/score/", api.ScoreApi.as_view(), name="api-score"),
]
