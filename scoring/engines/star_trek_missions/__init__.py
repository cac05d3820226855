"""Star Trek: Missions scoring: the card rule language, the scorer and its explanation."""

from .explain import check_final_hand, score_hand
from .language import render_rule, validate_rule
from .scorer import CardResult, CardSpec, ChoiceError, HandScore, Step

__all__ = [
    "CardResult",
    "CardSpec",
    "ChoiceError",
    "HandScore",
    "Step",
    "check_final_hand",
    "render_rule",
    "score_hand",
    "validate_rule",
]
