"""Factions rule texts speak to players (issue 15): no developer or API terms in any section."""

from tests.engines.test_star_realms_academy_rule_text import developer_terms, rule_sections


def test_no_factions_rule_section_speaks_in_developer_terms():
    assert developer_terms("factions") == {}


def test_fac_f3_and_fac_r10_name_tableside_for_players():
    sections = rule_sections("factions")
    assert "admin" not in sections["FAC-F3"]["text"]
    assert sections["FAC-R10"]["text"].endswith("Tableside rules only on card play.")
