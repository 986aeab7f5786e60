"""Speed of the single-environment wrappers against the raw rules engine, random play, one core.

For each configuration it plays uniformly random games for about ``--seconds`` each way:

* ``engine``: ``sim.play.random_walk`` on the rules engine (no observations);
* ``gymnasium``: ``GamebagEnv`` (seat 0 picks from the mask, the other seats are the
  ``random`` agent), one observation and mask per learner step;
* ``pz-parallel`` / ``pz-aec``: PettingZoo's Parallel and AEC environments, every seat
  picking from its own mask;
* ``openspiel``: the OpenSpiel adapter, random legal actions and sampled chance, with the
  acting seats' information-state strings read at each decision (what tabular algorithms do).

It prints games per second and the ratio ``engine / wrapper`` (the target is at most 2 for the
Gymnasium and PettingZoo wrappers, at most 3 for OpenSpiel). Run:
``.venv/bin/python bench/bench_interop.py [--seconds S]``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np

import gamebag
from gamebag.core.rng import make_rng
from gamebag.interop.gymnasium_env import GamebagEnv
from gamebag.interop.openspiel_game import load
from gamebag.interop.pettingzoo_env import env, parallel_env
from gamebag.sim.play import random_walk

CONFIGS = [("wriggle-roulette", 4), ("eel-harvest", 3), ("catch-a-dragon", 2), ("pig", 2), ("eigen-kweek", 4)]


def rate(play_one: Callable[[int], None], seconds: float) -> float:
    """Games per second of ``play_one(game_number)`` over about ``seconds``."""
    games = 0
    started = time.perf_counter()
    while True:
        play_one(games)
        games += 1
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return games / elapsed


def engine_game(game_id: str, players: int) -> Callable[[int], None]:
    game = gamebag.make(game_id, players)
    rng = make_rng(0)

    def play(number: int) -> None:
        for _ in random_walk(game, rng):
            pass

    return play


def gymnasium_game(game_id: str, players: int) -> Callable[[int], None]:
    environment = GamebagEnv(game_id, players, opponents="random")
    rng = np.random.default_rng(0)

    def play(number: int) -> None:
        _, info = environment.reset(seed=number)
        while True:
            mask = info["action_mask"]
            _, _, terminated, truncated, info = environment.step(int(rng.choice(np.flatnonzero(mask))))
            if terminated or truncated:
                return

    return play


def parallel_game(game_id: str, players: int) -> Callable[[int], None]:
    table = parallel_env(game_id, players)
    rng = np.random.default_rng(0)

    def play(number: int) -> None:
        observations, _ = table.reset(seed=number)
        while table.agents:
            actions = {}
            for agent, observation in observations.items():
                legal = np.flatnonzero(observation["action_mask"])
                actions[agent] = int(rng.choice(legal)) if len(legal) else 0
            observations, *_ = table.step(actions)

    return play


def aec_game(game_id: str, players: int) -> Callable[[int], None]:
    table = env(game_id, players)
    rng = np.random.default_rng(0)

    def play(number: int) -> None:
        table.reset(seed=number)
        for _ in table.agent_iter():
            observation, _, terminated, truncated, _ = table.last()
            if terminated or truncated:
                table.step(None)
            else:
                table.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))

    return play


def openspiel_game(game_id: str, players: int) -> Callable[[int], None]:
    game = load(game_id, players)
    rng = random.Random(0)

    def play(number: int) -> None:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            elif state.is_simultaneous_node():
                joint = []
                for seat in range(players):
                    legal = state.legal_actions(seat)
                    if legal:
                        state.information_state_string(seat)
                    joint.append(rng.choice(legal) if legal else 0)
                state.apply_actions(joint)
            else:
                state.information_state_string(state.current_player())
                state.apply_action(rng.choice(state.legal_actions()))

    return play


WRAPPERS = {
    "gymnasium": gymnasium_game,
    "pz-parallel": parallel_game,
    "pz-aec": aec_game,
    "openspiel": openspiel_game,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per configuration and wrapper")
    parser.add_argument("--games", nargs="*", default=None, help="game ids (default: all five configurations)")
    args = parser.parse_args()
    print(f"{'game':<18} {'players':>7} {'wrapper':<12} {'games/s':>9} {'engine/wrapper':>15}")
    for game_id, players in CONFIGS:
        if args.games and game_id not in args.games:
            continue
        engine = rate(engine_game(game_id, players), args.seconds)
        print(f"{game_id:<18} {players:>7} {'engine':<12} {engine:>9,.0f} {'':>15}")
        for name, make in WRAPPERS.items():
            wrapped = rate(make(game_id, players), args.seconds)
            print(f"{game_id:<18} {players:>7} {name:<12} {wrapped:>9,.0f} {engine / wrapped:>15.2f}")


if __name__ == "__main__":
    main()
