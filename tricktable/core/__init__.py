"""The game protocol shared by every game: errors, seeded randomness, states,
views, records, matches and world sampling."""
