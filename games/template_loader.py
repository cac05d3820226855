"""Finds templates in each game package's own templates/ folder (GamePackage.templates), so a game
added to GAMES brings its pages' templates with it (each under a folder of its package's name,
games/<game>/templates/<game>/, so their names never clash)."""

from __future__ import annotations

from pathlib import Path

from django.template.loaders.filesystem import Loader as FilesystemLoader


class Loader(FilesystemLoader):
    def get_dirs(self) -> list[str | Path]:
        from games.registry import GAMES

        return [game.templates for game in GAMES if game.templates.is_dir()]
