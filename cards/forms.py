"""Admin forms of the card catalog.

A card's form has one form field per attribute of its game (built from the game's
AttributeDefinition rows) next to a provenance select. Setting or changing a value marks that field
verified (an admin transcribes it from the rules or the physical card); clearing it marks it
unknown; choosing a provenance in the select overrides both. The model validates the result, and
each of its messages is shown next to the attribute it is about.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from . import attributes as attrs
from .attributes import ABILITY_EFFECTS
from .imports import FORMATS, KNOWN_PROVENANCE, merged_provenance, same_value
from .models import Card, Game
from .provenance_notes import note_after_verifying

ATTRIBUTE_PREFIX = "attr__"
PROVENANCE_PREFIX = "prov__"
GAME_MARKER = "attributes_for"

PROVENANCE_CHOICES = [
    ("", "— not applicable —"),
    ("verified", "verified"),
    ("provisional", "provisional"),
    ("unknown", "unknown"),
]
PROVENANCE_HELP = "Currently: {current}. Left as it is, it follows the value (set: verified)."


def attribute_field(key: str) -> str:
    return ATTRIBUTE_PREFIX + key


def provenance_field(key: str) -> str:
    return PROVENANCE_PREFIX + key


class AbilitiesWidget(forms.MultiWidget):
    """Four small number boxes, one per effect (draw, health, coin, combat)."""

    def __init__(self, attrs_: dict[str, Any] | None = None) -> None:
        widgets: dict[str, forms.Widget | type[forms.Widget]] = {
            effect: forms.NumberInput(attrs={"min": 0, "style": "width: 4.5em"})
            for effect in attrs.ABILITY_EFFECTS
        }
        super().__init__(widgets, attrs_)

    def decompress(self, value: Any) -> list[Any]:
        if not isinstance(value, dict):
            return [None] * len(attrs.ABILITY_EFFECTS)
        if not value:  # no effects at all: zeros, so it is not read back as unknown
            return [0] * len(attrs.ABILITY_EFFECTS)
        return [value.get(effect) for effect in attrs.ABILITY_EFFECTS]

    def render(
        self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None
    ) -> SafeString:
        values = value if isinstance(value, list) else self.decompress(value)
        final_attrs = self.build_attrs(self.attrs, attrs)
        base_id = final_attrs.get("id")
        parts = []
        for effect, suffix, widget, item in zip(
            # widgets_names is set by MultiWidget.__init__ and missing from django-stubs.
            ABILITY_EFFECTS,
            self.widgets_names,  # type: ignore[attr-defined]
            self.widgets,
            values,
            strict=False,
        ):
            widget_attrs = dict(final_attrs)
            widget_attrs.pop("required", None)
            if base_id:
                widget_attrs["id"] = base_id + suffix
            parts.append(
                (
                    widget_attrs.get("id", ""),
                    effect.capitalize(),
                    widget.render(name + suffix, item, widget_attrs, renderer),
                )
            )
        return format_html(
            '<div class="abilities-widget" style="display:flex;gap:1em;flex-wrap:wrap">{}</div>',
            format_html_join("", '<label for="{}">{} {}</label>', parts),
        )


class AbilitiesField(forms.MultiValueField):
    """An abilities value: all boxes empty = null (unknown); 0 = the effect is absent."""

    def __init__(self, *, label: str, required: bool, **kwargs: Any) -> None:
        fields = [
            forms.IntegerField(
                required=False,
                min_value=0,
                error_messages={
                    "min_value": f"{label}: {effect} cannot be negative.",
                    "invalid": f"{label}: {effect} must be a whole number.",
                },
            )
            for effect in attrs.ABILITY_EFFECTS
        ]
        super().__init__(
            fields=fields,
            require_all_fields=False,
            required=required,
            widget=AbilitiesWidget,
            label=label,
            **kwargs,
        )

    def compress(self, data_list: list[Any]) -> dict[str, Any] | None:
        if not data_list or all(value in (None, "") for value in data_list):
            return None
        return {
            effect: amount
            for effect, amount in zip(attrs.ABILITY_EFFECTS, data_list, strict=True)
            if amount
        }


def form_field_for(spec: attrs.AttributeSpec) -> forms.Field:
    common: dict[str, Any] = {"label": spec.label, "required": spec.required}
    if spec.kind == "integer":
        bounds = []
        if spec.min_value is not None:
            bounds.append(f"at least {spec.min_value}")
        if spec.max_value is not None:
            bounds.append(f"at most {spec.max_value}")
        return forms.IntegerField(
            min_value=spec.min_value,
            max_value=spec.max_value,
            help_text=("A whole number, " + " and ".join(bounds) + ".") if bounds else "",
            error_messages={
                "min_value": f"{spec.label} must be at least %(limit_value)s.",
                "max_value": f"{spec.label} must be at most %(limit_value)s.",
                "invalid": f"{spec.label} must be a whole number.",
                "required": f"{spec.label} is required.",
            },
            **common,
        )
    if spec.kind == "choice":
        return forms.ChoiceField(
            choices=[("", "Unknown / none")] + list(spec.choices),
            error_messages={
                "invalid_choice": f"{spec.label}: %(value)s is not one of the choices.",
                "required": f"{spec.label} is required.",
            },
            **common,
        )
    if spec.kind == "multi_choice":
        return forms.MultipleChoiceField(
            choices=list(spec.choices),
            widget=forms.CheckboxSelectMultiple,
            help_text=(
                "None ticked: unknown, or 'has none' when the provenance is verified or "
                "provisional."
            ),
            error_messages={"required": f"{spec.label} is required."},
            **common,
        )
    if spec.kind == "abilities":
        return AbilitiesField(
            help_text="Amount per effect; 0 = the effect is absent; all empty = unknown.",
            **common,
        )
    return forms.CharField(
        max_length=500, error_messages={"required": f"{spec.label} is required."}, **common
    )


def initial_value(spec: attrs.AttributeSpec, value: Any) -> Any:
    if value is None:
        return [] if spec.kind == "multi_choice" else None
    return value


if TYPE_CHECKING:  # django-stubs' ModelForm is generic; Django's own is not subscriptable
    _CardModelForm = forms.ModelForm[Card]
else:
    _CardModelForm = forms.ModelForm


class CardAdminForm(_CardModelForm):
    data: Any  # Django's bound data (a QueryDict); __init__ may replace it with a copy
    """The base card form; `card_form_class(game)` adds the fields of one game's attributes."""

    game_for_attributes: Game | None = None
    specs: tuple[attrs.AttributeSpec, ...] = ()

    class Meta:
        model = Card
        fields = ["game", "name", "slug", "copies", "provenance_note", "rule"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.needs_attributes = False
        instance = self.instance
        stored = instance.attributes or {}
        provenance = instance.field_provenance or {}
        if provenance_field("copies") in self.fields:
            self._set_provenance_initial("copies", provenance.get("copies", ""))
        for spec in self.specs:
            name = attribute_field(spec.key)
            if name in self.fields:
                self.fields[name].initial = initial_value(spec, stored.get(spec.key))
                self._set_provenance_initial(spec.key, provenance.get(spec.key, ""))
        game = self.game_for_attributes
        if game is not None and GAME_MARKER in self.fields:
            self.fields[GAME_MARKER].initial = str(game.pk)
            if self.is_bound and self.data.get(self.add_prefix(GAME_MARKER)) != str(game.pk):
                # The attribute fields were not on the page the admin saw (the game was just
                # chosen, or changed): show them and ask for their values before saving.
                self.needs_attributes = bool(self.specs)
                self.data = self.data.copy()
                self.data[self.add_prefix(GAME_MARKER)] = str(game.pk)
                if self.needs_attributes:
                    for spec in self.specs:
                        self.fields[attribute_field(spec.key)].required = False

    def _set_provenance_initial(self, key: str, current: str) -> None:
        field = self.fields.get(provenance_field(key))
        if field is not None:
            field.initial = current
            if self.instance.pk is None:
                field.help_text = "Left as it is, a value you give is verified."
            else:
                field.help_text = PROVENANCE_HELP.format(current=current or "not applicable")

    def _field_for_key(self, key: str) -> str | None:
        if key == "copies":
            return provenance_field("copies")
        if any(spec.key == key for spec in self.specs):
            return attribute_field(key)
        return None

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data  # what clean() returns, never None here
        if self.needs_attributes:
            game = self.game_for_attributes
            raise ValidationError(
                f"Now fill in the attributes of this {game.name if game else ''} card below, "
                f"then save.",
                code="needs_attributes",
            )
        instance = self.instance
        game = cleaned.get("game") if "game" in self.fields else instance.game
        self._check_unique(game, cleaned)
        old_attributes = dict(instance.attributes or {})
        old_provenance = dict(instance.field_provenance or {})
        attributes = dict(old_attributes)
        provenance = dict(old_provenance)

        def given(key: str) -> str | None:
            name = provenance_field(key)
            if name not in self.fields or name not in cleaned:
                return None
            return cleaned[name] or ""

        if "copies" in cleaned and cleaned["copies"] is not None:
            result = merged_provenance(
                old_value=instance.copies,
                new_value=cleaned["copies"],
                old=old_provenance.get("copies", ""),
                given=given("copies"),
            )
            self._store(provenance, "copies", result)

        for spec in self.specs:
            name = attribute_field(spec.key)
            if name not in cleaned:
                continue  # the field's own error is shown; keep the stored value
            old_value = old_attributes.get(spec.key)
            chosen = given(spec.key)
            value = self._value(
                spec, cleaned[name], old_value, chosen, old_provenance.get(spec.key, "")
            )
            if same_value(old_value, value):
                value = old_value
            attributes[spec.key] = value
            result = merged_provenance(
                old_value=old_value,
                new_value=value,
                old=old_provenance.get(spec.key, ""),
                given=chosen,
            )
            old_prov = old_provenance.get(spec.key, "")
            if value is not None and not result and chosen is not None and chosen != old_prov:
                self.add_error(
                    provenance_field(spec.key),
                    f"{spec.label} has a value, so it needs a provenance: verified or provisional.",
                )
            self._store(provenance, spec.key, result)

        if "rule" in cleaned and cleaned["rule"] != instance.rule:
            # A rule an admin writes is transcribed from the card: verified, unless cleared.
            self._store(provenance, "rule", "verified" if cleaned["rule"] is not None else "")
        instance.attributes = attributes
        instance.field_provenance = provenance
        # The note that said a value was unknown is updated (or flagged) once it is verified,
        # unless the admin rewrote the note in this very save.
        verified = [
            key
            for key, state in provenance.items()
            if state == "verified" and old_provenance.get(key) != "verified"
        ]
        note = cleaned.get("provenance_note")
        if verified and note is not None and note == (instance.provenance_note or ""):
            labels = {spec.key: spec.label for spec in self.specs}
            labels.update(copies="copies", rule="scoring rule")
            cleaned["provenance_note"] = note_after_verifying(note, verified, labels)
        return cleaned

    @staticmethod
    def _store(provenance: dict[str, Any], key: str, result: str) -> None:
        if result:
            provenance[key] = result
        else:
            provenance.pop(key, None)

    @staticmethod
    def _value(
        spec: attrs.AttributeSpec, raw: Any, old_value: Any, chosen: str | None, old_prov: str
    ) -> Any:
        if spec.kind == "multi_choice":
            if raw:
                return list(raw)
            # Nothing ticked: "has none" when a known provenance is chosen, or it was none
            # already; otherwise the value is cleared (unknown).
            if chosen is not None and chosen != old_prov:
                return [] if chosen in KNOWN_PROVENANCE else None
            return [] if old_value == [] else None
        if spec.kind in ("choice", "text") and raw in ("", None):
            return None
        return raw

    def _check_unique(self, game: Game | None, cleaned: dict[str, Any]) -> None:
        if game is None:
            return
        others = Card.objects.filter(game=game)
        if self.instance.pk:
            others = others.exclude(pk=self.instance.pk)
        for name, label in (("name", "name"), ("slug", "slug")):
            value = cleaned.get(name)
            if value and others.filter(**{name: value}).exists():
                self.add_error(name, f"{game.name} already has a card with the {label} {value!r}.")

    def _post_clean(self) -> None:
        if self.needs_attributes:
            return  # nothing is saved until the attributes have been filled in
        super()._post_clean()  # type: ignore[misc]  # Django's private hook, not in the stubs

    def _update_errors(self, errors: ValidationError) -> None:
        """Card.clean() reports attribute problems as "key: message" under `attributes`; show
        each next to the form field of its attribute (unless that field already has an error)."""
        if hasattr(errors, "error_dict") and "attributes" in errors.error_dict:
            for error in errors.error_dict.pop("attributes"):
                for message in error.messages:
                    key, sep, text = message.partition(": ")
                    target = self._field_for_key(key) if sep else None
                    if target is not None and target in self.fields:
                        if target not in self.errors:
                            self.add_error(target, text)
                    else:
                        self.add_error(None, message)
            if not errors.error_dict:
                return
        super()._update_errors(errors)  # type: ignore[misc]  # Django's private hook, not in the stubs


def card_form_class(game: Game | None) -> type[CardAdminForm]:
    """The card form of one game: its attribute fields and their provenance selects."""
    declared: dict[str, object] = {
        provenance_field("copies"): forms.ChoiceField(
            label="Provenance of copies", choices=PROVENANCE_CHOICES, required=False
        ),
    }
    specs: tuple[attrs.AttributeSpec, ...] = ()
    if game is not None:
        specs = tuple(game.attribute_specs())
        declared[GAME_MARKER] = forms.CharField(widget=forms.HiddenInput, required=False)
        for spec in specs:
            declared[attribute_field(spec.key)] = form_field_for(spec)
            declared[provenance_field(spec.key)] = forms.ChoiceField(
                label=f"Provenance of {spec.label.lower()}",
                choices=PROVENANCE_CHOICES,
                required=False,
            )
    declared["game_for_attributes"] = game
    declared["specs"] = specs
    return type("CardAdminForm", (CardAdminForm,), declared)


# --------------------------------------------------------------------------- import / export


class ImportUploadForm(forms.Form):
    # Base64 in the confirm step must stay under DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB).
    MAX_BYTES = 1_500_000

    game = forms.ModelChoiceField(queryset=Game.objects.all(), empty_label=None)
    file = forms.FileField(help_text="A JSON or CSV file, as the export produces (UTF-8).")
    file_format = forms.ChoiceField(
        label="Format",
        choices=[("", "From the file name")] + [(f, f.upper()) for f in FORMATS],
        required=False,
    )

    def clean_file(self) -> UploadedFile:
        upload: UploadedFile = self.cleaned_data["file"]
        if (upload.size or 0) > self.MAX_BYTES:  # None only for a file of unknown size
            raise ValidationError(
                f"The file is {upload.size:,} bytes; import at most {self.MAX_BYTES:,} at once."
            )
        return upload


class ImportConfirmForm(forms.Form):
    """Carries the previewed file to the apply step; the content is validated again there."""

    game = forms.ModelChoiceField(queryset=Game.objects.all(), widget=forms.HiddenInput)
    file_format = forms.ChoiceField(choices=[(f, f) for f in FORMATS], widget=forms.HiddenInput)
    content = forms.CharField(widget=forms.HiddenInput, strip=False)
    filename = forms.CharField(widget=forms.HiddenInput, required=False)
