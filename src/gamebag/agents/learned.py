"""The ``learned`` agent: small trained policies shipped as NumPy weights, played in NumPy.

A policy is a multilayer perceptron (tanh hidden layers) from a seat's
``observation_tensor`` to one score per action of ``all_actions()``; the agent plays the
legal action with the highest score (``sample=true`` draws from the softmax of the legal
scores instead, with the game's generator). No learning framework is needed to play.
Where the game's heuristic takes ``abstain=CARD`` (Eigen Kweek), so does ``learned``: the
actions the game's abstain rule refuses are left out of the legal ones first (all of them
stay when every legal action is refused, as the heuristic does), for card studies.

Weights live in ``gamebag/agents/learned_policies/<game-id>-<players>p.npz`` (written by
``gamebag train``, which also writes how they were trained into the file's ``meta``); the
agent exists for every configuration with a file. ``load_policy`` reads any such file.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from gamebag.agents.base import Agent, SeatView
from gamebag.agents.registry import AbstainRule, abstention_for, check_params, parameter_values, register_agent
from gamebag.core.errors import GamebagError, UnknownAgentError
from gamebag.core.protocol import Game
from gamebag.core.rng import Rng
from gamebag.core.translation import N_, _

POLICY_PACKAGE = "gamebag.agents.learned_policies"


@dataclass(frozen=True)
class NumpyPolicy:
    """An MLP policy: ``layers`` are (weights [in, out], bias [out]); tanh between them."""

    layers: tuple[tuple[NDArray[np.float32], NDArray[np.float32]], ...]
    meta: Mapping[str, Any]

    def scores(self, observations: NDArray[np.float32]) -> NDArray[np.float32]:
        """Action scores (logits) for a batch ``[n, observation_size]`` or one observation."""
        hidden = np.asarray(observations, dtype=np.float32)
        for number, (weights, bias) in enumerate(self.layers):
            hidden = hidden @ weights + bias
            if number < len(self.layers) - 1:
                hidden = np.tanh(hidden)
        return hidden

    def act(
        self,
        observations: NDArray[np.float32],
        masks: NDArray[np.bool_],
        rng: np.random.Generator | None = None,
    ) -> NDArray[np.int64]:
        """The best legal action per row (or a softmax draw over the legal ones when ``rng`` is given)."""
        scores = np.where(masks, self.scores(observations), -np.inf)
        if rng is None:
            return np.asarray(scores.argmax(axis=-1), dtype=np.int64)
        shifted = np.exp(scores - scores.max(axis=-1, keepdims=True))
        probabilities = shifted / shifted.sum(axis=-1, keepdims=True)
        cumulative = probabilities.cumsum(axis=-1)
        draws = rng.random(cumulative.shape[:-1])[..., None]
        return np.asarray((cumulative < draws).sum(axis=-1), dtype=np.int64).clip(0, masks.shape[-1] - 1)

    def __call__(self, observations: NDArray[np.float32], masks: NDArray[np.bool_]) -> NDArray[np.int64]:
        return self.act(observations, masks)


def one_blas_thread() -> AbstractContextManager[Any]:
    """Batched policy products on one BLAS thread: BLAS threads competing for a busy machine's
    cores made them some five to ten times slower in wall clock. A no-op without threadpoolctl."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # the extra that brings it is not installed
        return nullcontext()
    limits: AbstractContextManager[Any] = threadpool_limits(limits=1, user_api="blas")
    return limits


def save_policy(path: Path, policy: NumpyPolicy) -> None:
    """Write a policy as an ``.npz`` file (weights and a JSON ``meta``)."""
    arrays: dict[str, NDArray[Any]] = {}
    for number, (weights, bias) in enumerate(policy.layers):
        arrays[f"w{number}"] = weights.astype(np.float32)
        arrays[f"b{number}"] = bias.astype(np.float32)
    arrays["meta"] = np.array(json.dumps(dict(policy.meta), sort_keys=True))
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        np.savez_compressed(handle, allow_pickle=False, **arrays)


def load_policy(path: Path | Any) -> NumpyPolicy:
    """Read a policy written by ``save_policy``."""
    with np.load(path, allow_pickle=False) as data:
        count = sum(1 for name in data.files if name.startswith("w"))
        layers = tuple((data[f"w{k}"].astype(np.float32), data[f"b{k}"].astype(np.float32)) for k in range(count))
        meta = json.loads(str(data["meta"])) if "meta" in data.files else {}
    return NumpyPolicy(layers, meta)


def observation_layout(game: Game[Any, Any, Any]) -> dict[str, int]:
    """What a policy of ``game`` must have been trained on: the tensor's layout version and size."""
    return {"version": game.observation_version, "size": len(game.observation_tensor(game.initial_state(), 0))}


def layout_version(policy: NumpyPolicy) -> int:
    """The observation layout ``policy`` was trained on (1 for files written before layouts were recorded)."""
    return int(policy.meta.get("observation", {}).get("version", 1))


def layout_mismatch(policy: NumpyPolicy, game: Game[Any, Any, Any]) -> str | None:
    """Why ``policy`` cannot read ``game``'s observations or name its actions, or None when it can.

    A policy's first layer's width is the observation size it reads, its last layer's the number
    of actions it chooses among.
    """
    wanted = observation_layout(game)
    given = {"version": layout_version(policy), "size": int(policy.layers[0][0].shape[0])}
    if given == wanted:
        # One output per action of ``all_actions()``: a network of another width would read or
        # write past the game's actions (the compiled engines index its outputs by action).
        outputs, actions = int(policy.layers[-1][0].shape[1]), len(game.all_actions())
        if outputs == actions:
            return None
        return (
            f"the {game.game_id} policy chooses among {outputs} actions, but this game has {actions}: "
            "train a new one with gamebag train"
        )
    return (
        f"the {game.game_id} policy was trained on observation layout {given['version']} "
        f"({given['size']} features), but this gamebag's {game.game_id} observation is layout "
        f"{wanted['version']} ({wanted['size']} features): train a new one with gamebag train"
    )


def policy_name(game_id: str, players: int) -> str:
    """The file name of the shipped policy of a configuration."""
    return f"{game_id}-{players}p.npz"


def shipped_policies() -> dict[tuple[str, int], str]:
    """(game id, players) -> file name, for every policy shipped with gamebag."""
    found: dict[tuple[str, int], str] = {}
    for entry in resources.files(POLICY_PACKAGE).iterdir():
        name = entry.name
        if name.endswith("p.npz"):
            stem = name.removesuffix("p.npz")
            game_id, _dash, players = stem.rpartition("-")
            if players.isdigit():
                found[(game_id, int(players))] = name
    return found


class LearnedAgent(Agent):
    """Plays a shipped policy's best legal action (or samples from it), never one ``rule``
    refuses for the ``abstain`` cards unless every legal action is refused."""

    def __init__(
        self,
        game: Game[Any, Any, Any],
        policy: NumpyPolicy,
        sample: bool = False,
        abstain: frozenset[str] = frozenset(),
        rule: AbstainRule | None = None,
    ) -> None:
        if abstain and rule is None:
            raise ValueError("abstaining from cards needs the game's abstain rule")
        params = (["sample=true"] if sample else []) + (["abstain=" + "+".join(sorted(abstain))] if abstain else [])
        self.name = "learned" + (":" + ",".join(params) if params else "")
        self.policy = policy
        self.sample = sample
        self.abstain = abstain
        self.rule = rule
        self.index = {action: position for position, action in enumerate(game.all_actions())}
        self.actions = tuple(game.all_actions())

    def act(self, view: SeatView, rng: Rng) -> Any:
        legal = list(view.legal_actions)
        if self.abstain and self.rule is not None:
            rule, cards = self.rule, self.abstain
            legal = [action for action in legal if not rule(view.observation, action, cards)] or legal
        mask = np.zeros(len(self.actions), dtype=np.bool_)
        mask[[self.index[action] for action in legal]] = True
        observation = np.asarray(view.observation_tensor(), dtype=np.float32)
        generator = np.random.default_rng(rng.getrandbits(63)) if self.sample else None
        choice = int(self.policy.act(observation[None, :], mask[None, :], generator)[0])
        return self.actions[choice]


def shipped_policy(game: Game[Any, Any, Any]) -> NumpyPolicy:
    """The policy shipped for ``game`` (its id, player count and options), checked against its
    observation layout and training options; ``UnknownAgentError`` says why there is none."""
    name = shipped_policies().get((game.game_id, game.num_players))
    if name is None:
        shipped = ", ".join(f"{g} ({n} players)" for g, n in sorted(shipped_policies())) or "none"
        raise UnknownAgentError(
            f"no learned policy ships for {game.game_id} with {game.num_players} players; shipped: {shipped}"
        )
    policy = load_policy(resources.files(POLICY_PACKAGE).joinpath(name))
    mismatch = layout_mismatch(policy, game)
    if mismatch is not None:
        raise UnknownAgentError(f"learned: {mismatch}")
    trained_for = dict(policy.meta.get("options", {}))
    if trained_for and trained_for != {k: _plain(v) for k, v in game.options.items()}:
        raise UnknownAgentError(
            f"the learned {game.game_id} policy was trained with options {trained_for}; this game has other options"
        )
    return policy


def shipped_layers(game: Game[Any, Any, Any]) -> tuple[tuple[NDArray[np.float32], NDArray[np.float32]], ...]:
    """The layers of ``shipped_policy(game)``, for the compiled engines (``gamebag.fast.weights``);
    ``LookupError`` with the reason when none ships."""
    try:
        return shipped_policy(game).layers
    except UnknownAgentError as error:
        raise LookupError(str(error)) from None


def _make(game: Game[Any, Any, Any], params: Mapping[str, str]) -> Agent:
    abstention = abstention_for(type(game))
    check_params("learned", params, ("sample", "abstain") if abstention is not None else ("sample",))
    abstain: frozenset[str] = frozenset()
    if abstention is not None and params.get("abstain"):
        abstain = frozenset(parameter_values(abstention[0], params["abstain"], agent="learned"))
    policy = shipped_policy(game)
    sample = params.get("sample", "false").lower()
    if sample not in ("true", "false"):
        raise UnknownAgentError(f"learned: sample must be true or false, not {params['sample']!r}")
    rule = abstention[1] if abstention is not None else None
    return LearnedAgent(game, policy, sample=sample == "true", abstain=abstain, rule=rule)


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _refusal(game: Game[Any, Any, Any]) -> str | None:
    """Why no shipped policy plays ``game``: none for its player count, or trained for other options
    (loading NumPy weights is cheap, so the policy itself is asked)."""
    if (game.game_id, game.num_players) not in shipped_policies():
        return _("no learned policy ships for {game} with {players} players", game=game.game_id,
                 players=game.num_players)
    try:
        _make(game, {})
    except GamebagError as error:
        return str(error)
    return None


_SHIPPED_GAMES = tuple(sorted({game_id for game_id, _players in shipped_policies()}))
if _SHIPPED_GAMES:
    register_agent(
        "learned",
        _make,
        N_("a small policy trained by self-play (gamebag train), played from NumPy weights; "
           "sample=true draws from it instead of taking its best action; abstain=CARD[+CARD] "
           "(where the game's heuristic takes it) never chooses or plays those cards"),
        games=_SHIPPED_GAMES,
        refuses=_refusal,
    )
