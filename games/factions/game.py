"""factions in GAMES: its engine, its jobs, its pages, how its saved results are shown again,
and its tables."""

from games.factions import api_docs, card_text, engine, pages, rulings, scores, table_state
from games.package import GamePackage, GameTable, Job, PageResult

CSS = ("factions/css/pages.css",)

GAME = GamePackage(
    slug="factions",
    package="games.factions",
    check=engine.check,
    ruling=Job(
        request_models=(rulings.RulingRequest,),
        reading=rulings.reading,
        ask=rulings.ask,
        position_at="position",
        page="factions:ruling",
        label="Check a move",
        link_pairs=pages.table_link_pairs,
        page_result=PageResult(
            pages.factions_ruling_view,
            "ruling",
            "factions/_ruling_result.html",
            CSS,
            with_request=True,
        ),
    ),
    score=Job(
        request_models=(rulings.TablePosition,),
        reading=rulings.reading,
        ask=scores.ask,
        answer_fields=scores.answer_fields,
        page="factions:score",
        label="Standings",
        link_pairs=pages.table_link_pairs,
        page_result=PageResult(pages.standings_view, "result", "factions/_score_result.html", CSS),
    ),
    api_docs=api_docs,
    card_text=card_text.render,
    table=GameTable(
        table_state.TABLE,
        request_body=table_state.job_request_body,
        event=table_state.job_event,
        acting_seat=table_state.acting_seat,
    ),
)
