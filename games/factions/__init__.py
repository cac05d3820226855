"""Factions: the rules engine and scorer, their services and pages."""
