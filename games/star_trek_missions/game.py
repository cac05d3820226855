"""star-trek-missions in GAMES: its jobs, its pages and how its saved results are shown again."""

from games.package import GamePackage, Job, Presenter

GAME = GamePackage(
    slug="star-trek-missions",
    package="games.star_trek_missions",
    engine="games.star_trek_missions.engine",
    ruling=Job(
        request_models=("games.star_trek_missions.rulings.TurnRequest",),
        ask="games.star_trek_missions.rulings.ask",
        position_at="position",
        page="star_trek_missions:ruling",
        label="Check a move",
        link_pairs="games.star_trek_missions.turn_pages.turn_link_pairs",
        presenter=Presenter("games.star_trek_missions.presenters.ruling_view", "ruling",
                            "star_trek_missions/_stm_turn_result.html"),
    ),
    score=Job(
        request_models=("games.star_trek_missions.scores.Hand",
                        "games.star_trek_missions.scores.TableHands"),
        ask="games.star_trek_missions.scores.ask",
        present="games.star_trek_missions.scores.present",
        page="star_trek_missions:score",
        label="Score a hand",
        link_pairs="games.star_trek_missions.pages.score_link_pairs",
        more_pages=(("Score the table", "star_trek_missions:table"),),
        # A whole table leads its /r/<id> page with the standings.
        result_context="games.star_trek_missions.pages.table_result_page",
    ),
    rule_language="games.star_trek_missions.language",
    api_docs="games.star_trek_missions.api_docs",
    # The pages that take a hand at the table: kept offline, and the installed app's shortcuts.
    shortcuts=(("Score a hand (Star Trek: Missions)", "star_trek_missions:score"),
               ("Score the table (Star Trek: Missions)", "star_trek_missions:table")),
    table_state="games.star_trek_missions.table_state",
)
