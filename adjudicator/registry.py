"""Ruling services by game slug. A service module in adjudicator/services/ registers itself with
`@rulers.register("game-slug")`; its function takes (game=..., body=...) and returns the
response body of API.md."""

from common.registry import GameRegistry

rulers = GameRegistry("ruling")
