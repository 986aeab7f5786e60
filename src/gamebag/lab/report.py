"""A study as one HTML page (``index.html``) that reads offline: tables, inline SVG figures, warnings
(for a study that varies options, a table and figure of what they change: ``gamebag.lab.sweep``).

Next to the page go ``result.json`` (what ``--json`` prints) and ``per-game.csv``
(one row per game) so the numbers behind every figure are at hand. The page is written in the reader's
language (its words, numbers and figures' labels); the data files next to it are language-neutral.
"""

from __future__ import annotations

import io
import json
from html import escape
from pathlib import Path

from gamebag.core.i18n import current_language, language_tag, number
from gamebag.lab.export import write_table
from gamebag.lab.figures import lengths_figure, shares_figure
from gamebag.lab.results import BalanceResult
from gamebag.lab.sweep import is_sweep, sweep_figure, sweep_points
from gamebag.lab.translation import _, fmt, shown
from gamebag.sim.plotwords import reader_fonts

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


def _heading(text: str) -> str:
    return f"<h2>{escape(text)}</h2>"


def _head(*names: str) -> str:
    return "<tr>" + "".join(f"<th>{escape(name)}</th>" for name in names) + "</tr>"


def _range(value: float, low: float, high: float, spec: str = ".3f") -> str:
    return f"{fmt(value, spec)} ({fmt(low, spec)}-{fmt(high, spec)})"


def _difference(estimate: float, low: float, high: float, p: float, spec: str) -> str:
    return _(
        "{estimate} ({low} to {high}, p={p})",
        estimate=fmt(estimate, spec),
        low=fmt(low, spec),
        high=fmt(high, spec),
        p=fmt(p, ".3g"),
    )


def render(result: BalanceResult, command: str | None = None) -> str:
    with reader_fonts():
        return _render(result, command)


def _render(result: BalanceResult, command: str | None) -> str:
    title = escape(_("Balance study: {game}", game=result.game))
    summary = _(
        "Seed {seed}; {games} games in {seconds} s.",
        seed=result.seed,
        games=number(sum(c.games for c in result.cells)),
        seconds=fmt(result.seconds, ".1f"),
    )
    parts = [
        f"<!doctype html><html lang='{language_tag(current_language())}'><head><meta charset='utf-8'>",
        f"<title>{title}</title><style>{STYLE}</style></head><body>",
        f"<h1>{title}</h1>",
        f"<p>{escape(summary)}",
    ]
    if command:
        made = escape(_("Made by {command}.", command="\0"))
        parts.append(" " + made.replace("\0", f"<code>{escape(command)}</code>"))
    parts.append("</p>")
    parts += [f"<div class='warning'>{escape(shown(w))}</div>" for w in result.warnings]
    parts += [f"<p class='notice'>{escape(shown(n))}</p>" for n in result.notices]
    parts.append(_heading(_("Cells")) + _cells_table(result))
    parts.append(f"<figure>{_svg(shares_figure(result))}</figure>")
    if result.comparisons:
        parts.append(_heading(_("Against the first cell")) + _comparisons_table(result))
    if is_sweep(result):
        parts.append(_heading(_("What the varied options change")) + _sweep_table(result))
        parts.append(f"<figure>{_svg(sweep_figure(result))}</figure>")
    parts.append(_heading(_("Game length")) + _length_table(result))
    parts.append(f"<figure>{_svg(lengths_figure(result))}</figure>")
    method = _(
        "Win shares count a shared win as 1/k to each of k winners; intervals are 95% Wilson intervals; the "
        "fairness p-value is Pearson's chi-square test against equal seat shares."
    )
    data = _("The data: {files}.", files="\0")
    links = "<a href='per-game.csv'>per-game.csv</a>, <a href='result.json'>result.json</a>"
    parts.append(f"<p class='notice'>{escape(method)} {escape(data).replace(chr(0), links)}</p>")
    parts.append("</body></html>")
    return "\n".join(parts)


def _cells_table(result: BalanceResult) -> str:
    rows = [
        "<table>"
        + _head(_("cell"), _("games"), _("seat shares (95% interval)"), _("fairness p"), _("shared wins"), _("engine"))
    ]
    for cell in result.cells:
        shares = "<br>".join(
            f"{seat}: {_range(share, low, high)}"
            for seat, (share, (low, high)) in enumerate(zip(cell.win_share, cell.win_share_ci, strict=True))
        )
        rows.append(
            f"<tr><td class='label'>{escape(cell.cell.label)}</td><td>{number(cell.games)}</td><td>{shares}</td>"
            f"<td>{fmt(cell.fairness_p, '.3g')}</td><td>{fmt(cell.shared_win_rate, '.3f')}</td>"
            f"<td>{escape(cell.engine)}</td></tr>"
        )
    return "".join(rows) + "</table>"


def _comparisons_table(result: BalanceResult) -> str:
    labels = {c.cell.index: c.cell.label for c in result.cells}
    rows = [
        "<table>" + _head(_("cell"), _("against"), _("seat share difference (95% interval, p)"), _("length difference"))
    ]
    for comparison in result.comparisons:
        seats = "<br>".join(
            f"{seat}: {escape(_difference(d.estimate, d.low, d.high, d.p, '+.3f'))}"
            for seat, d in enumerate(comparison.seats)
        )
        length = comparison.length
        rows.append(
            f"<tr><td class='label'>{escape(labels.get(comparison.cell, ''))}</td>"
            f"<td class='label'>{escape(labels.get(comparison.against, ''))}</td><td>{seats}</td>"
            f"<td>{escape(_difference(length.estimate, length.low, length.high, length.p, '+.2f'))}</td></tr>"
        )
    return "".join(rows) + "</table>"


def _sweep_table(result: BalanceResult) -> str:
    rows = [
        "<table>"
        + _head(_("players"), _("varied options"), _("mean rounds"), _("shared wins"), _("seat gap"), _("fairness p"))
    ]
    for point in sweep_points(result):
        shown_metrics = [point.metrics[name] for name in ("mean_rounds", "shared_rate", "seat_gap")]
        figures = "".join(f"<td>{_range(e.value, e.low, e.high)}</td>" for e in shown_metrics)
        value = _("defaults") if point.value == "defaults" else point.value
        rows.append(
            f"<tr><td>{point.players}</td><td class='label'>{escape(value)}</td>{figures}"
            f"<td>{fmt(point.metrics['fairness_p'].value, '.3g')}</td></tr>"
        )
    return "".join(rows) + "</table>"


def _length_table(result: BalanceResult) -> str:
    rows = [
        "<table>"
        + _head(
            _("cell"),
            _("mean"),
            _("median"),
            "10%",
            "90%",
            _("how games ended"),
            _("winning margin (mean)"),
        )
    ]
    for cell in result.cells:
        ended = ", ".join(f"{k}: {number(v)}" for k, v in cell.ended_by.items())
        rows.append(
            f"<tr><td class='label'>{escape(cell.cell.label)}</td><td>{fmt(cell.length.mean, '.2f')}</td>"
            f"<td>{fmt(cell.length.median, 'g')}</td><td>{fmt(cell.length.p10, 'g')}</td>"
            f"<td>{fmt(cell.length.p90, 'g')}</td>"
            f"<td class='label'>{escape(ended)}</td><td>{fmt(cell.margin.mean, '.2f')}</td></tr>"
        )
    return "".join(rows) + "</table>"


def _svg(figure: object) -> str:
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg")  # type: ignore[attr-defined]
    text = buffer.getvalue()
    return text[text.index("<svg") :]
