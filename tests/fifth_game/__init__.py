"""Ascent: a small game defined for the tests only, laid out exactly as a shipped game, and the
package to copy when adding a game (games/README.md, "Adding a game").

Each player holds numbered cards. A card played must be higher than the card on the table (HC-2);
a player who holds no higher card passes, and only then (HC-4); a hand scores the sum of its
values (HC-3). A position with more copies of a card than the game has cannot exist (HC-1).
tests/test_fifth_game.py registers it with the one line a game adds to GAMES."""
