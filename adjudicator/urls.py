from django.urls import path

from . import api

app_name = "adjudicator"

urlpatterns = [
    path("api/games/<slug:game>/rulings/", api.RulingApi.as_view(), name="api-rulings"),
]
