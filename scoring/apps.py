from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"

    def ready(self) -> None:
        from common.registry import import_submodules

        import_submodules("scoring.services")
