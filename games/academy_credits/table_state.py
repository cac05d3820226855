"""An Academy Credits table (issue 25, API.md "Tables"): each round's end is an event whose body is
the round's score body without credits (the table fills each cadet's) and, after the first
round, without the starter (the table knows who starts); the state carries the credits, the next
starter, the round count, the target and the match winners, all from the game's own round score.
A ruling asked at the table gets each cadet's credits from the table and changes nothing, unless
what the play does depends on the target's card, which only the target's phone knows (issue 29: a
Lura Thok guess, a comparison, a Darem Reymi discard): the table then waits for the target's
`answer` (its `pending`), and rules the play once it comes. The phone asking gives its own two
cards only: another cadet's card is never taken from it. The host's `new_match` starts again
from zero.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from common.api_errors import ApiError
from common.numbers import plain_int
from common.requests import understood_request
from games.academy_credits.model import GUESS, MUST_PLAY
from games.package import RULING, SCORE
from games.table_state import (
    SEALED,
    WITHHELD,
    Ask,
    State,
    TableGame,
    disagree,
    one_less,
    refuse,
    saved,
    withhold,
)
from games.wording import sentence as _capitalised

from . import table_glance


def initial(players: list[str]) -> State:
    return {
        "players": list(players),
        "credits": {name: 0 for name in players},
        "starter": None,  # who starts the next round: the round's score decides it (AC-R10)
        "round": 0,  # rounds scored at this table
        "target": None,  # the match's target, once the first round's score gives it
        "match_winners": [],
        "match_number": 1,
        "last_result": None,
        "pending": None,  # a play awaiting its target's answer (issue 29)
    }


def round_end(
    ask: Ask, state: State, seat: int | None, body: dict[str, Any], by_host: bool
) -> tuple[State, dict[str, Any] | None]:
    """One round's end: the round's score body without credits (the table fills each cadet's)
    and without the starter after the first round (the table knows who started)."""
    names: list[str] = state["players"]
    _not_waiting(state, "a round's end")
    if state["match_winners"]:
        raise refuse(
            "kind",
            "match_over",
            f"The match is over ({', '.join(state['match_winners'])} "
            "reached the target); the host starts a new match.",
            top="match_over",
        )
    players = body.get("players")
    if not isinstance(players, list):
        raise refuse(
            "body.players", "invalid_type", "Give the round's players: a list, in seat order."
        )
    _the_tables_cadets(players, names, at="body.players", what="round")
    if "starter" in body and state["round"] > 0:
        raise refuse(
            "body.starter",
            "table_knows",
            f"The table knows who starts this round ({state['starter']}); leave starter out.",
        )
    round_body = {
        **body,
        "players": [
            {**player, "name": name, "credits": state["credits"][name]}
            for player, name in zip(players, names, strict=True)
        ],
    }
    if state["starter"] is not None:
        round_body["starter"] = state["starter"]
    answer = ask(SCORE, round_body)
    new = copy.deepcopy(state)
    credits = {row["player"]: row["credits"] for row in answer["standings"]}
    new["credits"] = {name: credits[name] for name in names}  # seat order
    new["starter"] = answer["next_starter"]
    new["round"] = state["round"] + 1
    new["target"] = answer["target"]
    new["match_winners"] = answer["match_winners"]
    new["last_result"] = saved(answer)
    return new, answer


def _the_tables_cadets(players: list[Any], names: list[str], *, at: str, what: str) -> None:
    """A round or a position names the table's cadets in seat order, without their credits
    (the table keeps those)."""
    given = [player.get("name") if isinstance(player, dict) else None for player in players]
    if [str(name).casefold() for name in given] != [name.casefold() for name in names]:
        raise refuse(
            at,
            "players_differ",
            f"The table's players are {', '.join(names)}, in "
            f"that order; the {what} names {', '.join(str(name) for name in given)}.",
        )
    for index, player in enumerate(players):
        if "credits" in player:
            raise refuse(
                f"{at}[{index}].credits",
                "table_knows",
                f"The table keeps each cadet's credits; leave them out of the {what}.",
            )


def ruling(
    ask: Ask, state: State, seat: int | None, body: dict[str, Any], by_host: bool
) -> tuple[State, dict[str, Any] | None]:
    """A ruling asked at the table: the position (players in the table's seat order, without
    credits: the table fills each cadet's) and the move. The phone gives its own two cards
    (`position.hand`); another cadet's card is not its to give (400 `hidden_card`). The state does
    not change, unless the play's outcome depends on the target's card: the table then waits
    for the target's answer (`pending`; awaits_answer)."""
    names: list[str] = state["players"]
    _not_waiting(state, "another ruling")
    position = body.get("position")
    if not isinstance(position, dict) or not isinstance(position.get("players"), list):
        raise refuse(
            "body.position.players",
            "invalid_type",
            "Give the position with its players: a list, in seat order.",
        )
    players = position["players"]
    _the_tables_cadets(players, names, at="body.position.players", what="position")
    turn = position.get("turn")
    if (
        not by_host
        and seat is not None
        and 1 <= seat <= len(names)
        and (not isinstance(turn, str) or turn.casefold() != names[seat - 1].casefold())
    ):
        # The two cards in hand are the cadet to move's: another phone does not know them.
        raise refuse(
            "body.position.turn",
            "not_your_cards",
            f"{names[seat - 1]}'s phone gives "
            f"{names[seat - 1]}'s own cards: a play on {turn}'s turn is asked from "
            f"{turn}'s phone (or the host's).",
        )
    _no_hidden_card(players, turn)
    filled = {
        **body,
        "position": {
            **position,
            "players": [
                {**player, "name": name, "credits": state["credits"][name]}
                for player, name in zip(players, names, strict=True)
            ],
        },
    }
    answer = ask(RULING, filled)
    new = copy.deepcopy(state)
    # The cards face up as the game's model read them (any case, a slug or a value: the
    # catalog's name), the card played among them.
    public = face_up_cards(understood_request(filled))
    waiting = awaits_answer(answer, names, public)
    if waiting is not None:
        outcome = answer["outcome"]
        new["pending"] = {
            "by": outcome["player"],
            "target": waiting.target,
            "seat": names.index(waiting.target) + 1,
            "played": outcome["played"],
            "effect": outcome["effect"],
            "guess": outcome["guess"],
            "rule": waiting.rule,
            "reason": waiting.reason,
            "question": "guess" if outcome["effect"] == GUESS else "card",
            "face_up": public,
        }
        # What only the referee keeps: the play as asked (the mover's two cards), and for a
        # guess answered "no" a card the target may hold that is not the one named.
        others = [
            name
            for case in outcome["cases"]
            if outcome["guess"] not in case["holds"]
            for name in case["holds"]
        ]
        new[SEALED] = {"request": filled, "not_guess": others[0] if others else None}
    return new, answer


@dataclass(frozen=True)
class Waiting:
    """The table waits for `target`'s answer: the rule the play's outcome rests on, and why."""

    target: str
    rule: str
    reason: str


def awaits_answer(
    answer: dict[str, Any], names: list[str], face_up: Sequence[str] = ()
) -> Waiting | None:
    """Whether a ruling's play waits for its target's answer: a legal play whose outcome the
    game gives as cases, one per card the target may hold (AC-R4: a Lura Thok guess; AC-R3: a
    comparison; AC-R4: a Darem Reymi discard), aimed at a cadet of the table: only the target's
    phone knows that card. A guess also waits where the game rules it at once only because the
    mover keeps the last copy not face up (`face_up`: the cards the position shows face up):
    the table ruling at once would tell every phone where that copy is (AC-R4, AC-6.4). None when
    the outcome is the same whatever the target holds (or the target's card is not needed: a
    look, a trade, a play at no one, a guess of a card all face up).

    The reason is worded the same whatever the mover keeps: the number of cases a comparison
    falls into would tell the value of the mover's card (AC-R3)."""
    outcome = answer.get("outcome") if answer.get("verdict") == "legal" else None
    if not isinstance(outcome, dict):
        return None
    target = outcome.get("target")
    if target not in names or target == outcome.get("player"):
        return None
    if not outcome.get("cases") and not _kept_copy_guessed(outcome, face_up):
        return None
    rule = str((answer.get("rule") or {}).get("id") or "")
    named = f", naming {outcome['guess']}," if outcome.get("guess") else ""
    reason = (
        f"What {outcome['player']}'s {outcome['played']}{named} does to {target} depends "
        f"on {target}'s card, which only {target}'s phone knows: the table waits for "
        f"{target} to answer ({rule})."
    )
    return Waiting(target=target, rule=rule, reason=reason)


def face_up_cards(request: object) -> list[str]:
    """The cards a play's request shows face up: every cadet's discards, and the card played."""
    if not isinstance(request, dict) or not isinstance(request.get("position"), dict):
        return []
    players = request["position"].get("players")
    cards = [
        str(card)
        for player in (players if isinstance(players, list) else [])
        if isinstance(player, dict)
        for card in player.get("discards") or []
    ]
    move_body = request.get("move")
    played = move_body.get("play") if isinstance(move_body, dict) else None
    return cards + ([str(played)] if played is not None else [])


def _kept_copy_guessed(outcome: dict[str, Any], face_up: Sequence[str]) -> bool:
    """A guess with an effect, ruled without cases though a copy of the card named is not face
    up: the game knows the target cannot hold it because the mover keeps it (the game counts
    the mover's hand among the copies accounted for)."""
    guess = outcome.get("guess")
    if outcome.get("effect") != GUESS or not outcome.get("has_effect") or not guess:
        return False
    from .pages import deck_cards  # the catalog's cards: Django's side of the game

    copies = next((count for name, _, count in deck_cards() if name == guess), 0)
    return copies - list(face_up).count(str(guess)) > 0


def _not_waiting(state: State, what: str) -> None:
    pending = state.get("pending")
    if pending:
        raise refuse(
            "kind",
            "awaiting_answer",
            f"The table waits for {pending['target']} (seat "
            f"{pending['seat']}) to answer {pending['by']}'s {pending['played']}; "
            f"{what} comes after that answer.",
            top="awaiting_answer",
            status_code=409,
        )


def _no_hidden_card(players: list[Any], turn: object) -> None:
    """A phone at the table gives its own cards only: a card in another cadet's hand is that
    cadet's phone's to tell (the table asks it where a ruling depends on it)."""
    mover = str(turn).casefold() if isinstance(turn, str) else None
    for index, player in enumerate(players):
        if (
            isinstance(player, dict)
            and player.get("hand") is not None
            and str(player.get("name")).casefold() != mover
        ):
            raise refuse(
                f"body.position.players[{index}].hand",
                "hidden_card",
                f"{player.get('name')}'s card is {player.get('name')}'s phone's to tell, "
                "not this one's: leave it out. Where the play depends on it, the table "
                f"asks {player.get('name')}.",
            )


YES, NO = "yes", "no"


def answer_choices(
    pending: dict[str, Any], deck: list[tuple[str, int | None, int]]
) -> list[dict[str, Any]]:
    """The target's legal answers: to a guess, whether they hold the card named; otherwise the
    card they hold, among the cards of the deck (`deck`: name, value, copies) not all face up
    (the cards every phone sees). Another cadet's hand is never read: it is no phone's to
    know."""
    if pending["question"] == "guess":
        return [
            {"value": YES, "label": f"Yes, I hold {pending['guess']}"},
            {"value": NO, "label": f"No, I do not hold {pending['guess']}"},
        ]
    face_up = list(pending.get("face_up") or [])
    choices = []
    for name, value, copies in deck:
        if copies - face_up.count(name) > 0:
            label = name if value is None or name.endswith(f"({value})") else f"{name} ({value})"
            choices.append({"value": name, "label": label})
    return choices


def answer(
    ask: Ask, state: State, seat: int | None, body: dict[str, Any], by_host: bool
) -> tuple[State, dict[str, Any] | None]:
    """The target's answer to a play awaiting it (`pending`): `{"answer": "yes" | "no"}` to a
    guess, `{"answer": <the card held>}` otherwise. The play is then ruled with the target's
    card (for "no", a card the target may hold other than the one named), its answer saved and
    linked; the table waits no more."""
    pending = state.get("pending")
    sealed = state.get(SEALED) or {}
    if not pending or not sealed.get("request"):
        raise refuse(
            "kind",
            "nothing_to_answer",
            "The table awaits no answer.",
            top="nothing_to_answer",
            status_code=409,
        )
    if seat != pending["seat"]:
        raise refuse(
            "seat",
            "not_your_turn",
            f"{pending['target']} (seat {pending['seat']}) "
            f"answers {pending['by']}'s {pending['played']}; seat {seat} does not.",
            top="not_your_turn",
        )
    if set(body) - {"answer"}:
        raise refuse(
            f"body.{sorted(set(body) - {'answer'})[0]}",
            "unknown_field",
            "An answer holds one field: answer.",
        )
    from .pages import deck_cards  # the catalog's cards: Django's side of the game

    choices = answer_choices(pending, deck_cards())
    given = body.get("answer")
    folded = {choice["value"].casefold(): choice["value"] for choice in choices}
    if not isinstance(given, str) or given.strip().casefold() not in folded:
        values = [choice["value"] for choice in choices]
        raise refuse(
            "body.answer",
            "invalid_choice",
            f"{pending['target']} answers with one of {', '.join(values)}.",
            suggestions=values,
        )
    chosen = folded[given.strip().casefold()]
    if chosen == YES:
        card = pending["guess"]
    elif chosen == NO:
        card = sealed.get("not_guess")
    else:
        card = chosen
    request = copy.deepcopy(sealed["request"])
    for player in request["position"]["players"]:
        if player["name"] == pending["target"]:
            player["hand"] = card
    try:
        ruled = ask(RULING, request)
    except ApiError as error:
        if error.error_code != "impossible_position":
            raise
        # The engine's entry would say where every copy is, another cadet's hand included.
        raise refuse(
            "body.answer",
            "answer_impossible",
            f"{card} cannot be "
            f"{pending['target']}'s card: every copy of it is accounted for. Check the "
            "card and answer again.",
        ) from None
    new = copy.deepcopy(state)
    new["pending"] = None
    new[SEALED] = None
    return new, ruled


def new_match(
    ask: Ask, state: State, seat: int | None, body: dict[str, Any], by_host: bool
) -> tuple[State, dict[str, Any] | None]:
    new = initial(state["players"])
    new["match_number"] = state["match_number"] + 1
    return new, None


def public_answer(
    request: dict[str, Any], answer: dict[str, Any], state: State
) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """A ruling as every phone may see it (issue 29). What is withheld is chosen by role, whose
    card it is, never by name: the deck holds several copies of most cards (AC-R2), so a card in
    a hand may share its name with the card played, the card named or a card face up, and those
    stay named while the one in hand does not.

    Hidden: the card the mover keeps in hand, and the card the target's phone told the table
    (its answer), unless the play puts it face up (an eliminated cadet discards their card face
    up, AC-6.4; a Darem Reymi discard is face up, AC-R4). Each is worded "<cadet>'s card" where
    the game names it in that role: a comparison (AC-R3), a trade and The Doctor's keep (AC-R4);
    the checks that describe the mover's two cards (AC-3.1, AC-3.2, and AC-4.1 for a Nahla Ake
    played) are worded without them; "every copy is accounted for elsewhere" goes when the
    mover's card is one of those copies. A play awaiting its target's answer shows the play
    alone, the same whatever the mover keeps (its cases, what is known in every case, would
    tell the value of the mover's card); a ruling not legal keeps its verdict but not why (it
    rests on the mover's two cards). The request keeps the card played. None when nothing in
    it is hidden."""
    position = request.get("position")
    move_body = request.get("move")
    if not isinstance(position, dict) or not isinstance(move_body, dict):
        return None
    played, guess = move_body.get("play"), move_body.get("guess")
    mover = str(position.get("turn") or "")
    given = answer.get("outcome")
    outcome: dict[str, Any] = given if isinstance(given, dict) else {}
    legal = answer.get("verdict") == "legal"
    face_up = {
        (entry.get("player"), entry.get("card"))
        for entry in outcome.get("discarded") or []
        if isinstance(entry, dict)
    }
    hand = [str(card) for card in position.get("hand") or []]
    kept = [card for card in one_less(hand, played) if (mover, card) not in face_up]
    told: list[tuple[str, str]] = []  # (cadet, card) that cadet's phone told the table
    public_cards = face_up_cards(request)
    for player in position.get("players") or []:
        if not isinstance(player, dict):
            continue
        card, name = player.pop("hand", None), str(player.get("name"))
        if card is not None and name != mover and (name, card) not in face_up:
            told.append((name, str(card)))
    waiting = (
        None
        if state.get("pending")  # an answer: the target's card is given, nothing waits
        else awaits_answer(answer, list(state["players"]), public_cards)
    )
    if not kept and not told and waiting is None and legal:
        return None
    position["hand"] = [played]
    worded = _worded(answer)
    played_label = worded(str(played))[0]
    phrases: dict[str, str] = {}
    target = str(outcome.get("target") or "")
    for card in kept:
        for label in worded(card):
            phrases[f"{mover}'s {label}"] = f"{mover}'s card"  # AC-R3
            phrases[_capitalised(f"{mover}'s {label}")] = _capitalised(f"{mover}'s card")
            phrases[f", {target} takes {label}."] = f", {target} takes {mover}'s card."  # AC-R4
            phrases[f"({label} and the card"] = f"({mover}'s card and the card"  # AC-R4
    for name, card in told:
        for label in worded(card):
            phrases[f"{name}'s {label}"] = f"{name}'s card"  # AC-R3
            phrases[_capitalised(f"{name}'s {label}")] = _capitalised(f"{name}'s card")
            phrases[f"{mover} sees {label};"] = f"{mover} sees {name}'s card;"  # AC-R3
    public = copy.deepcopy(answer)
    if kept:
        public["checks"] = [
            _public_check(check, mover, played_label, outcome)
            for check in public.get("checks") or []
            if isinstance(check, dict)
        ]
    shown_outcome = public.get("outcome")
    if isinstance(shown_outcome, dict):
        if guess is not None and str(guess) in kept:
            # The copies accounted for would say where the named card is: in the mover's hand.
            shown_outcome["summary"] = [
                line
                for line in shown_outcome.get("summary") or []
                if "accounted for elsewhere" not in line
            ]
        if kept and isinstance(shown_outcome.get("trade"), dict):
            shown_outcome["trade"]["target_gets"] = None  # AC-R4: the two traders see it
        for look in shown_outcome.get("looks") or []:
            if isinstance(look, dict) and any(look.get("at") == name for name, _ in told):
                look["card"] = None  # AC-R3: the player alone sees it
    shown = withhold(public, phrases, drop=frozenset({"alternatives", "cases"}))
    if not legal:
        # Why a play is not legal rests on the cards in the phone's hand (a Nahla Ake held, the
        # card not among the two): the game tells that player alone (its rules text: "a message
        # tells you why"). Every ruling not legal is shown so, whatever the hand holds, so the
        # withholding itself tells nothing.
        shown["code"] = WITHHELD
        shown["reason"] = (
            f"{_sentence(str(answer.get('verdict')))} — why rests on {mover}'s "
            f"cards, and is shown on {mover}'s phone alone."
        )
        shown["checks"] = []
        shown["missing"] = []
        # The rule it rests on would say why (AC-4.1 names the Nahla Ake held).
        shown["rule"] = {"id": "", "title": "", "text": "", "url": ""}
        shown["warnings"] = []
    elif waiting is not None:
        shown["outcome"] = _awaiting_outcome(shown["outcome"], waiting)
    if legal and isinstance(shown.get("outcome"), dict):
        summary = list(shown["outcome"].get("summary") or [])
        shown["reason"] = "Legal: " + " ".join(summary[:2])
    shown[WITHHELD] = (
        "A cadet's card in hand is theirs alone: this answer, as every phone "
        "sees it, names the cards played, named and put face up only. The phone "
        "that asked saw it whole."
    )
    return request, shown


def _worded(answer: dict[str, Any]) -> Callable[[str], list[str]]:
    """A card's names as the answer words it, the longest first: "Jett Reno (7)", "Jett
    Reno"."""
    text = repr(answer)

    def labels(name: str) -> list[str]:
        found = set(re.findall(re.escape(name) + r" \(\d+\)", text))
        return sorted(found, key=len, reverse=True) + [name]

    return labels


def _public_check(
    check: dict[str, Any], mover: str, played: str, outcome: dict[str, Any]
) -> dict[str, Any]:
    """A check of a legal play as every phone reads it: those that describe the mover's two
    cards are worded from the card played alone, the same whatever the other card is."""
    rule = check.get("rule")
    if rule == "AC-3.1":
        detail = (
            f"It is {mover}'s turn: {mover} is in the round and holds two cards after the draw."
        )
    elif rule == "AC-3.2":
        detail = f"{played} is one of the two cards in hand; {mover} keeps the other."
    elif rule == "AC-4.1" and outcome.get("effect") == MUST_PLAY:
        # Either wording names or rules out the card kept (Jett Reno or Darem Reymi held with it).
        detail = f"{played} may always be played: AC-4.1 makes it the card to play, never one that cannot be."
    else:
        return check
    return {**check, "detail": detail}


def _awaiting_outcome(outcome: dict[str, Any], waiting: Waiting) -> dict[str, Any]:
    """The outcome of a play awaiting its target's answer as every phone sees it: the play, the
    mark it clears, and that the table waits; nothing of what follows (who is out, what is
    discarded, whether the round ends), which rests on the target's card and the mover's."""
    summary = [str(line) for line in outcome.get("summary") or []]
    waits = (
        f"What happens depends on {waiting.target}'s card: the table waits for "
        f"{waiting.target}'s phone to answer."
    )
    return {
        **outcome,
        "summary": summary[:1]
        + [line for line in summary[1:] if line.endswith("mark clears (AC-R6).")]
        + [waits],
        "eliminated": [],
        "discarded": [],
        "draws": [],
        "deck_count": None,
        "set_aside_drawn": None,
        "in_round": None,
        "round_ends": None,
        "round_end_reason": waits,
        "next_turn": None,
    }


def _sentence(verdict: str) -> str:
    return {"illegal": "Illegal", "needs_information": "Needs information"}.get(
        verdict, verdict.replace("_", " ").capitalize()
    )


def job_request_body(
    table_state: dict[str, Any],
    players: list[str],
    kind: str,
    seat: int | None = None,
    private: bool = False,
) -> dict[str, Any] | None:
    """The game's body filled in from the table: the cadets in seat order with the credits the
    table carries (a round's score also with who starts it, once the table knows); the rest of
    the round or position (discards, hands, the deck, the move) is the players' to enter."""
    credits = table_state.get("credits") or {}
    cadets = [{"name": name, "credits": credits.get(name, 0)} for name in players]
    if kind == SCORE:
        body: dict[str, Any] = {"players": cadets}
        if table_state.get("starter"):
            body["starter"] = table_state["starter"]
        return body
    if kind == RULING:
        return {"position": {"players": cadets}}
    return None


def _listed(text: str) -> list[str]:
    return [part.strip() for part in re.split(r"[,\n]+", text) if part.strip()]


def round_form(posted: Mapping[str, str], players: list[str]) -> dict[str, Any]:
    """The round's end from the table's form (each cadet in or out, discards, the card in hand at
    a showdown, the deck count); the table fills credits and the starter."""
    cadets = []
    for number, name in enumerate(players, start=1):
        entry: dict[str, Any] = {
            "name": name,
            "in_round": posted.get(f"in_round_{number}") == "1",
            "discards": _listed(posted.get(f"discards_{number}", "")),
        }
        card = posted.get(f"hand_{number}", "").strip()
        if card:
            entry["hand"] = card
        cadets.append(entry)
    deck = posted.get("deck_count", "0").strip()
    # A plain number, or the text as typed: the scorer refuses it (400) at deck_count.
    count = plain_int(deck)
    return {"players": cadets, "deck_count": count if count is not None else deck}


def round_form_rows(
    table_state: dict[str, Any],
    players: list[str],
    seat: int | None,
    posted: Mapping[str, Any] | None,
    events: list[Any],
) -> dict[str, Any]:
    """What the round's form shows: each cadet's fields as they were posted (a form refused, or
    sent while another phone changed the table, keeps everything typed), else empty (every cadet
    still in the round)."""
    given = posted if posted is not None and "deck_count" in posted else None
    rows = []
    for number, name in enumerate(players, start=1):
        rows.append(
            {
                "seat": number,
                "name": name,
                "in_round": given is None or given.get(f"in_round_{number}") == "1",
                "discards": given.get(f"discards_{number}", "") if given is not None else "",
                "hand": given.get(f"hand_{number}", "") if given is not None else "",
            }
        )
    return {
        "round_rows": rows,
        "deck_count": given.get("deck_count", "0") if given is not None else "0",
    }


def form_event(posted: Mapping[str, str], players: list[str]) -> tuple[str, dict[str, Any]]:
    """The table page's forms: the target's answer to a play awaiting it (its buttons post
    `answer`), else the round's end."""
    if "answer" in posted:
        return "answer", {"answer": posted.get("answer", "")}
    return "round", round_form(posted, players)


def answer_context(state: State, players: list[str]) -> dict[str, Any]:
    """What the table's page shows while a play awaits its target's answer: whom the table waits
    for, and (on the target's phone, or the host's for a seat no phone holds) the target's legal
    answers."""
    pending = state.get("pending")
    if not pending:
        return {}
    from .pages import deck_cards  # the catalog's cards: Django's side of the game

    return {"awaiting_answer": {**pending, "choices": answer_choices(pending, deck_cards())}}


TABLE = TableGame(
    initial=initial,
    kinds={"round": round_end, "ruling": ruling, "answer": answer, "new_match": new_match},
    host_kinds=frozenset({"new_match"}),
    seat_kinds=frozenset({"round", "ruling", "answer"}),
    state_template="academy_credits/_table_state.html",
    form_template="academy_credits/_table_form.html",
    form_event=form_event,
    form_context=round_form_rows,
    next_entry=table_glance.next_entry,
    live_context=answer_context,
    event_template="academy_credits/_table_event.html",
    public_answer=public_answer,
    # The target's answer rules the mover's play: the mover's card is not the target's to read.
    public_to_sender=frozenset({"answer"}),
    private_answer=lambda state, kind: (
        int(state["pending"]["seat"]) if kind == "answer" and state.get("pending") else None
    ),
)


def _without_credits(players: object, credits: dict[str, Any], at: str) -> list[Any]:
    """The cadets without their credits, after checking each credit given agrees with the
    table's (the form was filled in from them: a changed one is refused, never ignored)."""
    cadets = []
    for index, player in enumerate(players if isinstance(players, list) else []):
        if not isinstance(player, dict):
            cadets.append(player)
            continue
        name, given = player.get("name"), player.get("credits")
        kept = credits.get(name) if isinstance(name, str) else None
        if given is not None and kept is not None and given != kept:
            raise disagree(
                f"{at}[{index}].credits",
                f"The table has {name} at {kept} "
                f"credit{'s' if kept != 1 else ''}, not {given}: the table keeps the "
                "credits (the host may undo a round).",
            )
        cadets.append({key: value for key, value in player.items() if key != "credits"})
    return cadets


def refilled(field: str) -> bool:
    """The fields of the game's pages at a table that are the table's alone: each cadet's name
    and credits and who starts. After a conflict (another round scored since the page was
    filled in) the page shows them as the table has them now; everything else (who is out, the
    cards in front, the card in hand, the deck) stays as the player typed it."""
    return field == "starter" or (
        field.startswith("player-") and field.endswith(("-name", "-credits"))
    )


def acting_seat(table_state: dict[str, Any], players: list[str]) -> int | None:
    """No seat acts first at this game's table: the host's browser acts for any (None)."""
    return None


def job_event(
    table_state: dict[str, Any], players: list[str], kind: str, body: dict[str, Any]
) -> tuple[str, dict[str, Any]]:
    """The table's event for the game's job asked at the table: a round's score is the `round`
    (without the credits and, after the first round, the starter, which must agree with the
    table's); a ruling is the table's `ruling` (without the credits)."""
    credits = table_state.get("credits") or {}
    if kind == SCORE:
        event = {**body, "players": _without_credits(body.get("players"), credits, "players")}
        if table_state.get("round") and "starter" in event:
            if event["starter"] != table_state.get("starter"):
                raise disagree(
                    "starter",
                    f"The table knows who starts this round "
                    f"({table_state.get('starter')}), not {event['starter']}.",
                )
            del event["starter"]
        return "round", event
    given = body.get("position")
    position = given if isinstance(given, dict) else {}
    cadets = _without_credits(position.get("players"), credits, "position.players")
    return "ruling", {**body, "position": {**position, "players": cadets}}
