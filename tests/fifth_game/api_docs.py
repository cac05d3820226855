from drf_spectacular.utils import OpenApiExample

RULING_DOCS = """**ascent.** Position `{"hand": [names], "table": name or null}`, move `{"play": name}`:
the card played must be higher than the card on the table (HC-2)."""

RULING_EXAMPLES = [
    OpenApiExample("ascent", request_only=True,
                   value={"position": {"hand": ["One", "Three"], "table": "Two"},
                          "move": {"play": "Three"}}),
]

SCORE_DOCS = """**ascent.** `{"hand": [names]}`: the sum of the values (HC-3)."""

SCORE_EXAMPLES = [
    OpenApiExample("ascent: a hand", request_only=True, value={"hand": ["Two", "Three"]}),
]
