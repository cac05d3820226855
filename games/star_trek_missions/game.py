"""star-trek-missions in GAMES: its engine, its jobs, its pages, how its saved results are shown
again, its rule language and its tables."""

from games.package import GamePackage, GameTable, Job, PageResult
from games.star_trek_missions import (
    api_docs,
    engine,
    language,
    pages,
    presenters,
    rulings,
    scores,
    table_state,
    turn_pages,
)

GAME = GamePackage(
    slug="star-trek-missions",
    package="games.star_trek_missions",
    check=engine.check,
    ruling=Job(
        request_models=(rulings.TurnRequest,),
        ask=rulings.ask,
        position_at="position",
        page="star_trek_missions:ruling",
        label="Check a move",
        link_pairs=turn_pages.turn_link_pairs,
        page_result=PageResult(
            presenters.ruling_view, "ruling", "star_trek_missions/_ruling_result.html"
        ),
    ),
    score=Job(
        request_models=(scores.Hand, scores.TableHands),
        ask=scores.ask,
        answer_fields=scores.answer_fields,
        page="star_trek_missions:score",
        label="Score a hand",
        link_pairs=pages.score_link_pairs,
        more_pages=(("Score the table", "star_trek_missions:table"),),
        # A whole table leads its /r/<id> page with the standings.
        result_context=pages.table_result_page,
    ),
    rule_language=language,
    api_docs=api_docs,
    # The pages that take a hand at the table: kept offline, and the installed app's shortcuts.
    shortcuts=(
        ("Score a hand (Star Trek: Missions)", "star_trek_missions:score"),
        ("Score the table (Star Trek: Missions)", "star_trek_missions:table"),
    ),
    table=GameTable(
        table_state.TABLE,
        request_body=table_state.job_request_body,
        event=table_state.job_event,
        acting_seat=table_state.acting_seat,
        held_cards=table_state.held_cards,
    ),
)
