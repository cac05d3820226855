"""Ruling services by game slug. A service module in adjudicator/services/ registers itself with
`@rulers.register("game-slug")`; its function takes (game=..., body=...) and returns the
response body of API.md."""

from common.registry import GameRegistry

rulers = GameRegistry("ruling")

# The page that rules on each game's moves (a URL name), linked from the home and game pages.
ruling_pages: dict[str, str] = {
    "star-trek-missions": "adjudicator:stm-check-turn",
    "academy-credits": "academy_credits:check-play",
    "star-realms-academy": "star_realms_academy:check-move",
    "factions": "factions:check-move",
}
