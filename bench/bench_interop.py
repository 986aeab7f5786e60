"""Speed of the single-environment wrappers against the raw rules engine, random play, one core.

For each configuration it plays uniformly random games for about ``--seconds`` each way:

* ``engine``: ``sim.play.random_walk`` on the rules engine (no observations);
* ``engine+obs``: the same walk, also reading ``observation_tensor`` of every seat at every
  decision node (what a multi-agent wrapper must hand over); the engine's own floor for them;
* ``gymnasium``: ``GamebagEnv`` (seat 0 picks from the mask, the other seats are the
  ``random`` agent), one observation and mask per learner step;
* ``pz-parallel`` / ``pz-aec``: PettingZoo's Parallel and AEC environments, every seat
  picking from its own mask;
* ``openspiel``: the OpenSpiel adapter, random legal actions and sampled chance;
* ``openspiel+info``: the same, reading the acting seats' information-state strings at each
  decision (what tabular algorithms and ISMCTS do).

It prints games per second and the ratios ``engine / wrapper`` (the target is at most 2 for the
Gymnasium and PettingZoo wrappers, at most 3 for OpenSpiel) and ``engine+obs / wrapper`` (the
wrapper's own overhead above the observations it must compute). Run:
``.venv/bin/python bench/bench_interop.py [--seconds S]``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import gamebag
from gamebag.core.protocol import NodeKind
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


def pick(legal: np.ndarray[Any, Any], rng: random.Random) -> int:
    """A uniformly random entry of a non-empty index array (the learner's part, kept cheap)."""
    return int(legal[rng.randrange(len(legal))])


def engine_game(game_id: str, players: int) -> Callable[[int], None]:
    game = gamebag.make(game_id, players)
    rng = make_rng(0)

    def play(number: int) -> None:
        for _ in random_walk(game, rng):
            pass

    return play


def engine_observing_game(game_id: str, players: int) -> Callable[[int], None]:
    game = gamebag.make(game_id, players)
    rng = make_rng(0)

    def play(number: int) -> None:
        state = game.initial_state()
        while True:
            kind = game.node_kind(state)
            if kind is NodeKind.TERMINAL:
                return
            if kind is NodeKind.CHANCE:
                state = game.apply_chance(state, game.sample_chance(state, rng))
                continue
            for seat in range(players):
                game.observation_tensor(state, seat)
            moves = {}
            for seat in game.acting_players(state):
                legal = game.legal_actions(state, seat)
                moves[seat] = legal[rng.randrange(len(legal))]
            state = game.apply(state, moves)

    return play


def gymnasium_game(game_id: str, players: int) -> Callable[[int], None]:
    environment = GamebagEnv(game_id, players, opponents="random")
    rng = random.Random(0)

    def play(number: int) -> None:
        _, info = environment.reset(seed=number)
        while True:
            mask = info["action_mask"]
            _, _, terminated, truncated, info = environment.step(pick(np.flatnonzero(mask), rng))
            if terminated or truncated:
                return

    return play


def parallel_game(game_id: str, players: int) -> Callable[[int], None]:
    table = parallel_env(game_id, players)
    rng = random.Random(0)

    def play(number: int) -> None:
        observations, _ = table.reset(seed=number)
        while table.agents:
            actions = {}
            for agent, observation in observations.items():
                legal = np.flatnonzero(observation["action_mask"])
                actions[agent] = pick(legal, rng) if len(legal) else 0
            observations, *_ = table.step(actions)

    return play


def aec_game(game_id: str, players: int) -> Callable[[int], None]:
    table = env(game_id, players)
    rng = random.Random(0)

    def play(number: int) -> None:
        table.reset(seed=number)
        for _ in table.agent_iter():
            observation, _, terminated, truncated, _ = table.last()
            if terminated or truncated:
                table.step(None)
            else:
                table.step(pick(np.flatnonzero(observation["action_mask"]), rng))

    return play


def openspiel_game(game_id: str, players: int, read_information: bool = False) -> Callable[[int], None]:
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
                    if legal and read_information:
                        state.information_state_string(seat)
                    joint.append(rng.choice(legal) if legal else 0)
                state.apply_actions(joint)
            else:
                if read_information:
                    state.information_state_string(state.current_player())
                state.apply_action(rng.choice(state.legal_actions()))

    return play


WRAPPERS = {
    "gymnasium": gymnasium_game,
    "pz-parallel": parallel_game,
    "pz-aec": aec_game,
    "openspiel": openspiel_game,
    "openspiel+info": lambda game_id, players: openspiel_game(game_id, players, read_information=True),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per configuration and wrapper")
    parser.add_argument("--games", nargs="*", default=None, help="game ids (default: all five configurations)")
    args = parser.parse_args()
    print(f"{'game':<18} {'players':>7} {'wrapper':<14} {'games/s':>9} {'engine/wrapper':>15} {'engine+obs/w.':>19}")
    for game_id, players in CONFIGS:
        if args.games and game_id not in args.games:
            continue
        engine = rate(engine_game(game_id, players), args.seconds)
        observing = rate(engine_observing_game(game_id, players), args.seconds)
        print(f"{game_id:<18} {players:>7} {'engine':<14} {engine:>9,.0f}")
        print(f"{game_id:<18} {players:>7} {'engine+obs':<14} {observing:>9,.0f} {engine / observing:>15.2f}")
        for name, make in WRAPPERS.items():
            wrapped = rate(make(game_id, players), args.seconds)
            print(
                f"{game_id:<18} {players:>7} {name:<14} {wrapped:>9,.0f} {engine / wrapped:>15.2f} "
                f"{observing / wrapped:>19.2f}"
            )


if __name__ == "__main__":
    main()
