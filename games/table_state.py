"""What a game offers a table (issue 25): the state a table of it carries from answer to answer,
the event kinds that change that state, and the templates of its page parts. Each game that can be
played at a table has a module `games/<game>/table_state.py`, given in its GamePackage's
`table` (games.package.GameTable), holding:

* `TABLE`: a `TableGame` (below): the first state, the event kinds and who may send each, and
  the templates of the state at a glance and of the seat's form on `/t/<code>`;
* `job_request_body(table_state, players, kind, seat=None, private=False) -> dict | None`: the
  body of the game's own job request (`kind` "score" or "ruling") filled in with what the table
  knows (for `seat`, the seat asking, where the game keeps something of its own, such as a hand
  entered; that seat's hidden cards only when `private`: its own phone, or the host's for a seat
  no phone holds), so the game's own form opens filled in from the table; None when that job
  asks nothing the table knows.

A table never scores by itself: an event kind's function is handed `ask(job kind, body)`, which
runs the game's own job (score or ruling) and returns its answer, saved, with `id` and `url`.
The tables app builds `ask` from common.games, in one place. A kind's function raises ApiError
for a refused event: nothing changes then (the caller's transaction rolls back, saved result
included).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from common.api_errors import ApiError, error_entry

State = dict[str, Any]
# ask("score" | "ruling", body) -> the game's answer to that job, saved (with "id" and "url").
Ask = Callable[[str, dict[str, Any]], dict[str, Any]]
# (ask, state, seat or None, body, by_host) -> (the new state, the game's answer or None).
Apply = Callable[
    [Ask, State, "int | None", dict[str, Any], bool], "tuple[State, dict[str, Any] | None]"
]


@dataclass(frozen=True)
class TableGame:
    initial: Callable[[list[str]], State]
    kinds: dict[str, Apply] = field(default_factory=dict)
    # The kinds only the host may send (no seat acts for them).
    host_kinds: frozenset[str] = frozenset()
    # The kinds that name the seat they act for (its token, or the host's, must be given).
    seat_kinds: frozenset[str] = frozenset()
    # The seat kinds that are a seat's own entry, independent of the other seats' (a Star Trek:
    # Missions hand, entered by every seat at once at game end): applied to the table as it is
    # when it arrives, without naming a version; one that names the version it read conflicts
    # only with a change of the same seat's entry since, or with a change of the whole table
    # (the host's next game, an undo). The other kinds depend on the whole table (a round's
    # credits, a turn after the previous one) and name the version they read (API.md, "Tables").
    own_kinds: frozenset[str] = frozenset()
    # The kinds that never change the state (a ruling asked at the table): no change since a
    # version read is theirs, so nothing conflicts with them.
    unchanging_kinds: frozenset[str] = frozenset({"ruling"})
    # The templates of /t/<code>: the state at a glance (inside the polled part; its context has
    # `table`, `state`, `players` and `events`) and the seat's form (outside it; None: no form
    # of its own on the table's page).
    state_template: str = ""
    form_template: str | None = None
    # One entry of the history (its context has `event`: kind, seat, by_host, result) for the
    # game's own kinds the shared history does not word (None: the kind's name).
    event_template: str | None = None
    # The seat's form (form_template) read into an event: (kind, body) from what was posted and
    # the table's players in seat order; a problem is an ApiError shown on the page.
    form_event: Callable[[Mapping[str, str], list[str]], tuple[str, dict[str, Any]]] | None = None
    # More of the polled part's context: (state, players) -> the names state_template reads
    # beyond the page's (a link built from the state). None: nothing more.
    live_context: Callable[[State, list[str]], dict[str, Any]] | None = None
    # More of the seat's form's context: (state, players, the seat whose form is shown or None,
    # what was posted or None, the history) -> the names form_template reads (a hand entered,
    # the controls of its choices). None: the page's context is all the form reads.
    form_context: (
        Callable[
            [State, list[str], int | None, Mapping[str, Any] | None, list[Any]], dict[str, Any]
        ]
        | None
    ) = None
    # Whom the table waits for now and what they enter: (state, players) -> NextEntry, the top
    # of /t/<code> (issue 29, "at a glance"). None: the page's top says only who is who.
    next_entry: Callable[[State, list[str]], NextEntry] | None = None
    # The answer as every phone may see it (issue 29): (the game's request the answer was given
    # to, the answer, the state before the event) -> (that request and that answer with the
    # cards a seat holds hidden withheld), or None when the answer names none. The table's
    # history (page and API) then links this public copy, saved as a result of its own; the full
    # answer goes back to the phone that sent the event only. None: nothing a table of the game
    # is given is hidden.
    public_answer: (
        Callable[
            [dict[str, Any], dict[str, Any], State], tuple[dict[str, Any], dict[str, Any]] | None
        ]
        | None
    ) = None
    # The kinds whose answer rules another seat's play (an Academy Credits target's answer
    # rules the mover's play, with the mover's cards): their sender gets the public copy too.
    public_to_sender: frozenset[str] = frozenset()
    # The answers that give what only the answering seat's phone knows (issue 29): (the state
    # before the event, its kind) -> the seat whose hidden cards an event of that kind gives now,
    # answering a wait (an Academy Credits target's card, a Factions defender's DEFENCE or letting
    # the attack through), or None. Only `phone_gives` sends it: the host's token for that seat,
    # while a phone holds it, is refused (tables.services, 403 `seat_answers`). None: the game
    # waits for no such answer.
    private_answer: Callable[[State, str], int | None] | None = None


@dataclass(frozen=True)
class NextEntry:
    """Whom a table waits for now and what they enter, as the top of /t/<code> shows it: a line
        naming the players (never a seat number) and the one button of each phone (tables.glance
        picks it for the phone's seat and role).

        `seats` are the seats the table waits for, the first to enter first (empty: nobody, the game
        is over). A waited-for seat's own phone shows `own` ("Enter your turn"); the host's phone,
        which acts for any seat, shows `for_seat` with the seat's player named ("Enter {name}'s
        turn"). `place` is where that button leads: a job of the game asked at the table ("score",
        "ruling") or an anchor of the table's page ("#hand-form"). A `private` entry needs what only
        that seat's phone knows (the defender's hand): the host acts for it only when no phone holds
        the seat. An entry any seat sends (`anyone`: a round's end, the setup) shows `own` on
    every phone with a seat and on the host's. `host_next` is the host's own next step once the game is over ("new_game",
        "new_match"), shown on the host's phone with `host_words`."""

    line: str
    seats: tuple[int, ...] = ()
    own: str = ""
    for_seat: str = ""
    place: str = ""
    private: bool = False
    anyone: bool = False
    host_next: str = ""
    host_words: str = ""


def listed(names: list[str]) -> str:
    """Names as a sentence lists them: "Ana", "Ana and Ben", "Ana, Ben and Cy"."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def refuse(
    path: str,
    code: str,
    detail: str,
    *,
    top: str = "invalid_input",
    status_code: int = 400,
    **extra: Any,
) -> ApiError:
    """A refused event: API.md's error body with one entry at `path`."""
    return ApiError(
        status_code=status_code,
        code=top,
        detail=detail,
        errors=[error_entry(path=path, code=code, detail=detail, **extra)],
    )


def only_fields(
    body: dict[str, Any],
    allowed: set[str],
    *,
    at: str,
    what: str,
    knows: frozenset[str] = frozenset(),
) -> None:
    """Refuse a body holding a field the event does not take: 400 naming the first one, with
    the code `table_knows` for a field the table keeps itself (`knows`), else `unknown_field`."""
    unknown = sorted(set(body) - allowed)
    if not unknown:
        return
    first = unknown[0]
    if first in knows:
        detail = f"The table keeps {first} itself; leave it out of the {what}."
        raise refuse(f"{at}{first}", "table_knows", detail)
    detail = f"A {what} holds {', '.join(sorted(allowed))}; not {', '.join(unknown)}."
    raise refuse(f"{at}{first}", "unknown_field", detail)


def saved(answer: dict[str, Any] | None) -> dict[str, Any] | None:
    """The saved result an answer links: {"id", "url"}, or None."""
    if isinstance(answer, dict) and isinstance(answer.get("id"), str):
        return {"id": answer["id"], "url": answer.get("url")}
    return None


def disagree(path: str, detail: str) -> ApiError:
    """A job's body (the game's page opened from the table) that says otherwise than the table
    of something the table keeps: refused, never silently replaced (the host may undo)."""
    return refuse(path, "table_knows", detail)


def next_game(
    state: State, initial: Callable[[list[str]], State], *, not_finished: str
) -> tuple[State, None]:
    """The host's next game at the same table, once the game has a winner: the first state
    again, the game counted and the tally of games won kept; before, a 400 game_not_finished
    saying why (`not_finished`)."""
    if not state["winner"]:
        raise refuse("kind", "game_not_finished", not_finished, top="game_not_finished")
    new = initial(state["players"])
    new["game_number"] = state["game_number"] + 1
    new["tally"] = dict(state["tally"])
    return new, None


# --- Hidden cards (issue 29) ---------------------------------------------------------------------


def phone_gives(seat: int, *, own: int | None, host: bool, held: Collection[int]) -> bool:
    """Whether a phone gives `seat`'s hidden cards (issue 29): that seat's own phone (`own`), or
    the host's (`host`) for a seat no phone holds (`held`: the seats a phone has claimed; a lost
    phone's seat, once released, or a player without one). The one rule of the service that
    accepts such an answer (tables.services: 403 `seat_answers`), of the table's page that offers
    it, and of the game's pages that fill those cards in."""
    return seat == own or (host and seat not in held)


# The state's key for what the table keeps for the referee alone (the cards a seat gave in a play
# awaiting another seat's answer): never shown to a phone (tables.selectors.shown_state).
SEALED = "sealed"
# Where an answer's public copy says what it leaves out.
WITHHELD = "withheld"


def withhold(
    value: Any,
    labels: Mapping[str, str],
    *,
    drop: frozenset[str] = frozenset(),
    hidden: Callable[[dict[str, Any]], bool] | None = None,
    keep: frozenset[str] = frozenset({"rule"}),
) -> Any:
    """`value` (an answer, or a request) with a seat's hidden cards withheld: each label of
    `labels` (a card as the answer words it -> the words said instead, such as "Ana's other
    card") replaced in every text, the longest first (so "Spy (Ashen Peaks)" goes before "Spy"),
    every field named in `drop` left out wherever it is, every object `hidden` says is a hidden
    card replaced by {"withheld": true}; the fields in `keep` stay as they are (the rule quoted
    names cards in general, no one's hand)."""
    order = sorted(labels, key=len, reverse=True)

    def walk(item: Any) -> Any:
        if isinstance(item, str):
            for label in order:
                item = item.replace(label, labels[label])
            return item
        if isinstance(item, list):
            return [walk(entry) for entry in item]
        if isinstance(item, dict):
            if hidden is not None and hidden(item):
                return {WITHHELD: True}
            return {
                key: entry if key in keep else walk(entry)
                for key, entry in item.items()
                if key not in drop
            }
        return item

    return walk(value)


def one_less(cards: list[Any], played: Any) -> list[Any]:
    """The cards without one copy of `played` (a hand after its card is played: what stays
    hidden)."""
    rest = list(cards)
    if played in rest:
        rest.remove(played)
    return rest
