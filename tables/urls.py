from django.urls import path

from . import api, views

app_name = "tables"

urlpatterns = [
    path("api/tables/", api.TableCreateApi.as_view(), name="api-create"),
    path("api/tables/<str:code>/", api.TableApi.as_view(), name="api-table"),
    path(
        "api/tables/<str:code>/seats/<int:seat>/claim/",
        api.SeatClaimApi.as_view(),
        name="api-claim",
    ),
    path("api/tables/<str:code>/events/", api.EventsApi.as_view(), name="api-events"),
    path("api/tables/<str:code>/events/last/", api.LastEventApi.as_view(), name="api-last"),
    path("api/tables/<str:code>/host/", api.HostApi.as_view(), name="api-host"),
    path("t/", views.start, name="start"),
    path("t/<str:code>", views.page, name="page"),
    path("t/<str:code>/live", views.live, name="live"),
    path("t/<str:code>/claim", views.claim, name="claim"),
    path("t/<str:code>/form", views.seat_form, name="form"),
    path("t/<str:code>/host", views.host, name="host"),
    path("t/<str:code>/ask/<str:kind>/<int:version>", views.ask, name="ask"),
]
