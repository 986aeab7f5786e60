"""Speed of the single-environment wrappers against the raw rules engine, random play, one core.

For each configuration it plays uniformly random games for about ``--seconds`` each way:

* ``engine``: ``sim.play.random_walk`` on the rules engine (no observations), the rules
  engine's own fastest loop;
* ``engine+obs``: the same walk, also reading ``observation_tensor`` of every seat at every
  decision node (what a multi-agent wrapper must hand over); the engine's own floor for them;
* ``engine+chance``: the same walk, drawing each chance outcome from the game's full
  ``chance_outcomes`` list (as floats) instead of ``sample_chance``: OpenSpiel hands chance to
  its algorithms as explicit distributions, so this is the engine's own floor for that adapter;
* ``gymnasium``: ``GamebagEnv`` (seat 0 picks from the mask, the other seats are the
  ``random`` agent), one observation and mask per learner step; the environments are seeded
  by their first ``reset`` only, as a training loop does;
* ``pz-parallel`` / ``pz-aec``: PettingZoo's Parallel and AEC environments, every seat
  picking from its own mask;
* ``openspiel``: the OpenSpiel adapter, random legal actions and sampled chance;
* ``openspiel+info``: the same, reading the acting seats' information-state strings at each
  decision (what tabular algorithms and ISMCTS do).

It prints games per CPU second and the ratios ``wrapper cost / engine cost`` (the target is at
most 2 for the Gymnasium and PettingZoo wrappers, at most 3 for OpenSpiel) and the cost over the
engine's floor for what the wrapper must hand over (``engine+obs`` for the reinforcement-learning
wrappers, ``engine+chance`` for OpenSpiel). Rates are CPU time of this process (so other work on
the machine disturbs them less), every variant measured in several interleaved rounds and the
best round kept; the load average is printed before and after. Run:
``.venv/bin/python bench/bench_interop.py [--seconds S] [--rounds R] [--games ID ...]``.
"""

from __future__ import annotations

import argparse
import os
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


def rate(play_one: Callable[[int], None], seconds: float, first: int = 0) -> tuple[float, int]:
    """Games per CPU second of ``play_one(game_number)`` over about ``seconds``; and the games played."""
    games = 0
    started = time.process_time()
    while True:
        play_one(first + games)
        games += 1
        elapsed = time.process_time() - started
        if elapsed >= seconds:
            return games / elapsed, games


def draw(outcomes: list[tuple[Any, float]], rng: random.Random) -> Any:
    """One outcome of an explicit distribution (the same code for the engine and the adapter)."""
    left = rng.random()
    for outcome, probability in outcomes:
        left -= probability
        if left < 0:
            return outcome
    return outcomes[-1][0]


class MaskPicker:
    """The learner's part, kept cheap: a uniformly random legal index of a mask.

    The legal indices of each distinct mask are found once (``np.flatnonzero``) and remembered,
    so the benchmark times the wrapper rather than the policy reading its mask.
    """

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.legal: dict[bytes, tuple[int, ...]] = {}

    def __call__(self, mask: np.ndarray[Any, Any]) -> int:
        key = mask.tobytes()
        legal = self.legal.get(key)
        if legal is None:
            legal = self.legal[key] = tuple(int(i) for i in np.flatnonzero(mask))
        return legal[self.rng.randrange(len(legal))] if legal else 0


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
    seats = range(players)

    def play(number: int) -> None:
        for state in random_walk(game, rng):
            if game.node_kind(state) is NodeKind.DECISION:
                for seat in seats:
                    game.observation_tensor(state, seat)

    return play


def engine_chance_game(game_id: str, players: int) -> Callable[[int], None]:
    game = gamebag.make(game_id, players)
    rng = random.Random(0)

    def play(number: int) -> None:
        state = game.initial_state()
        while True:
            kind = game.node_kind(state)
            if kind is NodeKind.TERMINAL:
                return
            if kind is NodeKind.CHANCE:
                outcomes = [(o, p.numerator / p.denominator) for o, p in game.chance_outcomes(state)]
                state = game._apply_chance(state, draw(outcomes, rng))  # an outcome of its own list
                continue
            legal = game.legal_actions_by_seat(state)
            moves = {seat: choices[rng.randrange(len(choices))] for seat, choices in legal.items()}
            state = game.apply_chosen(state, moves, legal)

    return play


def gymnasium_game(game_id: str, players: int) -> Callable[[int], None]:
    environment = GamebagEnv(game_id, players, opponents="random")
    pick = MaskPicker(0)

    def play(number: int) -> None:
        _, info = environment.reset(seed=None if number else 0)
        while True:
            _, _, terminated, truncated, info = environment.step(pick(info["action_mask"]))
            if terminated or truncated:
                return

    return play


def parallel_game(game_id: str, players: int) -> Callable[[int], None]:
    table = parallel_env(game_id, players)
    pick = MaskPicker(0)

    def play(number: int) -> None:
        observations, _ = table.reset(seed=None if number else 0)
        while table.agents:
            actions = {agent: pick(observation["action_mask"]) for agent, observation in observations.items()}
            observations, *_ = table.step(actions)

    return play


def aec_game(game_id: str, players: int) -> Callable[[int], None]:
    table = env(game_id, players)
    pick = MaskPicker(0)

    def play(number: int) -> None:
        table.reset(seed=None if number else 0)
        for _ in table.agent_iter():
            observation, _, terminated, truncated, _ = table.last()
            if terminated or truncated:
                table.step(None)
            else:
                table.step(pick(observation["action_mask"]))

    return play


def openspiel_game(game_id: str, players: int, read_information: bool = False) -> Callable[[int], None]:
    game = load(game_id, players)
    rng = random.Random(0)

    def play(number: int) -> None:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(draw(state.chance_outcomes(), rng))
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


BASELINES = {
    "engine": engine_game,
    "engine+obs": engine_observing_game,
    "engine+chance": engine_chance_game,
}
WRAPPERS = {
    "gymnasium": gymnasium_game,
    "pz-parallel": parallel_game,
    "pz-aec": aec_game,
    "openspiel": openspiel_game,
    "openspiel+info": lambda game_id, players: openspiel_game(game_id, players, read_information=True),
}
TARGETS = {"gymnasium": 2.0, "pz-parallel": 2.0, "pz-aec": 2.0, "openspiel": 3.0, "openspiel+info": 3.0}
# The engine's own floor for what each wrapper must hand over.
FLOORS = {
    "gymnasium": "engine+obs",
    "pz-parallel": "engine+obs",
    "pz-aec": "engine+obs",
    "openspiel": "engine+chance",
    "openspiel+info": "engine+chance",
}


def measure(game_id: str, players: int, seconds: float, rounds: int) -> dict[str, float]:
    """Best-round games per CPU second of every variant, the rounds interleaved."""
    players_of = {name: make(game_id, players) for name, make in {**BASELINES, **WRAPPERS}.items()}
    best: dict[str, float] = dict.fromkeys(players_of, 0.0)
    played: dict[str, int] = dict.fromkeys(players_of, 0)
    for _ in range(rounds):
        for name, play in players_of.items():
            games_per_second, games = rate(play, seconds / rounds, played[name])
            played[name] += games
            best[name] = max(best[name], games_per_second)
    return best


def load_average() -> str:
    return "load average " + " ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per configuration and variant")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (the best is kept)")
    parser.add_argument("--games", nargs="*", default=None, help="game ids (default: all five configurations)")
    args = parser.parse_args()
    print(f"{load_average()}, {os.cpu_count()} cpus")
    print(f"{'game':<17} {'pl':>2} {'variant':<15} {'games/CPU-s':>11} {'x engine':>9} {'target':>7} {'x floor':>8}")
    for game_id, players in CONFIGS:
        if args.games and game_id not in args.games:
            continue
        rates = measure(game_id, players, args.seconds, args.rounds)
        engine = rates["engine"]
        for name, value in rates.items():
            cost = engine / value
            if name in WRAPPERS:
                floor = FLOORS[name]
                target = TARGETS[name]
                mark = "ok" if cost <= target else "over"
                print(
                    f"{game_id:<17} {players:>2} {name:<15} {value:>11,.0f} {cost:>9.2f} "
                    f"{target:>4.0f} {mark:<2} {rates[floor] / value:>8.2f}"
                )
            else:
                print(f"{game_id:<17} {players:>2} {name:<15} {value:>11,.0f} {cost:>9.2f}")
    print(load_average())


if __name__ == "__main__":
    main()
