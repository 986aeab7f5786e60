"""Hashes of seeded trajectories through every adapter, to show a speed change changes no game.

For each configuration it plays fixed-seed episodes through the Gymnasium environment (win and
score rewards, a rare illegal action), PettingZoo's Parallel environment (dict and flat
observations, with ``state()``), its AEC environment (both agent orders) and the OpenSpiel adapter
(chance lists, legal actions, information-state and observation strings and tensors, returns), and
prints a short SHA-256 of everything each returned. ``--playouts`` hashes instead every
``observation_tensor`` (as float64 reprs) and chance list met in random rules-engine playouts.
Run on two commits and compare the lines; set ``PYTHONHASHSEED=0`` (Eigen Kweek's state text
shows a set, whose order follows the string hash seed):
``PYTHONHASHSEED=0 .venv/bin/python bench/trajectory_hashes.py [--playouts]``.
"""

from __future__ import annotations

import argparse
import hashlib
import random
from typing import Any

import numpy as np

import gamebag
from gamebag.core.protocol import NodeKind
from gamebag.core.rng import make_rng
from gamebag.interop.gymnasium_env import GamebagEnv
from gamebag.interop.openspiel_game import load
from gamebag.interop.pettingzoo_env import env, parallel_env
from gamebag.testing import random_playout

ADAPTER_CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("wriggle-roulette", 4, {}),
    ("eel-harvest", 3, {}),
    ("eel-harvest", 3, {"draw": "dice"}),
    ("catch-a-dragon", 2, {}),
    ("catch-a-dragon", 3, {}),
    ("pig", 2, {}),
    ("eigen-kweek", 4, {}),
]
PLAYOUT_CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("wriggle-roulette", 4, {}),
    ("wriggle-roulette", 2, {}),
    ("eel-harvest", 3, {}),
    ("eel-harvest", 5, {"draw": "dice"}),
    ("eel-harvest", 8, {}),
    ("catch-a-dragon", 2, {}),
    ("catch-a-dragon", 3, {"dice": 4}),
    ("catch-a-dragon", 1, {}),
    ("pig", 2, {}),
    ("pig", 2, {"goal": 30}),
    ("eigen-kweek", 4, {}),
    ("eigen-kweek", 2, {}),
]


def feed(digest: Any, *items: Any) -> None:
    """Add items to a hash: arrays by dtype, shape and bytes, dictionaries by sorted key, the rest by repr."""
    for item in items:
        if isinstance(item, np.ndarray):
            digest.update(str(item.dtype).encode() + str(item.shape).encode() + item.tobytes())
        elif isinstance(item, dict):
            for key in sorted(item):
                digest.update(repr(key).encode())
                feed(digest, item[key])
        else:
            digest.update(repr(item).encode())


def gymnasium_hash(game_id: str, players: int, options: dict[str, Any], episodes: int, reward: str) -> str:
    digest = hashlib.sha256()
    environment = GamebagEnv(game_id, players, options, opponents="random", reward=reward, seat=players - 1)
    rng = random.Random(1)
    for episode in range(episodes):
        observation, info = environment.reset(seed=7 if episode == 0 else None)
        feed(digest, observation, info)
        while True:
            legal = np.flatnonzero(info["action_mask"])
            action = int(legal[rng.randrange(len(legal))]) if rng.random() > 0.02 else 10**6  # rarely illegal
            observation, reward_now, terminated, truncated, info = environment.step(action)
            feed(digest, observation, reward_now, terminated, truncated, info, environment.action_masks())
            if terminated or truncated:
                break
    return digest.hexdigest()[:16]


def parallel_hash(game_id: str, players: int, options: dict[str, Any], episodes: int, layout: str) -> str:
    digest = hashlib.sha256()
    table = parallel_env(game_id, players, options, observation_format=layout, reward="score")
    rng = random.Random(2)
    for episode in range(episodes):
        observations, infos = table.reset(seed=3 if episode == 0 else None)
        feed(digest, observations, infos, table.state())
        while table.agents:
            actions = {}
            for agent, observation in observations.items():
                mask = observation["action_mask"] if layout == "dict" else infos[agent].get("action_mask", np.zeros(1))
                legal = np.flatnonzero(mask)
                actions[agent] = int(legal[rng.randrange(len(legal))]) if len(legal) else 0
            observations, rewards, terminations, truncations, infos = table.step(actions)
            feed(digest, observations, rewards, terminations, truncations, infos, table.state())
    return digest.hexdigest()[:16]


def aec_hash(game_id: str, players: int, options: dict[str, Any], episodes: int, order: str) -> str:
    digest = hashlib.sha256()
    table = env(game_id, players, options, agent_order=order)
    rng = random.Random(3)
    for episode in range(episodes):
        table.reset(seed=5 if episode == 0 else None)
        for agent in table.agent_iter():
            observation, reward, terminated, truncated, info = table.last()
            first_seat = table.observe(table.possible_agents[0])
            feed(digest, agent, observation, reward, terminated, truncated, info, first_seat)
            if terminated or truncated:
                table.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            table.step(int(legal[rng.randrange(len(legal))]) if len(legal) else 0)
    return digest.hexdigest()[:16]


def openspiel_hash(game_id: str, players: int, options: dict[str, Any], games: int) -> str:
    digest = hashlib.sha256()
    game = load(game_id, players, **options)
    rng = random.Random(4)
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            feed(digest, state.current_player(), str(state))
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                feed(digest, outcomes)
                left, chosen = rng.random(), outcomes[-1][0]
                for outcome, probability in outcomes:
                    left -= probability
                    if left < 0:
                        chosen = outcome
                        break
                state.apply_action(chosen)
                continue
            for seat in range(players):
                legal = state.legal_actions(seat)
                feed(digest, legal)
                if legal:
                    feed(
                        digest,
                        state.information_state_string(seat),
                        state.observation_string(seat),
                        state.observation_tensor(seat),
                    )
            if state.is_simultaneous_node():
                joint = [rng.choice(state.legal_actions(p)) if state.legal_actions(p) else 0 for p in range(players)]
                state.apply_actions(joint)
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        feed(digest, state.returns(), state.history())
    return digest.hexdigest()[:16]


def playout_hash(game_id: str, players: int, options: dict[str, Any]) -> tuple[int, str]:
    game = gamebag.make(game_id, players, **options)
    digest = hashlib.sha256()
    states = 0
    for seed in range(2 if game_id == "eigen-kweek" else 30):
        for state in random_playout(game, make_rng(seed)):
            states += 1
            for seat in range(players):
                digest.update(repr(game.observation_tensor(state, seat)).encode())
            if game.node_kind(state) is NodeKind.CHANCE:
                outcomes = game.chance_outcomes(state)
                if len(outcomes) < 5000:
                    digest.update(repr(list(outcomes)).encode())
    return states, digest.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--playouts", action="store_true", help="hash observation tensors and chance lists instead")
    args = parser.parse_args()
    if args.playouts:
        for game_id, players, options in PLAYOUT_CONFIGS:
            states, value = playout_hash(game_id, players, options)
            print(game_id, players, options, states, value, flush=True)
        return
    print("game players options: gymnasium-win gymnasium-score pz-dict pz-flat aec-acting aec-cycle openspiel")
    for game_id, players, options in ADAPTER_CONFIGS:
        episodes = 1 if game_id == "eigen-kweek" else 4
        row = [
            gymnasium_hash(game_id, players, options, episodes, "win"),
            gymnasium_hash(game_id, players, options, episodes, "score"),
            parallel_hash(game_id, players, options, episodes, "dict"),
            parallel_hash(game_id, players, options, episodes, "flat"),
            aec_hash(game_id, players, options, episodes, "acting"),
            aec_hash(game_id, players, options, episodes, "cycle"),
            openspiel_hash(game_id, players, options, 1 if game_id == "eigen-kweek" else 3),
        ]
        print(game_id, players, options, " ".join(row), flush=True)


if __name__ == "__main__":
    main()
