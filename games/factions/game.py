"""factions in GAMES: its jobs, its pages and how its saved results are shown again."""

from games.package import GamePackage, Job, Presenter

CSS = ("css/factions.css",)

GAME = GamePackage(
    slug="factions",
    package="games.factions",
    engine="games.factions.engine",
    ruling=Job(
        service="games.factions.rulings.rule_move",
        request_models=("games.factions.rulings.RulingRequest",),
        page="factions:check-move",
        label="Check a move",
        link_pairs="games.factions.pages.table_link_pairs",
        presenter=Presenter("games.factions.pages.factions_ruling_view", "ruling",
                            "factions/_move_result.html", CSS, with_request=True),
    ),
    score=Job(
        service="games.factions.scores.score_factions",
        request_models=("games.factions.rulings.TablePosition",),
        page="factions:standings",
        label="Standings",
        link_pairs="games.factions.pages.table_link_pairs",
        presenter=Presenter("games.factions.pages.standings_view", "result",
                            "factions/_standings_result.html", CSS),
    ),
    api_docs="games.factions.api_docs",
    table_state="games.factions.table_state",
)
