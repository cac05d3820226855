"""The shape of a ruling, shared by every game's engine (plain Python, no Django import).

An engine never answers with a bare boolean: every decision names the rule it rests on and says
why, with the actual values. The service layer adds the rule's title, text and link.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

LEGAL = "legal"
ILLEGAL = "illegal"
NEEDS_INFORMATION = "needs_information"


@dataclass
class Check:
    rule: str
    passed: bool
    detail: str


@dataclass
class Ruling:
    verdict: str  # legal | illegal | needs_information
    code: str  # machine-readable, stable, documented per game
    reason: str  # one or two sentences with the actual values
    rule: str  # the id of the rule section the verdict rests on
    checks: list[Check] = field(default_factory=list)
    alternatives: list[dict] = field(default_factory=list)
    outcome: dict | None = None
    missing: list[dict] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        return asdict(self)


class ImpossiblePosition(ValueError):
    """The position cannot exist (a card in two places, too many copies, …): a 400 naming the
    contradiction, never a ruling."""

    def __init__(self, errors: list[dict]):
        super().__init__("; ".join(error["detail"] for error in errors))
        self.errors = errors  # [{"path", "code", "detail"}] in the API error-entry shape
