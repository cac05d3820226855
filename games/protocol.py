"""The one protocol every game's engine implements, and the shapes it answers in (plain Python,
no Django import).

Like python-chess's Board, a game's engine offers `check(position)`, its one entry point (one
argument: the game's own plain-Python position, carrying whatever else the check needs; no
keyword arguments, so no game invents another): the position is checked once
(an impossible one raises ImpossiblePosition naming every contradiction at once) and comes back
as a Board, which is then asked for its legal moves, a ruling on a move and, where the game
scores, a score with its steps. Rulings and scores of one game share that one checked position,
so a rule of the position is written once.

An engine never answers with a bare boolean: every decision names the rule it rests on and says
why, with the actual values. The one flow (games/services.py) adds the rule's title, text and link.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

LEGAL = "legal"
ILLEGAL = "illegal"
NEEDS_INFORMATION = "needs_information"


@dataclass
class Check:
    """One check an engine made: the rule, whether the move passed it, and why, with the values.
    The API shows `rule`, `passed` and `detail`; `code` (the ruling's code when this check decides
    it), `unknown` (the check cannot be made: needs information) and `missing` (what it needs)
    are the engine's own working notes."""

    rule: str
    passed: bool
    detail: str
    code: str = ""
    unknown: bool = False
    missing: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "passed": self.passed, "detail": self.detail}


@dataclass
class Ruling:
    verdict: str  # legal | illegal | needs_information
    code: str  # machine-readable, stable, documented per game
    reason: str  # one or two sentences with the actual values
    rule: str  # the id of the rule section the verdict rests on
    checks: list[Check] = field(default_factory=list)
    alternatives: list[dict[str, Any]] = field(default_factory=list)
    outcome: dict[str, Any] | None = None
    missing: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        body = asdict(self)
        body["checks"] = [check.as_dict() for check in self.checks]
        return body


@dataclass(kw_only=True)
class Step:
    """One line of a score breakdown: a person follows `running_total` from zero to the total.
    `more` holds the game's own fields (the player, the cards giving a bonus, the coins after an
    action…), which the API shows after the common ones and which read as attributes too."""

    n: int
    rule: str
    detail: str
    points: int
    running_total: int
    card: str | None = None
    more: dict[str, Any] = field(default_factory=dict)

    def __getattr__(self, name: str) -> Any:
        try:
            return self.__dict__["more"][name]
        except KeyError:
            raise AttributeError(name) from None

    def as_dict(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "rule": self.rule,
            "card": self.card,
            "detail": self.detail,
            "points": self.points,
            "running_total": self.running_total,
            **self.more,
        }


class Refused(ValueError):
    """What the engine refuses to rule on or score, as a whole: a 400 whose `code` is the API's
    error code, naming every problem (`errors`, in the API's error-entry shape, their paths
    relative to the position: the one flow, games/services.py, adds where the position sits in
    the body). `summary` is the answer's detail when there are several (one problem's detail is
    its own)."""

    code = "refused"

    def __init__(
        self, errors: list[dict[str, Any]], *, code: str | None = None, summary: str | None = None
    ) -> None:
        super().__init__("; ".join(error["detail"] for error in errors))
        self.errors = errors  # [{"path", "code", "detail", …}]
        if code is not None:
            self.code = code
        self.summary = summary


class ImpossiblePosition(Refused):
    """The position cannot exist (a card in two places, too many copies, …): a 400 naming the
    contradiction, never a ruling (code impossible_position, unless the game names the thing that
    cannot exist otherwise: Star Trek: Missions' illegal_hand)."""

    code = "impossible_position"


class MissingFacts(ValueError):
    """A score needs facts the request does not give (a card's value nobody transcribed, a hand
    still in a showdown): a 400 listing each one, never a guess."""

    def __init__(self, missing: list[dict[str, Any]]) -> None:
        super().__init__("; ".join(entry["detail"] for entry in missing))
        self.missing = missing  # [{"path", "code", "detail"}]


@runtime_checkable
class Scored(Protocol):
    """A score: its total (None where a game has no single number, e.g. a whole table) and the
    steps that lead to it from zero. A score may carry `warnings` of its own (what scoring
    noticed, the check's included); without them the answer's are the board's."""

    @property
    def total(self) -> int | None: ...

    @property
    def steps(self) -> list[Step]: ...


MoveT = TypeVar("MoveT")


@runtime_checkable
class Board(Protocol, Generic[MoveT]):
    """A position its engine has checked: the one protocol of every game.

    `warnings` are what the check noticed without refusing the position (a position that
    accounts for fewer cards than the game has, a provisional value)."""

    @property
    def warnings(self) -> list[str]: ...

    def legal_moves(self) -> Sequence[MoveT]:
        """Every move the rules allow here (where a move needs facts the position lacks, the
        moves that are legal whatever those facts are)."""
        ...

    def rule(self, move: MoveT) -> Ruling:
        """A ruling on one move: verdict, code, reason, rule, checks, alternatives, outcome."""
        ...

    def score(self, moves: Sequence[MoveT] = ()) -> Scored:
        """The score of this position (after `moves`, for a game that scores a turn), with its
        steps; NotScored for a game that scores nothing."""
        ...


class NotScored(NotImplementedError):
    """The game has no score of this kind."""
