from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"

    def ready(self) -> None:
        # The score job's part of the one flow: games/services.py never imports this app (the
        # "games" import contract), so the app hands it over when Django starts.
        from games.package import SCORE
        from games.services import register_job

        from .services import score_position

        register_job(SCORE, score_position)
