"""{% start_table_link game %}: a game's page offers "Start a table" when Tableside keeps tables of
that game (its GamePackage's `table`, common.games.table_slugs), and nothing otherwise."""

from django import template
from django.urls import reverse
from django.utils.html import format_html

from common.games import table_slugs

register = template.Library()


@register.simple_tag
def start_table_link(game: object) -> str:
    """`game`: the page's game (a cards.models.Game); anything without a slug offers nothing."""
    slug = getattr(game, "slug", None)
    if slug not in table_slugs():
        return ""
    return format_html(
        '<li><a class="job job--ready" href="{}?game={}">Start a table</a></li>',
        reverse("tables:start"),
        slug,
    )
