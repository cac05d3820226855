"""The pages of one game: checking a move and scoring (or standings). Owned by that game's work."""

app_name = "star_realms_academy"

urlpatterns: list = []
