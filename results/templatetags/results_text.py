"""Template helpers for showing results: a long warning split into its first sentence (shown)
and the rest (on demand)."""

from __future__ import annotations

import re
from typing import Any

from django import template

register = template.Library()

# A sentence ends at . ! or ? followed by a space and a capital or a digit ("e.g. the" does not).
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9“\"(])")
SHORT = 90  # characters: a warning this short is shown whole


@register.filter
def warning_parts(text: object) -> dict[str, Any]:
    """{"short": bool, "first": first sentence, "rest": what follows ("" for one sentence)}."""
    text = str(text or "").strip()
    if len(text) <= SHORT:
        return {"short": True, "first": text, "rest": ""}
    parts = SENTENCE_END.split(text, maxsplit=1)
    return {"short": False, "first": parts[0], "rest": parts[1] if len(parts) > 1 else ""}
