"""Scoring engines: one plain-Python module per game (no Django import)."""
