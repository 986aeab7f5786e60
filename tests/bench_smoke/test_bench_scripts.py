"""Every script in ``bench/`` runs to its end with a tiny budget, so that a bound or API change
cannot silently break one (``bench_fast.py`` once asked ``simulate`` for 2,000,000 games, over its
1,000,000 bound, and died with a traceback at its last section).

Each script runs as a person runs it, ``python bench/NAME.py ARGS``, in a subprocess, with
``GAMEBAG_BENCH_SMOKE=1`` (``bench/smoke.py``: sizes written into a script shrink, after being
checked against gamebag's bounds at full size) and the small sizes of its own flags below; it must
exit 0. A script added to ``bench/`` without a smoke run here fails
``test_every_bench_script_has_a_smoke_run``. The figures printed mean nothing. Each script is its
own test, so pytest-xdist spreads them; together they take about a minute of CPU once numba's
cache holds the kernels (a fresh checkout compiles them first, as the engine tests do).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"
SMOKE_ENV = "GAMEBAG_BENCH_SMOKE"
# Modules the scripts import, not scripts: they have no ``__main__`` block.
HELPERS = frozenset(
    {"attack_matrix.py", "chat_attack.py", "plain_rules.py", "smoke.py", "web_attackers.py", "web_flood.py"}
)
LIMIT_SECONDS = 300  # one script's wall-clock limit (a cold numba cache compiles kernels first)


@dataclass(frozen=True)
class SmokeRun:
    args: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    # Flags naming a commit of this repository (``git archive``): given where the tree is a git checkout.
    git_args: tuple[str, ...] = ()
    needs_git: bool = False  # without those flags the script cannot run at all
    # Modules of gamebag's optional extras the script imports (``rl``, ``jax``): installed by
    # ``make test``; a checkout without the extra skips the script, naming the module.
    extras: tuple[str, ...] = ()


RL = ("gymnasium", "pettingzoo", "pyspiel")


SMOKE_RUNS: dict[str, SmokeRun] = {
    "analysis_kweek.py": SmokeRun(("--games", "1", "--players", "2", "--max-rounds", "2")),
    "baseline_table.py": SmokeRun(("--games", "10", "--search-games", "2", "--only", "pig"), extras=("gymnasium",)),
    "analysis_time.py": SmokeRun(("--only", "catch-a-dragon:2", "--poll", "0.05")),
    "bench_analysis.py": SmokeRun(("--games", "2", "--only", "pig:2", "--playouts", "10")),
    "bench_balance.py": SmokeRun(("--games", "20", "--workers", "1")),
    "bench_eigen_kweek.py": SmokeRun(("--games", "2", "--repeats", "1"), git_args=("--against", "HEAD")),
    "bench_engine.py": SmokeRun(("--seconds", "0.05")),
    "bench_equilibrium.py": SmokeRun(("wriggle-roulette", "1")),
    "bench_equilibrium_loss.py": SmokeRun(
        ("eel-harvest", "--positions", "2", "--agents", "random;heuristic;ismcts:iterations=5;equilibrium")
    ),
    # Its compile-time figure starts fresh processes on an empty numba cache (minutes): its flag skips it.
    "bench_fast.py": SmokeRun(("--seconds", "0.02", "--skip-compile"), extras=("gymnasium",)),
    "bench_fast_kweek.py": SmokeRun(("--seconds", "0.1",)),
    "bench_interop.py": SmokeRun(("--seconds", "0.05", "--rounds", "1"), extras=RL),
    "bench_jax.py": SmokeRun(("--batches", "4", "--repeats", "1", "--only", "pig"), extras=("jax",)),
    "bench_learned.py": SmokeRun(("--games", "100", "--rules-games", "20")),
    "bench_rules_batch.py": SmokeRun(("--envs", "4", "--seconds", "0.05")),
    "bench_search.py": SmokeRun(("--quick", "--iterations", "5")),
    "bench_solvers.py": SmokeRun(("--repeat", "1", "--games", "20")),
    "bench_tune.py": SmokeRun(("--trials", "2", "--games", "50")),
    "bench_vector.py": SmokeRun(("--envs", "8", "--seconds", "0.05"), extras=("gymnasium",)),
    "evaluation_gap.py": SmokeRun(
        (
            "--rules-games", "8", "--compiled-games", "8", "--gymnasium-games", "1",
            "--finished-runs", "1", "--finished", "2", "--finished-envs", "4",
            "--by-length", "--only", "eel-harvest",
        ),
        extras=("gymnasium", "threadpoolctl"),
    ),
    "kweek_equality.py": SmokeRun(("--games", "1", "--sets", "0")),
    # Two commits' kernels in one process: compiling both copies takes minutes, so the smoke run
    # plays them as plain Python (its batches are small enough to ask no prefetch of the compiler).
    "kweek_versions.py": SmokeRun(
        ("--rounds", "1"), {"NUMBA_DISABLE_JIT": "1"}, git_args=("--old", "HEAD"), needs_git=True
    ),
    "learned_targets.py": SmokeRun(("--games", "100", "--where"), extras=("gymnasium",)),
    "load_web.py": SmokeRun(("--clients", "2", "--tables", "1", "--duration", "10", "--think", "0", "--bot", "random")),
    "fair_shares.py": SmokeRun(),
    # One short game of Pig in chromium; the pictures go to a throw-away folder, never docs/img.
    "phone_screenshots.py": SmokeRun(("--only", "pig")),
    "slow_connections.py": SmokeRun(("--connections", "70", "--requests", "3", "--files", "512")),
    "sqlite_wal_index.py": SmokeRun(("--commits", "20", "--rounds", "1", "--seconds", "0.3")),
    "taps_eigen_kweek.py": SmokeRun(("--rounds", "1")),
    "trajectory_hashes.py": SmokeRun(extras=RL),
    "tune_eigen_kweek.py": SmokeRun(("--grid-games", "1", "--report-games", "2", "--ablation-games", "1")),
}


def _is_git_checkout() -> bool:
    try:
        found = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", "HEAD"], capture_output=True)
    except OSError:
        return False
    return found.returncode == 0


def test_every_bench_script_has_a_smoke_run() -> None:
    scripts = {path.name for path in BENCH.glob("*.py")} - HELPERS
    assert scripts == set(SMOKE_RUNS), "add a smoke run for each new script (and drop those of removed ones)"
    for helper in HELPERS:
        assert '__name__ == "__main__"' not in (BENCH / helper).read_text(encoding="utf-8"), helper


@pytest.mark.slow
@pytest.mark.parametrize("script", sorted(SMOKE_RUNS))
def test_the_script_runs_to_its_end_with_a_tiny_budget(script: str) -> None:
    run = SMOKE_RUNS[script]
    missing = [module for module in run.extras if importlib.util.find_spec(module) is None]
    if missing:
        message = f"{script} needs {', '.join(missing)} (gamebag's optional extras, which make test installs)"
        if os.environ.get("CI"):  # CI installs every extra: a missing one is a failure there
            pytest.fail(message)
        pytest.skip(message)
    git = bool(run.git_args) and _is_git_checkout()
    if run.needs_git and not git:
        pytest.skip(f"{script} compares commits of this repository: this tree is not a git checkout")
    args = [*run.args, *(run.git_args if git else ())]
    environment = {**os.environ, SMOKE_ENV: "1", **run.env}
    # This tree's gamebag, whatever is installed: the scripts are checked against the code beside them.
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")]))
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, str(BENCH / script), *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=LIMIT_SECONDS,
    )
    seconds = time.monotonic() - started
    assert done.returncode == 0, f"{script} {' '.join(args)} exited {done.returncode}:\n{done.stderr[-4000:]}"
    assert done.stdout.strip(), f"{script} printed nothing ({seconds:.1f} s)"
    assert "Traceback" not in done.stderr, done.stderr[-4000:]
