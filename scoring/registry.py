"""Score services by game slug. A service module in scoring/services/ registers itself with
`@scorers.register("game-slug")`; its function takes (game=..., body=...) and returns the
response body of API.md."""

from common.registry import GameRegistry

scorers = GameRegistry("score")

# The page that scores each game (a URL name), linked from the home and game pages.
score_pages: dict[str, str] = {
    "star-trek-missions": "scoring:stm-score",
    "academy-credits": "academy_credits:score-round",
    "star-realms-academy": "star_realms_academy:turn",
    "factions": "factions:standings",
}

# More score pages of a game, beside its main one: (label, URL name), linked from its game page.
more_score_pages: dict[str, list[tuple[str, str]]] = {
    "star-trek-missions": [("Score the table", "scoring:stm-table")],
}
