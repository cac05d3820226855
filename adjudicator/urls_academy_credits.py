"""The pages of one game: checking a move and scoring (or standings). Owned by that game's work."""

app_name = "academy_credits"

urlpatterns: list = []
