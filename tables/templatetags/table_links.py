"""{% start_table_link game %}: a game's page offers "Start a table" when Tableside keeps tables of
that game (tables.game_states.TABLE_GAMES), and nothing otherwise."""

from django import template
from django.urls import reverse
from django.utils.html import format_html

from tables.game_states import TABLE_GAMES

register = template.Library()


@register.simple_tag
def start_table_link(game) -> str:
    if getattr(game, "slug", None) not in TABLE_GAMES:
        return ""
    return format_html('<li><a class="job job--ready" href="{}?game={}">Start a table</a></li>',
                       reverse("tables:start"), game.slug)
