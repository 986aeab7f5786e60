"""A study as one HTML page (``index.html``) that reads offline: tables, inline SVG figures, warnings
(for a study that varies options, a table and figure of what they change: ``gamebag.lab.sweep``).

Next to the page go ``result.json`` (what ``--json`` prints) and ``per-game.csv``
(one row per game) so the numbers behind every figure are at hand.
"""

from __future__ import annotations

import io
import json
from html import escape
from pathlib import Path

from gamebag.lab.export import write_table
from gamebag.lab.figures import lengths_figure, shares_figure
from gamebag.lab.results import BalanceResult
from gamebag.lab.sweep import is_sweep, sweep_figure, sweep_points

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1200px; color: #222; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.3em 0.6em; text-align: right; }
th { background: #f3f3f3; } td.label { text-align: left; }
.warning { background: #fff4e0; border-left: 4px solid #e89b00; padding: 0.5em 1em; margin: 0.4em 0; }
.notice { color: #555; } figure { margin: 1em 0; } svg { max-width: 100%; height: auto; }
"""


def write_report(result: BalanceResult, folder: Path, command: str | None = None) -> Path:
    """Write the report into ``folder`` (created if needed); returns the page's path."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "result.json").write_text(json.dumps(result.to_json(), indent=2), encoding="utf-8")
    write_table(result.per_game, folder / "per-game.csv")
    page = folder / "index.html"
    page.write_text(render(result, command), encoding="utf-8")
    return page


def render(result: BalanceResult, command: str | None = None) -> str:
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>Balance study: {escape(result.game)}</title><style>{STYLE}</style></head><body>",
        f"<h1>Balance study: {escape(result.game)}</h1>",
        f"<p>Seed {result.seed}; {sum(c.games for c in result.cells):,} games in {result.seconds:.1f} s.",
    ]
    if command:
        parts.append(f" Made by <code>{escape(command)}</code>.")
    parts.append("</p>")
    parts += [f"<div class='warning'>{escape(w)}</div>" for w in result.warnings]
    parts += [f"<p class='notice'>{escape(n)}</p>" for n in result.notices]
    parts.append("<h2>Cells</h2>" + _cells_table(result))
    parts.append(f"<figure>{_svg(shares_figure(result))}</figure>")
    if result.comparisons:
        parts.append("<h2>Against the first cell</h2>" + _comparisons_table(result))
    if is_sweep(result):
        parts.append("<h2>What the varied options change</h2>" + _sweep_table(result))
        parts.append(f"<figure>{_svg(sweep_figure(result))}</figure>")
    parts.append("<h2>Game length</h2>" + _length_table(result))
    parts.append(f"<figure>{_svg(lengths_figure(result))}</figure>")
    parts.append(
        "<p class='notice'>Win shares count a shared win as 1/k to each of k winners; intervals are 95% Wilson "
        "intervals; the fairness p-value is Pearson's chi-square test against equal seat shares. "
        "The data: <a href='per-game.csv'>per-game.csv</a>, <a href='result.json'>result.json</a>.</p>"
    )
    parts.append("</body></html>")
    return "\n".join(parts)


def _cells_table(result: BalanceResult) -> str:
    rows = [
        "<table><tr><th>cell</th><th>games</th><th>seat shares (95% interval)</th><th>fairness p</th>"
        "<th>shared wins</th><th>engine</th></tr>"
    ]
    for cell in result.cells:
        shares = "<br>".join(
            f"{seat}: {share:.3f} ({low:.3f}-{high:.3f})"
            for seat, (share, (low, high)) in enumerate(zip(cell.win_share, cell.win_share_ci, strict=True))
        )
        rows.append(
            f"<tr><td class='label'>{escape(cell.cell.label)}</td><td>{cell.games:,}</td><td>{shares}</td>"
            f"<td>{cell.fairness_p:.3g}</td><td>{cell.shared_win_rate:.3f}</td><td>{escape(cell.engine)}</td></tr>"
        )
    return "".join(rows) + "</table>"


def _comparisons_table(result: BalanceResult) -> str:
    labels = {c.cell.index: c.cell.label for c in result.cells}
    rows = [
        "<table><tr><th>cell</th><th>against</th><th>seat share difference (95% interval, p)</th>"
        "<th>length difference</th></tr>"
    ]
    for comparison in result.comparisons:
        seats = "<br>".join(
            f"{seat}: {d.estimate:+.3f} ({d.low:+.3f} to {d.high:+.3f}, p={d.p:.3g})"
            for seat, d in enumerate(comparison.seats)
        )
        length = comparison.length
        rows.append(
            f"<tr><td class='label'>{escape(labels.get(comparison.cell, ''))}</td>"
            f"<td class='label'>{escape(labels.get(comparison.against, ''))}</td><td>{seats}</td>"
            f"<td>{length.estimate:+.2f} ({length.low:+.2f} to {length.high:+.2f}, p={length.p:.3g})</td></tr>"
        )
    return "".join(rows) + "</table>"


def _sweep_table(result: BalanceResult) -> str:
    rows = [
        "<table><tr><th>players</th><th>varied options</th><th>mean rounds</th><th>shared wins</th>"
        "<th>seat gap</th><th>fairness p</th></tr>"
    ]
    for point in sweep_points(result):
        shown = [point.metrics[name] for name in ("mean_rounds", "shared_rate", "seat_gap")]
        figures = "".join(f"<td>{e.value:.3f} ({e.low:.3f}-{e.high:.3f})</td>" for e in shown)
        rows.append(
            f"<tr><td>{point.players}</td><td class='label'>{escape(point.value)}</td>{figures}"
            f"<td>{point.metrics['fairness_p'].value:.3g}</td></tr>"
        )
    return "".join(rows) + "</table>"


def _length_table(result: BalanceResult) -> str:
    rows = [
        "<table><tr><th>cell</th><th>mean</th><th>median</th><th>10%</th><th>90%</th><th>how games ended</th>"
        "<th>winning margin (mean)</th></tr>"
    ]
    for cell in result.cells:
        ended = ", ".join(f"{k}: {v}" for k, v in cell.ended_by.items())
        rows.append(
            f"<tr><td class='label'>{escape(cell.cell.label)}</td><td>{cell.length.mean:.2f}</td>"
            f"<td>{cell.length.median:g}</td><td>{cell.length.p10:g}</td><td>{cell.length.p90:g}</td>"
            f"<td class='label'>{escape(ended)}</td><td>{cell.margin.mean:.2f}</td></tr>"
        )
    return "".join(rows) + "</table>"


def _svg(figure: object) -> str:
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg")  # type: ignore[attr-defined]
    text = buffer.getvalue()
    return text[text.index("<svg") :]
