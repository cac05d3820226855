"""The table's pages: /t/<code> and the forms it posts (built below)."""

from django.http import Http404


def _todo(request, code: str = ""):
    raise Http404


start = page = live = claim = hand = host = _todo
