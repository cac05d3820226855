"""Star Trek: Missions rulings 10 and 11 reach databases loaded before them (issue 11).

`load_catalog` only adds what is missing, so a database loaded before these rulings keeps the old
rules of Space Confrontation and Blossoming Romance, and would score them the old way. This
updates each card only where its rule is still exactly the one shipped before (an admin's own edit
wins), with the text the new rule renders and the card's new ruling. Reverting restores both.
"""

from django.db import migrations

CHANGES = [
    {
        "slug": "space-confrontation",
        "old_rule": {
            "bonuses": [
                {
                    "kind": "for_each",
                    "points": 6,
                    "match": {
                        "specialty": "command"
                    }
                },
                {
                    "kind": "for_each",
                    "points": 6,
                    "match": {
                        "specialty": "combat"
                    }
                }
            ],
            "blanked_unless": [
                {
                    "all": [
                        {
                            "non": {
                                "affiliation": "federation"
                            }
                        },
                        {
                            "type": "captain"
                        }
                    ]
                },
                {
                    "type": "entity"
                }
            ]
        },
        "new_rule": {
            "bonuses": [
                {
                    "kind": "for_each",
                    "points": 6,
                    "match": {
                        "specialty": "command"
                    }
                },
                {
                    "kind": "for_each",
                    "points": 6,
                    "match": {
                        "specialty": "combat"
                    }
                }
            ],
            "blanked_unless": [
                {
                    "all": [
                        {
                            "non": {
                                "affiliation": "federation"
                            }
                        },
                        {
                            "type": "captain"
                        }
                    ]
                },
                {
                    "type": "entity"
                }
            ],
            "unblanker_is_not_other": True
        },
        "old_text": "Blanked unless with non-Federation Captain or Entity. 6 for each Command and Combat.",
        "new_text": "Blanked unless with non-Federation Captain or Entity. 6 for each other Command and other Combat. Its bonuses do not count the one non-Federation Captain or Entity that keeps it from being blanked (of several, the best one for the player).",
        "rulings": [
            {
                "date": "2026-11-30",
                "rule": "STM-R10",
                "text": "\"Other\" means other than the card that keeps it from being blanked: one non-Federation Captain or Entity (the player's best pick) counts for none of its bonuses. With Daimon Bok, Daimon Tog and Vice Admiral Nakamura it scores 12, not 18."
            }
        ]
    },
    {
        "slug": "blossoming-romance",
        "old_rule": {
            "bonuses": [
                {
                    "kind": "with",
                    "points": 8,
                    "requires": [
                        {
                            "match": {
                                "all": [
                                    {
                                        "has": "lifeform"
                                    },
                                    {
                                        "any": [
                                            {
                                                "type": "personnel"
                                            },
                                            {
                                                "type": "civilian"
                                            },
                                            {
                                                "type": "captain"
                                            }
                                        ]
                                    }
                                ]
                            },
                            "count": 2
                        }
                    ]
                },
                {
                    "kind": "for_each",
                    "points": 6,
                    "match": {
                        "specialty": "counselor"
                    }
                },
                {
                    "kind": "for_each",
                    "points": 6,
                    "match": {
                        "lifeform": "betazoid"
                    }
                },
                {
                    "kind": "for_each",
                    "points": 6,
                    "match": {
                        "name": "Quarters"
                    }
                }
            ]
        },
        "new_rule": {
            "bonuses": [
                {
                    "kind": "with",
                    "points": 8,
                    "requires": [
                        {
                            "match": {
                                "any": [
                                    {
                                        "type": "personnel"
                                    },
                                    {
                                        "type": "civilian"
                                    },
                                    {
                                        "type": "captain"
                                    }
                                ]
                            },
                            "count": 2
                        }
                    ]
                },
                {
                    "kind": "for_each",
                    "points": 6,
                    "match": {
                        "specialty": "counselor"
                    }
                },
                {
                    "kind": "for_each",
                    "points": 6,
                    "match": {
                        "lifeform": "betazoid"
                    }
                },
                {
                    "kind": "for_each",
                    "points": 6,
                    "match": {
                        "name": "Quarters"
                    }
                }
            ]
        },
        "old_text": "8 with two or more Personnel or Civilian or Captains with any Lifeform; 6 for each Counselor and Betazoid and Quarters.",
        "new_text": "8 with two or more Personnel or Civilian or Captains; 6 for each Counselor and Betazoid and Quarters.",
        "rulings": [
            {
                "date": "2026-11-30",
                "rule": "STM-R11",
                "text": "\"(any lifeform)\" means the lifeform does not matter: a Personnel, Civilian or Captain with no lifeform printed (The Traveler) counts towards the two."
            }
        ]
    }
]


def forwards(apps, schema_editor):
    _apply(apps, old="old", new="new", add_rulings=True)


def backwards(apps, schema_editor):
    _apply(apps, old="new", new="old", add_rulings=False)


def _apply(apps, *, old: str, new: str, add_rulings: bool) -> None:
    Card = apps.get_model("cards", "Card")
    CardRuling = apps.get_model("cards", "CardRuling")
    for change in CHANGES:
        card = Card.objects.filter(game__slug="star-trek-missions", slug=change["slug"]).first()
        if card is None or card.rule != change[f"{old}_rule"]:
            continue
        card.rule = change[f"{new}_rule"]
        card.text = change[f"{new}_text"]
        card.save(update_fields=["rule", "text", "updated_at"])
        for ruling in change["rulings"]:
            existing = CardRuling.objects.filter(card=card, rule_id=ruling["rule"],
                                                 text=ruling["text"])
            if add_rulings and not existing.exists():
                CardRuling.objects.create(card=card, date=ruling["date"], rule_id=ruling["rule"],
                                          text=ruling["text"])
            elif not add_rulings:
                existing.delete()


class Migration(migrations.Migration):
    dependencies = [("cards", "0006_catalog_updated_at")]

    operations = [migrations.RunPython(forwards, backwards)]
