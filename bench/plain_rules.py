"""Plain Python functions of the same rules, the yardstick of ``bench_fast.py``.

Each plays one whole game with uniformly random choices in straight-line Python (no
framework: no states, validation, records or views), as a performance engineer would
write it to see what the rules alone cost. They follow the default rules of each game.
"""

from __future__ import annotations

import random

EELS, SNAKES, TARGET = 51, 17, 20
THRESHOLD = {2: 6, 3: 7, 4: 9, 5: 11, 6: 13, 7: 15, 8: 17}


def plain_eel(players: int, wriggle: bool, rng: random.Random) -> list[int]:
    """One random game of Wriggle Roulette (``wriggle``) or Eel Harvest; the final scores."""
    most = 6 if players == 2 else 4
    threshold = THRESHOLD[players]
    scores = [0] * players
    while True:
        bag_eels, bag_snakes, centre = EELS, SNAKES, 0
        reserves = [0] * players
        inside = [True] * players
        exit_grab = [0] * players
        grab = 0
        while True:
            grab += 1
            counts = [rng.randrange(most + 1) if inside[p] else -1 for p in range(players)]
            for p in range(players):
                if counts[p] == 0:
                    scores[p] += reserves[p]
                    bag_eels += reserves[p]
                    reserves[p] = 0
                    inside[p] = False
                    exit_grab[p] = 2 * grab
            drawn = [0] * players
            eels_drawn = [0] * players
            for p in range(players):  # seat 0 always starts (the default rules)
                for _ in range(max(counts[p], 0)):
                    left = bag_eels + bag_snakes
                    if left == 0:
                        break
                    drawn[p] += 1
                    if rng.random() * left < bag_snakes:
                        bag_snakes -= 1
                        centre += 1
                    else:
                        bag_eels -= 1
                        reserves[p] += 1
                        eels_drawn[p] += 1
            still = [p for p in range(players) if inside[p]]
            round_over = False
            if centre >= threshold and still:
                held = [reserves[p] if wriggle else drawn[p] for p in still]
                top = max(held)
                for p, h in zip(still, held, strict=True):
                    if h != top:
                        scores[p] += reserves[p] if wriggle else eels_drawn[p]
                    exit_grab[p] = 1_000_000
                round_over = True
            elif not still:
                round_over = True
            best = max(scores)
            if best >= TARGET and (wriggle or round_over):
                return scores
            if round_over:
                break


def plain_pig(rng: random.Random, goal: int = 100, sides: int = 6) -> list[int]:
    """One random game of Pig (roll or hold with equal chance after each roll); the final scores."""
    scores = [0, 0]
    seat = 0
    while True:
        total = 0
        while True:
            face = rng.randrange(sides) + 1
            if face == 1:
                break
            total += face
            if scores[seat] + total >= goal:
                scores[seat] += total
                return scores
            if rng.random() < 0.5:
                scores[seat] += total
                break
        seat = 1 - seat


# Per game id: a function playing one default game for ``players`` with a generator.
PLAIN_GAMES = {
    "wriggle-roulette": lambda players, rng: plain_eel(players, True, rng),
    "eel-harvest": lambda players, rng: plain_eel(players, False, rng),
    "pig": lambda players, rng: plain_pig(rng),
}
