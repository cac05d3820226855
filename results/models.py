"""Saved results: every score and ruling Tableside returns, kept under a short permalink.

A saved result is immutable: its response is exactly what was first returned (its own "id" and
"url" included), so a link shared at the table always shows the same answer. Saving an existing
row, deleting one, and bulk updates or deletes through the manager all raise ResultImmutable.
Two exceptions, each one named method: `mark_opened` notes when a result was last opened or
shared (its content never changes), and `prune` removes results past the store's bound
(results.services.results_prune, settings RESULTS_MAX_AGE_DAYS and STORE_MAX_MB).

The request and the response are stored as JSON text, not as a database JSON type: PostgreSQL's
jsonb would reorder keys, and the permalink must give back the very body first returned.
"""

from __future__ import annotations

import datetime
import json
import secrets
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, NoReturn

from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.urls import reverse

ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz234567"  # base32, lower case: URL-safe, no 0/1/8/9
ID_LENGTH = 10  # 50 bits


def new_result_id() -> str:
    return "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))


class ResultImmutable(Exception):
    """A saved result never changes and is never deleted."""


if TYPE_CHECKING:  # django-stubs' fields are generic; Django's own are not subscriptable
    _TextField = models.TextField[Any, Any]
else:
    _TextField = models.TextField


class JSONTextField(_TextField):
    """JSON kept as text, byte for byte: key order survives on every database."""

    # What django-stubs reads: the field holds any JSON value, not a str.
    _pyi_private_set_type: Any
    _pyi_private_get_type: Any

    def from_db_value(self, value: str | None, expression: Any, connection: Any) -> Any:
        return None if value is None else json.loads(value)

    def to_python(self, value: Any) -> Any:
        if isinstance(value, str):
            try:
                return json.loads(value)
            except ValueError:
                return value
        return value

    def get_prep_value(self, value: Any) -> str | None:
        if value is None:
            return None
        return json.dumps(value, ensure_ascii=False, cls=DjangoJSONEncoder)

    # None for a null value, as before (Django types the base as str; dumpdata writes null).
    def value_to_string(self, obj: models.Model) -> str | None:  # type: ignore[override]
        return self.get_prep_value(self.value_from_object(obj))


class SavedResultQuerySet(models.QuerySet["SavedResult"]):
    def update(self, **kwargs: Any) -> NoReturn:
        raise ResultImmutable("Saved results cannot be updated.")

    def bulk_update(
        self, objs: Iterable[SavedResult], fields: Iterable[str], batch_size: int | None = None
    ) -> NoReturn:
        raise ResultImmutable("Saved results cannot be updated.")

    def delete(self) -> NoReturn:
        raise ResultImmutable("Saved results cannot be deleted.")

    def mark_opened(self, *, now: datetime.datetime, every: datetime.timedelta) -> int:
        """Note that these results were opened (or shared again) at `now`; a row marked within the
        last `every` is left alone, so a popular link costs one write an `every`, not one a view."""
        recent = models.Q(last_opened_at__gte=now - every)
        return models.QuerySet.update(self.exclude(recent), last_opened_at=now)

    def prune(self) -> int:
        """Delete these results (the store's bound, results.services.results_prune, only)."""
        deleted, _ = models.QuerySet.delete(self)
        return deleted


class SavedResult(models.Model):
    KIND_CHOICES = [("score", "Score"), ("ruling", "Ruling")]

    id = models.CharField(primary_key=True, max_length=32, default=new_result_id, editable=False)
    game = models.ForeignKey("cards.Game", on_delete=models.PROTECT, related_name="saved_results")
    kind = models.CharField(max_length=10, choices=KIND_CHOICES)
    request = JSONTextField(
        help_text="The request as it was understood: cards by their catalog "
        "names, every field written out, text without padding."
    )
    response = JSONTextField(help_text="The response body exactly as first returned.")
    created_at = models.DateTimeField(auto_now_add=True)
    # The same request (as understood) under the same catalog version with the same answer: one
    # result, shared (results.services.result_key). Null on results saved before it existed.
    # NULL, not "": unique among the results that have one, and none for those saved before.
    key = models.CharField(max_length=64, unique=True, null=True, editable=False)  # noqa: DJ001
    # Characters stored (request and response): what the store's size bound adds up.
    size = models.PositiveIntegerField(default=0, editable=False)
    # When the permalink was last opened, or the result shared with another identical request;
    # pruning removes results never opened first.
    last_opened_at = models.DateTimeField(null=True, blank=True, editable=False)

    objects = SavedResultQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["game", "kind", "created_at"]),
            models.Index(fields=["last_opened_at", "created_at"], name="results_prune_order_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.id}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding or kwargs.get("force_update") or kwargs.get("update_fields"):
            raise ResultImmutable(f"Saved result {self.id} cannot be changed.")
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("results:page", kwargs={"result_id": self.id})

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise ResultImmutable(f"Saved result {self.id} cannot be deleted.")
