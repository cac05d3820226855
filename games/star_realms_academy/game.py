"""star-realms-academy in GAMES: its engine, its jobs, its pages, how its saved results are shown
again, its rule language and its tables."""

from games.package import GamePackage, GameTable, Job, PageResult
from games.star_realms_academy import (
    api_docs,
    card_rules,
    card_text,
    engine,
    pages,
    rulings,
    scores,
    table_state,
)

CSS = ("star_realms_academy/css/pages.css",)

GAME = GamePackage(
    slug="star-realms-academy",
    package="games.star_realms_academy",
    check=engine.check,
    ruling=Job(
        request_models=(rulings.RulingRequest,),
        reading=rulings.reading,
        ask=rulings.ask,
        position_at="position",
        page="star_realms_academy:ruling",
        label="Check a move",
        link_pairs=pages.check_link_pairs,
        page_result=PageResult(
            pages.ruling_context, "ruling", "star_realms_academy/_ruling_result.html", CSS
        ),
    ),
    score=Job(
        request_models=(scores.TurnRequest,),
        reading=rulings.reading,
        ask=scores.ask,
        answer_fields=scores.answer_fields,
        page="star_realms_academy:score",
        label="Break down a turn",
        link_pairs=pages.turn_link_pairs,
        page_result=PageResult(
            pages.breakdown_context, "breakdown", "star_realms_academy/_score_result.html", CSS
        ),
    ),
    rule_language=card_rules,
    api_docs=api_docs,
    card_text=card_text.render,
    table=GameTable(
        table_state.TABLE,
        request_body=table_state.job_request_body,
        event=table_state.job_event,
        acting_seat=table_state.acting_seat,
    ),
)
