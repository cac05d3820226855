"""The shipped Star Trek: Missions cards as plain engine specs, read from the catalog file (no
database), for engine tests."""

import json
from functools import cache
from pathlib import Path

from games.star_trek_missions.explain import score_hand
from games.star_trek_missions.rules import CardSpec

CATALOG = Path(__file__).resolve().parents[2] / "games" / "star_trek_missions" / "catalog.json"
ATTRIBUTES = ("type", "specialty", "lifeform", "affiliation")


@cache
def catalog() -> tuple[dict[str, CardSpec], dict[str, list[str]], dict[str, dict[str, str]]]:
    data = json.loads(CATALOG.read_text(encoding="utf-8"))
    specs = {
        card["name"]: CardSpec(
            name=card["name"],
            number=card["attributes"]["number"],
            deck=card["attributes"]["deck"],
            attributes={key: tuple(card["attributes"][key]) for key in ATTRIBUTES},
            rule=card["rule"],
        )
        for card in data["cards"]
    }
    vocabulary = {
        a["key"]: [c["value"] for c in a["choices"]]
        for a in data["attributes"]
        if a["key"] in ATTRIBUTES
    }
    labels = {
        a["key"]: {c["value"]: c["label"] for c in a["choices"] or []} for a in data["attributes"]
    }
    return specs, vocabulary, labels


def card(name: str) -> CardSpec:
    return catalog()[0][name]


def score(names, choices=None):
    specs, vocabulary, labels = catalog()
    return score_hand(
        [specs[n] for n in names], vocabulary=vocabulary, labels=labels, choices=choices
    )


def points(names, choices=None) -> dict[str, int]:
    return {c.name: c.points for c in score(names, choices).cards}


# Hands built to stress the search over choices (issue 16): each holds the cards whose choices
# multiply, several hands per card, all legal final hands. Plain enumeration of every choice
# stays within seconds for each (no hand holds three of the costliest choosers at once).
ADVERSARIAL_HANDS = {
    "unidentified-ship-with-thought-maker": [
        [
            "Unidentified Ship",
            "Thought Maker",
            "Captain Jean-Luc Picard",
            "Daimon Bok",
            "Leah Brahms",
            "Diplomatic Conference",
            "Conflicting Orders",
        ],
        [
            "Sickbay",
            "Vice Admiral Nakamura",
            "Lwaxana Troi",
            "Thought Maker",
            "Shields",
            "Unidentified Ship",
            "Enemies to Friends",
        ],
        [
            "Vice Admiral Nakamura",
            "Thought Maker",
            "Commander William Riker",
            "Vash",
            "Unidentified Ship",
            "Doctor Beverly Crusher",
            "Enemies to Friends",
        ],
        [
            "Thought Maker",
            "Unidentified Ship",
            "Counselor Deanna Troi",
            "Commander Sela",
            "Tox Uthat",
            "Space Confrontation",
            "Federation Under Siege",
        ],
    ],
    "borg-cube": [
        [
            "Unidentified Ship",
            "Counselor Deanna Troi",
            "Photon Torpedoes",
            "Commander Sela",
            "Tox Uthat",
            "Borg Cube",
            "Ethical Dilemma",
        ],
        [
            "Thought Maker",
            "Leah Brahms",
            "Holodeck 2",
            "Chancellor Gowron",
            "Commander Kurn",
            "Borg Cube",
            "Space Confrontation",
        ],
        [
            "Captain Jean-Luc Picard",
            "Hand Phaser",
            "Photon Torpedoes",
            "Shields",
            "Engine Room",
            "Chancellor Gowron",
            "Borg Cube",
        ],
        [
            "Ensign Wesley Crusher",
            "Engine Room",
            "Lieutenant Geordi La Forge",
            "Computer",
            "Minuet",
            "Borg Cube",
            "Imminent Destruction",
        ],
    ],
    "mysterious-plague": [
        [
            "Unidentified Ship",
            "Tox Uthat",
            "Commander Tomalak",
            "Bat'leth",
            "Ambassador Sarek",
            "Mysterious Plague",
            "Blossoming Romance",
        ],
        [
            "Leah Brahms",
            "Holodeck 1",
            "Doctor Beverly Crusher",
            "Lieutenant Worf",
            "Counselor Deanna Troi",
            "Mysterious Plague",
            "Do Machines Have Rights?",
        ],
        [
            "Thought Maker",
            "Lieutenant Worf",
            "Commander Kurn",
            "Chancellor Gowron",
            "Lursa and B'Etor",
            "Mysterious Plague",
            "Klingon Civil War",
        ],
    ],
    "ensign-wesley-crusher": [
        [
            "Ensign Wesley Crusher",
            "Unidentified Ship",
            "Engine Room",
            "Tricorder",
            "Doctor Beverly Crusher",
            "Sickbay",
            "Imminent Destruction",
        ],
        [
            "Ensign Wesley Crusher",
            "Thought Maker",
            "The Traveler",
            "Transporter",
            "Lieutenant Geordi La Forge",
            "Bridge",
            "Enterprise Goes Haywire",
        ],
        [
            "Ensign Wesley Crusher",
            "Computer",
            "Photon Torpedoes",
            "Shields",
            "Tractor Beam",
            "Chancellor Gowron",
            "Distress Call",
        ],
    ],
    "meddlesome-q": [
        [
            "Meddlesome Q",
            "Borg Cube",
            "Unidentified Ship",
            "Counselor Deanna Troi",
            "Commander Sela",
            "Photon Torpedoes",
            "Tox Uthat",
            "Lieutenant Worf",
            "Chancellor Gowron",
        ],
        [
            "Meddlesome Q",
            "Mysterious Plague",
            "Thought Maker",
            "Lwaxana Troi",
            "Counselor Deanna Troi",
            "Daimon Tog",
            "Ambassador Sarek",
            "Spock",
            "Commander Tomalak",
        ],
        [
            "Meddlesome Q",
            "Space Confrontation",
            "Ensign Wesley Crusher",
            "Thought Maker",
            "Daimon Bok",
            "Daimon Tog",
            "Vice Admiral Nakamura",
            "Engine Room",
            "Lieutenant Geordi La Forge",
        ],
    ],
}


def adversarial_hands() -> list[tuple[str, list[str]]]:
    """(id, hand) for every adversarial hand, e.g. ("borg-cube-2", [...])."""
    return [
        (f"{kind}-{n}", hand)
        for kind, hands in ADVERSARIAL_HANDS.items()
        for n, hand in enumerate(hands, start=1)
    ]
