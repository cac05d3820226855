"""star-realms-academy in GAMES: its jobs, its pages and how its saved results are shown again."""

from games.package import GamePackage, Job, Presenter

CSS = ("star_realms_academy/css/pages.css",)

GAME = GamePackage(
    slug="star-realms-academy",
    package="games.star_realms_academy",
    engine="games.star_realms_academy.engine",
    ruling=Job(
        request_models=("games.star_realms_academy.rulings.RulingRequest",),
        reading="games.star_realms_academy.rulings.reading",
        ask="games.star_realms_academy.rulings.ask",
        position_at="position",
        page="star_realms_academy:ruling",
        label="Check a move",
        link_pairs="games.star_realms_academy.pages.check_link_pairs",
        presenter=Presenter("games.star_realms_academy.pages.ruling_context", "ruling",
                            "star_realms_academy/_check_result.html", CSS),
    ),
    score=Job(
        request_models=("games.star_realms_academy.scores.TurnRequest",),
        reading="games.star_realms_academy.rulings.reading",
        ask="games.star_realms_academy.scores.ask",
        present="games.star_realms_academy.scores.present",
        page="star_realms_academy:score",
        label="Break down a turn",
        link_pairs="games.star_realms_academy.pages.turn_link_pairs",
        presenter=Presenter("games.star_realms_academy.pages.breakdown_context", "breakdown",
                            "star_realms_academy/_turn_result.html", CSS),
    ),
    rule_language="games.star_realms_academy.card_rules",
    api_docs="games.star_realms_academy.api_docs",
    card_text="games.star_realms_academy.card_text.render",
    table_state="games.star_realms_academy.table_state",
)
