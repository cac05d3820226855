from django.urls import path
from django.views.generic import RedirectView

from . import api, views

app_name = "results"

urlpatterns = [
    path("api/results/<str:result_id>/", api.ResultApi.as_view(), name="api-result"),
    path("r/<str:result_id>", views.result_page, name="page"),
    # A permalink pasted with a trailing slash still arrives.
    path("r/<str:result_id>/", RedirectView.as_view(pattern_name="results:page", permanent=True)),
]
