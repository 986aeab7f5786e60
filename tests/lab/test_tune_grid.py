"""``gamebag tune`` over a small search space: every design is tried, each once (a grid), where a
sampler drawing at random proposed some designs again and again and never tried others."""

from __future__ import annotations

import json

from gamebag.lab.tune import TuneSettings, parse_goals, parse_search, tune
from gamebag.lab.tune.space import grid

GAME = "wriggle-roulette"


def test_a_space_no_larger_than_the_trials_is_tried_design_by_design() -> None:
    dimensions = tuple(parse_search(GAME, 3, ["snakes=12..13", "rotate_start=false,true"]))
    assert grid(dimensions, 4) == {"snakes": [12, 13], "rotate_start": ["false", "true"]}
    assert grid(dimensions, 3) is None  # larger than the trials: the sampler searches it
    settings = TuneSettings(
        game=GAME,
        players=3,
        dimensions=dimensions,
        goals=tuple(parse_goals(["fair"])),
        limits=(),
        trials=7,
        games=60,
        seed=1,
    )
    result = tune(settings)
    tried = sorted(json.dumps(t.params, sort_keys=True) for t in result.trials)
    every = sorted(
        json.dumps({"rotate_start": rotate, "snakes": snakes}, sort_keys=True)
        for snakes in (12, 13)
        for rotate in ("false", "true")
    )
    assert tried == every  # four designs, each once, not seven trials
    assert any("4 design(s)" in note for note in result.notes)
    assert result.best is not None
