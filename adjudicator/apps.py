from django.apps import AppConfig


class AdjudicatorConfig(AppConfig):
    name = "adjudicator"

    def ready(self) -> None:
        from common.registry import import_submodules

        import_submodules("adjudicator.services")
