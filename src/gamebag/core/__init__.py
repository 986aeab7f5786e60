"""The game protocol, options, records, matches and seeded randomness; imports no game."""
