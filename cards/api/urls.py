from django.urls import path

from . import views

urlpatterns = [
    path("games/", views.GameListApi.as_view(), name="api-games"),
    path("games/<slug:game>/", views.GameDetailApi.as_view(), name="api-game"),
    path("games/<slug:game>/rules/<str:rule_id>/", views.RuleSectionApi.as_view(), name="api-rule"),
    path("games/<slug:game>/cards/", views.CardListApi.as_view(), name="api-cards"),
    path("games/<slug:game>/cards/named/", views.CardNamedApi.as_view(), name="api-card-named"),
    path(
        "games/<slug:game>/cards/autocomplete/",
        views.CardAutocompleteApi.as_view(),
        name="api-card-autocomplete",
    ),
    path("games/<slug:game>/cards/<slug:slug>/", views.CardDetailApi.as_view(), name="api-card"),
]
