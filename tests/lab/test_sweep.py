"""Option sweeps: a grouped value (Eigen Kweek's coin set, capacities, plough costs) varied as one value
on the command line, its refusals, and the sweep's picture and report (``gamebag.lab.sweep``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gamebag import lab
from gamebag.cli.app import app
from gamebag.lab.figures import wrap_label
from gamebag.lab.sweep import is_sweep, sweep_points, varied_names

GAME = "eigen-kweek"

# (what --vary is given, a fragment of the one error line: what was wrong and what is allowed)
BAD_GROUPS = [
    ("coins=10/10/10/0/5,10/10/10/0/4", "must add up to the game's 35 coins, not 34"),
    ("coins=10/10/10/5", "expected 5 values written a/b/..., one for each of coins_worth_1"),
    ("coins=a/10/10/10/5", "option 'coins_worth_1': 'a' is not allowed; expected an integer from 0 to 35"),
    ("capacity=3/3/6", "expected 4 values written a/b/..., one for each of capacity_2, capacity_4"),
    ("capacity=0/3/6/9", "option 'capacity_2': '0' is not allowed; expected an integer from 1 to 40"),
    ("plough_cost=1/2/3/4,0/1/2/3", "option 'plough_cost_2': '0' is not allowed; expected an integer from 1 to 20"),
]


@pytest.mark.parametrize(("vary", "reason"), BAD_GROUPS, ids=[v for v, _ in BAD_GROUPS])
def test_a_bad_grouped_value_is_one_line_exit_2_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, vary: str, reason: str
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(
        app, ["balance", GAME, "--players", "2-3", "--vary", vary, "--report", "rep", "--plot", "p.png"]
    )
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert reason in lines[0], lines[0]
    assert list(tmp_path.iterdir()) == []


def test_a_member_given_alone_and_in_its_group_is_refused() -> None:
    result = CliRunner().invoke(app, ["balance", GAME, "--vary", "coins=10/10/10/0/5", "--option", "coins_worth_1=10"])
    assert result.exit_code == 2
    assert "'coins_worth_1' is given both alone and in the group 'coins'; choose one" in result.stderr


def test_a_grouped_sweep_plays_each_whole_set_as_one_value(tmp_path: Path) -> None:
    args = ["balance", GAME, "--players", "2", "--games", "40", "--seed", "5", "--json"]
    swept = CliRunner().invoke(
        app,
        [*args, "--vary", "coins=10/10/10/0/5,20/10/5/0/0", "--vary", "capacity=3/3/6/9",
         "--vary", "plough_cost=2/4/6/8,1/2/3/4", "--report", str(tmp_path / "rep")],
    )  # fmt: skip
    assert swept.exit_code == 0, swept.output
    cells = json.loads(swept.stdout)["cells"]
    assert len(cells) == 4
    assert [(c["options"]["coins_worth_1"], c["options"]["coins_worth_5"]) for c in cells] == [
        (10, 5), (10, 5), (20, 0), (20, 0),
    ]  # fmt: skip
    assert {c["options"]["capacity_8"] for c in cells} == {9}
    assert [c["options"]["plough_cost_8"] for c in cells] == [8, 4, 8, 4]
    assert cells[2]["label"] == "2p coins=20/10/5/0/0 capacity=3/3/6/9 plough_cost=2/4/6/8 heuristic"
    # The grouped value is the very same design as its members given one by one: the same games.
    members = [f"coins_worth_{v}={n}" for v, n in zip((1, 2, 3, 4, 5), (20, 10, 5, 0, 0), strict=True)]
    members += ["capacity_2=3", "capacity_4=3", "capacity_6=6", "capacity_8=9"]
    members += [f"plough_cost_{c}={c}" for c in (2, 4, 6, 8)]
    alone = CliRunner().invoke(app, [*args, *[x for m in members for x in ("--option", m)]])
    assert alone.exit_code == 0, alone.output
    single = json.loads(alone.stdout)["cells"][0]
    for key in ("win_share", "length", "scores", "ended_by"):
        assert single[key] == cells[2][key], key
    page = (tmp_path / "rep" / "index.html").read_text(encoding="utf-8")
    assert "What the varied options change" in page and "coins=20/10/5/0/0 plough_cost=1/2/3/4" in page


def test_sweep_points_show_groups_whole_and_match_the_cells(tmp_path: Path) -> None:
    result = lab.balance(GAME, players="2-3", vary={"coins": ["10/10/10/0/5", "10/20/0/0/5"]}, games=60, seed=2)
    assert varied_names(result) == ["coins"] and is_sweep(result)
    points = sweep_points(result)
    assert [(p.players, p.value) for p in points] == [
        (2, "coins=10/10/10/0/5"), (2, "coins=10/20/0/0/5"), (3, "coins=10/10/10/0/5"), (3, "coins=10/20/0/0/5"),
    ]  # fmt: skip
    for point, cell in zip(points, result.cells, strict=True):
        assert point.metrics["mean_rounds"].value == pytest.approx(cell.length.mean)
        assert point.metrics["shared_rate"].value == pytest.approx(cell.shared_win_rate)
        assert point.metrics["mean_rounds"].low < cell.length.mean < point.metrics["mean_rounds"].high
    # One cell per player count varies nothing within a count: no sweep to draw.
    assert not is_sweep(lab.balance(GAME, players="2-3", games=20, seed=2))
    lab_plot = tmp_path / "sweep.png"
    from gamebag.lab.figures import plot_study

    plot_study(result, lab_plot)
    assert lab_plot.stat().st_size > 10_000


def test_long_labels_wrap_after_the_equals_sign() -> None:
    assert wrap_label("2p coins=10/10/10/0/5 heuristic", 10) == ["2p coins=", "10/10/10/0/5", "heuristic"]
    assert wrap_label("4p rotate_start=true heuristic", 30) == ["4p rotate_start=true heuristic"]
