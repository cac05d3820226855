"""Saved results in the admin: view only. Nobody adds, changes or deletes one."""

import json

from django.contrib import admin
from django.utils.html import format_html

from .models import SavedResult

SHOWN = ("id", "game", "kind", "created_at", "last_opened_at", "size", "permalink", "request_json",
         "response_json")


@admin.register(SavedResult)
class SavedResultAdmin(admin.ModelAdmin):
    list_display = ["id", "game", "kind", "summary", "created_at", "last_opened_at"]
    list_filter = ["game", "kind"]
    search_fields = ["id"]
    date_hierarchy = "created_at"
    # size and last_opened_at: what the store's bound goes by (results.services.results_prune).
    fields = SHOWN
    readonly_fields = SHOWN
    list_select_related = ["game"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description="Result")
    def summary(self, obj: SavedResult) -> str:
        body: dict = obj.response or {}
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
