"""PPO on the compiled step batches, written in JAX with optax (extra ``jax``).

Turn-based games step every game at once, so most steps of a game are not the
learner's: a seat that does not choose now has no decision to learn from. The
learner therefore records a decision only where one of its seats chooses
(``BatchEnv.to_act``), and each seat's decisions form their own trajectory: the
advantage of a decision looks ahead to that seat's next decision (or to the end of
its game), whatever the other seats did in between. Rewards are the win shares the
games end with.

Each game is played by a lineup drawn from the league when it starts: the learner in
every seat (self-play), or the learner in one seat against a compiled policy
(``heuristic``, ``random``, ...) or against a frozen copy of itself from an earlier
update (``past``). Rollouts are played in NumPy with the generator of the run's
seed; the updates are jit-compiled JAX functions. A game without a compiled engine
is played on the rules-engine batch (``gamebag.interop.rules_batch``), whose
opponents are the rules-engine agents ``heuristic`` and ``random``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import numpy as np
from numpy.typing import NDArray

from gamebag.agents.learned import NumpyPolicy, layout_mismatch, layout_version
from gamebag.interop.common import configured_game
from gamebag.interop.vector_env import BatchEnv

# League members with a meaning of their own; any other name is a compiled policy of the game.
SELF = "self"
PAST = "past"
LEARNER = 0  # controller code of the learner's seats
MAX_IMITATION = 100.0

Layers = list[tuple[Any, Any]]


# The league a learner meets unless told otherwise: itself, a compiled heuristic, its past selves, random.
DEFAULT_LEAGUE: Mapping[str, float] = {SELF: 0.4, "heuristic": 0.3, PAST: 0.2, "random": 0.1}


def default_league(compiled: Sequence[str]) -> dict[str, float]:
    """``DEFAULT_LEAGUE`` for a game whose compiled policies are ``compiled``: a member it lacks
    (no heuristic for a plugin game) gives its weight to ``random``, which every game has."""
    league: dict[str, float] = {}
    for name, weight in DEFAULT_LEAGUE.items():
        member = name if name in (SELF, PAST) or name in compiled else "random"
        league[member] = league.get(member, 0.0) + weight
    return league


@dataclass(frozen=True)
class PPOConfig:
    """The learner's settings (the defaults are what ``gamebag train`` uses)."""

    hidden: tuple[int, ...] = (64, 64)
    rollout: int = 64  # steps of the whole batch per update
    epochs: int = 4
    minibatch: int = 1024
    learning_rate: float = 1e-3
    gamma: float = 1.0
    lam: float = 0.95
    clip: float = 0.2
    entropy: float = 0.01
    value_coef: float = 0.5
    snapshot_every: int = 10  # updates between frozen copies for the ``past`` league member
    snapshots_kept: int = 8
    # Updates at the start that train only the value network (a warm start's policy is kept
    # until the fresh value network can judge its decisions).
    value_warmup: int = 0
    # ``None``: ``DEFAULT_LEAGUE``, with a member the game lacks (a plugin game's heuristic) played by ``random``.
    league: Mapping[str, float] | None = None
    # Imitation: a compiled policy whose choice at each of the learner's decisions is a target too,
    # its cross-entropy added to the loss with weight ``imitation`` (DAgger: the states are the
    # learner's own, so it learns the teacher's answer where its own play leads).
    teacher: str | None = None
    imitation: float = 0.0


def _init_layers(
    rng: np.random.Generator, sizes: Sequence[int], last_gain: float
) -> list[tuple[NDArray[np.float32], NDArray[np.float32]]]:
    layers = []
    for number, (inputs, outputs) in enumerate(pairwise(sizes)):
        gain = last_gain if number == len(sizes) - 2 else np.sqrt(2.0)
        # Orthogonal initialisation, as PPO implementations use.
        matrix = rng.normal(size=(max(inputs, outputs), min(inputs, outputs)))
        q, r = np.linalg.qr(matrix)
        q = q * np.sign(np.diag(r))
        weights = (q if inputs >= outputs else q.T)[:inputs, :outputs] * gain
        layers.append((weights.astype(np.float32), np.zeros(outputs, dtype=np.float32)))
    return layers


def _forward_np(
    layers: Sequence[tuple[NDArray[np.float32], NDArray[np.float32]]], x: NDArray[np.float32]
) -> NDArray[np.float32]:
    for number, (weights, bias) in enumerate(layers):
        x = x @ weights + bias
        if number < len(layers) - 1:
            x = np.tanh(x)
    return x


def _start_from(
    init: NumpyPolicy,
    fresh: list[tuple[NDArray[np.float32], NDArray[np.float32]]],
    actions: Sequence[Any] | None = None,
) -> list[tuple[NDArray[np.float32], NDArray[np.float32]]]:
    """The layers of a warm start, refused unless they have the shapes of this network.

    ``actions`` (this network's, in order) is given when ``init`` was trained on the same
    game at another player count, whose actions differ only in the seats they name: each
    action ``init`` knows keeps its output column, and an action it never had (one naming
    a seat it had not) starts from the fresh network's column, a score near zero.
    """
    layers = list(init.layers)
    if actions is not None:
        known = {action: column for column, action in enumerate(_init_actions(init))}
        weights, bias = fresh[-1]
        weights, bias = weights.copy(), bias.copy()
        init_weights, init_bias = layers[-1]
        if weights.shape[0] == init_weights.shape[0]:
            for column, action in enumerate(actions):
                if action in known:
                    weights[:, column] = init_weights[:, known[action]]
                    bias[column] = init_bias[known[action]]
            layers[-1] = (weights, bias)
    wanted = [(w.shape, b.shape) for w, b in fresh]
    given = [(w.shape, b.shape) for w, b in layers]
    if wanted != given:
        sizes = [w.shape[1] for w, _ in init.layers[:-1]]
        raise ValueError(
            f"the starting policy has layers {given} (hidden {sizes}), this network needs {wanted}: "
            "give the same --hidden sizes and game configuration it was trained with"
        )
    return [(w.copy(), b.copy()) for w, b in layers]


def _init_actions(init: NumpyPolicy) -> list[Any]:
    """The actions ``init`` scores, in order: those of the configuration its ``meta`` names."""
    meta = init.meta
    return list(configured_game(str(meta["game"]), int(meta["players"]), meta.get("options")).all_actions())


def _other_count(init: NumpyPolicy, game_id: str, players: int) -> bool:
    """Whether ``init`` was trained on ``game_id`` with another number of players (its actions matched by name)."""
    meta = init.meta
    return meta.get("game") == game_id and isinstance(meta.get("players"), int) and meta["players"] != players


class PPOLearner:
    """A policy and a value network for one game configuration, trained by PPO against a league."""

    def __init__(
        self,
        game_id: str,
        players: int | None,
        *,
        envs: int,
        seed: int,
        options: Mapping[str, Any] | None = None,
        config: PPOConfig | None = None,
        init: NumpyPolicy | None = None,
    ) -> None:
        import jax
        import optax

        self.config = config or PPOConfig()
        # A game without a compiled engine is played on the rules engine (gamebag.interop.rules_batch).
        self.env = BatchEnv(game_id, envs, players, options, rules_engine=True)
        self.game_id = game_id
        self.players = self.env.num_players
        self.rng = np.random.default_rng(seed)
        league = dict(self.config.league) if self.config.league is not None else default_league(self.env.compiled)
        self.league = league
        for name in league:
            if name not in (SELF, PAST) and name not in self.env.compiled:
                raise ValueError(
                    f"{game_id}: league member {name!r} is neither 'self', 'past' nor a compiled policy "
                    f"(compiled: {', '.join(self.env.compiled)})"
                )
        if not league or min(league.values()) < 0 or sum(league.values()) <= 0:
            raise ValueError(f"the league needs positive weights, not {league}")
        teacher = self.config.teacher
        if teacher is not None and teacher not in self.env.compiled:
            raise ValueError(
                f"{game_id}: the teacher {teacher!r} to imitate is not a compiled policy "
                f"(compiled: {', '.join(self.env.compiled)})"
            )
        if not 0.0 <= self.config.imitation <= MAX_IMITATION:
            raise ValueError(f"the imitation weight must be from 0 to {MAX_IMITATION:g}, not {self.config.imitation!r}")
        game = configured_game(game_id, players, options)
        if init is not None and layout_version(init) != game.observation_version:
            # Another layout: say so (a layout of the same version but another size is another
            # game or configuration, which the layer shapes below refuse).
            raise ValueError(f"the starting policy cannot be used: {layout_mismatch(init, game)}")
        self.league_names = list(league)
        weights = np.asarray([league[name] for name in self.league_names], dtype=np.float64)
        self.league_weights = weights / weights.sum()
        sizes_in = self.env.observation_size
        hidden = list(self.config.hidden)
        policy_layers = _init_layers(self.rng, [sizes_in, *hidden, self.env.num_actions], 0.01)
        if init is not None:
            other_count = _other_count(init, game_id, self.players)
            policy_layers = _start_from(init, policy_layers, list(game.all_actions()) if other_count else None)
        self.params: dict[str, Layers] = {
            "pi": [(jax.numpy.asarray(w), jax.numpy.asarray(b)) for w, b in policy_layers],
            "v": [
                (jax.numpy.asarray(w), jax.numpy.asarray(b))
                for w, b in _init_layers(self.rng, [sizes_in, *hidden, 1], 1.0)
            ],
        }

        def optimizer(learning_rate: float) -> Any:
            return optax.chain(optax.clip_by_global_norm(0.5), optax.adam(learning_rate))

        # The learning rate is set before every update (it falls linearly to a tenth over a run).
        self.optimizer = optax.inject_hyperparams(optimizer)(learning_rate=self.config.learning_rate)
        self.opt_state = self.optimizer.init(self.params)
        self._update = jax.jit(self._make_update())
        self._update_value = jax.jit(self._make_update(value_only=True))
        self.snapshots: list[NumpyPolicy] = []
        # controller[e, p]: LEARNER, or 1 + the index of a compiled policy / frozen copy in self.opponents.
        self.opponents: list[str | NumpyPolicy] = []
        self.controller = np.zeros((envs, self.players), dtype=np.int64)
        self.steps = 0
        self.updates = 0
        self.games = 0
        self.wins = 0.0
        self.observations, self.masks, self.to_act = self.env.reset(int(self.rng.integers(2**31)))
        self._draw_lineups(np.ones(envs, dtype=np.bool_))

    # ---- lineups ----------------------------------------------------------------------------
    def _opponent_code(self, opponent: str | NumpyPolicy) -> int:
        for number, known in enumerate(self.opponents):
            if known is opponent:
                return number + 1
        self.opponents.append(opponent)
        return len(self.opponents)

    def _draw_lineups(self, rows: NDArray[np.bool_]) -> None:
        for row in np.flatnonzero(rows):
            kind = self.league_names[int(self.rng.choice(len(self.league_names), p=self.league_weights))]
            if kind == PAST and not self.snapshots:
                kind = SELF
            if kind == SELF:
                self.controller[row] = LEARNER
                continue
            opponent: str | NumpyPolicy = (
                kind if kind != PAST else self.snapshots[int(self.rng.integers(len(self.snapshots)))]
            )
            self.controller[row] = self._opponent_code(opponent)
            self.controller[row, int(self.rng.integers(self.players))] = LEARNER

    # ---- the policy in NumPy ----------------------------------------------------------------
    def numpy_layers(self, name: str) -> list[tuple[NDArray[np.float32], NDArray[np.float32]]]:
        return [(np.asarray(w, dtype=np.float32), np.asarray(b, dtype=np.float32)) for w, b in self.params[name]]

    def policy(self, meta: Mapping[str, Any] | None = None) -> NumpyPolicy:
        """The current policy network as NumPy weights."""
        return NumpyPolicy(tuple(self.numpy_layers("pi")), dict(meta or {}))

    # ---- rollouts ---------------------------------------------------------------------------
    def _opponent_actions(self, joint: NDArray[np.int64]) -> None:
        for number, opponent in enumerate(self.opponents):
            seats = (self.controller == number + 1) & self.to_act
            if not seats.any():
                continue
            if isinstance(opponent, str):
                chosen = self.env.compiled_actions_at([opponent] * self.players, seats)
                joint[seats] = chosen[seats]
            else:
                joint[seats] = opponent.act(self.observations[seats], self.masks[seats])

    def rollout(self) -> dict[str, NDArray[Any]]:
        """``rollout`` steps of every game; the learner's decisions with their advantages and returns."""
        config = self.config
        env = self.env
        steps, envs, players = config.rollout, env.num_envs, self.players
        pi = self.numpy_layers("pi")
        value = self.numpy_layers("v")
        obs_buf = np.zeros((steps, envs, players, env.observation_size), dtype=np.float32)
        mask_buf = np.zeros((steps, envs, players, env.num_actions), dtype=np.bool_)
        act_buf = np.zeros((steps, envs, players), dtype=np.int64)
        logp_buf = np.zeros((steps, envs, players), dtype=np.float32)
        val_buf = np.zeros((steps, envs, players), dtype=np.float32)
        valid = np.zeros((steps, envs, players), dtype=np.bool_)
        rew_buf = np.zeros((steps, envs, players), dtype=np.float32)
        done_buf = np.zeros((steps, envs), dtype=np.bool_)
        teach_buf = np.zeros((steps, envs, players), dtype=np.int64)
        for t in range(steps):
            joint = np.zeros((envs, players), dtype=np.int64)
            deciding = self.to_act & (self.controller == LEARNER)
            if deciding.any() and config.teacher is not None:
                teach_buf[t][deciding] = env.compiled_actions_at([config.teacher] * players, deciding)[deciding]
            if deciding.any():
                obs = self.observations[deciding]
                mask = self.masks[deciding]
                logits = np.where(mask, _forward_np(pi, obs), -np.inf)
                gumbel = self.rng.gumbel(size=logits.shape).astype(np.float32)
                actions = np.argmax(logits + gumbel, axis=-1)
                top = logits.max(axis=-1, keepdims=True)
                log_norm = top[:, 0] + np.log(np.exp(logits - top).sum(axis=-1))
                logp_buf[t][deciding] = logits[np.arange(len(actions)), actions] - log_norm
                val_buf[t][deciding] = _forward_np(value, obs)[:, 0]
                obs_buf[t][deciding] = obs
                mask_buf[t][deciding] = mask
                act_buf[t][deciding] = actions
                joint[deciding] = actions
                valid[t] = deciding
            self._opponent_actions(joint)
            self.observations, rewards, done, self.masks, self.to_act = env.step(joint)
            learner_seats = self.controller == LEARNER
            rew_buf[t] = np.where(learner_seats, rewards, 0.0)
            done_buf[t] = done
            if done.any():
                finished = learner_seats[done]
                self.games += int(finished.sum())
                self.wins += float(rewards[done][finished].sum())
                self._draw_lineups(done)
        self.steps += steps * envs
        # Seats whose next decision lies beyond the rollout are valued where they stand now.
        bootstrap = _forward_np(value, self.observations.reshape(envs * players, -1))[:, 0].reshape(envs, players)
        advantages = np.zeros((steps, envs, players), dtype=np.float32)
        next_value = np.where(self.controller == LEARNER, bootstrap, 0.0).astype(np.float32)
        next_advantage = np.zeros((envs, players), dtype=np.float32)
        pending = np.zeros((envs, players), dtype=np.float32)
        for t in reversed(range(steps)):
            ended = done_buf[t][:, None]
            next_value = np.where(ended, 0.0, next_value)
            next_advantage = np.where(ended, 0.0, next_advantage)
            pending = np.where(ended, 0.0, pending) + rew_buf[t]
            delta = pending + config.gamma * next_value - val_buf[t]
            advantage = delta + config.gamma * config.lam * next_advantage
            here = valid[t]
            advantages[t] = np.where(here, advantage, 0.0)
            next_value = np.where(here, val_buf[t], next_value)
            next_advantage = np.where(here, advantage, next_advantage)
            pending = np.where(here, 0.0, pending)
        return {
            "obs": obs_buf[valid],
            "mask": mask_buf[valid],
            "act": act_buf[valid],
            "logp": logp_buf[valid],
            "adv": advantages[valid],
            "ret": advantages[valid] + val_buf[valid],
            "teach": teach_buf[valid],
        }

    # ---- updates ----------------------------------------------------------------------------
    def _make_update(self, value_only: bool = False) -> Callable[..., Any]:
        import jax
        import jax.numpy as jnp
        import optax

        config = self.config
        optimizer = self.optimizer

        def forward(layers: Layers, x: Any) -> Any:
            for number, (weights, bias) in enumerate(layers):
                x = x @ weights + bias
                if number < len(layers) - 1:
                    x = jnp.tanh(x)
            return x

        def loss(params: dict[str, Layers], batch: dict[str, Any]) -> Any:
            logits = jnp.where(batch["mask"], forward(params["pi"], batch["obs"]), -1e9)
            log_probs = jax.nn.log_softmax(logits)
            logp = jnp.take_along_axis(log_probs, batch["act"][:, None], axis=1)[:, 0]
            ratio = jnp.exp(logp - batch["logp"])
            adv = batch["adv"]
            adv = (adv - adv.mean()) / (adv.std() + 1e-8)
            clipped = jnp.clip(ratio, 1.0 - config.clip, 1.0 + config.clip)
            policy_loss = -jnp.mean(jnp.minimum(ratio * adv, clipped * adv))
            entropy = -jnp.mean(jnp.sum(jnp.where(batch["mask"], jnp.exp(log_probs) * log_probs, 0.0), axis=1))
            values = forward(params["v"], batch["obs"])[:, 0]
            value_loss = jnp.mean((values - batch["ret"]) ** 2)
            total = policy_loss + config.value_coef * value_loss - config.entropy * entropy
            if config.teacher is not None:
                taught = jnp.take_along_axis(log_probs, batch["teach"][:, None], axis=1)[:, 0]
                total = total - config.imitation * jnp.mean(taught)
            return total

        def value_loss(params: dict[str, Layers], batch: dict[str, Any]) -> Any:
            values = forward(params["v"], batch["obs"])[:, 0]
            return config.value_coef * jnp.mean((values - batch["ret"]) ** 2)

        objective = value_loss if value_only else loss

        def update(params: dict[str, Layers], opt_state: Any, batch: dict[str, Any]) -> tuple[Any, Any]:
            grads = jax.grad(objective)(params, batch)
            updates, opt_state = optimizer.update(grads, opt_state, params)
            return optax.apply_updates(params, updates), opt_state

        return update

    def learn(self, data: dict[str, NDArray[Any]]) -> None:
        """PPO epochs over one rollout's decisions, in minibatches of a fixed size (one compilation)."""
        count = len(data["act"])
        size = self.config.minibatch
        if count == 0:
            return
        # During a warm start's value warm-up the policy's gradient is zero, so Adam leaves it as it is.
        update = self._update_value if self.updates < self.config.value_warmup else self._update
        for _ in range(self.config.epochs):
            # Minibatches keep one size (one compilation): a short rollout is drawn with replacement.
            order = self.rng.permutation(count) if count >= size else self.rng.integers(count, size=size)
            for start in range(0, len(order) - size + 1, size):
                rows = order[start : start + size]
                batch = {key: values[rows] for key, values in data.items()}
                self.params, self.opt_state = update(self.params, self.opt_state, batch)
        self.updates += 1
        if self.updates % self.config.snapshot_every == 0:
            self.snapshots.append(self.policy({"update": self.updates}))
            if len(self.snapshots) > self.config.snapshots_kept:
                self.snapshots.pop(0)

    def train(self, steps: int, progress: Callable[[str], None] | None = None, report_every: float = 10.0) -> None:
        """Roll out and update until ``steps`` game steps (over the whole batch) have been played."""
        from threadpoolctl import threadpool_limits

        with threadpool_limits(limits=1, user_api="blas"):
            self._train(steps, progress, report_every)

    def _train(self, steps: int, progress: Callable[[str], None] | None, report_every: float) -> None:
        started = time.perf_counter()
        last = started
        first = self.steps
        while self.steps < steps:
            done = (self.steps - first) / max(1, steps - first)
            rate = self.config.learning_rate * (1.0 - 0.9 * done)
            self.opt_state.hyperparams["learning_rate"] = np.asarray(rate, dtype=np.float32)
            self.learn(self.rollout())
            now = time.perf_counter()
            if progress is not None and (now - last >= report_every or self.steps >= steps):
                share = self.wins / self.games if self.games else float("nan")
                progress(
                    f"{self.steps:,} steps, {self.updates} updates, {now - started:.0f} s; "
                    f"learner's win share in its training games {share:.3f}"
                )
                self.games, self.wins, last = 0, 0.0, now
