"""Judged estimates: each decision's figures to within ±5 points, on batched compiled playouts, or undecided.

Where the game's compiled engine offers batched playouts from a seat's information set
(``FastEngine.sampler``: the worlds redrawn and played out in compiled code, blocks of draws per
call), the analysis does not spend a fixed number of playouts per value. Per decision it plays
blocks of ``BLOCK`` draws, each draw one world from the seat's information set in which every
still-live action is played out with one playout key (common random numbers), and stops as soon as
the three figures the decision reports are known to ``JUDGED_HALF_WIDTH`` (95%): the value of the
action taken, the value of the best action, and the loss between them. As in ``estimate``, the best
action is picked on the even draws and every figure read off the odd ones.

* **Racing**: an action whose loss against the current leader lies above zero with
  ``ELIMINATION_Z`` on the even draws stops being played (the action taken never does): its value
  is not reported, only that it is worse, and the draws go to the actions still in question.
* **Budget**: a whole game's decisions share ``DECISION_COST`` units of work (``cost``: rounds
  played out, plus one per playout: the same count on any machine, so the same record and seed
  always give the same analysis); a decision may spend up to ``SLACK`` times its share (its weight:
  the events left after it, times one plus the log of its choices) of what is left, and what it
  leaves unspent goes to the decisions after it. Chance events share ``LUCK_COST`` the same way.
* **Undecided**: a decision whose figures would need more work than its allowance (projected from
  the spread of its playouts so far), or more than ``MAX_DRAWS`` draws, stops at once and is
  marked undecided with the reason, never given as a wide number.

The budgets are set so that a whole four-player Eigen Kweek game takes about 20 CPU-seconds
(``bench/analysis_kweek.py`` measures it; docs/analysis.md reports it).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from gamebag.agents.ismcts import rollout_policy
from gamebag.analysis.estimate import RolloutEvaluator
from gamebag.analysis.evaluators import Choices, Evaluator
from gamebag.analysis.figures import Z95, Estimate
from gamebag.analysis.translation import N_
from gamebag.core.protocol import Game, NodeKind
from gamebag.core.rng import derive_rng
from gamebag.fast.base import InfoSetSampler
from gamebag.fast.registry import engine_for

JUDGED_HALF_WIDTH = 0.05  # 5 percentage points of winning chance, at 95%
BLOCK = 32  # draws per compiled call (even: half pick the best action, half measure)
MIN_DRAWS = 64  # before any figure is judged narrow enough
MAX_DRAWS = 8192  # per decision: the bound on what one decision may cost
ELIMINATION_Z = 2.576  # 99%: an action is dropped only when it is clearly worse than the leader
SLACK = 3.0  # a decision may spend this many times its share of what is left
# Work per game, in rounds played out (about 2.6 microseconds each on the machine the bench ran on):
# decisions get most of it, chance events (luck) the rest.
DECISION_COST = 5_000_000
LUCK_COST = 1_200_000
# The method in words (``Analysis.method``), and why a decision is undecided (the ``undecided`` field),
# each one whole sentence.
METHOD = N_(
    "estimate: compiled playouts by heuristic players from the seat's information set, until each decision's "
    "value, best value and loss are within +-{half} (95%), within a budget per game; a decision that cannot be "
    "judged within it is marked undecided"
)
SPENT = "The game's budget was spent before this decision."
OVER_CAP = "It would need about {needed:,.0f} draws, more than the {cap:,} one decision may use."
OVER_BUDGET = (
    "It would need about {needed:,.0f} draws and the game's budget left it {draws:,}, "
    "which reached ±{reached:.3f} where ±{wanted} is wanted."
)
LUCK_SETTLED = 0.03  # a chance event's luck stops once its interval is within this
MAX_LUCK_DRAWS = 512


@dataclass
class _Share:
    """A budget shared by weighted items met in order: what is left, and the weight still to come."""

    left: float
    weight: float

    def allowance(self, weight: float) -> float:
        """What an item of ``weight`` may spend: ``SLACK`` times its share of what is left, at most all of it."""
        if self.weight <= 0:
            return self.left
        return min(self.left, SLACK * self.left * weight / self.weight)

    def spend(self, cost: float, weight: float) -> None:
        self.left = max(0.0, self.left - cost)
        self.weight = max(0.0, self.weight - weight)


def batched_sampler(game: Game[Any, Any, Any]) -> InfoSetSampler | str:
    """The compiled engine's batched sampler for ``game`` with its rollout players, or why there is none."""
    agent = rollout_policy(game, "auto")
    agents = ["random" if agent is None else agent.name] * game.num_players
    engine = engine_for(game, agents)
    if engine is None:
        return f"{game.game_id} with these options and players has no compiled engine"
    return engine.sampler(game, agents)


class BatchedEvaluator(Evaluator):
    """Each decision judged to ±5 points on batched compiled playouts, within a game's budget, or undecided."""

    exact = False

    def __init__(
        self,
        game: Game[Any, Any, Any],
        sampler: InfoSetSampler,
        seats: Sequence[int] | None,
        seed: int,
        decision_cost: int | None = None,
        luck_cost: int | None = None,
    ) -> None:
        """``decision_cost``, ``luck_cost``: the game's budgets (None: ``DECISION_COST``, ``LUCK_COST``)."""
        super().__init__(game)
        self.sampler = sampler
        self.seats = tuple(range(game.num_players)) if seats is None else tuple(seats)
        self.seed = seed
        self.playouts = 0  # the most draws any decision used (reported as playouts per value)
        self.method_text, self.method_params = METHOD, {"half": JUDGED_HALF_WIDTH}
        self.method = METHOD.format(**self.method_params)
        self.cost = 0  # work done so far (rounds played out)
        self._decisions = _Share(float(DECISION_COST if decision_cost is None else decision_cost), 0.0)
        self._luck = _Share(float(LUCK_COST if luck_cost is None else luck_cost), 0.0)
        self._weights: dict[tuple[int, int], float] = {}
        self._luck_weights: dict[int, float] = {}
        self._taken: dict[tuple[int, int], Any] = {}
        self._fallback: RolloutEvaluator | None = None

    # ---- planning ------------------------------------------------------------------------
    def prepare(self, states: Sequence[Any]) -> None:
        """Weigh every decision and chance event of the walk (the events left after it: what its playouts play)."""
        game = self.game
        last = len(states) - 1
        for event, state in enumerate(states[:-1]):
            left = float(last - event)
            kind = game.node_kind(state)
            if kind is NodeKind.CHANCE:
                self._luck_weights[event] = left * len(self.seats)
                self._luck.weight += self._luck_weights[event]
            elif kind is NodeKind.DECISION:
                for seat, legal in game.legal_actions_by_seat(state).items():
                    if seat in self.seats and len(legal) > 1:
                        weight = left * (1.0 + math.log2(len(legal)))
                        self._weights[(event, seat)] = weight
                        self._decisions.weight += weight

    def expect_taken(self, event: int, seat: int, action: Any) -> None:
        self._taken[(event, seat)] = action

    # ---- decisions -----------------------------------------------------------------------
    def choices(self, state: Any, seat: int, legal: Sequence[Any], event: int) -> Choices:
        actions = list(legal)
        count = len(actions)
        taken = self._taken.get((event, seat), actions[0])
        t = actions.index(taken) if taken in actions else 0
        weight = self._weights.get((event, seat), 1.0)
        allowance = self._decisions.allowance(weight)
        live = np.ones(count, np.bool_)
        blocks: list[npt.NDArray[np.float64]] = []
        spent = 0
        undecided: str | None = None
        seed = f"{self.seed}:choice:{event}:{seat}"
        if self._decisions.left <= 0:
            # The game's budget is spent: one pair of draws gives the figures something to say, and the
            # decision is undecided (the overrun is two draws per such decision, not a block).
            shares, cost = self.sampler.choice_playouts(state, seat, actions, live.tolist(), seed, 0, 2)
            self.cost += cost
            self._decisions.spend(cost, weight)
            self.playouts = max(self.playouts or 0, len(shares))
            return _choices(actions, shares, live, t, SPENT)
        while True:
            out, cost = self.sampler.choice_playouts(
                state, seat, actions, live.tolist(), seed, BLOCK * len(blocks), BLOCK
            )
            blocks.append(out)
            spent += cost
            shares = np.concatenate(blocks)
            even, odd = shares[0::2], shares[1::2]
            leader = _leader(even, live)
            _eliminate(even, live, leader, t)
            leader = _leader(even, live)
            widest = max(_value_half_width(odd[:, t]), _value_half_width(odd[:, leader]))
            if leader != t:
                widest = max(widest, _half_width(odd[:, leader] - odd[:, t]))
            draws = len(shares)
            if draws >= MIN_DRAWS and widest <= JUDGED_HALF_WIDTH:
                break
            # Draws this decision would need in all, from the spread so far (a half-width falls as 1/sqrt(n)).
            needed = max(MIN_DRAWS, draws * (widest / JUDGED_HALF_WIDTH) ** 2)
            per_draw = cost / BLOCK * live.sum() / max(1, int(np.count_nonzero(~np.isnan(out[0]))))
            projected = spent + (needed - draws) * per_draw
            if needed > MAX_DRAWS:
                undecided = OVER_CAP.format(needed=needed, cap=MAX_DRAWS)
                break
            if projected > allowance:
                undecided = OVER_BUDGET.format(needed=needed, draws=draws, reached=widest, wanted=JUDGED_HALF_WIDTH)
                break
        self._decisions.spend(spent, weight)
        self.cost += spent
        self.playouts = max(self.playouts or 0, len(shares))
        return _choices(actions, shares, live, t, undecided)

    # ---- chance events ---------------------------------------------------------------------
    def chance_change(self, before: Any, after: Any, seat: int, event: int) -> Estimate:
        """The event's luck for ``seat``: paired compiled playouts after the real outcome and a fresh one."""
        game = self.game
        weight = self._luck_weights.get(event, 1.0) / len(self.seats)
        hidden = game.traits.hidden_information
        if hidden and not game.is_terminal(after) and game.observation(before, seat) == game.observation(after, seat):
            self._luck.spend(0, weight)
            return Estimate.exact(0.0)  # an event the seat does not see moves nothing it knows
        return self._pairs(before, after, seat, event, weight)

    def _pairs(self, before: Any, after: Any, seat: int, event: int, weight: float) -> Estimate:
        allowance = self._luck.allowance(weight)
        redraw = not self._nothing_hidden(after, seat, event)
        seed = f"{self.seed}:luck:{event}:{seat}"
        changes: list[npt.NDArray[np.float64]] = []
        spent = 0
        while True:
            out, cost = self.sampler.chance_pairs(before, after, seat, redraw, seed, BLOCK * len(changes), BLOCK)
            changes.append(out[:, 0] - out[:, 1])
            spent += cost
            found = np.concatenate(changes)
            half = _half_width(found)
            if half <= LUCK_SETTLED or len(found) + BLOCK > MAX_LUCK_DRAWS or spent + cost > allowance:
                break
        self._luck.spend(spent, weight)
        self.cost += spent
        mean = float(found.mean())
        return Estimate(mean, mean - half, mean + half)

    def _nothing_hidden(self, state: Any, seat: int, event: int) -> bool:
        """Whether ``seat``'s information set at ``state`` is that state alone (two draws agree)."""
        first = self.game.resample_from_infostate(state, seat, derive_rng(self.seed, "probe", event, seat, 0))
        second = self.game.resample_from_infostate(state, seat, derive_rng(self.seed, "probe", event, seat, 1))
        return bool(first == second)

    def value(self, state: Any, seat: int, event: int) -> Estimate:
        """A position's value (the walk asks for changes, not values): the fixed-count playouts'."""
        if self._fallback is None:
            self._fallback = RolloutEvaluator(self.game, None, self.seed)
        return self._fallback.value(state, seat, event)


def _leader(even: npt.NDArray[np.float64], live: npt.NDArray[np.bool_]) -> int:
    """The live action with the highest mean on the even draws (the first such, on ties)."""
    means = np.where(live, np.nanmean(np.where(live, even, 0.0), axis=0), -np.inf)
    return int(np.argmax(means))


def _eliminate(even: npt.NDArray[np.float64], live: npt.NDArray[np.bool_], leader: int, taken: int) -> None:
    """Stop playing the actions clearly worse than the leader on the even draws (never the one taken)."""
    if len(even) < 2:
        return
    for a in np.flatnonzero(live):
        if a in (leader, taken):
            continue
        gap = even[:, leader] - even[:, a]
        if gap.mean() - ELIMINATION_Z * gap.std(ddof=1) / math.sqrt(len(gap)) > 0:
            live[a] = False


def _half_width(samples: npt.NDArray[np.float64]) -> float:
    """The 95% normal interval's half-width of the mean of ``samples``."""
    if len(samples) < 2:
        return math.inf
    return float(Z95 * samples.std(ddof=1) / math.sqrt(len(samples)))


def _value_half_width(samples: npt.NDArray[np.float64]) -> float:
    """A win share's half-width, never below the Agresti-Coull one: a run of equal results (a seat that
    lost every playout so far) would give a normal interval of width 0, which says nothing."""
    n = len(samples)
    smoothed = (float(samples.sum()) + 2.0) / (n + 4.0)
    floor = Z95 * math.sqrt(smoothed * (1.0 - smoothed) / (n + 4.0))
    return max(_half_width(samples), floor)


def _choices(
    actions: list[Any], shares: npt.NDArray[np.float64], live: npt.NDArray[np.bool_], taken: int, undecided: str | None
) -> Choices:
    """Values read off the odd draws, losses against the action picked on the even ones."""
    even, odd = shares[0::2], shares[1::2]
    picked = _leader(even, live)
    values: dict[Hashable, Estimate] = {}
    losses: dict[Hashable, Estimate] = {}
    for j, action in enumerate(actions):
        rows = ~np.isnan(odd[:, j])  # an action dropped early has fewer draws
        values[action] = Estimate.of_samples(odd[rows, j].tolist())
        loss = Estimate.of_samples((odd[rows, picked] - odd[rows, j]).tolist())
        # The pick may do worse than another action on the measuring draws: no loss, then (the interval
        # of the loss clipped at zero, which is what is reported).
        losses[action] = loss if loss.mean >= 0 else Estimate(0.0, 0.0, max(0.0, loss.high))
    return Choices(
        values=values,
        losses=losses,
        best=(actions[picked],),
        best_value=values[actions[picked]],
        exact=False,
        judged=undecided is None,
        undecided=undecided,
    )
