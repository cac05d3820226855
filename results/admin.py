"""Saved results in the admin: view only. Nobody adds, changes or deletes one."""

import json
from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.html import format_html

from .models import SavedResult

SHOWN = (
    "id",
    "game",
    "kind",
    "created_at",
    "last_opened_at",
    "size",
    "permalink",
    "request_json",
    "response_json",
)

if TYPE_CHECKING:  # django-stubs' ModelAdmin is generic; Django's own is not subscriptable
    _ModelAdmin = admin.ModelAdmin[SavedResult]
else:
    _ModelAdmin = admin.ModelAdmin


@admin.register(SavedResult)
class SavedResultAdmin(_ModelAdmin):
    list_display = ["id", "game", "kind", "summary", "created_at", "last_opened_at"]
    list_filter = ["game", "kind"]
    search_fields = ["id"]
    date_hierarchy = "created_at"
    # size and last_opened_at: what the store's bound goes by (results.services.results_prune).
    fields = SHOWN
    readonly_fields = SHOWN
    list_select_related = ["game"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: SavedResult | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: SavedResult | None = None) -> bool:
        return False

    @admin.display(description="Result")
    def summary(self, obj: SavedResult) -> str:
        body: dict[str, Any] = obj.response or {}
        if obj.kind == "ruling":
            return f"{body.get('verdict', '?')} ({body.get('code', '?')})"
        return f"total {body.get('total', '?')}"

    @admin.display(description="Permalink")
    def permalink(self, obj: SavedResult) -> str:
        url = obj.get_absolute_url()
        return format_html('<a href="{}">{}</a>', url, url)

    @admin.display(description="Request")
    def request_json(self, obj: SavedResult) -> str:
        return format_html("<pre>{}</pre>", json.dumps(obj.request, indent=2, ensure_ascii=False))

    @admin.display(description="Response")
    def response_json(self, obj: SavedResult) -> str:
        return format_html("<pre>{}</pre>", json.dumps(obj.response, indent=2, ensure_ascii=False))
