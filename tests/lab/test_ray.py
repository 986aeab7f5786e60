"""The Ray executor (``--executor ray``, the ``cluster`` extra): the very rows of a local run
(per-game seeding) and the very trials of a local ``tune``, on a local Ray instance; and, where
Ray is not installed, one refusal line naming the extra, before any work.

The Ray runs need Ray (``make`` installs the ``cluster`` extra, so CI runs them); the refusal is
checked everywhere by hiding Ray from the import system.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from gamebag import lab
from gamebag.cli.app import app
from gamebag.core.errors import GamebagError
from gamebag.lab.execute import RAY_MISSING, make_executor

TUNE = ["tune", "wriggle-roulette", "--players", "3", "--search", "snakes=12..22", "--goal", "fair",
        "--trials", "3", "--games", "200", "--seed", "3", "--json"]  # fmt: skip


@pytest.fixture(scope="module")
def ray() -> Iterator[Any]:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield ray
    finally:
        ray.shutdown()


# One test for everything that needs a running Ray: starting Ray costs seconds, and xdist may hand
# the tests of a module to different workers, each of which would start its own.
@pytest.mark.slow
def test_ray_runs_equal_the_local_runs_for_balance_and_tune(ray: Any) -> None:
    kwargs = {"players": "2-3", "agents": "heuristic", "games": 1100, "seed": 5}
    local = lab.balance("wriggle-roulette", **kwargs)  # type: ignore[arg-type]
    seen: list[tuple[int, int]] = []
    remote = lab.balance("wriggle-roulette", executor="ray", progress=lambda c, k: seen.append((c, k)), **kwargs)  # type: ignore[arg-type]
    assert remote.per_game.equals(local.per_game)
    assert [c.win_share for c in remote.cells] == [c.win_share for c in local.cells]
    assert sum(k for _, k in seen) == 2 * 1100  # progress reported for every game
    rules = lab.balance("eigen-kweek", players=2, games=30, seed=1, executor="ray")
    assert rules.per_game.equals(lab.balance("eigen-kweek", players=2, games=30, seed=1).per_game)
    assert ray.is_initialized()  # a Ray the caller started is left running

    # gamebag tune --executor ray: the very trials and recommendation of a local tune.
    runner = CliRunner()
    local_tune = runner.invoke(app, TUNE)
    remote_tune = runner.invoke(app, [*TUNE, "--executor", "ray"])
    assert local_tune.exit_code == 0, local_tune.output
    assert remote_tune.exit_code == 0, remote_tune.output
    local_json, remote_json = json.loads(local_tune.stdout), json.loads(remote_tune.stdout)
    assert [t["state"] for t in remote_json["trials"]] == ["complete"] * 3
    assert remote_json["trials"] == local_json["trials"]
    assert remote_json["best"] is not None and remote_json["best"] == local_json["best"]
    assert ray.is_initialized()


@pytest.fixture
def no_ray(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ray as on a machine without the ``cluster`` extra: ``import ray`` fails, no spec is found."""
    monkeypatch.setitem(sys.modules, "ray", None)


@pytest.mark.parametrize(
    "args",
    [
        [*TUNE, "--executor", "ray", "--storage", "sqlite:///tune.db"],
        ["balance", "pig", "--games", "10", "--executor", "ray", "--per-game", "rows.csv"],
    ],
    ids=["tune", "balance"],
)
def test_executor_ray_without_ray_is_one_line_naming_the_extra(
    no_ray: None, args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    outcome = CliRunner().invoke(app, args)
    assert outcome.exit_code == 2, outcome.output
    assert outcome.stdout == ""
    assert outcome.stderr.splitlines() == [f"error: {RAY_MISSING}"]
    assert "gamebag[cluster]" in RAY_MISSING
    assert list(tmp_path.iterdir()) == []  # no trial database, no rows file


def test_executor_is_checked_before_ray_or_workers_start(no_ray: None) -> None:
    with pytest.raises(GamebagError, match=r"gamebag\[cluster\]"):
        make_executor("ray", 1, None, None)
    with pytest.raises(GamebagError, match="--executor 'spark' is not known; choose one of local, ray"):
        make_executor("spark", 1, None, None)
    with pytest.raises(GamebagError, match="--address names a Ray cluster"):
        make_executor("local", 1, "ray://head:10001", None)
