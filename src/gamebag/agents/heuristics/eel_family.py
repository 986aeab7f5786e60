"""The Eel family heuristic: weigh the reserve against the exact chance of an outbreak.

For each count it could grab, the agent computes the exact probability that this
grab's draws bring the centre to the snake threshold (hypergeometric from the bag
it sees, binomial for the dice variant), assuming each other player still in
grabs a typical count. It then compares the expected value of grabbing with the
sure value of exiting now, knowing which seats an outbreak would hurt under the
rule set in play.

Under Eel Harvest's ``outbreak_scores_reserve`` an outbreak takes everything from
the biggest grabbers but pays the others their whole reserve, so a small grab looks
safe; yet the other bots reason alike and grab the same small count, all tie for
the most, and all lose at every outbreak (rounds without end). The agent therefore
weighs the tie risk: each other player still in is taken to grab as it does with
chance ``ALIKE``, else a count uniform over 1..max, and the reserve survives an
outbreak only if some other player grabs more.
"""

from __future__ import annotations

from math import comb
from typing import Any

from gamebag.agents.base import Agent, SeatView
from gamebag.agents.registry import register_heuristic
from gamebag.core.protocol import Game
from gamebag.core.rng import Rng
from gamebag.games.eel_family.strategy import ALIKE, TYPICAL_OTHER_GRAB


def tie_risk(count: int, others: int, max_grab: int) -> float:
    """The chance that no other player still in grabs more than ``count`` (so ``count`` loses an outbreak)."""
    at_most = ALIKE + (1.0 - ALIKE) * min(count, max_grab) / max_grab
    return at_most**others


def outbreak_probability(draws: int, bag_eels: int, bag_snakes: int, needed: int, dice: bool) -> float:
    """Exact probability that ``draws`` tokens hold at least ``needed`` snakes."""
    if needed <= 0:
        return 1.0
    if dice:
        # A plain running sum rather than sum() (which compensates rounding from Python 3.12 on),
        # so the figure, and the compiled heuristic's copy of it, is the same on every Python.
        total = 0.0
        for s in range(needed, draws + 1):
            total = total + comb(draws, s) * 0.25**s * 0.75 ** (draws - s)
        return total
    total = bag_eels + bag_snakes
    draws = min(draws, total)
    if draws <= 0:
        return 0.0
    denominator = comb(total, draws)
    return (
        sum(comb(bag_snakes, s) * comb(bag_eels, draws - s) for s in range(needed, min(draws, bag_snakes) + 1))
        / denominator
    )


class EelHeuristic(Agent):
    name = "heuristic"

    def __init__(self, rule_set: str) -> None:
        self.rule_set = rule_set

    def act(self, view: SeatView, rng: Rng) -> Any:
        obs = view.observation
        me = obs["seat"]
        reserve = obs["reserves"][me]
        score = obs["scores"][me]
        target = obs["target"]
        others = [p for p in range(obs["players"]) if p != me and obs["in_round"][p]]
        if score + reserve >= target and (self.rule_set == "wriggle-roulette" or not others):
            return 0
        bag = obs["bag"]
        eels, snakes, dice = bag["eels"], bag["snakes"], bool(bag["dice"])
        eel_share = 0.75 if dice else (eels / (eels + snakes) if eels + snakes else 0.0)
        needed = obs["threshold"] - obs["centre_snakes"]
        others_draw = TYPICAL_OTHER_GRAB * len(others)
        rival_reserve = max((obs["reserves"][p] for p in others), default=-1)
        best_action, best_value = 0, float(reserve)
        for count in view.legal_actions:
            if count == 0:
                continue
            gain = count * eel_share
            p_out = outbreak_probability(count + others_draw, eels, snakes, needed, dice)
            if self.rule_set == "wriggle-roulette":
                lose = reserve + gain >= rival_reserve + TYPICAL_OTHER_GRAB * eel_share
                at_outbreak = 0.0 if lose else reserve + gain
            elif obs["options"].get("outbreak_scores_reserve", False) and others:
                # Others who grab alike draw as many tokens as this grab, which also makes outbreaks likelier.
                p_alike = outbreak_probability(count * (1 + len(others)), eels, snakes, needed, dice)
                p_out = ALIKE * p_alike + (1.0 - ALIKE) * p_out
                at_outbreak = (1.0 - tie_risk(count, len(others), obs["max_grab"])) * (reserve + gain)
            else:
                lose = not others or count >= TYPICAL_OTHER_GRAB
                at_outbreak = 0.0 if lose else gain
            # Eels kept past this grab are not yet points: discount them a little.
            value = (1 - p_out) * (reserve + gain) * 0.92 + p_out * at_outbreak
            if value > best_value:
                best_action, best_value = count, value
        return best_action


def _make(game: Game[Any, Any, Any]) -> Agent:
    return EelHeuristic(game.game_id)


register_heuristic("eel-harvest", _make)
register_heuristic("wriggle-roulette", _make)
