"""The permalink page of a saved score or ruling, /r/<id>, and the helpers that shape a ruling
or a score for a template (the check-a-turn page shows its ruling with the same partial)."""

from __future__ import annotations

import json
from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.module_loading import import_string

from adjudicator.registry import ruling_pages
from cards.models import Card, Game, RuleSection
from common.page_results import form_link
from common.registry import page_url
from scoring.registry import score_pages

from .selectors import ResultNotFound, result_get

VERDICTS = {
    "legal": ("Legal", "✓"),
    "illegal": ("Illegal", "✗"),
    "needs_information": ("Needs information", "?"),
}


def result_page(request: HttpRequest, result_id: str) -> HttpResponse:
    try:
        result = result_get(result_id=result_id)
    except ResultNotFound:
        context = {"message": f"There is no saved result '{result_id[:40]}'. A permalink is "
                              "ten letters and digits after /r/: check it was copied whole."}
        return render(request, "404.html", context, status=404)
    body = result.response
    game = result.game
    context = {
        "game": game,
        "result": result,
        "body": body,
        "share_url": request.build_absolute_uri(result.get_absolute_url()),
        "json_url": reverse("results:api-result", args=[result.id]),
        "request_json": json.dumps(result.request, indent=2, ensure_ascii=False),
        "error": None,
    }
    presenter = PRESENTERS.get((game.slug, result.kind))
    if presenter is not None:
        # Shown exactly as the game's own page shows it: its shaping code, its fragment.
        context[presenter.name] = presenter.shape(game, body, result.request or {})
        context["fragment"] = presenter.fragment
        context["stylesheets"] = presenter.stylesheets
    elif result.kind == "ruling":
        context["ruling"] = ruling_view(game, body)
    else:
        context["score"] = score_view(game, body)
    if result.kind == "ruling":
        verdict = body.get("verdict", "")
        context["headline"] = f"Ruling: {VERDICTS.get(verdict, (_words(verdict),))[0]}"
        context["again_url"] = page_url(ruling_pages.get(game.slug))
        context["again_label"] = "Check again"
    else:
        total = body.get("total")
        context["headline"] = f"Score: {total}" if total is not None else "Score"
        context["again_url"] = page_url(score_pages.get(game.slug))
        context["again_label"] = "Score again"
    context["kind_label"] = "ruling" if result.kind == "ruling" else "score"
    link = AGAIN_LINKS.get((game.slug, result.kind))
    if link and context["again_url"] and isinstance(result.request, dict):
        # "Check again" / "Score again" open the game's form filled in from the saved request.
        pairs = import_string(link)(game, result.request)
        context["again_url"] = form_link(context["again_url"], pairs)
    if result.kind == "score" and game.slug == "star-trek-missions":
        # A whole table: its standings are the page's headline (scoring/table.py).
        from scoring.table import is_table, table_result_context

        if is_table(body):
            context.update(table_result_context(game, body))
            if isinstance(result.request, dict):
                from scoring.views import table_link_pairs

                pairs = table_link_pairs(game, result.request)
                context["again_url"] = form_link(context["again_url"], pairs)
                context["again_label"] = "Score again"
    return render(request, "results/page.html", context)


@dataclass(frozen=True)
class Presenter:
    """How a game's page shows one kind of result: the function that shapes the response body
    for its template (dotted path, imported when first used: the games' views import this
    module), the context name it goes under, the fragment and the game's stylesheets."""

    function: str
    name: str
    fragment: str
    stylesheets: tuple[str, ...]
    with_request: bool = False  # the function also takes the request body

    def shape(self, game: Game, body: dict, request_body: dict) -> dict:
        function = import_string(self.function)
        if self.with_request:
            return function(game, body, request_body)
        return function(game, body)


def _factions_ruling(game: Game, body: dict, request_body: dict) -> dict:
    from adjudicator.views_factions import PageCatalog, factions_ruling_view

    return factions_ruling_view(game, PageCatalog(game), body, request_body)


AC_CSS = ("css/academy-credits.css",)
SRA_CSS = ("css/star-realms-academy.css",)
FACTIONS_CSS = ("css/factions.css",)

# (game slug, result kind) -> how the game's page shows it. A result without an entry (the Star
# Trek: Missions score, whose live page is built around its form) uses results/_score.html or
# results/_ruling.html.
PRESENTERS: dict[tuple[str, str], Presenter] = {
    ("academy-credits", "ruling"): Presenter(
        "adjudicator.views_academy_credits.play_ruling_view", "ruling",
        "academy_credits/_play_result.html", AC_CSS),
    ("academy-credits", "score"): Presenter(
        "adjudicator.views_academy_credits.round_score_view", "score",
        "academy_credits/_round_result.html", AC_CSS),
    ("star-realms-academy", "ruling"): Presenter(
        "adjudicator.views_star_realms_academy.ruling_context", "ruling",
        "star_realms_academy/_check_result.html", SRA_CSS),
    ("star-realms-academy", "score"): Presenter(
        "adjudicator.views_star_realms_academy.breakdown_context", "breakdown",
        "star_realms_academy/_turn_result.html", SRA_CSS),
    ("factions", "ruling"): Presenter(
        "results.views._factions_ruling", "ruling", "factions/_move_result.html", FACTIONS_CSS,
        with_request=True),
    ("factions", "score"): Presenter(
        "adjudicator.views_factions.standings_view", "result", "factions/_standings_result.html",
        FACTIONS_CSS),
    ("star-trek-missions", "ruling"): Presenter(
        "results.views.ruling_view", "ruling", "adjudicator/_stm_turn_result.html", ()),
}


# (game slug, result kind) -> the function (dotted path, next to the game's form) that turns a saved
# request body into the (name, value) fields of the game's page: "Score again" / "Check again".
AGAIN_LINKS: dict[tuple[str, str], str] = {
    ("star-trek-missions", "score"): "scoring.views.score_link_pairs",
    ("star-trek-missions", "ruling"): "adjudicator.views.turn_link_pairs",
    ("academy-credits", "ruling"): "adjudicator.views_academy_credits.play_link_pairs",
    ("academy-credits", "score"): "adjudicator.views_academy_credits.round_link_pairs",
    ("star-realms-academy", "ruling"): "adjudicator.views_star_realms_academy.check_link_pairs",
    ("star-realms-academy", "score"): "adjudicator.views_star_realms_academy.turn_link_pairs",
    ("factions", "ruling"): "adjudicator.views_factions.table_link_pairs",
    ("factions", "score"): "adjudicator.views_factions.table_link_pairs",
}


def _words(code: str) -> str:
    return code.replace("_", " ").capitalize()


# --- Shaping a ruling or a score for the templates ---------------------------------------------


def _rule_links(game: Game, rule_ids) -> dict[str, dict]:
    """{rule id: {"id", "title", "url"}} for the rule ids cited (one query)."""
    ids = sorted({rule_id for rule_id in rule_ids if rule_id})
    base = reverse("pages:game", kwargs={"game": game.slug})
    titles = dict(
        RuleSection.objects.filter(game=game, rule_id__in=ids).values_list("rule_id", "title")
    )
    return {
        rule_id: {"id": rule_id, "title": titles.get(rule_id, ""), "url": f"{base}#rule-{rule_id}"}
        for rule_id in ids
    }


def ruling_view(game: Game, body: dict) -> dict:
    """A ruling response body, with what the template needs to show it readably."""
    verdict = body.get("verdict", "")
    label, symbol = VERDICTS.get(verdict, (_words(verdict), "•"))
    checks = body.get("checks") or []
    links = _rule_links(game, [check.get("rule") for check in checks])
    outcome = body.get("outcome")
    return {
        "body": body,
        "verdict": verdict,
        "verdict_label": label,
        "verdict_symbol": symbol,
        "rule": body.get("rule") or {},
        "checks": [{**check, "link": links.get(check.get("rule"))} for check in checks],
        "alternatives": group_moves(body.get("alternatives") or []),
        "outcome": outcome_view(outcome) if isinstance(outcome, dict) else None,
        "missing": [describe_missing(item) for item in body.get("missing") or []],
        "warnings": body.get("warnings") or [],
    }


MOVE_GROUPS = {
    "take_discard": "Take from the discard area",
    "draw_galaxy": "With the Galaxy card drawn",
    "draw_missions": "With the Mission cards drawn",
}


def group_moves(moves: list) -> list[dict]:
    """Moves as sentences, grouped by action in the order they come."""
    groups: list[dict] = []
    for move in moves:
        action = move.get("action") if isinstance(move, dict) else None
        label = MOVE_GROUPS.get(action, "Moves")
        if not groups or groups[-1]["label"] != label:
            groups.append({"label": label, "moves": []})
        groups[-1]["moves"].append(describe_move(move))
    return groups


def describe_move(move) -> str:
    """A move as a sentence; moves of games without wording here read as their fields."""
    if not isinstance(move, dict):
        return json.dumps(move, ensure_ascii=False)
    action = move.get("action")
    discard = _names(move.get("discard"))
    if action == "take_discard":
        return f"Take {move.get('take')} from the discard area, discard {discard}"
    if action == "draw_galaxy":
        return f"Draw {move.get('draw')} from the Galaxy deck, discard {discard}"
    if action == "draw_missions":
        return f"Draw {_names(move.get('draw'))} from the Mission deck, discard {discard}"
    return ", ".join(f"{key}: {_plain(value)}" for key, value in move.items())


def describe_missing(item) -> str:
    if isinstance(item, dict):
        return item.get("detail") or ", ".join(f"{k}: {_plain(v)}" for k, v in item.items())
    return _plain(item)


OUTCOME_KNOWN = {
    "hand", "discard_area", "galaxy_deck", "mission_deck", "discard_counts", "game_ends",
    "game_ends_reason", "extra_turn", "extra_turn_reason", "summary", "cases",
}


def outcome_view(outcome: dict) -> dict:
    """The outcome's well-known fields by name; any other field as a plain row."""
    return {
        **{key: outcome.get(key) for key in OUTCOME_KNOWN},
        "has_hand": "hand" in outcome,
        "has_decks": "galaxy_deck" in outcome or "mission_deck" in outcome,
        "has_end": "game_ends" in outcome,
        "has_extra": "extra_turn" in outcome,
        "other": [(key.replace("_", " ").capitalize(), _plain(value))
                  for key, value in outcome.items() if key not in OUTCOME_KNOWN],
    }


def score_view(game: Game, body: dict) -> dict:
    """A score response body, with rule links for its steps and card links for its cards."""
    steps = body.get("steps") or []
    cards = body.get("cards") or []
    links = _rule_links(game, [step.get("rule") for step in steps])
    names = {step.get("card") for step in steps} | {card.get("name") for card in cards}
    slugs = dict(
        Card.objects.filter(game=game, name__in=[n for n in names if n]).values_list("name", "slug")
    )

    def card_url(name):
        slug = slugs.get(name)
        return reverse("pages:card", kwargs={"game": game.slug, "slug": slug}) if slug else ""

    choices = body.get("choices") or {}
    return {
        "body": body,
        "total": body.get("total"),
        "steps": [
            {**step, "link": links.get(step.get("rule")), "card_url": card_url(step.get("card"))}
            for step in steps
        ],
        "cards": [{**card, "url": card_url(card.get("name"))} for card in cards],
        "warnings": body.get("warnings") or [],
        "choices": [(name, _plain(choice)) for name, choice in choices.items()]
        if isinstance(choices, dict) else [],
        "other": [
            (key.replace("_", " ").capitalize(), _plain(value))
            for key, value in body.items()
            if key not in {"game", "total", "steps", "cards", "warnings", "choices", "id", "url"}
        ],
    }


def _names(value) -> str:
    if isinstance(value, list):
        names = [str(item) for item in value]
        if not names:
            return "nothing"
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return str(value)


def _plain(value) -> str:
    if isinstance(value, dict):
        if not value:
            return "none"
        return "; ".join(f"{key}: {_plain(item)}" for key, item in value.items())
    if isinstance(value, list):
        return ", ".join(_plain(item) for item in value) if value else "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    return str(value)
