"""The ``learned`` targets of Pig and Catch A Dragon: its win rate against each opponent beside
``optimal-win``'s against the same opponent (two players, default options, seats alternated).

Both are measured on the compiled engines, which ``tests/fast`` proves equal to the rules
engine (and ``tests/interop/test_learned_observations.py`` proves that the ``learned``
agent sees and plays there exactly as on the rules engine):

* ``learned``: ``gamebag.interop.train.evaluate`` (the vector environment, the policy in
  each seat for half the games, seeded from ``--seed`` and the seat);
* ``optimal-win``: the compiled whole-game kernels, games ``0 .. n/2 - 1`` of the run
  ``(seed, "learned-targets", seating)`` in each seating.

Each rate has a 95% interval (normal approximation over games); the gap (learned minus
optimal-win) has the interval of a difference of two independent means.

Pig is small enough to be solved for any pair of policies: with ``--exact`` (the default for
Pig) the script also computes the exact win probabilities. Every policy here is a fixed
function of (own score, other score, turn total) -- ``learned`` plays its best-scored action,
``random`` holds with probability one half -- so a seat's chance to win from the start of its
turn solves a linear system over score pairs, found by iterating both seats' turn-start
values to a fixed point (to 1e-12). The same code gives ``optimal-win`` against itself
0.53059 for the first player, the known value of two-player Pig to 100.

With ``--where`` (Catch A Dragon) it also plays the policy against ``optimal-win`` on the
compiled engine (2,048 games at once, 3,000 steps, seats alternating game by game) and counts, by
round (5: tiebreak rounds) and kind of choice, how often the policy's choice differs from the one
``optimal-win`` would make in its seat.

Run: ``.venv/bin/python bench/learned_targets.py [--games N] [--seed S] [--only GAME]
[--policy GAME=FILE] [--no-exact] [--where]``.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from importlib import resources
from pathlib import Path

import numpy as np

import gamebag
from gamebag.agents.learned import POLICY_PACKAGE, NumpyPolicy, load_policy, policy_name
from gamebag.fast import dragon as fast_dragon
from gamebag.fast import engine_for
from gamebag.fast import pig as fast_pig
from gamebag.interop.train import evaluate
from gamebag.interop.vector_env import BatchEnv

sys.path.insert(0, str(Path(__file__).resolve().parent))
from smoke import smoke_or

GAMES = ("pig", "catch-a-dragon")
OPPONENTS = ("heuristic", "random", "optimal-win")
# Fixed-point sweeps of Pig's exact values (they stop at a change under 1e-12), and the batch that
# ``--where`` steps; a smoke run (bench/smoke.py) takes a few of each, so its figures mean nothing.
PIG_SWEEPS = smoke_or(10_000, 2)
WHERE_ENVS, WHERE_STEPS = smoke_or((2048, 3000), (16, 40))


def mean_and_half(values: np.ndarray) -> tuple[float, float]:
    return float(values.mean()), 1.96 * float(values.std(ddof=1)) / math.sqrt(len(values))


def optimal_win_shares(game_id: str, opponent: str, games: int, seed: int) -> np.ndarray:
    """``optimal-win``'s win share in each game against ``opponent``, half the games in each seat."""
    game = gamebag.make(game_id, 2)
    half = games // 2
    shares = []
    for seat, agents in enumerate((("optimal-win", opponent), (opponent, "optimal-win"))):
        engine = engine_for(game, agents)
        if engine is None:
            raise SystemExit(f"{game_id}: no compiled engine for {agents}")
        result = engine.play(game, agents, f"{seed}/learned-targets/{'-'.join(agents)}", 0, half)
        shares.append(result.returns[:, seat])
    return np.concatenate(shares)


# ---- Pig, exactly ---------------------------------------------------------------------------
def pig_decisions(goal: int) -> np.ndarray:
    """A board row for every decision (own score i, other score j, turn total k), seat 0 to move."""
    rows = [
        (i, j, 0, k, fast_pig.DECIDING, 2, 0, -1) for i in range(goal) for j in range(goal) for k in range(2, goal - i)
    ]
    return np.array(rows, dtype=np.int32)


def pig_hold_table(goal: int, board: np.ndarray, holds: np.ndarray) -> np.ndarray:
    table = np.zeros((goal, goal, goal))
    table[board[:, fast_pig.SCORE0], board[:, fast_pig.SCORE1], board[:, fast_pig.TOTAL]] = holds
    return table


def pig_tables(policy: NumpyPolicy) -> dict[str, np.ndarray]:
    """The chance to hold at every decision, for ``learned`` and each opponent."""
    game = gamebag.make("pig", 2)
    goal = fast_pig.rules_of(game).goal
    board = pig_decisions(goal)
    observations = fast_pig.observe_rows(board, goal)[:, 0]
    learned = policy.act(observations, np.ones((len(board), 2), dtype=np.bool_)) == fast_pig.HOLD
    tables = fast_pig.policy_tables(game, ["optimal-win", "optimal-win"])
    zeros = np.zeros(len(board), dtype=np.uint64)
    codes = fast_pig.policy_codes(["optimal-win", "optimal-win"])
    optimal = fast_pig.policy_rows(codes, board, zeros, zeros.copy(), *tables)[:, 0] == fast_pig.HOLD
    heuristic = np.zeros((goal, goal, goal))
    heuristic[:, :, fast_pig.HOLD_AT :] = 1.0
    return {
        "learned": pig_hold_table(goal, board, learned),
        "optimal-win": pig_hold_table(goal, board, optimal),
        "heuristic": heuristic,
        "random": np.full((goal, goal, goal), 0.5),
    }


def pig_turn_start(hold: np.ndarray, mine: np.ndarray, theirs: np.ndarray, sides: int) -> np.ndarray:
    """The mover's chance to win from the start of its turn at every (own, other) score pair,
    given both seats' turn-start values (``theirs[j, i]``: the other seat's, it to move)."""
    goal = hold.shape[0]
    own = np.arange(goal)[:, None]
    top = goal + sides
    value = np.zeros((goal, goal, top + 1))
    value[:, :, goal:] = 1.0
    for total in range(goal - 1, -1, -1):
        roll = (1.0 - theirs.T) / sides  # a one: the other seat's turn, scores unchanged
        for face in range(2, sides + 1):
            roll = roll + np.where(own + total + face >= goal, 1.0, value[:, :, min(total + face, top)]) / sides
        if total == 0:
            value[:, :, 0] = roll
            continue
        held = np.ones((goal, goal))
        room = goal - total
        held[:room, :] = 1.0 - theirs[:, total : total + room].T  # bank the total, the other seat moves
        value[:, :, total] = hold[:, :, total] * held + (1.0 - hold[:, :, total]) * roll
    return value[:, :, 0]


def pig_exact(first: np.ndarray, second: np.ndarray, sides: int = 6) -> tuple[float, float]:
    """``first``'s exact chance to win against ``second``: (moving first, moving second)."""
    goal = first.shape[0]
    a = np.full((goal, goal), 0.5)
    b = np.full((goal, goal), 0.5)
    for _ in range(PIG_SWEEPS):
        a_next = pig_turn_start(first, a, b, sides)
        b_next = pig_turn_start(second, b, a, sides)
        change = max(float(np.abs(a_next - a).max()), float(np.abs(b_next - b).max()))
        a, b = a_next, b_next
        if change < 1e-12:
            break
    return float(a[0, 0]), 1.0 - float(b[0, 0])


def where_it_differs(policy: NumpyPolicy, seed: int, envs: int = WHERE_ENVS, steps: int = WHERE_STEPS) -> None:
    """Catch A Dragon: how often the policy's choices differ from optimal-win's, by round and kind."""
    env = BatchEnv("catch-a-dragon", envs, 2)
    observations, masks, to_act = env.reset(seed)
    learner = np.arange(envs) % 2
    rows_all = np.arange(envs)
    counts: dict[tuple[int, int], list[int]] = {}
    for _ in range(steps):
        board = env.batch.board  # type: ignore[attr-defined]
        optimal = env.compiled_actions(["optimal-win", "optimal-win"])
        joint = optimal.copy()
        rows = np.flatnonzero(to_act[rows_all, learner])
        if len(rows):
            seats = learner[rows]
            chosen = policy.act(observations[rows, seats], masks[rows, seats])
            joint[rows, seats] = chosen
            differs = chosen != optimal[rows, seats]
            rounds = np.minimum(board[rows, fast_dragon.ROUND], 5)
            phases = board[rows, fast_dragon.PHASE]
            for key in set(zip(rounds.tolist(), phases.tolist(), strict=True)):
                here = (rounds == key[0]) & (phases == key[1])
                tally = counts.setdefault(key, [0, 0])
                tally[0] += int(here.sum())
                tally[1] += int(differs[here].sum())
        observations, _, done, masks, to_act = env.step(joint)
        learner[done] = 1 - learner[done]
    kinds = {fast_dragon.COLLECTING: "collect", fast_dragon.DECIDING: "stop or roll"}
    print("\n| round | choice | choices | differ from optimal-win |")
    print("|---|---|---|---|")
    for (round_no, phase), (total, differ) in sorted(counts.items()):
        shown = "tiebreak" if round_no == 5 else str(round_no)
        print(f"| {shown} | {kinds.get(phase, phase)} | {total:,} | {differ:,} ({differ / total:.2%}) |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000, help="games per matchup (half in each seat)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=GAMES)
    parser.add_argument("--policy", action="append", default=[], help="GAME=FILE: measure this policy instead")
    parser.add_argument("--no-exact", action="store_true", help="skip Pig's exact values")
    parser.add_argument("--where", action="store_true", help="Catch A Dragon: where its choices differ")
    args = parser.parse_args()
    if not 100 <= args.games <= 10_000_000:
        raise SystemExit(f"--games must be from 100 to 10,000,000, not {args.games}")
    chosen = dict(item.split("=", 1) for item in args.policy)
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for game_id in (args.only,) if args.only else GAMES:
        path = Path(chosen[game_id]) if game_id in chosen else resources.files(POLICY_PACKAGE) / policy_name(game_id, 2)
        policy = load_policy(path)
        print(f"\n{game_id}: policy {path} ({args.games:,} games per matchup, seed {args.seed})")
        print("| opponent | learned | optimal-win | gap |")
        print("|---|---|---|---|")
        started = time.perf_counter()
        for opponent in OPPONENTS:
            learned = evaluate(game_id, 2, policy, opponent, games=args.games, seed=args.seed)
            learned_half = (learned.high - learned.low) / 2 if learned.high < 1 else learned.win_share - learned.low
            if opponent == "optimal-win":
                optimal, optimal_half = 0.5, 0.0  # against itself, seats alternated: one half exactly
            else:
                optimal, optimal_half = mean_and_half(optimal_win_shares(game_id, opponent, args.games, args.seed))
            gap = learned.win_share - optimal
            gap_half = math.hypot(learned_half, optimal_half)
            print(
                f"| `{opponent}` | {learned.win_share:.4f} ± {learned_half:.4f} | {optimal:.4f} ± {optimal_half:.4f} "
                f"| {gap:+.4f} ± {gap_half:.4f} |"
            )
        print(f"({time.perf_counter() - started:.0f} s)")
        if game_id == "pig" and not args.no_exact:
            started = time.perf_counter()
            tables = pig_tables(policy)
            print("\nexact (first / second / seats alternated):")
            print("| opponent | learned | optimal-win | gap |")
            print("|---|---|---|---|")
            for opponent in OPPONENTS:
                rates = {}
                for player in ("learned", "optimal-win"):
                    one, two = pig_exact(tables[player], tables[opponent])
                    rates[player] = (one, two, (one + two) / 2)
                shown = {p: f"{r[2]:.5f} ({r[0]:.5f} / {r[1]:.5f})" for p, r in rates.items()}
                gap = rates["learned"][2] - rates["optimal-win"][2]
                print(f"| `{opponent}` | {shown['learned']} | {shown['optimal-win']} | {gap:+.5f} |")
            print(f"({time.perf_counter() - started:.0f} s)")
        if game_id == "catch-a-dragon" and args.where:
            where_it_differs(policy, args.seed)
    print(f"\nload average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
