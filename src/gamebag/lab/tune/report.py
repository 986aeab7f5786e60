"""A tune's report folder: ``tune.json``, ``trials.png`` (each goal per trial), ``front.png`` (two goals)
and ``index.html`` tying them together. The folder is checked before any game is played."""

from __future__ import annotations

import json
import os
from html import escape
from pathlib import Path

from gamebag.core.errors import GamebagError
from gamebag.core.i18n import current_language, language_tag, number
from gamebag.lab.translation import _, fmt, shown
from gamebag.lab.tune.search import TuneResult
from gamebag.sim.plotwords import reader_fonts


def check_report_folder(folder: Path) -> None:
    """Refuse a report folder that cannot be written, without creating anything."""
    if folder.exists() and not folder.is_dir():
        raise GamebagError(_("--report {given} is a file; name a folder", given=repr(str(folder))))
    probe = folder
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if not probe.is_dir() or not os.access(probe, os.W_OK | os.X_OK):
        raise GamebagError(
            _(
                "--report {given} cannot be written ({probe} is not a writable folder)",
                given=repr(str(folder)),
                probe=repr(str(probe)),
            )
        )


def write_report(result: TuneResult, folder: Path, command: str | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "tune.json").write_text(json.dumps(result.to_json(), indent=2), encoding="utf-8")
    with reader_fonts():
        _draw_pictures(result, folder)
    pictures = ["trials.png"] + (["front.png"] if len(result.settings.goals) >= 2 else [])
    page = folder / "index.html"
    page.write_text(_render(result, pictures, command), encoding="utf-8")
    return page


def _draw_pictures(result: TuneResult, folder: Path) -> None:
    _draw_trials(result, folder / "trials.png")
    if len(result.settings.goals) >= 2:
        _draw_front(result, folder / "front.png")


def _draw_trials(result: TuneResult, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    goals = result.settings.goals
    figure, axes = plt.subplots(len(goals), 1, figsize=(7, 2.6 * len(goals)), squeeze=False, layout="constrained")
    done = [t for t in result.trials if t.state == "complete"]
    for index, goal in enumerate(goals):
        axis = axes[index][0]
        for feasible, colour, label in (
            (True, "tab:blue", _("meets the limits")),
            (False, "tab:red", _("breaks a limit")),
        ):
            chosen = [t for t in done if t.feasible == feasible]
            if chosen:
                axis.scatter(
                    [t.number for t in chosen], [t.objectives[index] for t in chosen], s=14, c=colour, label=label
                )
        best = float("inf")
        xs, ys = [], []
        for trial in done:
            if trial.feasible:
                best = min(best, trial.objectives[index])
            if best < float("inf"):
                xs.append(trial.number)
                ys.append(best)
        if xs:
            axis.step(xs, ys, where="post", color="black", linewidth=1, label=_("best so far"))
        axis.set_xlabel(_("trial"))
        axis.set_ylabel(_("{goal} (smaller is better)", goal=goal.text))
        axis.legend(fontsize=7, loc="upper right")
    figure.suptitle(
        _(
            "{game}, {players} players: each trial's goals",
            game=result.settings.game,
            players=result.settings.players,
        )
    )
    figure.savefig(path, dpi=110)
    plt.close(figure)


def _draw_front(result: TuneResult, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    first, second = result.settings.goals[0], result.settings.goals[1]
    figure, axis = plt.subplots(figsize=(6, 4.5), layout="constrained")
    done = [t for t in result.trials if t.state == "complete"]
    axis.scatter(
        [t.objectives[0] for t in done], [t.objectives[1] for t in done], s=12, c="lightgray", label=_("trials")
    )
    front = [r.remeasured for r in result.pareto]
    if front:
        axis.scatter(
            [first.value(m.metrics).value for m in front],
            [second.value(m.metrics).value for m in front],
            s=30,
            c="tab:blue",
            label=_("front, re-measured"),
        )
    axis.set_xlabel(first.text)
    axis.set_ylabel(second.text)
    axis.legend(fontsize=8)
    axis.set_title(_("the trade-off between the first two goals (smaller is better)"))
    figure.savefig(path, dpi=110)
    plt.close(figure)


def _render(result: TuneResult, pictures: list[str], command: str | None) -> str:
    data = result.to_json()
    s = result.settings
    summary = _(
        "{trials} trials of {games} games, seed {seed}, in {seconds} s.",
        trials=number(len(result.trials)),
        games=number(s.games),
        seed=s.seed,
        seconds=fmt(result.seconds, ".1f"),
    )
    title = escape(_("Tune: {game}", game=s.game))
    heading = escape(_("Tune: {game}, {players} players", game=s.game, players=s.players))
    parts = [
        f"<!doctype html><html lang='{language_tag(current_language())}'><head><meta charset='utf-8'>",
        f"<title>{title}</title>",
        "<style>body{font-family:sans-serif;max-width:60em;margin:1em auto;padding:0 1em}img{max-width:100%}"
        "code{background:#eee}</style></head><body>",
        f"<h1>{heading}</h1>",
        f"<p>{escape(summary)}",
    ]
    if command:
        made = escape(_("Made by {command}.", command="\0"))
        parts.append(" " + made.replace("\0", f"<code>{escape(command)}</code>"))
    parts.append("</p>")
    note = escape(_("note: {text}", text="\0"))
    parts += ["<p>" + note.replace("\0", escape(shown(n))) + "</p>" for n in result.notes]
    best = data["best"]
    if best is not None and result.best is not None:
        recommended = escape(_("Recommended"))
        parts.append(f"<h2>{recommended}</h2><ul>")
        parts += [f"<li><code>{escape(k)}={escape(str(v))}</code></li>" for k, v in best["options"].items()]
        parts.append("</ul>")
        why = shown(result.best.why)
        verdict = _("Confirmed: {why}.", why=why) if best["confirmed"] else _("Not confirmed: {why}.", why=why)
        parts.append(f"<p>{escape(verdict)}</p><ul>")
        for name, e in best["metrics"].items():
            figures = _(
                "{value} ({low} to {high})",
                value=fmt(e["value"], ".4g"),
                low=fmt(e["low"], ".4g"),
                high=fmt(e["high"], ".4g"),
            )
            parts.append(f"<li>{escape(name)}: {escape(figures)}</li>")
        parts.append("</ul>")
    parts += [f"<img src='{p}' alt='{escape(p)}'>" for p in pictures]
    data_line = escape(_("All figures: {file}.", file="\0")).replace("\0", "<a href='tune.json'>tune.json</a>")
    parts.append(f"<p>{data_line}</p></body></html>")
    return "".join(parts)
