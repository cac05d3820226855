"""The game's package as a Django app, so Django's own loaders find its templates/star_realms_academy/
(APP_DIRS) and static/star_realms_academy/ (AppDirectoriesFinder). config/settings finds it by this file."""

from django.apps import AppConfig


class GameConfig(AppConfig):
    name = "games.star_realms_academy"
    label = "star_realms_academy"
