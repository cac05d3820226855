from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Tables"

    def ready(self) -> None:
        from results.services import store_share

        from .services import tables_stored_bytes

        # The tables' histories count in the store's one bound, STORE_MAX_MB (issue 30).
        store_share("tables", tables_stored_bytes)
