"""factions in GAMES: its jobs, its pages and how its saved results are shown again."""

from games.package import GamePackage, Job, Presenter

CSS = ("factions/css/pages.css",)

GAME = GamePackage(
    slug="factions",
    package="games.factions",
    engine="games.factions.engine",
    ruling=Job(
        request_models=("games.factions.rulings.RulingRequest",),
        reading="games.factions.rulings.reading",
        ask="games.factions.rulings.ask",
        position_at="position",
        page="factions:ruling",
        label="Check a move",
        link_pairs="games.factions.pages.table_link_pairs",
        presenter=Presenter("games.factions.pages.factions_ruling_view", "ruling",
                            "factions/_move_result.html", CSS, with_request=True),
    ),
    score=Job(
        request_models=("games.factions.rulings.TablePosition",),
        reading="games.factions.rulings.reading",
        ask="games.factions.scores.ask",
        present="games.factions.scores.present",
        page="factions:score",
        label="Standings",
        link_pairs="games.factions.pages.table_link_pairs",
        presenter=Presenter("games.factions.pages.standings_view", "result",
                            "factions/_standings_result.html", CSS),
    ),
    api_docs="games.factions.api_docs",
    card_text="games.factions.card_text.render",
    table_state="games.factions.table_state",
)
