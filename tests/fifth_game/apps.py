"""The game's package as a Django app, so Django's own loaders find its templates/fifth_game/
(APP_DIRS) and static/fifth_game/ (AppDirectoriesFinder). config/settings finds it by this file."""

from django.apps import AppConfig


class GameConfig(AppConfig):
    name = "tests.fifth_game"
    label = "fifth_game"
