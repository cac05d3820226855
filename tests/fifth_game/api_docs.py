"""Ascent's paragraph and request examples in the API schema (drf-spectacular)."""

from drf_spectacular.utils import OpenApiExample

from . import engine

RULING_DOCS = f"""**ascent.** Position `{{"hand": [names], "table": name or null}}`, move
`{{"play": name}}` or `{{"pass": true}}`: the card played must be higher than the card on the table
(HC-2); a player passes only holding no higher card (HC-4). Codes: {
    ", ".join(f"`{code}`" for code in engine.LEGAL_CODES + engine.ILLEGAL_CODES)
}; a position with more
copies of a card than the game has is refused (`{engine.IMPOSSIBLE_CODES[0]}`, HC-1)."""

RULING_EXAMPLES = [
    OpenApiExample(
        "ascent",
        request_only=True,
        value={"position": {"hand": ["One", "Three"], "table": "Two"}, "move": {"play": "Three"}},
    ),
    OpenApiExample(
        "ascent: a pass",
        request_only=True,
        value={"position": {"hand": ["One"], "table": "Two"}, "move": {"pass": True}},
    ),
]

SCORE_DOCS = """**ascent.** `{"hand": [names]}`: the sum of the values (HC-3), one step a card."""

SCORE_EXAMPLES = [
    OpenApiExample("ascent: a hand", request_only=True, value={"hand": ["Two", "Three"]}),
]
