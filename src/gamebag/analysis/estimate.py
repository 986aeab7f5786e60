"""Estimated analysis: winning chances by playouts from the seat's own information set.

For games no exact solver covers (the Eel family with three or more players, Eigen Kweek, Catch A
Dragon with three or more players), a value is the mean of ``playouts`` games played to the end by
the rollout players ``ismcts`` uses (the game's ``heuristic`` where it has one, else random moves;
on the compiled fast engine where one plays them), with its 95% interval. As in ``ismcts``, every
playout starts from a state drawn with ``resample_from_infostate`` for the seat being judged, so
nothing the seat could not know enters its figures; the other seats acting at the same time choose
as the rollout players would in that drawn state.

A choice's value: for each playout ``i`` one drawn state and one set of the others' moves, then each
legal action of the seat played out from the same seed (common random numbers), so the losses,
the per-playout differences between the best action and each other one, come with tight intervals.
The best action is picked on the even-numbered playouts and every reported figure comes from the
odd-numbered ones, so the noise that favours whichever action looked best does not inflate losses.
All draws come from generators derived from ``(seed, event, seat, i)``: the same record, seed and
budget give the same analysis.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from gamebag.agents.base import Agent, SeatView
from gamebag.agents.ismcts import MAX_ROLLOUT_STEPS, compiled_playout, rollout_policy
from gamebag.analysis.evaluators import Choices, Evaluator
from gamebag.analysis.figures import Estimate
from gamebag.analysis.translation import N_
from gamebag.core.protocol import Game, NodeKind
from gamebag.core.rng import Rng, derive_rng, draw_index

DEFAULT_PLAYOUTS = 200  # per value at most, where the caller names none (``run.py`` documents the budgets)
# Playouts run in blocks of BLOCK; after each block a value stops early once every interval it
# reports (each choice's loss, each seat's luck) is within +-SETTLED: more playouts would move the
# figures by less than that, and a decision that hardly matters (or is plain) costs one block.
BLOCK = 20
SETTLED = 0.03
# The method's sentence (``Analysis.method``; said in the reader's language by ``words.method_words``).
METHOD = N_(
    "estimate: up to {count} compiled playouts per value by {players} players (fewer once every "
    "loss and luck interval is within +-{settled}), from the seat's information set (95% intervals)"
)
RULES_METHOD = N_(
    "estimate: up to {count} rules-engine playouts per value by {players} players (fewer once every "
    "loss and luck interval is within +-{settled}), from the seat's information set (95% intervals)"
)
Playout = Callable[[Any, Rng], tuple[float, ...] | None]
ROLLOUT_SEED_BITS = 63


class RolloutEvaluator(Evaluator):
    """Winning chances estimated by playouts from each seat's information set."""

    exact = False

    def __init__(self, game: Game[Any, Any, Any], playouts: int | None, seed: int) -> None:
        """``playouts`` per value; ``None`` for ``DEFAULT_PLAYOUTS``."""
        super().__init__(game)
        self.count = DEFAULT_PLAYOUTS if playouts is None else playouts
        self.playouts = self.count
        self.seed = seed
        self.agent: Agent | None = rollout_policy(game, "auto")
        self.compiled: Playout | None = compiled_playout(game, self.agent)
        players = "random" if self.agent is None else self.agent.name
        self.method_text = METHOD if self.compiled is not None else RULES_METHOD
        self.method_params = {"count": self.count, "players": players, "settled": SETTLED}
        self.method = self.method_text.format(**self.method_params)
        self._returns: dict[tuple[int, int], list[tuple[float, ...]]] = {}
        self._pairs: dict[tuple[int, int], list[tuple[tuple[float, ...], tuple[float, ...]]]] = {}

    # ---- playouts ------------------------------------------------------------------------
    def _move(self, state: Any, seat: int, legal: Sequence[Any], rng: Rng) -> Any:
        if self.agent is None:
            return legal[draw_index(rng, len(legal))]
        return self.agent.act(SeatView(self.game, state, seat, legal), rng)

    def _playout(self, state: Any, rng: Rng) -> tuple[float, ...]:
        """Each seat's win share after playing ``state`` to the end."""
        game = self.game
        if game.is_terminal(state):
            return game.returns(state)
        if self.compiled is not None:
            result = self.compiled(state, rng)
            if result is not None:
                return result
        for _ in range(MAX_ROLLOUT_STEPS):
            kind = game.node_kind(state)
            if kind is NodeKind.TERMINAL:
                return game.returns(state)
            if kind is NodeKind.CHANCE:
                state = game.advance_chance(state, rng)
                continue
            legal = game.legal_actions_by_seat(state)
            moves = {p: self._move(state, p, choices, rng) for p, choices in legal.items()}
            state = game.apply_chosen(state, moves, legal)
        return (1.0 / game.num_players,) * game.num_players  # a guard against endless games: a draw

    # ---- the evaluator -------------------------------------------------------------------
    def choices(self, state: Any, seat: int, legal: Sequence[Any], event: int) -> Choices:
        game = self.game
        samples: dict[Hashable, list[float]] = {action: [] for action in legal}
        for i in range(self.count):
            rng = derive_rng(self.seed, "choice", event, seat, i)
            world = game.resample_from_infostate(state, seat, rng)
            by_seat = game.legal_actions_by_seat(world)
            others = {p: self._move(world, p, choices, rng) for p, choices in by_seat.items() if p != seat}
            by_seat[seat] = legal
            playout_seed = rng.getrandbits(ROLLOUT_SEED_BITS)
            for action in legal:
                after = game.apply_chosen(world, {**others, seat: action}, by_seat)
                samples[action].append(self._playout(after, Rng(playout_seed))[seat])
            if (i + 1) % BLOCK == 0 and i + 1 < self.count and _settled(self._losses(samples, legal)[1]):
                break
        picked, losses = self._losses(samples, legal)
        values = {action: Estimate.of_samples(s[1::2]) for action, s in samples.items()}
        return Choices(values=values, losses=losses, best=(picked,), best_value=values[picked], exact=False)

    @staticmethod
    def _losses(samples: dict[Hashable, list[float]], legal: Sequence[Any]) -> tuple[Any, dict[Hashable, Estimate]]:
        """The action picked on the even playouts, and each action's loss against it on the odd ones."""
        # The best action is picked on the even playouts and every figure is read off the odd ones:
        # the mean of a picked maximum is biased upwards by noise, which alone would make every seat
        # look inaccurate; held-out playouts measure the pick without that bias.
        picked = max(legal, key=lambda action: math.fsum(samples[action][0::2]))
        held = {action: s[1::2] for action, s in samples.items()}
        top = held[picked]
        losses = {}
        for action, s in held.items():
            loss = Estimate.of_samples([b - a for b, a in zip(top, s, strict=True)])
            # The pick may do worse than another action on the held-out playouts: no loss, then.
            losses[action] = loss if loss.mean >= 0 else Estimate(0.0, min(0.0, loss.low), max(0.0, loss.high))
        return picked, losses

    def value(self, state: Any, seat: int, event: int) -> Estimate:
        """Playouts from ``seat``'s information set at ``state``; where nothing is hidden, the same
        playouts serve every seat (kept per event)."""
        game = self.game
        if game.is_terminal(state):
            return Estimate.exact(game.returns(state)[seat])
        hidden = game.traits.hidden_information
        key = (event, seat if hidden else -1)
        returns = self._returns.get(key)
        if returns is None:
            returns = []
            for i in range(self.count):
                rng = derive_rng(self.seed, "value", event, key[1], i)
                world = game.resample_from_infostate(state, seat, rng) if hidden else state
                returns.append(self._playout(world, Rng(rng.getrandbits(ROLLOUT_SEED_BITS))))
            self._returns[key] = returns
        return Estimate.of_samples([r[seat] for r in returns])

    def chance_change(self, before: Any, after: Any, seat: int, event: int) -> Estimate:
        """The seat's winning chance after the event minus its expectation before it, as paired playouts.

        Playout ``i`` draws an outcome of the same chance event and plays the position it gives and
        the real one from one seed; the change is the mean difference. Both positions are drawn from
        the seat's information sets, except that the one before the event is the real one where the
        event revealed everything hidden from the seat (an Eel draw reveals the grabs). An event the
        seat does not see (its observation is unchanged) moves its winning chance by exactly 0.
        """
        game = self.game
        hidden = game.traits.hidden_information
        if hidden and not game.is_terminal(after) and game.observation(before, seat) == game.observation(after, seat):
            return Estimate.exact(0.0)
        revealed = not hidden or self._nothing_hidden(after, seat, event)
        # Where nothing is hidden from the seat on either side, the same playouts serve every seat.
        key = (event, -1 if revealed else seat)
        pairs = self._pairs.get(key)
        if pairs is None:
            pairs = []
            for i in range(self.count):
                rng = derive_rng(self.seed, "luck", event, key[1], i)
                world_before = before if revealed else game.resample_from_infostate(before, seat, rng)
                world_after = after if revealed else game.resample_from_infostate(after, seat, rng)
                _, expected = game.sample_and_apply_chance(world_before, rng)
                playout_seed = rng.getrandbits(ROLLOUT_SEED_BITS)
                real = self._playout(world_after, Rng(playout_seed))
                pairs.append((real, self._playout(expected, Rng(playout_seed))))
                if (i + 1) % BLOCK == 0 and i + 1 < self.count and _settled(_changes(pairs, game.num_players)):
                    break
            self._pairs[key] = pairs
        return Estimate.of_samples([real[seat] - expected[seat] for real, expected in pairs])

    def _nothing_hidden(self, state: Any, seat: int, event: int) -> bool:
        """Whether ``seat``'s information set at ``state`` is that state alone: two draws from it agree.

        Only draws from the information set are compared (never the state itself), so the answer is
        one the seat could give; games return the state itself where nothing is hidden (the Eel family
        between grabs), so a set of several states is never taken for one.
        """
        first = self.game.resample_from_infostate(state, seat, derive_rng(self.seed, "probe", event, seat, 0))
        second = self.game.resample_from_infostate(state, seat, derive_rng(self.seed, "probe", event, seat, 1))
        return bool(first == second)


def _changes(pairs: Sequence[tuple[tuple[float, ...], tuple[float, ...]]], players: int) -> list[Estimate]:
    """Each seat's change of winning chance read off paired playouts (the real outcome, one drawn again)."""
    return [Estimate.of_samples([real[p] - expected[p] for real, expected in pairs]) for p in range(players)]


def _settled(estimates: Any) -> bool:
    """Whether every interval is within +-SETTLED of its mean."""
    found = estimates.values() if isinstance(estimates, dict) else estimates
    return all(e.high - e.low <= 2 * SETTLED for e in found)
