"""The two-player Eel Harvest family as the equilibrium solver sees it.

A round with two players is a finite stochastic game with simultaneous moves:

* both players in: state ``(r0, r1, c)``, the two reserves and the snakes in the
  centre; the bag holds ``51 - r0 - r1`` eels and ``17 - c`` snakes (with two
  players it always holds at least 12 tokens, so nobody ever draws short and the
  start player never matters);
* one player left (the other exited with a known final score): state
  ``(r, c, g)``, ``g`` the grabs left under ``lone_player_grabs`` (a single
  value when there is no limit);
* a round ends at an outbreak or when both have exited; what it is worth to
  seat 0 is then the game result if a score reached 20 (ties decided as the rule
  set says), else the continuation value ``W[s0, s1]``: seat 0's chance to win
  a game whose next round starts at those scores.

``RoundRules`` holds the rule-set choices and the numbers (eels, snakes, target,
outbreak threshold, largest grab), read from a configured game (id, player count,
options). Their defaults are the Eel family's own constants, imported from
``gamebag.games.eel_family.options``, so the model cannot drift from the rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb
from typing import Any

import numpy as np
import numpy.typing as npt

from gamebag.core.engines import engine_refusal
from gamebag.core.errors import UnknownAgentError
from gamebag.core.protocol import Game
from gamebag.games.eel_family.options import EELS as EELS
from gamebag.games.eel_family.options import SNAKE_THRESHOLD, default_max_grab
from gamebag.games.eel_family.options import SNAKES as SNAKES
from gamebag.games.eel_family.options import TARGET as TARGET
from gamebag.games.eel_family.rules import EelFamilyGame

FloatArray = npt.NDArray[np.float64]

PLAYERS = 2
THRESHOLD = SNAKE_THRESHOLD[PLAYERS]  # snakes in the centre that make an outbreak with two players
MAX_GRAB = default_max_grab(PLAYERS)  # most tokens one grab may take with two players
ACTIONS = MAX_GRAB + 1  # grab 0 (exit) .. 6
# Final scores the tables cover: a round starting below 20 adds at most 51, and a
# lone player's table is also asked about an opponent who already scored past 20.
HIGHEST_SCORE = TARGET - 1 + 2 * EELS

# Who wins a tie of final scores.
SHARED, SEAT0, SEAT1 = 0.5, 1.0, 0.0

# The rulebook's numbers, as the games' options name them.
_RULEBOOK: dict[str, int] = {
    "eels": EELS,
    "snakes": SNAKES,
    "target": TARGET,
    "max_grab": MAX_GRAB,
    "outbreak_snakes": THRESHOLD,
}

# The games the solver models; a game's id names its rule set.
RULE_SETS = ("eel-harvest", "wriggle-roulette")


@dataclass(frozen=True)
class RoundRules:
    """What decides the value of a two-player round (the numbers default to the rulebook's)."""

    rule_set: str  # "eel-harvest" (biggest grab loses) or "wriggle-roulette" (biggest reserve loses)
    dice: bool = False  # draw=dice: every token is a snake with chance 1/4, the bag never empties
    outbreak_scores_reserve: bool = False  # eel-harvest option: survivors score their whole reserve
    lone_grabs: int | None = None  # eel-harvest option lone_player_grabs
    eels: int = EELS
    snakes: int = SNAKES
    target: int = TARGET
    threshold: int = THRESHOLD
    max_grab: int = MAX_GRAB

    @property
    def actions(self) -> int:
        """Counts a grab may choose: 0 (exit) .. max_grab."""
        return self.max_grab + 1

    @property
    def highest_score(self) -> int:
        """Final scores the tables cover (see ``HIGHEST_SCORE``)."""
        return self.target - 1 + 2 * self.eels

    @property
    def rulebook_numbers(self) -> bool:
        """Whether the bag, target, threshold and grab limit are the rulebook's (the shipped tables')."""
        return (self.eels, self.snakes, self.target, self.threshold, self.max_grab) == (
            EELS,
            SNAKES,
            TARGET,
            THRESHOLD,
            MAX_GRAB,
        )

    @property
    def lone_levels(self) -> int:
        """Size of the grabs-left axis of lone-player states."""
        return 1 if self.lone_grabs is None else max(1, self.lone_grabs)

    @property
    def key(self) -> str:
        """A short name of this configuration (for tables and caches)."""
        parts = [self.rule_set]
        if self.dice:
            parts.append("dice")
        if self.outbreak_scores_reserve:
            parts.append("reserve")
        if self.lone_grabs is not None:
            parts.append(f"lone{self.lone_grabs}")
        if not self.rulebook_numbers:
            parts.append(f"e{self.eels}s{self.snakes}t{self.target}o{self.threshold}g{self.max_grab}")
        return "+".join(parts)

    @property
    def lone_wins_ties(self) -> bool:
        """Eel Harvest: of tied players, whoever left the final round later wins."""
        return self.rule_set == "eel-harvest"


def rules_for(game: Game[Any, Any, Any]) -> RoundRules:
    """The round rules of a configured two-player Eel Harvest or Wriggle Roulette."""
    rule_set = game.game_id
    if rule_set not in RULE_SETS:
        raise UnknownAgentError(f"the equilibrium agent plays {', '.join(sorted(RULE_SETS))} only, not {game.game_id}")
    if game.num_players != PLAYERS:
        raise UnknownAgentError(f"the equilibrium agent plays two-player games only, not {game.num_players} players")
    # Only the options the game's declaration gives "equilibrium" (games/eel_family/options.py).
    refused = engine_refusal(game, "equilibrium")
    if refused is not None:
        raise UnknownAgentError(refused)
    if not isinstance(game, EelFamilyGame):
        raise UnknownAgentError(f"the equilibrium agent plays the Eel family's rules only, not {type(game).__name__}")
    # The game has read its options once (games/eel_family/options.py EelOptions): none means the
    # rulebook's number for two players, already resolved there.
    rules = RoundRules(
        rule_set=rule_set,
        dice=game.dice,
        outbreak_scores_reserve=game.scores_reserve_on_outbreak,
        lone_grabs=game.lone_limit,
        eels=game.eels,
        snakes=game.snakes,
        target=game.target,
        threshold=game.threshold,
        max_grab=game.max_grab,
    )
    # The solver's states assume two grabs always find enough tokens in the bag.
    if not rules.dice and rules.snakes - rules.threshold + 1 < 2 * rules.max_grab:
        raise UnknownAgentError(
            f"the two-player round solver needs a bag that never runs short: snakes - outbreak_snakes + 1 "
            f"(here {rules.snakes - rules.threshold + 1}) must be at least twice max_grab ({2 * rules.max_grab})"
        )
    return rules


def changed_numbers(rules: RoundRules) -> list[str]:
    """The rulebook numbers ``rules`` changes, by option name."""
    given = {
        "eels": rules.eels,
        "snakes": rules.snakes,
        "target": rules.target,
        "max_grab": rules.max_grab,
        "outbreak_snakes": rules.threshold,
    }
    return [name for name, value in given.items() if value != _RULEBOOK[name]]


def draw_table(dice: bool, most_eels: int = EELS, most_snakes: int = SNAKES, actions: int = ACTIONS) -> FloatArray:
    """``P[e, s, a, k]``: chance that ``a`` tokens drawn from ``e`` eels and ``s`` snakes hold ``k`` snakes."""
    table = np.zeros((most_eels + 1, most_snakes + 1, actions, actions))
    for eels in range(most_eels + 1):
        for snakes in range(most_snakes + 1):
            total = eels + snakes
            for count in range(actions):
                for k in range(count + 1):
                    if dice:
                        table[eels, snakes, count, k] = comb(count, k) * 0.25**k * 0.75 ** (count - k)
                    elif count <= total:
                        table[eels, snakes, count, k] = comb(snakes, k) * comb(eels, count - k) / comb(total, count)
    return table


def terminal_table(tie: float, highest: int = HIGHEST_SCORE) -> FloatArray:
    """``E[f0, f1]``: seat 0's share of the win when the game ends at ``(f0, f1)``."""
    scores = np.arange(highest + 1)
    f0, f1 = scores[:, None], scores[None, :]
    return np.where(f0 > f1, 1.0, np.where(f0 < f1, 0.0, tie))


def round_end_tables(continuation: FloatArray, tie: float, rules: RoundRules | None = None) -> FloatArray:
    """``E[track, f0, f1]``: seat 0's value when a round ends at ``(f0, f1)``.

    The game result once a score has reached 20, else the continuation value
    ``continuation[track, f0, f1]`` of the next round.
    """
    tracks = continuation.shape[0]
    target = TARGET if rules is None else rules.target
    highest = HIGHEST_SCORE if rules is None else rules.highest_score
    table = np.repeat(terminal_table(tie, highest)[None, :, :], tracks, axis=0)
    table[:, :target, :target] = continuation
    return table
