"""The game's package as a Django app, so Django's own loaders find its templates/factions/
(APP_DIRS) and static/factions/ (AppDirectoriesFinder). config/settings finds it by this file."""

from django.apps import AppConfig


class GameConfig(AppConfig):
    name = "games.factions"
    label = "factions"
