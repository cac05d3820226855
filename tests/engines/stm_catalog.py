"""The shipped Star Trek: Missions cards as plain engine specs, read from the catalog file (no
database), for engine tests."""

import json
from functools import cache
from pathlib import Path

from scoring.engines.star_trek_missions import CardSpec, score_hand

CATALOG = Path(__file__).resolve().parents[2] / "cards" / "catalog" / "star-trek-missions.json"
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
    vocabulary = {a["key"]: [c["value"] for c in a["choices"]] for a in data["attributes"]
                  if a["key"] in ATTRIBUTES}
    labels = {a["key"]: {c["value"]: c["label"] for c in a["choices"] or []} for a in data["attributes"]}
    return specs, vocabulary, labels


def card(name: str) -> CardSpec:
    return catalog()[0][name]


def score(names, choices=None):
    specs, vocabulary, labels = catalog()
    return score_hand([specs[n] for n in names], vocabulary=vocabulary, labels=labels,
                      choices=choices)


def points(names, choices=None) -> dict[str, int]:
    return {c.name: c.points for c in score(names, choices).cards}
