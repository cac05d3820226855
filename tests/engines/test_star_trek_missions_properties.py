"""Properties of the Star Trek: Missions scorer over random legal hands (hypothesis, no database):
the steps always add up to the total, and no fixed choice beats the optimiser (STM-R4)."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.star_trek_missions.engine import HandPosition, check
from tests.engines.star_trek_missions_catalog import catalog

SPECS, VOCABULARY, LABELS = catalog()
GALAXY = sorted(name for name, spec in SPECS.items() if spec.deck == "galaxy")
MISSIONS = sorted(
    name for name, spec in SPECS.items() if spec.deck == "mission" and name != "Meddlesome Q"
)
CHOICE_CARDS = [
    "Unidentified Ship",
    "Thought Maker",
    "Borg Cube",
    "Mysterious Plague",
    "Ensign Wesley Crusher",
]


@st.composite
def legal_hands(draw, with_choice_card=False):
    missions = draw(st.lists(st.sampled_from(MISSIONS), min_size=1, max_size=2, unique=True))
    must = []
    if with_choice_card:
        must = [draw(st.sampled_from(CHOICE_CARDS))]
        if SPECS[must[0]].deck == "mission":
            missions = must + [m for m in missions if m != must[0]][:1]
            must = []
    pool = [g for g in GALAXY if g not in must]
    galaxy = must + draw(
        st.lists(
            st.sampled_from(pool),
            min_size=7 - len(missions) - len(must),
            max_size=7 - len(missions) - len(must),
            unique=True,
        )
    )
    return draw(st.permutations(galaxy + missions))


def board(names, choices=None):
    return check(
        HandPosition(
            [SPECS[n] for n in names], vocabulary=VOCABULARY, labels=LABELS, choices=choices
        )
    )


def score(names, choices=None):
    return board(names, choices).score()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(legal_hands())
def test_generated_hands_are_legal_and_steps_add_up_to_the_total(hand):
    checked = board(hand)  # a legal, full final hand: no ImpossiblePosition, no warning
    assert checked.warnings == [] and checked.legal_moves() == []
    result = checked.score()
    running = 0
    for n, step in enumerate(result.steps, start=1):
        running += step.points
        assert step.n == n and step.running_total == running
    assert running == result.total == sum(card.points for card in result.cards)
    assert [card.name for card in result.cards] == list(hand)
    for card in result.cards:
        assert card.points >= 0
        assert card.blanked == (card.blanked_reason is not None)


def _alternative_choices(result, hand):
    """Other choices a player could fix, one card at a time, built from the hand."""
    others = [n for n in hand]
    for name, chosen in result.choices.items():
        kind = {e["kind"] for e in SPECS[name].rule.get("effects", [])}
        if "wild" in kind:
            for key, values in (
                ("type", ["personnel", "civilian", "captain"]),
                ("lifeform", VOCABULARY["lifeform"]),
                ("affiliation", VOCABULARY["affiliation"]),
                ("specialty", VOCABULARY["specialty"]),
            ):
                for value in values:
                    yield name, {**chosen, key: value}
        elif "change_affiliation" in kind:
            yield name, {}
            for target in others:
                if target != name and SPECS[target].attributes["lifeform"]:
                    for affiliation in VOCABULARY["affiliation"]:
                        if SPECS[target].attributes["affiliation"] != (affiliation,):
                            yield name, {"target": target, "affiliation": affiliation}
        elif "assimilate" in kind:
            galaxy = [n for n in others if SPECS[n].deck == "galaxy"]
            yield name, {"blank": []}
            for first in galaxy:
                yield name, {"blank": [first]}
        elif "choose" in kind:
            for value in VOCABULARY["lifeform"]:
                if value not in ("hologram", "android"):
                    yield name, {"lifeform": value}
        elif "copy_score" in kind:
            # A System or another Engineer (STM-R15: any other card is refused), or the Ship,
            # which may be an Engineer.
            for target in others:
                attributes = SPECS[target].attributes
                if target != name and (
                    "system" in attributes["type"]
                    or "engineer" in attributes["specialty"]
                    or target == "Unidentified Ship"
                ):
                    yield name, {"copies": target}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(legal_hands(with_choice_card=True), st.data())
def test_no_fixed_choice_beats_the_optimiser(hand, data):
    best = score(hand)
    alternatives = list(_alternative_choices(best, hand))
    picks = data.draw(st.lists(st.sampled_from(alternatives), max_size=6)) if alternatives else []
    for name, choice in picks:
        fixed = score(hand, {name: choice})
        assert fixed.total <= best.total, (name, choice, fixed.total, best.total)
    # Fixing exactly the choices the optimiser reported reproduces its total.
    assert score(hand, best.choices).total == best.total
