from django.urls import path

from . import views

app_name = "pages"

urlpatterns = [
    path("", views.home, name="home"),
    path("games/<slug:game>/", views.game, name="game"),
    path("games/<slug:game>/cards/", views.catalog, name="catalog"),
    path("games/<slug:game>/cards/<slug:slug>/", views.card, name="card"),
]
