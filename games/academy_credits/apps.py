"""The game's package as a Django app, so Django's own loaders find its templates/academy_credits/
(APP_DIRS) and static/academy_credits/ (AppDirectoriesFinder). config/settings finds it by this file."""

from django.apps import AppConfig


class GameConfig(AppConfig):
    name = "games.academy_credits"
    label = "academy_credits"
