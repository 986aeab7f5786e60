"""``gamebag tune``: the search space, goals and limits, the search's noise handling, resuming,
Ctrl-C, and option groups (a coin set given as one value)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import gamebag
from gamebag import lab
from gamebag.cli.app import app
from gamebag.core.errors import GamebagError, OptionError
from gamebag.lab.tune import TuneSettings, parse_goals, parse_limits, parse_search, tune
from gamebag.lab.tune.metrics import seat_gap
from gamebag.lab.tune.space import design_change

GAME = "wriggle-roulette"


def settings(**changes: object) -> TuneSettings:
    base = dict(
        game=GAME,
        players=3,
        dimensions=tuple(parse_search(GAME, 3, ["snakes=12..22", "rotate_start=false,true"])),
        goals=tuple(parse_goals(["fair"])),
        limits=tuple(parse_limits(["mean_rounds<=6"])),
        trials=5,
        games=300,
        seed=3,
    )
    base.update(changes)
    return TuneSettings(**base)  # type: ignore[arg-type]


def test_option_group_sets_every_member_and_is_checked_by_the_game() -> None:
    game = gamebag.make("eigen-kweek", 3, coins="20/10/5/0/0", capacity="3/3/6/9")
    assert [game.options[f"coins_worth_{v}"] for v in (1, 2, 3, 4, 5)] == [20, 10, 5, 0, 0]
    with pytest.raises(OptionError, match="expected 5 values"):
        gamebag.make("eigen-kweek", 3, coins="20/10/5/0")
    with pytest.raises(OptionError, match="add up to the game's 35 coins"):
        gamebag.make("eigen-kweek", 3, coins="20/10/5/0/1")
    with pytest.raises(OptionError, match="both alone and in the group"):
        gamebag.make("eigen-kweek", 3, coins="20/10/5/0/0", coins_worth_1=20)


def test_balance_varies_a_coin_set_as_one_value() -> None:
    cells, _ = lab.plan("eigen-kweek", 2, "random", ["coins=10/10/10/0/5,20/10/5/0/0"])
    assert [c.options["coins_worth_1"] for c in cells] == [10, 20]
    assert [c.options["coins_worth_5"] for c in cells] == [5, 0]


def test_search_space_is_checked_before_any_game() -> None:
    with pytest.raises(GamebagError, match="not an option of"):
        parse_search(GAME, 3, ["snake=1..4"])
    with pytest.raises(GamebagError, match="needs an integer option"):
        parse_search(GAME, 3, ["rotate_start=0..1"])
    with pytest.raises(GamebagError, match="within the option's range"):
        parse_search(GAME, 3, ["snakes=0..500"])
    with pytest.raises(GamebagError, match="snakes=abc"):
        parse_search(GAME, 3, ["snakes=abc,3"])
    with pytest.raises(GamebagError, match=r"fixed .* and searched"):
        parse_search(GAME, 3, ["snakes=3..9"], {"snakes": "5"})
    coins = parse_search("eigen-kweek", 3, ["coins=10/10/10/0/5,20/10/5/0/0"])
    assert coins[0].choices == ("10/10/10/0/5", "20/10/5/0/0")
    with pytest.raises(GamebagError, match="coins=20/10/5"):
        parse_search("eigen-kweek", 3, ["coins=20/10/5"])


def test_goals_and_limits_name_known_metrics() -> None:
    assert [g.metric for g in parse_goals(["fair", "length=12", "change", "max:shared_rate"])] == [
        "seat_gap",
        "mean_rounds",
        "change",
        "shared_rate",
    ]
    with pytest.raises(GamebagError, match="goals: fair"):
        parse_goals(["fun"])
    with pytest.raises(GamebagError, match="not a metric"):
        parse_limits(["rounds<=4"])
    with pytest.raises(GamebagError, match="METRIC<=X"):
        parse_limits(["mean_rounds<4"])
    limit = parse_limits(["mean_rounds<=4.6"])[0]
    assert limit.at_most and limit.bound == 4.6


def test_length_goal_interval_and_design_change() -> None:
    from gamebag.lab.tune.metrics import Estimate

    goal = parse_goals(["length=12"])[0]
    assert goal.value({"mean_rounds": Estimate(11.0, 10.5, 11.5)}) == Estimate(1.0, 0.5, 1.5)
    assert goal.value({"mean_rounds": Estimate(12.1, 11.8, 12.4)}).low == 0.0
    dims = parse_search(GAME, 3, ["snakes=12..22", "rotate_start=false,true"])
    assert design_change(GAME, dims, {"snakes": 17, "rotate_start": "false"}) == 0.0
    assert design_change(GAME, dims, {"snakes": 22, "rotate_start": "true"}) == pytest.approx(1.5)


def test_seat_gap_interval_covers_a_known_difference() -> None:
    rng = np.random.default_rng(1)
    winners = rng.choice(3, size=20_000, p=[0.40, 0.35, 0.25])
    returns = np.zeros((20_000, 3))
    returns[np.arange(20_000), winners] = 1.0
    gap = seat_gap(returns)
    assert gap.low <= 0.15 <= gap.high
    assert gap.high - gap.low < 0.03


def test_tune_recommends_a_confirmed_design_that_meets_its_limits_and_is_reproducible() -> None:
    first = tune(settings()).to_json()
    second = tune(settings()).to_json()
    assert first["trials"] == second["trials"]
    assert len(first["trials"]) == 5
    best = first["best"]
    assert best is not None
    assert best["remeasured"]["games"] == 4 * 300
    assert best["confirmation"]["seed"] != best["remeasured"]["seed"]
    assert best["metrics"]["mean_rounds"]["value"] <= 6 or not best["confirmed"]
    assert isinstance(best["confirmed"], bool)
    complete = [t for t in first["trials"] if t["state"] == "complete"]
    ranked = sorted((t for t in complete if t["feasible"]), key=lambda t: t["objectives"][0])
    assert best["trial"] in {t["number"] for t in ranked[:3]}


def test_impossible_limits_recommend_nothing() -> None:
    result = tune(settings(limits=tuple(parse_limits(["mean_rounds<=0.5"])), trials=3))
    assert result.best is None
    assert any("no finished trial met every limit" in n for n in result.notes)


def test_two_goals_give_a_pareto_front() -> None:
    result = tune(settings(goals=tuple(parse_goals(["fair", "change"])), trials=6))
    assert result.pareto
    scores = [[g.value(r.remeasured.metrics).value for g in result.settings.goals] for r in result.pareto]
    for a in scores:  # nobody on the front is dominated by another member
        assert not any(all(x <= y for x, y in zip(b, a, strict=True)) and b != a for b in scores)


def test_ctrl_c_keeps_finished_trials() -> None:
    calls = []

    def progress(done: int, total: int) -> None:
        calls.append(done)
        if done == 2:
            raise KeyboardInterrupt

    result = tune(settings(), progress)
    assert result.interrupted
    assert len([t for t in result.trials if t.state == "complete"]) == 2
    assert not (result.best and result.best.confirmed)


def test_storage_resumes_the_same_search(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'tune.db'}"
    tune(settings(trials=2, storage=url))
    resumed = tune(settings(trials=4, storage=url))
    assert len(resumed.trials) == 4
    assert any("resumed: 2" in n for n in resumed.notes)


def test_cli_refuses_bad_input_before_playing_and_leaves_no_file(tmp_path: Path) -> None:
    runner = CliRunner()
    blocked = tmp_path / "file"
    blocked.write_text("x")
    cases = [
        ["--trials", "0"],
        ["--games", "0"],
        ["--report", str(blocked / "sub")],
        ["--goal", "fun"],
        ["--workers", "0"],
    ]
    for extra in cases:
        args = ["tune", GAME, "--players", "3", "--search", "snakes=12..22", "--goal", "fair", *extra]
        if extra[0] == "--goal":
            args = ["tune", GAME, "--search", "snakes=12..22", *extra]
        outcome = runner.invoke(app, args)
        assert outcome.exit_code != 0, extra
        assert isinstance(outcome.exception, GamebagError | SystemExit), (extra, outcome.exception)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_cli_json_and_report(tmp_path: Path) -> None:
    runner = CliRunner()
    folder = tmp_path / "report"
    outcome = runner.invoke(
        app,
        [
            "tune", GAME, "--players", "3", "--search", "snakes=12..22", "--goal", "fair",
            "--limit", "mean_rounds<=6", "--trials", "3", "--games", "200", "--json", "--report", str(folder),
        ],
    )
    assert outcome.exit_code == 0, outcome.output
    data = json.loads(outcome.stdout)
    assert set(data) >= {"best", "pareto", "trials"}
    assert all(not math.isnan(t["objectives"][0]) for t in data["trials"] if t["state"] == "complete")
    assert {p.name for p in folder.iterdir()} == {"tune.json", "trials.png", "index.html"}


def test_quality_metrics_of_pig_measure_interaction_exactly_and_skill_by_a_ladder() -> None:
    from gamebag.lab.quality import measure_quality

    quality = measure_quality("pig", 2, {}, ["optimal-win"] * 2, seed=5, trace_games=40, ladder_games=30)
    assert quality.interaction_exact and quality.interaction is not None
    # optimal-win and optimal-score are different policies: some decisions differ, most agree.
    assert 0.0 < quality.interaction.value < 0.5
    assert quality.ladder[0] == "random" and "optimal-win" in quality.ladder
    assert quality.skill_spread is not None and quality.skill_spread.low > 0
    assert quality.upset_rate is not None and quality.upset_rate.value < 0.5
    assert quality.forced_share.value == 0.0  # Pig always offers roll or hold
    again = measure_quality("pig", 2, {}, ["optimal-win"] * 2, seed=5, trace_games=40, ladder_games=30)
    assert again.to_json() == quality.to_json()


def test_lead_changes_and_comebacks_from_round_scores() -> None:
    from gamebag.lab.quality import _from_traces, _Trace

    # Seat 0 leads, then seat 1 (the leader at half-length), then seat 0 again and wins: two changes, a comeback.
    trace = _Trace([(3, 1), (3, 5), (9, 5), (12, 5)], (0,), (12, 5), decisions=8, forced=2, disagreements=0, compared=0)
    # Seat 1 leads, seat 0 takes the lead by half-length and wins: one change, no comeback.
    other = _Trace([(0, 4), (5, 4), (9, 6)], (0,), (9, 6), decisions=4, forced=0, disagreements=0, compared=0)
    quality = _from_traces([trace, other])
    assert quality.lead_changes.value == pytest.approx((2 + 1) / 2)
    assert quality.comeback_rate.value == pytest.approx(1 / 2)
    assert quality.decisiveness.value == pytest.approx(((12 - 5) / 12 + (9 - 6) / 9) / 2)
    assert quality.forced_share.value == pytest.approx(2 / 12)


def test_tune_skill_goal_uses_the_ladder() -> None:
    result = tune(
        settings(
            game="pig",
            players=2,
            dimensions=tuple(parse_search("pig", 2, ["goal=20..100"])),
            goals=tuple(parse_goals(["skill"])),
            limits=(),
            trials=2,
            games=100,
            metrics_games=10,
        )
    )
    assert result.best is not None
    assert result.best.remeasured.metrics["skill_spread"].value > 0


def test_balance_metrics_add_quality_to_every_cell() -> None:
    result = lab.balance("pig", 2, vary=["goal=30,60"], games=200, metrics=True, metrics_games=10)
    for cell in result.to_json()["cells"]:
        quality = cell["quality"]
        assert quality["traced_games"] == 10
        assert {"lead_changes", "comeback_rate", "skill_spread", "interaction"} <= set(quality)
    with pytest.raises(GamebagError, match="--metrics-games"):
        lab.balance("pig", 2, games=10, metrics=True, metrics_games=0)


def test_per_game_rows_have_typed_option_columns(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    from gamebag.lab.export import write_table

    result = lab.balance("wriggle-roulette", 2, vary=["rotate_start=false,true", "snakes=15,17"], games=20)
    path = tmp_path / "rows.parquet"
    write_table(result.per_game, path)
    table = pq.read_table(path)
    assert str(table.schema.field("option_rotate_start").type) == "bool"
    assert str(table.schema.field("option_snakes").type) == "int64"
    assert sorted(set(table.column("option_snakes").to_pylist())) == [15, 17]


def test_a_script_without_main_guard_gets_one_clear_error(tmp_path: Path) -> None:
    import subprocess
    import sys

    script = tmp_path / "study.py"
    script.write_text(
        "from gamebag import lab\nlab.balance('wriggle-roulette', players=2, games=100, workers=2)\n", encoding="utf-8"
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode != 0
    assert 'if __name__ == "__main__":' in done.stderr
    assert "bootstrapping phase" not in done.stderr  # multiprocessing's own message is replaced


def test_population_draws_seats_per_game_and_reports_each_agent() -> None:
    import numpy as np

    from gamebag.lab.play import play_block

    result = lab.balance("wriggle-roulette", 3, population="heuristic,random", games=300, seed=2)
    cell = result.cells[0]
    assert cell.cell.population and cell.cell.agents == ("heuristic", "random")
    assert cell.agent_shares is not None
    heuristic, random_share = cell.agent_shares["heuristic"], cell.agent_shares["random"]
    assert heuristic[2] + random_share[2] == 300 * 3  # every seat of every game was drawn
    assert heuristic[0] > random_share[0]
    run = result.runs[0]
    draws = {run.cell.seat_agents(i) for i in range(300)}
    assert len(draws) > 4  # mixed tables, not one fixed assignment
    # The same games, seat draws included, on either engine.
    rules = play_block(run.cell, 0, 50, "rules", 1000)
    fast = play_block(run.cell, 0, 50, "fast", 1000)
    assert np.array_equal(rules.seats, fast.seats) and np.array_equal(rules.returns, fast.returns)
    data = result.to_json()["cells"][0]
    assert data["population"] == ["heuristic", "random"] and set(data["agent_shares"]) == {"heuristic", "random"}
    with pytest.raises(GamebagError, match="not both"):
        lab.balance("wriggle-roulette", 3, agents="heuristic", population="heuristic,random", games=10)


def test_identical_bots_are_warned_about() -> None:
    result = lab.balance("wriggle-roulette", 3, agents="heuristic", games=50, seed=1)
    assert any("every seat plays the same agent" in w for w in result.warnings)


def test_report_figures_fit_a_page_however_many_cells() -> None:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from gamebag.lab.figures import FIGURE_WIDTH, shares_figure

    result = lab.balance("wriggle-roulette", "2-8", vary={"rotate_start": [False, True]}, games=20, seed=1)
    figure = shares_figure(result)
    width, height = figure.get_size_inches()
    assert width == FIGURE_WIDTH and height < 14
    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    drawn = figure.get_tightbbox(canvas.get_renderer())
    assert drawn.x0 >= -0.01 and drawn.x1 <= width + 0.01  # no label cut off at either side
    assert drawn.y0 >= -0.01


def test_decision_shares_count_games_not_decisions_as_draws() -> None:
    from gamebag.lab.quality import _from_traces, _Trace

    # Ten games of 100 decisions: five all forced, five with none. Decisions of one game move
    # together, so the interval must be as wide as ten draws allow, not a thousand.
    traces = [
        _Trace([(1, 0)], (0,), (1, 0), decisions=100, forced=100 if k < 5 else 0, disagreements=0, compared=0)
        for k in range(10)
    ]
    share = _from_traces(traces).forced_share
    assert share.value == pytest.approx(0.5)
    # Ratio estimator over games: half-width 1.96 * sqrt(10/9 * 10 * 50**2) / 1000 = 0.327.
    assert share.low == pytest.approx(0.5 - 0.3267, abs=1e-3) and share.high == pytest.approx(0.5 + 0.3267, abs=1e-3)
    # Games that all agree leave no doubt about the share.
    even = _from_traces([_Trace([(1, 0)], (0,), (1, 0), decisions=10, forced=3, disagreements=0, compared=0)] * 4)
    assert even.forced_share.low == pytest.approx(0.3) and even.forced_share.high == pytest.approx(0.3)
