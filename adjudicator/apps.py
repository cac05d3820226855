from django.apps import AppConfig


class AdjudicatorConfig(AppConfig):
    name = "adjudicator"

    def ready(self) -> None:
        # The ruling job's part of the one flow: games/services.py never imports this app (the
        # "games" import contract), so the app hands it over when Django starts.
        from games.package import RULING
        from games.services import register_job

        from .services import rule_on_move

        register_job(RULING, rule_on_move)
