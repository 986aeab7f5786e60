"""``gamebag.lab.balance`` end to end: figures, determinism, early stops, warnings, outputs and the CLI."""

from __future__ import annotations

import json
from concurrent.futures import Future
from pathlib import Path

import polars
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from gamebag import lab
from gamebag.cli.app import app
from gamebag.core.errors import GamebagError, OptionError, UnknownAgentError
from gamebag.lab.cells import Cell, parse_players
from gamebag.lab.execute import Executor
from gamebag.lab.play import FAST, Block
from gamebag.lab.study import BLOCK, FAST_BLOCK, run_study
from gamebag.lab.warnings import study_warnings


def test_a_known_unfair_setup_is_flagged() -> None:
    # Pig to 2: the first player wins on any roll but a 1.
    result = lab.balance("pig", players=2, agents="heuristic", options={"goal": 2}, games=400)
    cell = result.cells[0]
    assert cell.win_share[0] > 0.8
    assert cell.fairness_p < 1e-6
    low, high = cell.win_share_ci[0]
    assert low < cell.win_share[0] < high


def test_cells_are_the_product_and_json_has_the_documented_keys() -> None:
    result = lab.balance("wriggle-roulette", players="2-3", vary={"rotate_start": [False, True]}, games=60, seed=3)
    assert [(c.cell.players, c.cell.options["rotate_start"]) for c in result.cells] == [
        (2, False),
        (2, True),
        (3, False),
        (3, True),
    ]
    data = json.loads(json.dumps(result.to_json()))
    assert data["game"] == "wriggle-roulette"
    for cell in data["cells"]:
        for key in (
            "options",
            "players",
            "agents",
            "games",
            "win_share",
            "win_share_ci",
            "fairness_p",
            "length",
            "ended_by",
            "shared_win_rate",
            "winning_margin",
            "scores",
        ):
            assert key in cell
        assert sum(cell["win_share"]) == pytest.approx(1.0)
        assert {"mean", "median", "p10", "p90", "histogram"} <= set(cell["length"])
    # Each cell against the first cell of its player count; the first 3-player cell against cell 0.
    assert [(c["cell"], c["against"]) for c in data["comparisons"]] == [(1, 0), (2, 0), (3, 2)]
    assert all({"difference", "ci95", "p"} <= set(s) for c in data["comparisons"] for s in c["win_share"])
    assert any("strongest compiled agent" in n for n in data["notices"])


def test_same_numbers_in_process_and_in_worker_processes() -> None:
    kwargs = {"players": 3, "agents": "heuristic", "games": 1200, "seed": 9}
    one = lab.balance("eel-harvest", workers=1, **kwargs)  # type: ignore[arg-type]
    two = lab.balance("eel-harvest", workers=2, **kwargs)  # type: ignore[arg-type]
    assert one.per_game.equals(two.per_game)
    assert one.cells[0].win_share == two.cells[0].win_share


def test_same_numbers_on_the_rules_engine_in_worker_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    import gamebag.lab.study as study
    from gamebag.lab.play import RULES

    # Eigen Kweek has a compiled engine now: keep these cells on the rules engine (chosen in this process).
    monkeypatch.setattr(study, "choose_engine", lambda cell: (RULES, "the rules engine, for this test"))
    kwargs = {"players": "2-3", "agents": "heuristic", "games": 40, "seed": 2}
    one = lab.balance("eigen-kweek", workers=1, **kwargs)  # type: ignore[arg-type]
    two = lab.balance("eigen-kweek", workers=2, **kwargs)  # type: ignore[arg-type]
    assert [c.engine for c in one.cells] == ["rules", "rules"]
    assert one.per_game.equals(two.per_game)


def test_until_stops_a_cell_at_a_fixed_checkpoint() -> None:
    result = lab.balance("pig", players=2, agents="heuristic", options={"goal": 20}, games=5000, until=0.1)
    cell = result.cells[0]
    assert cell.stopped_early and cell.games == 500  # the first checkpoint already gives intervals < 0.1
    assert all(high - low < 0.1 for low, high in cell.win_share_ci)


def test_per_game_rows_go_to_pandas_polars_csv_and_parquet(tmp_path: Path) -> None:
    from gamebag.lab.export import write_table

    result = lab.balance("catch-a-dragon", players="2,3", agents="heuristic", games=40, seed=1)
    table = result.per_game
    assert table.num_rows == 80
    frame = table.to_pandas()
    assert list(frame["cell"].unique()) == [0, 1]
    assert frame.loc[frame["players"] == 2, "score_2"].isna().all()
    assert polars.from_arrow(table).height == 80
    write_table(table, tmp_path / "games.parquet")
    assert pq.read_table(tmp_path / "games.parquet").equals(table)
    write_table(table, tmp_path / "games.csv")
    lines = (tmp_path / "games.csv").read_text().splitlines()
    assert len(lines) == 81 and lines[0].startswith('"cell","game_index"')
    with pytest.raises(GamebagError, match=r"\.csv or \.parquet"):
        write_table(table, tmp_path / "games.txt")


def test_warnings_random_agents_caps_and_length() -> None:
    result = lab.balance("eel-harvest", players=2, agents="random", games=30, max_rounds=1)
    assert any("random agents" in w for w in result.warnings)
    assert any("round cap" in w for w in result.warnings)
    capped = result.cells[0].ended_by["lab round cap"]
    assert result.cells[0].no_winner >= capped > 0
    longer = lab.balance("wriggle-roulette", players=3, agents="heuristic", vary={"target": [20, 80]}, games=100)
    assert any("target=80" in w and "default options" in w for w in longer.warnings)
    assert not any("target=20" in w for w in longer.warnings)


def test_lockstep_bots_are_warned_about() -> None:
    result = lab.balance("wriggle-roulette", players=3, agents="heuristic", games=20)
    assert result.cells[0].alike_rate is not None and result.cells[0].alike_rate < 0.9
    assert not any("lockstep" in w for w in result.warnings)
    result.cells[0].alike_rate = 0.95
    assert any("lockstep" in w for w in study_warnings(result.runs, result.cells, 1000))


class _Interrupting(Executor):
    """Plays blocks in this process, then acts as if Ctrl-C came after ``blocks`` of them."""

    def __init__(self, blocks: int) -> None:
        super().__init__(None)
        self.left = blocks

    def submit(self, cell: Cell, start: int, stop: int, engine: str, max_rounds: int) -> Future[Block]:
        if self.left == 0:
            raise KeyboardInterrupt
        self.left -= 1
        return super().submit(cell, start, stop, engine, max_rounds)


def test_ctrl_c_keeps_the_finished_games() -> None:
    cells, _ = lab.plan("pig", 2, "heuristic", None, {"goal": 10})
    study = run_study(cells, _Interrupting(2), games=50_000)
    assert study.interrupted
    block = FAST_BLOCK if study.cells[0].engine == FAST else BLOCK
    assert study.cells[0].games == 2 * block  # the two blocks that finished before the interruption
    assert [b.start for b in study.cells[0].blocks] == [0, block]


def test_plot_and_report(tmp_path: Path) -> None:
    from gamebag.lab.figures import plot_study
    from gamebag.lab.report import write_report

    result = lab.balance("pig", players=2, agents="heuristic,optimal-score", options={"goal": 30}, games=50)
    plot_study(result, tmp_path / "study.png")
    assert (tmp_path / "study.png").stat().st_size > 10_000
    page = write_report(result, tmp_path / "report", "gamebag balance pig")
    html = page.read_text()
    assert "<svg" in html and "fairness" in html and "http" not in html.split("<svg")[0]
    assert (tmp_path / "report" / "per-game.csv").exists() and (tmp_path / "report" / "result.json").exists()


def test_bad_input_is_refused_clearly() -> None:
    with pytest.raises(GamebagError, match="2 to 2 players"):
        parse_players("2-3", "pig")
    with pytest.raises(GamebagError, match="backwards"):
        parse_players("5-3", "wriggle-roulette")
    with pytest.raises(OptionError, match="unknown option"):
        lab.plan("pig", 2, None, ["nope=1,2"])
    with pytest.raises(OptionError, match="option 'goal'"):
        lab.plan("pig", 2, None, {"goal": [10, 0]})
    with pytest.raises(UnknownAgentError):
        lab.plan("pig", 2, "nobody")
    with pytest.raises(GamebagError, match="--games"):
        lab.balance("pig", games=0)
    with pytest.raises(GamebagError, match="at most 400"):
        lab.plan("wriggle-roulette", "2-8", None, {"target": list(range(1, 60))})


def test_cli_balance_json_and_errors(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(
        app,
        ["balance", "pig", "--games", "30", "--vary", "goal=10,20", "--json", "--per-game", str(tmp_path / "g.csv")],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [c["options"]["goal"] for c in data["cells"]] == [10, 20]
    assert data["cells"][0]["agents"] == ["optimal-win", "optimal-win"]
    assert (tmp_path / "g.csv").exists()
    bad = runner.invoke(app, ["balance", "pig", "--players", "3"])
    assert bad.exit_code != 0


def test_default_agents_are_never_random() -> None:
    for game, players in (("wriggle-roulette", 4), ("catch-a-dragon", 3), ("catch-a-dragon", 2), ("eigen-kweek", 3)):
        cells, notices = lab.plan(game, players)
        assert "random" not in cells[0].agents
        assert notices
    assert lab.plan("catch-a-dragon", 3)[0][0].agents[0] == "learned"  # it beats optimal-score there (docs/agents.md)
    assert lab.plan("catch-a-dragon", 2)[0][0].agents[0] == "optimal-win"
