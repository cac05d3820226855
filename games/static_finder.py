"""Finds static files in each game package's own static/ folder (GamePackage.static), so a game
added to GAMES brings its pages' scripts and stylesheets with it, as games.template_loader does
its templates (each under a folder of its package's name, games/<game>/static/<game>/, so their
names never clash). Django's FileSystemFinder, over the games' folders instead of
STATICFILES_DIRS: `collectstatic` (and so whitenoise's manifest) and whitenoise's finders in
development and tests find them as they find static/."""

from __future__ import annotations

from typing import Any

from django.contrib.staticfiles.finders import BaseFinder, FileSystemFinder
from django.core.checks import CheckMessage
from django.core.files.storage import FileSystemStorage


class Finder(FileSystemFinder):
    def __init__(self, app_names: Any = None, *args: Any, **kwargs: Any) -> None:
        from games.registry import GAMES

        self.locations = [("", str(game.static)) for game in GAMES if game.static.is_dir()]
        self.storages = {root: FileSystemStorage(location=root) for _, root in self.locations}
        BaseFinder.__init__(self, *args, **kwargs)

    def check(self, **kwargs: Any) -> list[CheckMessage]:
        """FileSystemFinder's checks are of STATICFILES_DIRS, which Django's own finder makes."""
        return []
