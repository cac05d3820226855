"""{% fill_href typed name %}: the page's address with its input and `name` in place of what the
player typed (web.page_names), for a "Did you mean …?" link that fills the field."""

from django import template
from django.template import Context

from common.links import form_link
from web.page_names import filled_pairs
from web.page_results import link_pairs

register = template.Library()


@register.simple_tag(takes_context=True)
def fill_href(context: Context, typed: str, name: str) -> str:
    request = context.get("request")
    if request is None:
        return ""
    data = request.POST if request.method == "POST" else request.GET
    return form_link(request.path, filled_pairs(link_pairs(data), typed, name))
