"""The games Tableside referees, one package each (see games/README.md).

Nothing is imported here: an engine module imports `games.protocol` without pulling in Django.
The list of games is `games.registry.GAMES`; every app finds a game through `common.games`.
"""
