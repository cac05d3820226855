"""The "Score a hand" page of Star Trek: Missions (Django test client): tiles and the card list,
the hand carried by the form, plain and htmx POSTs, the service's errors, and choices."""

import re

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from common.games import game_package
from games import services
from games.package import SCORE
from games.star_trek_missions import pages as views
from results.models import SavedResult

pytestmark = pytest.mark.django_db

PAGE = "/games/star-trek-missions/score/"
EXAMPLE = [
    "Lieutenant Worf",
    "Commander Kurn",
    "Ambassador K'Ehleyr",
    "Commander Sela",
    "Diplomatic Conference",
    "Photon Torpedoes",
    "Bridge",
]
BORG_HAND = [
    "Unidentified Ship",
    "Captain Jean-Luc Picard",
    "Lieutenant Worf",
    "Photon Torpedoes",
    "Bridge",
    "Away Team",
    "Borg Cube",
]
GROUPS = [
    "Captain",
    "Personnel",
    "Civilian",
    "Location",
    "System",
    "Equipment",
    "Artifact",
    "Entity",
    "Wild",
    "Missions",
]
HTMX = {"HX-Request": "true"}


def post(client, data, htmx=False):
    return client.post(PAGE, data, headers=HTMX if htmx else {})


def html_of(response) -> str:
    return response.content.decode()


def pressed(html: str) -> list[str]:
    """The names on the tiles pressed (in the hand), in page order."""
    return re.findall(r'name="toggle" value="([^"]*)" aria-pressed="true"', html)


def hand_fields(html: str) -> list[str]:
    return re.findall(r'<input type="hidden" name="hand" value="([^"]*)">', html)


def total(html: str) -> str:
    match = re.search(r'<strong class="score-total__value">(\d+)</strong>', html)
    return match.group(1) if match else ""


def only_result() -> SavedResult:
    return SavedResult.objects.get()


def result_of(html: str) -> SavedResult:
    """The saved result whose permalink the page shows."""
    return SavedResult.objects.get(
        pk=re.search(r'class="share__url">http://testserver/r/(\w+)<', html).group(1)
    )


# --- The empty page -------------------------------------------------------------------------------


def test_the_page_has_its_address(catalog):
    assert reverse("star_trek_missions:score") == PAGE


def test_get_shows_the_tiles_by_type_and_the_card_list(client, catalog):
    response = client.get(PAGE)
    assert response.status_code == 200
    html = html_of(response)
    assert "<h1>Score a hand</h1>" in html
    headings = re.findall(
        r'<h3 class="tile-group__title" id="panel-[\w-]+-title">([^<]+?) <span', html
    )
    assert headings == GROUPS
    # One group open at a time: a radio button per type, the first one checked.
    assert re.findall(r'name="group" id="group-([\w-]+)" value="[\w-]+"( checked)?', html)[:2] == [
        ("captain", " checked"),
        ("personnel", ""),
    ]
    assert html.count('name="toggle"') == 74
    assert html.count('aria-pressed="false"') == 74 and pressed(html) == []
    # Galaxy cards under their first type, in number order; Missions last.
    captains = html[html.index('id="panel-captain"') : html.index('id="panel-personnel"')]
    assert re.findall(r'<span class="pick-tile__number">(G\d\d)</span>', captains) == [
        "G05",
        "G06",
        "G08",
        "G09",
        "G10",
        "G15",
        "G16",
        "G29",
        "G50",
    ]
    system = html[html.index('id="panel-system"') : html.index('id="panel-equipment"')]
    assert "Transporter" in system  # System first, then Location
    missions = html[html.index('id="panel-mission"') :]
    assert len(re.findall(r'pick-tile__number">M\d\d<', missions)) == 24
    # Typing: a datalist of the 74 names, and an Add button.
    assert 'list="stm-cards"' in html
    datalist = html[html.index('<datalist id="stm-cards">') :]
    assert datalist.count("<option value=") == 74
    assert '<option value="Ambassador K&#x27;Ehleyr">Galaxy G01</option>' in datalist
    assert 'name="action" value="add"' in html
    # The form works with and without htmx.
    assert 'method="post"' in html and f'hx-post="{PAGE}"' in html
    assert 'name="csrfmiddlewaretoken"' in html
    assert "Add cards to see the score" in html
    assert hand_fields(html) == []
    assert SavedResult.objects.count() == 0


def test_the_page_runs_no_inline_script_or_style_and_loads_nothing_from_elsewhere(client, catalog):
    for response in (client.get(PAGE), post(client, {"hand": BORG_HAND})):
        html = html_of(response)
        assert "<script>" not in html and "<script " not in html.replace("<script src=", "")
        assert "style=" not in html
        assert not re.search(
            r'(src|href)="(https?:)?//(?!testserver/)', html
        )  # only the share link
        assert "/static/star_trek_missions/js/score-hand.js" in html
        assert "/static/star_trek_missions/css/pages.css" in html


def test_the_add_button_is_the_forms_default_button(client, catalog):
    """Enter in the name field submits with the first submit button: it must be Add."""
    html = html_of(post(client, {"hand": EXAMPLE}))
    form = html[html.index('<form class="score-form"') :]
    first_button = re.search(r"<button[^>]*>", form).group(0)
    assert 'type="submit"' in first_button and 'value="add"' in first_button


# --- Scoring ---------------------------------------------------------------------------------------


def test_a_plain_post_renders_the_whole_page_with_the_breakdown(client, catalog):
    response = post(client, {"hand": EXAMPLE})
    assert response.status_code == 200
    html = html_of(response)
    assert "<html" in html
    assert total(html) == "66"
    assert "Total: <strong>66</strong>" in html
    assert "4 for Photon Torpedoes (Combat)" in html
    rows = re.findall(r'<td class="num score-steps__running">(\d+)</td>', html)
    assert rows[-1] == "66" and len(rows) == 14
    assert [int(r) for r in rows] == sorted(int(r) for r in rows)
    assert 'href="/games/star-trek-missions/#rule-STM-7.2"' in html
    # The hand stays in the form, in order, and its tiles are pressed.
    assert hand_fields(html) == [
        "Lieutenant Worf",
        "Commander Kurn",
        "Ambassador K&#x27;Ehleyr",
        "Commander Sela",
        "Diplomatic Conference",
        "Photon Torpedoes",
        "Bridge",
    ]
    assert len(pressed(html)) == 7
    assert "8 points" in html  # Lieutenant Worf's line
    # The permalink of the saved result.
    result = only_result()
    assert result.request == {"hand": EXAMPLE}
    assert result.response["total"] == 66
    assert f"http://testserver/r/{result.id}" in html
    assert f'data-json-url="/api/results/{result.id}/"' in html


def test_the_page_calls_the_service_the_api_uses(client, catalog, monkeypatch):
    assert game_package("star-trek-missions").score is not None
    assert views.SERVICES[SCORE] is services.score  # the one flow, as the API's run_game_service
    calls = []
    real = services.score

    def spy(*, game, body):
        calls.append(body)
        return real(game=game, body=body)

    monkeypatch.setitem(views.SERVICES, SCORE, spy)
    post(client, {"hand": EXAMPLE[:2]})
    assert calls == [{"hand": EXAMPLE[:2]}]


def test_an_htmx_post_gets_only_the_fragment(client, catalog):
    response = post(client, {"hand": EXAMPLE}, htmx=True)
    assert response.status_code == 200
    html = html_of(response)
    assert "<html" not in html and "<form" not in html and "<datalist" not in html
    assert total(html) == "66"
    assert 'id="hand"' in html and 'id="choices"' not in html  # no card here makes a choice
    # Out of band: the breakdown and the score bar, and the status line for screen readers.
    assert '<div class="score-after" id="score-after" hx-swap-oob="innerHTML">' in html
    assert 'id="score-result"' in html and "Total: <strong>66</strong>" in html
    assert '<p id="score-status" hx-swap-oob="innerHTML">Total 66 from 7 cards.' in html
    # The tiles stay as they are: no card went in or out.
    assert 'name="toggle"' not in html and 'id="cards"' not in html
    assert "HX-Request" in response["Vary"]


def test_an_htmx_post_swaps_only_the_tiles_that_changed(client, catalog):
    html = html_of(post(client, {"hand": EXAMPLE[:2], "toggle": "Bridge"}, htmx=True))
    tiles = re.findall(r'<button type="submit" class="pick-tile"[^>]*>', html)
    assert len(tiles) == 1
    assert 'id="tile-bridge"' in tiles[0] and 'aria-pressed="true"' in tiles[0]
    assert 'hx-swap-oob="true"' in tiles[0]
    html = html_of(post(client, {"hand": EXAMPLE, "remove": "Bridge"}, htmx=True))
    assert re.findall(
        r'id="(tile-[\w-]+)" name="toggle" value="[^"]*" aria-pressed="false"', html
    ) == ["tile-bridge"]
    # A card typed by name changes its tile too; an unknown name changes none.
    html = html_of(post(client, {"hand": [], "add": "spock", "action": "add"}, htmx=True))
    assert re.findall(r'id="(tile-[\w-]+)"[^>]*aria-pressed="true"', html) == ["tile-spock"]
    html = html_of(post(client, {"hand": [], "add": "nobody", "action": "add"}, htmx=True))
    assert "pick-tile" not in html


def test_tiles_toggle_cards_in_and_out(client, catalog):
    html = html_of(post(client, {"hand": EXAMPLE[:2], "toggle": "Bridge"}))
    assert hand_fields(html) == EXAMPLE[:2] + ["Bridge"]
    assert pressed(html) == ["Commander Kurn", "Lieutenant Worf", "Bridge"]  # page order
    html = html_of(post(client, {"hand": EXAMPLE[:2] + ["Bridge"], "toggle": "Lieutenant Worf"}))
    assert hand_fields(html) == ["Commander Kurn", "Bridge"]


def test_remove_buttons_take_a_card_out(client, catalog):
    html = html_of(post(client, {"hand": EXAMPLE, "remove": "Commander Sela"}))
    assert "Commander Sela" not in hand_fields(html) and len(hand_fields(html)) == 6
    assert 'aria-label="Remove Lieutenant Worf"' in html
    assert SavedResult.objects.get().request == {"hand": EXAMPLE[:3] + EXAMPLE[4:]}


def test_a_typed_name_is_added_in_any_case_or_by_a_unique_part(client, catalog):
    html = html_of(post(client, {"hand": ["Bridge"], "add": "lieutenant worf", "action": "add"}))
    assert hand_fields(html) == ["Bridge", "Lieutenant Worf"]
    assert 'name="add" value=""' in html  # the field is cleared for the next card
    assert "autofocus" in html  # without JavaScript, the next name can be typed at once
    assert "autofocus" not in html_of(
        post(client, {"hand": ["Bridge"], "add": "Spock", "action": "add"}, htmx=True)
    )
    html = html_of(post(client, {"hand": ["Bridge"], "add": "sela", "action": "add"}))
    assert hand_fields(html) == ["Bridge", "Commander Sela"]
    html = html_of(post(client, {"hand": ["Bridge"], "add": "bridge", "action": "add"}))
    assert hand_fields(html) == ["Bridge"]
    assert "Bridge is already in the hand." in html


def test_an_unknown_typed_name_is_shown_by_the_field_and_the_hand_still_scores(client, catalog):
    response = post(client, {"hand": EXAMPLE, "add": "Wrof", "action": "add"})
    assert response.status_code == 400
    html = html_of(response)
    assert 'aria-invalid="true" aria-describedby="add-card-error"' in html
    assert (
        "No card named &#x27;Wrof&#x27; in Star Trek: Missions. Did you mean Lieutenant Worf"
        in html
    )
    assert 'name="add" value="Wrof"' in html  # what was typed stays, to correct it
    assert hand_fields(html)[-1] == "Bridge" and total(html) == "66"
    html = html_of(post(client, {"hand": [], "action": "add", "add": ""}))
    assert "Type the name of a card to add it." in html
    # Without the Add button, a typed name is kept but not added.
    html = html_of(post(client, {"hand": ["Bridge"], "add": "Spock", "toggle": "Vash"}))
    assert hand_fields(html) == ["Bridge", "Vash"] and 'name="add" value="Spock"' in html


def test_a_partial_hand_shows_the_warning(client, catalog):
    html = html_of(post(client, {"hand": EXAMPLE[:3]}))
    assert "Partial hand: 3 of 7 cards" in html
    assert "3 cards: 3 Galaxy, 0 Missions." in html


def test_a_blanked_card_shows_why(client, catalog):
    hand = ["James Moriarty", "Lieutenant Worf", "Photon Torpedoes", "Bridge", "Away Team"]
    html = html_of(post(client, {"hand": hand}))
    item = html[html.index('id="hand-1"') : html.index('id="hand-2"')]
    assert (
        "hand-card--blanked" in html[html.index('<li class="hand-card') : html.index('id="hand-1"')]
    )
    assert "Blanked: no Holodeck 1 or Holodeck 2 or Computer stands in the hand." in item


def test_an_empty_hand_is_not_scored(client, catalog):
    response = post(client, {"hand": ["Bridge"], "remove": "Bridge"})
    assert response.status_code == 200
    html = html_of(response)
    assert "Add cards to see the score" in html and "No cards yet." in html
    assert SavedResult.objects.count() == 0


# --- Errors from the service ---------------------------------------------------------------------


def test_three_missions_show_the_error_by_the_hand(client, catalog):
    hand = ["Away Team", "Borg Cube", "Lieutenant Worf", "Mysterious Plague"]
    response = post(client, {"hand": hand})
    assert response.status_code == 400  # as the check-a-turn page answers a problem
    html = html_of(response)
    assert "<html" in html
    assert "The hand cannot be scored" in html
    assert (
        "The hand has 3 Missions (Away Team, Borg Cube, Mysterious Plague); a final hand holds "
        "7 cards with one or two Missions."
    ) in html
    assert "Not scored" in html and "Total: <strong>" not in html and "/r/" not in html
    assert hand_fields(html) == hand  # the hand stays, to take a card out
    assert SavedResult.objects.count() == 0
    # The same with htmx: the fragment, with the status line.
    response = post(client, {"hand": hand}, htmx=True)
    assert response.status_code == 400
    html = html_of(response)
    assert "<html" not in html and "The hand has 3 Missions" in html
    assert "The hand cannot be scored: The hand has 3 Missions" in html


def test_eight_cards_without_meddlesome_q(client, catalog):
    html = html_of(post(client, {"hand": EXAMPLE, "toggle": "Spock"}))
    assert "The hand has 8 cards; a final hand holds 7 cards with one or two Missions." in html


def test_meddlesome_q_allows_nine(client, catalog):
    hand = [
        "Meddlesome Q",
        "Away Team",
        "Lieutenant Worf",
        "Photon Torpedoes",
        "Bridge",
        "Spock",
        "Vash",
        "Sickbay",
        "Computer",
    ]
    response = post(client, {"hand": hand})
    assert response.status_code == 200
    assert "Partial hand" not in html_of(response) and total(html_of(response))


def test_a_problem_with_one_card_is_shown_by_that_card(client, catalog):
    response = post(client, {"hand": ["Bridge", "Lieutenant Worf", "Bridge", "Nope"]})
    assert response.status_code == 400
    html = html_of(response)
    assert 'href="#hand-4"' in html  # the summary links to the card
    assert 'id="hand-4-error">No card named &#x27;Nope&#x27;' in html
    assert "hand-card--invalid" in html


# --- Choices ---------------------------------------------------------------------------------------


def test_the_choices_made_are_shown_with_controls(client, catalog):
    html = html_of(post(client, {"hand": BORG_HAND}))
    result = only_result().response
    ship = result["choices"]["Unidentified Ship"]
    assert re.search(
        r"Unidentified Ship: <strong class=\"choice__summary\">[A-Z][\w-]*, [A-Z]", html
    )
    assert 'Borg Cube blanks: <strong class="choice__summary">' in html
    assert html.count("Tableside's choice") == 2
    for field in ("type", "lifeform", "affiliation", "specialty"):
        assert (
            f'id="choice-unidentified-ship-{field}" name="choice-unidentified-ship-{field}"' in html
        )
        # What was used travels with the form, for a choice fixed one field at a time.
        assert (f'name="shown-unidentified-ship-{field}" value="{ship[field]}"') in html
    assert html.count('<option value="" selected>Best (let Tableside choose)</option>') == 5
    borg = html[html.index('id="choice-borg-cube"') :]
    assert '<option value="none">Nothing</option>' in borg
    assert '<option value="captain-jean-luc-picard+lieutenant-worf">' in borg
    assert "Away Team</option>" not in borg[: borg.index("</select>")]  # a Mission: not blankable


def test_a_choice_posted_is_honoured(client, catalog):
    best = html_of(post(client, {"hand": BORG_HAND}))
    best_total = int(total(best))
    html = html_of(post(client, {"hand": BORG_HAND, "choice-borg-cube": "none"}))
    saved = result_of(html)
    assert saved.request == {"hand": BORG_HAND, "choices": {"Borg Cube": {"blank": []}}}
    assert 'Borg Cube blanks: <strong class="choice__summary">nothing</strong>' in html
    assert "Your choice" in html
    assert '<option value="none" selected>Nothing</option>' in html
    assert int(total(html)) < best_total
    assert "hand-card--blanked" not in html


def test_one_field_of_the_unidentified_ship_fixes_the_card(client, catalog):
    shown = {
        "shown-unidentified-ship-type": "personnel",
        "shown-unidentified-ship-lifeform": "android",
        "shown-unidentified-ship-affiliation": "federation",
        "shown-unidentified-ship-specialty": "combat",
    }
    html = html_of(
        post(client, {"hand": BORG_HAND, "choice-unidentified-ship-type": "captain", **shown})
    )
    assert only_result().request["choices"] == {
        "Unidentified Ship": {
            "type": "captain",
            "lifeform": "android",
            "affiliation": "federation",
            "specialty": "combat",
        }
    }
    assert (
        'Unidentified Ship: <strong class="choice__summary">Captain, Android, Federation, '
        "Combat</strong>"
    ) in html
    assert '<option value="captain" selected>Captain</option>' in html


def test_a_choice_the_service_refuses_is_shown_by_its_control(client, catalog):
    # Nothing shown to fill the other fields with: the service asks for the lifeform.
    response = post(client, {"hand": BORG_HAND, "choice-unidentified-ship-type": "captain"})
    assert response.status_code == 400
    html = html_of(response)
    assert 'href="#choice-unidentified-ship-lifeform"' in html
    assert 'aria-describedby="choice-unidentified-ship-lifeform-error"' in html
    assert "Choose the lifeform of Unidentified Ship." in html


def test_thought_maker_mysterious_plague_and_wesley_crusher_choices(client, catalog):
    hand = [
        "Thought Maker",
        "Commander William Riker",
        "Lieutenant Worf",
        "Photon Torpedoes",
        "Bridge",
        "Away Team",
        "Mysterious Plague",
    ]
    html = html_of(post(client, {"hand": hand}))
    thought_maker = html[html.index('id="choice-thought-maker"') :]
    thought_maker = thought_maker[: thought_maker.index("</select>")]
    assert '<optgroup label="Commander William Riker">' in thought_maker
    assert "Bridge" not in thought_maker  # no Lifeform: not a target
    assert '<option value="commander-william-riker:federation">' not in thought_maker  # no change
    assert '<option value="none">Not used</option>' in thought_maker
    plague = html[html.index('id="choice-mysterious-plague"') :]
    assert '<option value="human">Human</option>' in plague
    assert 'value="android"' not in plague[: plague.index("</select>")]  # excluded by the card

    html = html_of(
        post(
            client,
            {
                "hand": hand,
                "choice-thought-maker": "commander-william-riker:hostile",
                "choice-mysterious-plague": "human",
            },
        )
    )
    assert result_of(html).request["choices"] == {
        "Thought Maker": {"target": "Commander William Riker", "affiliation": "hostile"},
        "Mysterious Plague": {"lifeform": "human"},
    }
    assert (
        'Thought Maker: <strong class="choice__summary">Commander William Riker → Hostile</strong>'
    ) in html
    assert 'Mysterious Plague: <strong class="choice__summary">Human</strong>' in html

    wesley = [
        "Ensign Wesley Crusher",
        "Engine Room",
        "Transporter",
        "Lieutenant Worf",
        "Bridge",
        "Away Team",
        "Spock",
    ]
    html = html_of(post(client, {"hand": wesley, "choice-ensign-wesley-crusher": "transporter"}))
    assert (
        'Ensign Wesley Crusher copies: <strong class="choice__summary">Transporter</strong>' in html
    )
    options = html[html.index('id="choice-ensign-wesley-crusher"') :]
    options = options[: options.index("</select>")]
    assert ">Engine Room</option>" in options and ">Transporter</option>" in options
    assert ">Lieutenant Worf</option>" not in options


def test_stale_or_forged_choices_fall_back_to_best(client, catalog):
    # Bridge left the hand: Borg Cube can no longer blank it; an unknown value means nothing.
    hand = [name for name in BORG_HAND if name != "Bridge"]
    response = post(
        client,
        {
            "hand": hand,
            "choice-borg-cube": "bridge",
            "choice-unidentified-ship-type": "starship",
            "choice-lieutenant-worf": "x",
        },
    )
    assert response.status_code == 200
    assert "choices" not in only_result().request


def test_a_choice_for_a_card_not_in_the_hand_is_dropped(client, catalog):
    response = post(client, {"hand": EXAMPLE, "choice-borg-cube": "none"})
    assert response.status_code == 200
    assert only_result().request == {"hand": EXAMPLE}


def test_a_post_takes_a_bounded_number_of_queries(client, catalog, django_assert_max_num_queries):
    with django_assert_max_num_queries(14):
        assert post(client, {"hand": BORG_HAND}, htmx=True).status_code == 200


def test_every_id_on_the_page_is_unique(client, catalog):
    hand = [
        "Unidentified Ship",
        "Thought Maker",
        "Ensign Wesley Crusher",
        "Engine Room",
        "Mysterious Plague",
        "Borg Cube",
        "Lieutenant Worf",
    ]
    for response in (
        client.get(PAGE),
        post(client, {"hand": hand}),
        post(client, {"hand": hand + ["Away Team"]}),
        post(client, {"hand": ["Bridge", "Bridge", "Spock"]}),
    ):
        ids = re.findall(r'\sid="([^"]+)"', html_of(response))
        assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
        for target in re.findall(r'href="#([^"]+)"', html_of(response)):
            assert target in ids or target == "main", target


# --- No form produces a server error ----------------------------------------------------------

NAMES = (
    BORG_HAND
    + EXAMPLE
    + [
        "Thought Maker",
        "Mysterious Plague",
        "Meddlesome Q",
        "Ensign Wesley Crusher",
        "Engine Room",
        "bridge",
        "nope",
        "",
        " ",
    ]
)
CHOICE_FIELDS = [
    "choice-borg-cube",
    "choice-unidentified-ship-type",
    "choice-unidentified-ship-lifeform",
    "shown-unidentified-ship-affiliation",
    "choice-thought-maker",
    "choice-mysterious-plague",
    "choice-ensign-wesley-crusher",
]
CHOICE_VALUES = [
    "",
    "none",
    "captain",
    "human",
    "hostile",
    "bridge",
    "lieutenant-worf+bridge",
    "commander-william-riker:hostile",
    "engine-room",
    "x" * 300,
    "\x00",
]
forms = st.fixed_dictionaries(
    {"hand": st.lists(st.sampled_from(NAMES) | st.text(max_size=12), max_size=10)},
    optional={
        "toggle": st.sampled_from(NAMES) | st.text(max_size=12),
        "remove": st.sampled_from(NAMES),
        "add": st.sampled_from(NAMES) | st.text(max_size=12),
        "action": st.sampled_from(["add", "choose", "", "other"]),
        **{name: st.sampled_from(CHOICE_VALUES) | st.text(max_size=8) for name in CHOICE_FIELDS},
    },
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=forms, htmx=st.booleans())
def test_no_form_produces_a_server_error(client, catalog, data, htmx):
    response = post(client, data, htmx=htmx)
    assert response.status_code in (200, 400), response.content[:500]
