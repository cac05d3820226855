"""The card catalog: games, their attribute definitions, options and rule sections, and cards.

Derived columns (a card's rendered text, its overall provenance and its attribute index) are
recomputed on every save, so an admin edit, an import and a history revert all keep them in step.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator, RegexValidator
from django.db import models, transaction
from django.urls import reverse
from simple_history.models import HistoricalRecords

from . import attributes as attrs
from .rendering import render_card_text
from .rule_languages import rule_language

slug_validator = RegexValidator(
    r"^[a-z0-9]+(?:-[a-z0-9]+)*$", "Use lower-case letters, digits and single hyphens."
)


class Game(models.Model):
    slug = models.SlugField(unique=True, validators=[slug_validator])
    name = models.CharField(max_length=100, unique=True)
    summary = models.TextField(blank=True)
    min_players = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])
    max_players = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Empty when the rules give no upper limit."
    )
    jobs = models.JSONField(default=list, blank=True, help_text="What Tableside does for the game.")
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position", "name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("pages:game", kwargs={"game": self.slug})

    def clean(self) -> None:
        if (
            self.max_players is not None
            and self.min_players
            and self.max_players < self.min_players
        ):
            raise ValidationError(
                {"max_players": "The most players cannot be fewer than the fewest."}
            )

    def attribute_specs(self) -> list[attrs.AttributeSpec]:
        return [definition.as_spec() for definition in self.attribute_definitions.all()]


class GameOption(models.Model):
    """A reading of the rules that a game lets the table choose (a variant), with its default."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="options")
    key = models.SlugField(max_length=60)
    label = models.CharField(max_length=120)
    description = models.TextField(blank=True)
    value = models.JSONField(help_text="The default value, as JSON.")
    choices = models.JSONField(null=True, blank=True, help_text="Allowed values, when limited.")
    updated_at = models.DateTimeField(auto_now=True)  # part of the catalog's version stamp
    history = HistoricalRecords()

    class Meta:
        ordering = ["game", "key"]
        constraints = [models.UniqueConstraint(fields=["game", "key"], name="unique_option_key")]

    def __str__(self) -> str:
        return f"{self.game.name}: {self.label}"

    def clean(self) -> None:
        if self.choices is not None:
            if not isinstance(self.choices, list) or not self.choices:
                raise ValidationError(
                    {"choices": "Choices must be a non-empty list, or empty for none."}
                )
            if self.value not in self.choices:
                raise ValidationError({"value": f"The value must be one of {self.choices}."})


class AttributeDefinition(models.Model):
    """One attribute cards of a game carry (value, faction, specialty, …): data, not code."""

    KIND_CHOICES = [(kind, kind.replace("_", " ")) for kind in attrs.KINDS]

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="attribute_definitions")
    key = models.SlugField(max_length=40)
    label = models.CharField(max_length=60)
    kind = models.CharField(max_length=20, choices=KIND_CHOICES)
    required = models.BooleanField(default=False)
    min_value = models.IntegerField(null=True, blank=True)
    max_value = models.IntegerField(null=True, blank=True)
    choices = models.JSONField(
        default=list,
        blank=True,
        help_text='For choice kinds: [{"value": "slug", "label": "Label"}].',
    )
    filterable = models.BooleanField(default=True)
    position = models.PositiveSmallIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)  # part of the catalog's version stamp

    class Meta:
        ordering = ["game", "position", "key"]
        constraints = [models.UniqueConstraint(fields=["game", "key"], name="unique_attribute_key")]

    def __str__(self) -> str:
        return f"{self.game.name}: {self.label}"

    def clean(self) -> None:
        if self.kind in ("choice", "multi_choice"):
            ok = isinstance(self.choices, list) and all(
                isinstance(c, dict) and isinstance(c.get("value"), str) and c.get("label")
                for c in self.choices
            )
            if not ok or not self.choices:
                raise ValidationError(
                    {"choices": 'List the choices as [{"value": …, "label": …}].'}
                )

    def as_spec(self) -> attrs.AttributeSpec:
        return attrs.AttributeSpec(
            key=self.key,
            label=self.label,
            kind=self.kind,
            required=self.required,
            min_value=self.min_value,
            max_value=self.max_value,
            choices=tuple((c["value"], c["label"]) for c in self.choices or []),
            filterable=self.filterable,
        )


class RuleSection(models.Model):
    """A section of a game's rules, cited by id (AC-4.1, SRA-R3, …) in rulings and score steps."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rule_sections")
    rule_id = models.CharField(max_length=20)
    title = models.CharField(max_length=200)
    parent_id_text = models.CharField(max_length=20, blank=True, verbose_name="parent rule id")
    text = models.TextField()
    position = models.PositiveIntegerField(default=0)
    # The fingerprint of the shipped version this row was loaded or last updated from
    # (cards.catalog_versions): while the row still matches it, load_catalog may update it.
    shipped = models.CharField(max_length=16, blank=True, editable=False)
    updated_at = models.DateTimeField(auto_now=True)  # part of the catalog's version stamp
    history = HistoricalRecords()

    class Meta:
        ordering = ["game", "position"]
        constraints = [models.UniqueConstraint(fields=["game", "rule_id"], name="unique_rule_id")]

    def __str__(self) -> str:
        return f"{self.rule_id} {self.title}"

    def get_absolute_url(self) -> str:
        return reverse("pages:game", kwargs={"game": self.game.slug}) + "#" + self.anchor

    @property
    def anchor(self) -> str:
        return "rule-" + self.rule_id


class Card(models.Model):
    PROVENANCE_CHOICES = [
        ("verified", "Verified: the rules state it"),
        ("provisional", "Provisional: inferred"),
        ("incomplete", "Incomplete: some value is unknown"),
    ]

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="cards")
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=140, validators=[slug_validator])
    copies = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1)], help_text="Copies of this card in the game's deck."
    )
    attributes = models.JSONField(default=dict, blank=True)
    field_provenance = models.JSONField(
        default=dict,
        blank=True,
        help_text="Per field (copies and each attribute): verified, provisional or unknown.",
    )
    provenance_note = models.TextField(blank=True)
    rule = models.JSONField(
        null=True,
        blank=True,
        help_text=(
            "The card's structured rule (scoring bonuses, blanking, effects), validated by its "
            "game's rules module. Empty when the game's rules are not encoded as data."
        ),
    )
    # Derived on save: never edited by hand.
    provenance = models.CharField(max_length=12, choices=PROVENANCE_CHOICES, editable=False)
    text = models.TextField(blank=True, editable=False)
    # As RuleSection.shipped: the shipped version this card was loaded or last updated from.
    shipped = models.CharField(max_length=16, blank=True, editable=False)
    updated_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords(excluded_fields=["updated_at"])

    class Meta:
        ordering = ["game", "name"]
        constraints = [
            models.UniqueConstraint(fields=["game", "slug"], name="unique_card_slug"),
            models.UniqueConstraint(fields=["game", "name"], name="unique_card_name"),
        ]
        indexes = [
            models.Index(fields=["game", "provenance"]),
            # Lets an attribute filter's count join the index table to the cards by index alone.
            models.Index(fields=["game", "id"], name="cards_card_game_id_idx"),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        specs = self.game.attribute_specs()
        with transaction.atomic():
            old_name = None
            if self.pk is not None:
                old_name = (
                    Card.objects.select_for_update()
                    .filter(pk=self.pk)
                    .values_list("name", flat=True)
                    .first()
                )
            renamed = old_name is not None and old_name != self.name
            language = rule_language(self.game.slug) if renamed else None
            if language is not None and self.rule is not None:
                self.rule = language.rename_card(self.rule, old=old_name, new=self.name)
            self.refresh_derived(specs)
            super().save(*args, **kwargs)
            sync_attribute_index(self, specs)
            # The other cards whose rules were changed to follow (the admin lists them).
            self.renamed_in_rules = (
                self.rename_in_other_rules(language, old=str(old_name))
                if language is not None
                else []
            )

    def get_absolute_url(self) -> str:
        return reverse("pages:card", kwargs={"game": self.game.slug, "slug": self.slug})

    def rename_in_other_rules(self, language: ModuleType, *, old: str) -> list[Card]:
        """Every other card of the game whose rule named this card as `old` now names it as it is
        called now (saved, so its text and history follow); the cards changed. Without it a
        rename would silently change those cards' scores: their rules would name no card."""
        changed = []
        others = (
            Card.objects.select_for_update()
            .filter(game_id=self.game_id, rule__isnull=False)
            .exclude(pk=self.pk)
            .select_related("game")
        )
        for card in others:
            rule = language.rename_card(card.rule, old=old, new=self.name)
            if rule != card.rule:
                card.rule = rule
                card.save()
                changed.append(card)
        return changed

    def dated_rulings(self) -> list[CardRuling]:
        """The card's rulings, oldest first: the list the selectors prefetched (`ruling_list`),
        or one query when they did not."""
        prefetched = getattr(self, "ruling_list", None)
        if prefetched is not None:
            rulings: list[CardRuling] = prefetched
            return rulings
        return list(self.rulings.order_by("date", "pk"))

    def clean(self) -> None:
        if not self.game_id:
            return
        specs = self.game.attribute_specs()
        errors = attrs.validate_attributes(specs, self.attributes)
        if isinstance(self.attributes, dict):
            provenance_errors = attrs.validate_field_provenance(
                specs, self.attributes, self.field_provenance
            )
            for key, message in provenance_errors.items():
                # Keep both messages when a value and its provenance are both wrong.
                errors[key] = f"{errors[key]} {message}" if key in errors else message
        problems: dict[str, list[str]] = {}
        if errors:
            problems["attributes"] = [f"{key}: {message}" for key, message in errors.items()]
        rule_problems = self.rule_problems()
        if rule_problems:
            problems["rule"] = rule_problems
        if problems:
            raise ValidationError(problems)

    def rule_problems(self) -> list[str]:
        """What is wrong with the card's rule, by path, for its game's rule language."""
        language = rule_language(self.game.slug)
        if self.rule is None:
            return []
        if language is None:
            return [f"{self.game.name} cards carry no structured rule; leave it empty."]
        specs = self.game.attribute_specs()
        vocabulary = {spec.key: spec.choice_values for spec in specs if spec.choices}
        names = self.game.cards.values_list("name", flat=True)
        problems = language.validate_rule(
            self.rule, vocabulary=vocabulary, card_names=set(names) | {self.name}
        )
        return [f"{path}: {message}" for path, message in problems]

    def refresh_derived(self, specs: list[attrs.AttributeSpec] | None = None) -> None:
        specs = specs if specs is not None else self.game.attribute_specs()
        self.provenance = attrs.card_provenance(self.field_provenance or {})
        self.text = render_card_text(
            self.game.slug,
            specs,
            self.attributes or {},
            name=self.name,
            rule=self.rule,
            language=rule_language(self.game.slug),
        )


def sync_attribute_index(card: Card, specs: list[attrs.AttributeSpec]) -> None:
    wanted = set(attrs.index_values(specs, card.attributes or {}))
    existing = {(row.key, row.value): row.pk for row in card.attribute_values.all()}
    stale = [pk for pair, pk in existing.items() if pair not in wanted]
    if stale:
        CardAttributeValue.objects.filter(pk__in=stale).delete()
    CardAttributeValue.objects.bulk_create(
        [CardAttributeValue(card=card, key=k, value=v) for k, v in wanted - set(existing)]
    )


class CardAttributeValue(models.Model):
    """Index of a card's attribute values, so any attribute filters the same way on any database."""

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="attribute_values")
    key = models.CharField(max_length=40)
    value = models.CharField(max_length=120)

    class Meta:
        indexes = [models.Index(fields=["key", "value", "card"])]
        constraints = [
            models.UniqueConstraint(fields=["card", "key", "value"], name="unique_card_attribute")
        ]

    def __str__(self) -> str:
        return f"{self.key}={self.value}"


class CardRuling(models.Model):
    """A dated note on how a card is played, citing the rule it applies."""

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="rulings")
    date = models.DateField()
    rule_id = models.CharField(max_length=20, blank=True, help_text="The rule section it applies.")
    text = models.TextField()
    history = HistoricalRecords()

    class Meta:
        ordering = ["card", "date", "pk"]

    def __str__(self) -> str:
        return f"{self.card.name} ({self.date})"
