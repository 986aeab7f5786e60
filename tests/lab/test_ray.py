"""The Ray executor gives the very rows of a local run (per-game seeding), on a local Ray instance."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from gamebag import lab

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


@pytest.mark.slow
def test_ray_run_equals_the_local_run(local_ray: None) -> None:
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
