"""Rule texts are quoted to players in rulings, so they speak to players (issue 15): SRA-F2 keeps
its id and says what it means for a player, and no rule section of Star Realms Academy (or of
Factions, tests/engines/test_factions_rule_text.py) speaks in developer or API terms."""

import json
import re
from pathlib import Path

import pytest

GAMES_DIR = Path(__file__).resolve().parents[2] / "games"

# What a player should never read in a rule: code spans, snake_case codes (needs_information),
# field paths (position.active.hand[0]), storage terms, markdown table rows, "this project" or
# "the tool" for Tableside, and the admin's tools.
DEVELOPER_TERMS = re.compile(
    r"`|\b[a-z]+_[a-z_]+\b|\b\w+\.\w+\[|\bnull\b|\bJSON\b|\bCSV\b|\badmin\b|this project|"
    r"the tool\b|^\|",
    re.MULTILINE,
)


def rule_sections(slug: str) -> dict[str, dict]:
    data = json.loads(
        (GAMES_DIR / slug.replace("-", "_") / "catalog.json").read_text(encoding="utf-8")
    )
    return {r["id"]: r for r in data["rule_sections"]}


def developer_terms(slug: str) -> dict[str, list[str]]:
    found = {}
    for rule_id, section in rule_sections(slug).items():
        hits = DEVELOPER_TERMS.findall(section["title"] + "\n" + section["text"])
        if hits:
            found[rule_id] = hits
    return found


def test_sra_f2_speaks_to_players_and_keeps_its_id():
    section = rule_sections("star-realms-academy")["SRA-F2"]
    text = section["text"]
    assert "needs_information" not in text and "store them as provisional" not in text
    assert "Tableside does not guess" in text
    assert "says which card and which value it needs" in text
    assert section["title"] == "Card values printed only on the cards"


@pytest.mark.parametrize("slug", ["star-realms-academy"])
def test_no_rule_section_speaks_in_developer_terms(slug):
    assert developer_terms(slug) == {}
