"""Tables of the shared plumbing."""

from django.db import models


class ThrottleCounter(models.Model):
    """How many POSTs one client made in the current and the previous rate window: one row per
    client, updated by a single statement per request (common.throttling). It lives in the
    database so every app server sees the same count."""

    client = models.CharField(max_length=200, primary_key=True)
    period = models.BigIntegerField(
        help_text="Which window: seconds since the epoch // its length."
    )
    hits = models.PositiveIntegerField(help_text="Requests in that window, refused ones included.")
    previous_hits = models.PositiveIntegerField(help_text="Requests in the window before it.")

    def __str__(self) -> str:
        return f"{self.client}: {self.hits} (+{self.previous_hits} before)"
