"""The catalog admin: games with their attribute definitions and options, rule sections, and cards
with one form field per attribute, rulings inline, history with author and revert
(django-simple-history), and import / export of a game's cards (cards/imports.py)."""

from __future__ import annotations

import base64
import binascii
import json
from typing import TYPE_CHECKING, Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, URLResolver, path, reverse
from django.utils.html import format_html
from simple_history.admin import SimpleHistoryAdmin

from common.numbers import plain_int

from . import imports
from .attributes import describe_abilities
from .forms import (
    GAME_MARKER,
    CardAdminForm,
    ImportConfirmForm,
    ImportUploadForm,
    attribute_field,
    card_form_class,
    provenance_field,
)
from .models import (
    AttributeDefinition,
    Card,
    CardAttributeValue,
    CardRuling,
    Game,
    GameOption,
    RuleSection,
)
from .naming import NamedCard, match_fuzzy
from .rule_languages import rule_language

SUMMARY_ATTRIBUTES = 3
CONTENT_TYPES = {"json": "application/json; charset=utf-8", "csv": "text/csv; charset=utf-8"}


def _game_id(raw: str | None) -> int | None:
    return plain_int(raw, least=1)


def filtered_game_id(request: HttpRequest) -> int | None:
    """The game the changelist is filtered to (directly, or preserved in an add/change link)."""
    game_id = _game_id(request.GET.get("game__id__exact"))
    if game_id is None and "_changelist_filters" in request.GET:
        game_id = _game_id(QueryDict(request.GET["_changelist_filters"]).get("game__id__exact"))
    return game_id


if TYPE_CHECKING:  # django-stubs' admin classes are generic; Django's own are not subscriptable
    _TabularInline = admin.TabularInline[Any, Any]
    _GameModelAdmin = admin.ModelAdmin[Game]
else:
    _TabularInline = admin.TabularInline
    _GameModelAdmin = admin.ModelAdmin

# --------------------------------------------------------------------------- games


class AttributeDefinitionInline(_TabularInline):
    model = AttributeDefinition
    extra = 0
    fields = [
        "position",
        "key",
        "label",
        "kind",
        "required",
        "min_value",
        "max_value",
        "choices",
        "filterable",
    ]


class GameOptionInline(_TabularInline):
    model = GameOption
    extra = 0
    fields = ["key", "label", "value", "choices", "description"]


@admin.register(Game)
class GameAdmin(_GameModelAdmin):
    list_display = ["name", "slug", "min_players", "max_players", "card_count", "card_links"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [AttributeDefinitionInline, GameOptionInline]

    @admin.display(description="cards")
    def card_count(self, game: Game) -> int:
        return game.cards.count()

    @admin.display(description="catalog")
    def card_links(self, game: Game) -> str:
        changelist = reverse("admin:cards_card_changelist") + f"?game__id__exact={game.pk}"
        export = "admin:cards_card_export"
        return format_html(
            '<a href="{}">Cards</a> · <a href="{}">Add a card</a> · <a href="{}">Import</a> · '
            'Export <a href="{}">JSON</a> <a href="{}">CSV</a>',
            changelist,
            reverse("admin:cards_card_add") + f"?game={game.pk}",
            reverse("admin:cards_card_import") + f"?game={game.pk}",
            reverse(export, args=[game.pk, "json"]),
            reverse(export, args=[game.pk, "csv"]),
        )


@admin.register(GameOption)
class GameOptionAdmin(SimpleHistoryAdmin):
    list_display = ["label", "key", "game", "value"]
    list_filter = ["game"]
    search_fields = ["key", "label", "description"]
    list_select_related = ["game"]


@admin.register(RuleSection)
class RuleSectionAdmin(SimpleHistoryAdmin):
    list_display = ["rule_id", "title", "game", "parent_id_text"]
    list_filter = ["game"]
    search_fields = ["rule_id", "title", "text"]
    list_select_related = ["game"]


# --------------------------------------------------------------------------- cards


class AttributeValueFilter(admin.SimpleListFilter):
    """ "key = value" options from the attribute definitions (choices) and the attribute index
    (integer and text values), scoped to the game the list is filtered to."""

    title = "attribute"
    parameter_name = "attribute"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        game_id = filtered_game_id(request)
        definitions = AttributeDefinition.objects.filter(filterable=True).order_by(
            "game__position", "game__name", "position", "key"
        )
        values = CardAttributeValue.objects.all()
        if game_id is not None:
            definitions = definitions.filter(game_id=game_id)
            values = values.filter(card__game_id=game_id)
        used: dict[str, set[str]] = {}
        for key, value in values.values_list("key", "value").distinct():
            used.setdefault(key, set()).add(value)
        options: dict[str, str] = {}
        for definition in definitions:
            spec = definition.as_spec()
            if spec.kind in ("choice", "multi_choice"):
                pairs = list(spec.choices)
            elif spec.kind == "integer":
                numbers = sorted(used.get(spec.key, ()), key=lambda v: (len(v), v))
                pairs = [(value, value) for value in numbers]
            elif spec.kind == "text":
                pairs = [(value, value) for value in sorted(used.get(spec.key, ()))]
            else:
                continue
            for value, label in pairs:
                options.setdefault(f"{spec.key}={value}", f"{spec.label} = {label}")
        return list(options.items())

    def queryset(self, request: HttpRequest, queryset: QuerySet[Card]) -> QuerySet[Card]:
        value = self.value()
        if not value:
            return queryset
        key, sep, wanted = value.partition("=")
        if not sep:
            return queryset.none()
        return queryset.filter(
            pk__in=CardAttributeValue.objects.filter(key=key, value=wanted).values("card_id")
        )


class CardRulingInline(_TabularInline):
    model = CardRuling
    extra = 1
    fields = ["date", "rule_id", "text"]


@admin.register(Card)
class CardAdmin(SimpleHistoryAdmin):
    list_display = ["name", "game", "copies", "key_attributes", "provenance"]
    list_filter = ["game", "provenance", AttributeValueFilter]
    list_select_related = ["game"]
    search_fields = ["name", "text", "slug"]
    inlines = [CardRulingInline]
    actions = ["export_selected_json", "export_selected_csv"]
    history_list_display = ["attribute_changes"]
    prepopulated_fields = {"slug": ["name"]}

    def save_model(self, request: HttpRequest, obj: Card, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        renamed_in = getattr(obj, "renamed_in_rules", [])
        if renamed_in:
            names = ", ".join(card.name for card in renamed_in)
            self.message_user(
                request,
                f"The rules naming this card now use its new name “{obj.name}”: {names}.",
                messages.INFO,
            )

    # ---- list

    def get_queryset(self, request: HttpRequest) -> QuerySet[Card]:
        queryset: QuerySet[Card] = (
            super()
            .get_queryset(request)
            .prefetch_related(
                Prefetch(
                    "game__attribute_definitions",
                    queryset=AttributeDefinition.objects.order_by("position", "key"),
                )
            )
        )
        return queryset

    @admin.display(description="key attributes")
    def key_attributes(self, card: Card) -> str:
        stored = card.attributes or {}
        parts = []
        for spec in card.game.attribute_specs():
            value = stored.get(spec.key)
            if value is None or value == [] or value == {}:
                continue
            if spec.kind == "choice":
                shown = spec.label_of(value)
            elif spec.kind == "multi_choice":
                shown = ", ".join(spec.label_of(v) for v in value)
            elif spec.kind == "abilities":
                shown = describe_abilities(value)  # "1 Draw and 2 Coin", not "draw:1|coin:2"
            else:
                shown = imports.display_value(value)
            parts.append(f"{spec.label}: {shown}")
            if len(parts) == SUMMARY_ATTRIBUTES:
                break
        return " · ".join(parts) or "—"

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Card], search_term: str
    ) -> tuple[QuerySet[Card], bool]:
        """Django's search (name, text, slug), and the cards whose name reads as the term the way
        the catalog and the score pages read it (cards.naming: any case, accents, punctuation,
        small typos, unique prefixes), so "kehleyr" or "picrad" finds its card. The typo reading
        comes in only when the plain search finds nothing, as a "did you mean" would."""
        found: tuple[QuerySet[Card], bool] = super().get_search_results(
            request, queryset, search_term
        )
        results, may_have_duplicates = found
        term = search_term.strip()
        if not term or results.exists():
            return results, may_have_duplicates
        named = [NamedCard(name, slug) for name, slug in queryset.values_list("name", "slug")]
        match = match_fuzzy(term, named)
        names = [match.card.name] if match.card else match.suggestions
        if names:
            results = results | queryset.filter(name__in=names)
        return results, may_have_duplicates

    # ---- form

    def _form_game(self, request: HttpRequest, obj: Card | None) -> Game | None:
        if obj is not None and obj.game_id:
            return obj.game
        game_id = _game_id(request.POST.get("game")) if request.method == "POST" else None
        if game_id is None:
            game_id = _game_id(request.GET.get("game"))
        if game_id is None:
            game_id = filtered_game_id(request)
        return Game.objects.filter(pk=game_id).first() if game_id is not None else None

    def get_form(
        self, request: HttpRequest, obj: Card | None = None, change: bool = False, **kwargs: Any
    ) -> type[CardAdminForm]:
        kwargs["form"] = card_form_class(self._form_game(request, obj))
        form: type[CardAdminForm] = super().get_form(request, obj, change=change, **kwargs)
        return form

    def get_fieldsets(
        self, request: HttpRequest, obj: Card | None = None
    ) -> list[tuple[str | None, dict[str, Any]]]:
        game = self._form_game(request, obj)
        main: dict[str, Any] = {
            "fields": ["game", "name", "slug", ("copies", provenance_field("copies"))]
        }
        if game is None:
            main["description"] = (
                "Choose the game first, then save: the next page asks for the attributes of "
                "its cards (save and continue to fill the attributes)."
            )
            return [(None, main)]
        fieldsets: list[tuple[str | None, dict[str, Any]]] = [(None, main)]
        specs = game.attribute_specs()
        if specs:
            fieldsets.append(
                (
                    f"Attributes of {game.name}",
                    {
                        "fields": [GAME_MARKER]
                        + [(attribute_field(s.key), provenance_field(s.key)) for s in specs],
                        "description": (
                            "A value you set or change (from the rules or the physical card) "
                            "becomes verified and a value you clear becomes unknown, unless you "
                            "choose its provenance yourself. An empty value whose provenance is "
                            "'not applicable' does not apply to this card."
                        ),
                    },
                )
            )
        else:
            main["fields"].append(GAME_MARKER)
        if rule_language(game.slug) is not None:
            fieldsets.append(
                (
                    "Rule",
                    {
                        "fields": ["rule"],
                        "description": (
                            "The card's rule as JSON, in the rule language of its game (see "
                            "its game package, games/<game>/). The card text is "
                            "written from it; each problem is reported with its path."
                        ),
                    },
                )
            )
        fieldsets.append(("Provenance", {"fields": ["provenance_note", "provenance", "text"]}))
        if obj is not None:
            fieldsets.append(
                (
                    "Stored data (read only)",
                    {"classes": ["collapse"], "fields": ["stored_attributes", "stored_provenance"]},
                )
            )
        return fieldsets

    def get_readonly_fields(self, request: HttpRequest, obj: Card | None = None) -> list[str]:
        readonly = ["provenance", "text", "stored_attributes", "stored_provenance"]
        if obj is not None:
            readonly.insert(0, "game")  # the attributes belong to the game: a card never moves
        return readonly

    def get_prepopulated_fields(
        self, request: HttpRequest, obj: Card | None = None
    ) -> dict[str, list[str]]:
        return {} if obj is not None else self.prepopulated_fields

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        initial: dict[str, Any] = super().get_changeform_initial_data(request)
        game = self._form_game(request, None)
        if game is not None:
            initial["game"] = game.pk
        return initial

    @admin.display(description="attributes (JSON)")
    def stored_attributes(self, card: Card) -> str:
        return format_html(
            "<pre>{}</pre>", json.dumps(card.attributes, indent=2, ensure_ascii=False)
        )

    @admin.display(description="field provenance (JSON)")
    def stored_provenance(self, card: Card) -> str:
        return format_html("<pre>{}</pre>", json.dumps(card.field_provenance, indent=2))

    # ---- history

    @admin.display(description="changed values")
    def attribute_changes(self, record: Any) -> str:  # a simple-history record (untyped)
        """Each attribute and provenance that this version changed, old -> new."""
        previous = record.prev_record
        if previous is None:
            return "created" if record.history_type == "+" else ""
        lines = []
        for name in ("name", "slug", "copies", "provenance_note"):
            old, new = getattr(previous, name), getattr(record, name)
            if old != new:
                lines.append(f"{name}: {imports.display_value(old)} → {imports.display_value(new)}")
        for label, old_map, new_map in (
            ("", previous.attributes or {}, record.attributes or {}),
            ("provenance of ", previous.field_provenance or {}, record.field_provenance or {}),
        ):
            for key in dict.fromkeys([*old_map, *new_map]):
                old, new = old_map.get(key), new_map.get(key)
                if old != new:
                    lines.append(
                        f"{label}{key}: {imports.display_value(old)} → {imports.display_value(new)}"
                    )
        return "; ".join(lines)

    # ---- import / export

    def get_urls(self) -> list[URLPattern | URLResolver]:
        info = self.opts.app_label, self.opts.model_name
        custom = [
            path(
                "import/",
                self.admin_site.admin_view(self.import_view),
                name="{}_{}_import".format(*info),
            ),
            path(
                "export/<int:game_id>/<str:file_format>/",
                self.admin_site.admin_view(self.export_view),
                name="{}_{}_export".format(*info),
            ),
        ]
        inherited: list[URLPattern | URLResolver] = super().get_urls()
        return custom + inherited

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        game_id = filtered_game_id(request)
        extra_context = {
            **(extra_context or {}),
            "filtered_game": Game.objects.filter(pk=game_id).first() if game_id else None,
            "can_import": self._can_import(request),
        }
        response: HttpResponse = super().changelist_view(request, extra_context=extra_context)
        return response

    def _can_import(self, request: HttpRequest) -> bool:
        return bool(self.has_add_permission(request) and self.has_change_permission(request))

    def _download(
        self, game: Game, file_format: str, cards: QuerySet[Card] | None = None
    ) -> HttpResponse:
        content = imports.export_cards(game=game, file_format=file_format, cards=cards)
        response = HttpResponse(content, content_type=CONTENT_TYPES[file_format])
        response["Content-Disposition"] = f'attachment; filename="{game.slug}-cards.{file_format}"'
        return response

    def export_view(self, request: HttpRequest, game_id: int, file_format: str) -> HttpResponse:
        if not self.has_view_permission(request):
            raise PermissionDenied
        if file_format not in imports.FORMATS:
            raise Http404("Export as json or csv.")
        return self._download(get_object_or_404(Game, pk=game_id), file_format)

    def _export_selected(
        self, request: HttpRequest, queryset: QuerySet[Card], file_format: str
    ) -> HttpResponse | None:
        game_ids = list(queryset.order_by().values_list("game_id", flat=True).distinct())
        if len(game_ids) != 1:
            self.message_user(
                request,
                "Select cards of one game to export (the file's columns are that game's "
                "attributes).",
                messages.ERROR,
            )
            return None
        return self._download(Game.objects.get(pk=game_ids[0]), file_format, cards=queryset)

    @admin.action(description="Export selected cards as JSON", permissions=["view"])
    def export_selected_json(
        self, request: HttpRequest, queryset: QuerySet[Card]
    ) -> HttpResponse | None:
        return self._export_selected(request, queryset, "json")

    @admin.action(description="Export selected cards as CSV", permissions=["view"])
    def export_selected_csv(
        self, request: HttpRequest, queryset: QuerySet[Card]
    ) -> HttpResponse | None:
        return self._export_selected(request, queryset, "csv")

    def import_view(self, request: HttpRequest) -> HttpResponse:
        if not self._can_import(request):
            raise PermissionDenied
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": "Import cards",
            "games": Game.objects.all(),
            "preview": None,
            "confirm_form": None,
        }
        upload_form = ImportUploadForm(initial={"game": _game_id(request.GET.get("game"))})
        if request.method == "POST" and "_apply" in request.POST:
            response = self._import_apply(request, context)
            if response is not None:
                return response
        elif request.method == "POST":
            upload_form = ImportUploadForm(request.POST, request.FILES)
            if upload_form.is_valid():
                self._import_preview(request, upload_form, context)
        context.setdefault("upload_form", upload_form)
        return TemplateResponse(request, "admin/cards/card/import.html", context)

    def _import_preview(
        self, request: HttpRequest, upload_form: ImportUploadForm, context: dict[str, Any]
    ) -> None:
        game = upload_form.cleaned_data["game"]
        upload = upload_form.cleaned_data["file"]
        try:
            content = imports.decode_upload(upload.read())
        except ValueError as exc:
            upload_form.add_error("file", str(exc))
            return
        file_format = upload_form.cleaned_data["file_format"] or imports.detect_format(
            filename=upload.name, content=content
        )
        preview = imports.preview_import(game=game, content=content, file_format=file_format)
        context["preview"] = preview
        context["upload_form"] = ImportUploadForm(initial={"game": game.pk})
        if preview.ok and preview.has_changes:
            context["confirm_form"] = ImportConfirmForm(
                initial={
                    "game": game.pk,
                    "file_format": file_format,
                    "content": base64.b64encode(content.encode("utf-8")).decode("ascii"),
                    "filename": upload.name,
                }
            )

    def _import_apply(self, request: HttpRequest, context: dict[str, Any]) -> HttpResponse | None:
        confirm = ImportConfirmForm(request.POST)
        content = None
        if confirm.is_valid():
            try:
                content = base64.b64decode(confirm.cleaned_data["content"], validate=True).decode(
                    "utf-8"
                )
            except (binascii.Error, UnicodeDecodeError):
                content = None
        if content is None:
            self.message_user(
                request, "The confirmed file could not be read; upload it again.", messages.ERROR
            )
            return None
        game = confirm.cleaned_data["game"]
        file_format = confirm.cleaned_data["file_format"]
        try:
            preview = imports.apply_import(
                game=game, content=content, file_format=file_format, user=request.user
            )
        except imports.ImportInvalid as exc:
            self.message_user(
                request,
                "The file no longer applies to the catalog; nothing was imported.",
                messages.ERROR,
            )
            context["preview"] = exc.preview
            context["upload_form"] = ImportUploadForm(initial={"game": game.pk})
            return None
        self.message_user(request, f"Imported. {preview.summary()}", messages.SUCCESS)
        changelist = reverse("admin:cards_card_changelist")
        return HttpResponseRedirect(f"{changelist}?game__id__exact={game.pk}")


@admin.register(CardRuling)
class CardRulingAdmin(SimpleHistoryAdmin):
    list_display = ["card", "date", "rule_id"]
    list_filter = ["card__game"]
    search_fields = ["card__name", "rule_id", "text"]
    list_select_related = ["card", "card__game"]
    autocomplete_fields = ["card"]
