"""The shapes every game's engine answers in: a ruling with its checks, a score's steps (plain Python, no Django import).

An engine never answers with a bare boolean: every decision names the rule it rests on and says
why, with the actual values. The service layer adds the rule's title, text and link.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

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
        return {"n": self.n, "rule": self.rule, "card": self.card, "detail": self.detail,
                "points": self.points, "running_total": self.running_total, **self.more}


class ImpossiblePosition(ValueError):
    """The position cannot exist (a card in two places, too many copies, …): a 400 naming the
    contradiction, never a ruling."""

    def __init__(self, errors: list[dict[str, Any]]) -> None:
        super().__init__("; ".join(error["detail"] for error in errors))
        self.errors = errors  # [{"path", "code", "detail"}] in the API error-entry shape
