"""{% select_options %} (web/templatetags/select_options.py) writes a list's options as the template
loop it replaced wrote them: the same values, texts, groups and selected option, escaped the same."""

import pytest
from django.template import Context, Template
from django.utils.safestring import mark_safe

from web.templatetags.select_options import select_options

# The loop of games/factions/templates/factions/_select.html before the tag.
LOOP = Template(
    "{% for value, text in options %}"
    '<option value="{{ value }}"{% if value == selected %} selected{% endif %}>{{ text }}</option>'
    "{% endfor %}"
    '{% for group, items in groups %}<optgroup label="{{ group }}">'
    "{% for value, text in items %}"
    '<option value="{{ value }}"{% if value == selected %} selected{% endif %}>{{ text }}</option>'
    "{% endfor %}</optgroup>{% endfor %}"
)

AWKWARD = [
    ("amber-coast", "Amber Coast"),
    ('say "hi"', "Tom & Jerry's <b>"),
    ("", "—"),
    (3, 3),
    ("safe", mark_safe("<em>kept</em>")),
]


@pytest.mark.parametrize("selected", ["", "amber-coast", 'say "hi"', 3, None, "no-such-value"])
@pytest.mark.parametrize(
    ("options", "groups"),
    [
        (AWKWARD, None),
        (None, [("Amber & Co", AWKWARD), ("<Empty>", [])]),
        (AWKWARD[:2], [("Frost", AWKWARD[2:])]),
        (None, None),
    ],
)
def test_the_options_are_the_template_loops(options, groups, selected):
    expected = LOOP.render(Context({"options": options, "groups": groups, "selected": selected}))
    assert select_options(options, groups, selected) == expected


def test_one_option_is_selected_and_every_text_is_escaped():
    html = select_options(AWKWARD, [("A & B", [("x", "<x>")])], 'say "hi"')
    assert html.count(" selected") == 1
    assert (
        '<option value="say &quot;hi&quot;" selected>Tom &amp; Jerry&#x27;s &lt;b&gt;</option>'
        in html
    )
    assert '<optgroup label="A &amp; B"><option value="x">&lt;x&gt;</option></optgroup>' in html
    assert "<em>kept</em>" in html  # safe already: written as it is, as {{ text }} writes it
