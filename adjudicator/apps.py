from django.apps import AppConfig


class AdjudicatorConfig(AppConfig):
    name = "adjudicator"
