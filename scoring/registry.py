"""Score services by game slug. A service module in scoring/services/ registers itself with
`@scorers.register("game-slug")`; its function takes (game=..., body=...) and returns the
response body of API.md."""

from common.registry import GameRegistry

scorers = GameRegistry("score")
