"""Two commits' Eigen Kweek kernels in one process: the same games, and how much faster.

Single runs of ``bench_fast_kweek.py`` move by up to a quarter from one minute to the next
on a shared machine, more than most single changes gain. This script exports
``src/gamebag`` of two commits (``git archive``) as two packages with their own names
(imports rewritten), so both load in one process, and then:

- hashes, for each commit, seeded whole games (random, heuristic, mixed and ``learned``
  lineups, with options), step batches (their actions, rewards, done flags, observations
  and masks) and learner steps: equal hashes mean the same games, draw for draw;
- plays the two alternately in short slices (400 whole games, or 6 steps of a batch of
  1,024) for ``--rounds`` rounds, alternating which goes first, and prints each one's
  games per CPU-second and the new/old ratio. One commit against itself came out within 1.5%.

Run: ``.venv/bin/python bench/kweek_versions.py --old REV [--new REV] [--rounds 80]``
(compiles both commits' kernels first: about a minute each).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from smoke import smoke_or

ROOT = Path(__file__).resolve().parent.parent

# A smoke run (bench/smoke.py) hashes and times a handful of games and steps instead.
SLICE_GAMES = smoke_or(400, 2)
SLICE_STEPS = smoke_or(6, 1)
BATCH = smoke_or(1024, 4)  # games of the timed step batch (a smoke run: few enough to prefetch none)
FIGURES = ("random", "heuristic", "steps")


def export(rev: str, name: str, into: Path) -> None:
    """``src/gamebag`` at ``rev`` as package ``name`` under ``into``."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "src/gamebag"], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    (into / "src" / "gamebag").rename(into / name)
    for path in (into / name).rglob("*.py"):
        text = path.read_text()
        text = re.sub(r"\bgamebag\.", f"{name}.", text)
        text = re.sub(r"^(\s*)import gamebag\b", rf"\1import {name}", text, flags=re.M)
        text = re.sub(r"^(\s*)from gamebag import", rf"\1from {name} import", text, flags=re.M)
        path.write_text(text.replace('"gamebag"', f'"{name}"'))


def digest(*arrays: Any) -> str:
    h = hashlib.sha256()
    for array in arrays:
        h.update(np.ascontiguousarray(array).tobytes())
    return h.hexdigest()[:12]


def fingerprints(package: Any, engine: Any) -> list[str]:
    lines = []
    for players, agents, options, count in (
        (4, ["random"] * 4, {}, 20000),
        (4, ["heuristic"] * 4, {}, 20000),
        (4, ["heuristic", "random", "heuristic:abstain=JULITA+RIA", "random"], {}, 5000),
        (3, ["heuristic:abstain=DEN OLLANDER", "random", "heuristic"], {"coin_visibility": "open"}, 5000),
        (2, ["random", "heuristic"], {"stefaan_order": "tie", "max_rounds": 12}, 5000),
        (4, ["learned"] * 4, {}, 2000),
        (3, ["learned", "heuristic", "random"], {}, 2000),
    ):
        count = smoke_or(count, 1)
        r = engine.play(package.make("eigen-kweek", players, **options), agents, 7, 0, count)
        lines.append(f"{count} games, {players}p {'/'.join(agents)} {options}: "
                     f"{digest(r.scores, r.returns, r.length, r.ended_by, r.cards)}")  # fmt: skip
    for agents in (["heuristic"] * 4, ["random", "heuristic", "random", "heuristic"]):
        envs, steps = smoke_or(64, 4), smoke_or(600, 4)
        batch = engine.step_batch(package.make("eigen-kweek", 4), envs)
        batch.reset(3)
        h = hashlib.sha256()
        for k in range(steps):
            actions = batch.policy_actions(agents)
            if k % 50 == 0:
                h.update(batch.observations().tobytes())
                h.update(batch.legal_mask().tobytes())
            batch.step(actions)
            for array in (actions, batch.rewards(), batch.done()):
                h.update(array.tobytes())
            batch.reset_done()
        lines.append(f"{steps} steps of a step batch, {'/'.join(agents)}: {h.hexdigest()[:12]}")
    envs, steps = smoke_or(64, 4), smoke_or(300, 4)
    batch = engine.step_batch(package.make("eigen-kweek", 4), envs)
    batch.reset(5)
    view = batch.learner_view(0)
    noise = np.random.default_rng(0).random((steps, envs, batch.num_actions))
    h = hashlib.sha256()
    for k in range(steps):
        step = batch.learner_step(0, "heuristic", (noise[k] * view.masks).argmax(axis=1), view)
        view = step.view
        for array in (view.observations, view.masks, view.acting, step.rewards, step.done):
            h.update(np.asarray(array).tobytes())
    lines.append(f"{steps} learner steps: {h.hexdigest()[:12]}")
    return lines


def timings(versions: dict[str, tuple[Any, Any]], rounds: int) -> dict[tuple[str, str], float]:
    """Games per CPU-second of each version and figure, the versions played alternately."""
    spent = {(name, figure): [0.0, 0] for name in versions for figure in FIGURES}
    batches = {}
    games = {}  # one game object per version: the engine prepares its tables once per game object
    for name, (package, engine) in versions.items():
        game = games[name] = package.make("eigen-kweek", 4)
        for agent in ("random", "heuristic"):
            engine.play(game, [agent] * 4, 0, 0, 2)
        batch = engine.step_batch(game, BATCH)
        batch.reset(2)
        for _ in range(smoke_or(300, 2)):  # past every env's first game
            batch.step(batch.policy_actions(["heuristic"] * 4))
            batch.reset_done()
        batches[name] = batch
    started = dict.fromkeys(versions, 0)
    names = list(versions)
    for number in range(rounds):
        for figure in FIGURES:
            for name in names if number % 2 == 0 else names[::-1]:
                package, engine = versions[name]
                began = time.process_time()
                if figure == "steps":
                    batch = batches[name]
                    done = 0
                    for _ in range(SLICE_STEPS):
                        batch.step(batch.policy_actions(["heuristic"] * 4))
                        done += int(batch.done().sum())
                        batch.reset_done()
                    units = done  # games finished: the batch is in a steady state of restarts
                else:
                    engine.play(games[name], [figure] * 4, 1, started[name], started[name] + SLICE_GAMES)
                    started[name] += SLICE_GAMES
                    units = SLICE_GAMES
                spent[(name, figure)][0] += time.process_time() - began
                spent[(name, figure)][1] += units
    return {key: count / seconds for key, (seconds, count) in spent.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--old", required=True, help="the commit to compare against")
    parser.add_argument("--new", default="HEAD", help="the commit to measure (default HEAD)")
    parser.add_argument("--rounds", type=int, default=80, help="alternations of the timed slices (default 80)")
    args = parser.parse_args()
    if not 1 <= args.rounds <= 10_000:
        parser.error(f"--rounds must be 1 to 10000, not {args.rounds}")
    for rev in (args.old, args.new):
        found = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
                               capture_output=True, text=True)  # fmt: skip
        if found.returncode != 0:
            parser.error(f"{rev!r} is not a commit of this repository")
    with tempfile.TemporaryDirectory(prefix="kweek-versions-") as folder:
        versions = {}
        for name, rev in (("gamebag_old", args.old), ("gamebag_new", args.new)):
            export(rev, name, Path(folder))
        sys.path.insert(0, folder)
        for name in ("gamebag_old", "gamebag_new"):
            package = importlib.import_module(name)
            engine = importlib.import_module(f"{name}.fast.eigen_kweek.engine").EigenKweekEngine()
            versions[name] = (package, engine)
        prints = {name: fingerprints(package, engine) for name, (package, engine) in versions.items()}
        print(f"Same games ({args.old} against {args.new}):")
        for old, new in zip(prints["gamebag_old"], prints["gamebag_new"], strict=True):
            verdict = "same" if old == new else f"DIFFERENT (old {old.rsplit(' ', 1)[1]})"
            print(f"  {verdict}  {new}")
        rates = timings(versions, args.rounds)
        print(f"Games per CPU-second, 4 players, the two played alternately ({args.rounds} rounds):")
        for figure in FIGURES:
            old, new = rates[("gamebag_old", figure)], rates[("gamebag_new", figure)]
            label = f"step batch N={BATCH} (games finished)" if figure == "steps" else f"kernel, {figure}"
            ratio = f"{new / old:.3f}" if old else "-"  # a slice too short to finish a game (a smoke run)
            print(f"  {label:34s} old {old:>9,.0f}  new {new:>9,.0f}  new/old {ratio}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
