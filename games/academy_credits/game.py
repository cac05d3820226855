"""academy-credits in GAMES: its jobs, its pages and how its saved results are shown again."""

from games.package import GamePackage, Job, Presenter

CSS = ("academy_credits/css/pages.css",)

GAME = GamePackage(
    slug="academy-credits",
    package="games.academy_credits",
    engine="games.academy_credits.engine",
    ruling=Job(
        request_models=("games.academy_credits.rulings.PlayRequest",),
        reading="games.academy_credits.rulings.reading",
        ask="games.academy_credits.rulings.ask",
        position_at="position",
        page="academy_credits:ruling",
        label="Check a move",
        link_pairs="games.academy_credits.pages.play_link_pairs",
        presenter=Presenter("games.academy_credits.pages.play_ruling_view", "ruling",
                            "academy_credits/_play_result.html", CSS),
    ),
    score=Job(
        request_models=("games.academy_credits.scores.RoundRequest",),
        reading="games.academy_credits.rulings.reading",
        ask="games.academy_credits.scores.ask",
        present="games.academy_credits.scores.present",
        page="academy_credits:score",
        label="Score a round",
        link_pairs="games.academy_credits.pages.round_link_pairs",
        presenter=Presenter("games.academy_credits.pages.round_score_view", "score",
                            "academy_credits/_round_result.html", CSS),
    ),
    api_docs="games.academy_credits.api_docs",
    card_text="games.academy_credits.card_text.render",
    table_state="games.academy_credits.table_state",
)
