"""Ascent: a small game defined for the tests only, to show that a game is one package plus one
line in GAMES (tests/test_fifth_game.py registers it). Each player holds numbered cards; a card
played must be higher than the card on the table, and a hand scores the sum of its values."""
