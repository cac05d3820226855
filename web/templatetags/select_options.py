"""{% select_options options groups selected %}: a list's <option>s, then its <optgroup>s, the one
whose value is `selected` marked so. Built here rather than by a template loop: a game's position
form can hold 63 lists and 1,526 options, and looping over them in the template took most of the
page's time on each load (bench/browser_cost.py prices a load of the largest form)."""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from django import template
from django.utils.safestring import SafeData, SafeString, mark_safe

register = template.Library()

Options = Iterable[tuple[object, object]]


def _escaped(value: object) -> str:
    """What a template's {{ value }} writes: the value's text, escaped unless it is safe already.
    (Django's own escape functions cost several times as much, a cost paid 1,500 times here.)"""
    return str(value) if isinstance(value, SafeData) else escape(str(value))


def _options(options: Options, selected: object) -> str:
    return "".join(
        f'<option value="{_escaped(value)}"{" selected" if value == selected else ""}>'
        f"{_escaped(text)}</option>"
        for value, text in options
    )


@register.simple_tag
def select_options(
    options: Options | None, groups: Iterable[tuple[object, Options]] | None, selected: object
) -> SafeString:
    html = _options(options or (), selected) + "".join(
        f'<optgroup label="{_escaped(label)}">{_options(items, selected)}</optgroup>'
        for label, items in groups or ()
    )
    return mark_safe(html)  # noqa: S308 - every value and text in it is escaped above
