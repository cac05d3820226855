"""academy-credits in GAMES: its engine, its jobs, its pages, how its saved results are shown
again, and its tables."""

from games.academy_credits import api_docs, card_text, engine, pages, rulings, scores, table_state
from games.package import GamePackage, GameTable, Job, PageResult

CSS = ("academy_credits/css/pages.css",)

GAME = GamePackage(
    slug="academy-credits",
    package="games.academy_credits",
    check=engine.check,
    ruling=Job(
        request_models=(rulings.PlayRequest,),
        reading=rulings.reading,
        ask=rulings.ask,
        position_at="position",
        page="academy_credits:ruling",
        label="Check a move",
        link_pairs=pages.play_link_pairs,
        page_result=PageResult(
            pages.play_ruling_view, "ruling", "academy_credits/_ruling_result.html", CSS
        ),
    ),
    score=Job(
        request_models=(scores.RoundRequest,),
        reading=rulings.reading,
        ask=scores.ask,
        answer_fields=scores.answer_fields,
        page="academy_credits:score",
        label="Score a round",
        link_pairs=pages.round_link_pairs,
        page_result=PageResult(
            pages.round_score_view, "score", "academy_credits/_score_result.html", CSS
        ),
    ),
    api_docs=api_docs,
    card_text=card_text.render,
    table=GameTable(
        table_state.TABLE,
        request_body=table_state.job_request_body,
        event=table_state.job_event,
        acting_seat=table_state.acting_seat,
        refilled=table_state.refilled,
    ),
)
