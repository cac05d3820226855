"""The game's package as a Django app, so Django's own loaders find its templates/star_trek_missions/
(APP_DIRS) and static/star_trek_missions/ (AppDirectoriesFinder). config/settings finds it by this file."""

from django.apps import AppConfig


class GameConfig(AppConfig):
    name = "games.star_trek_missions"
    label = "star_trek_missions"
