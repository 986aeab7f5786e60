"""Score direction: a game where the lowest score wins, through every consumer of scores."""
