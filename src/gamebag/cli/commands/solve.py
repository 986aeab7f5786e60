"""``gamebag solve``: exact optimal policies (expected score of a turn, or the win) and their value."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

import gamebag
from gamebag.agents.solvers.solutions import OBJECTIVES, WIN_PLAYERS, SolveError
from gamebag.cli.common import check_output_file, check_range
from gamebag.core.i18n import number, percent
from gamebag.core.options import parse_option_pairs
from gamebag.lab.translation import _, fmt

EQUILIBRIUM = "equilibrium"
EQUILIBRIUM_PLAYERS = 2  # the round solver models two-player Eel games
MAX_TOP = 1000


def register(app: typer.Typer) -> None:
    @app.command("solve", help=_("Solve GAME exactly and print the optimal value (and how long it took)."))
    def solve(
        game: str = typer.Argument(..., help=_("Game id, as `gamebag list` shows it.")),
        objective: str = typer.Option(
            "score",
            "--objective",
            help=_(
                "'score': best expected points of one turn; 'win': best chance to win; "
                "'equilibrium': two-player Eel games (the default for them)."
            ),
        ),
        players: int = typer.Option(
            None,
            "--players",
            "-n",
            help=_("Number of players (default: the game's; {count} for 'win').", count=WIN_PLAYERS),
        ),
        option: list[str] = typer.Option([], "--option", "-o", help=_("Game option key=value (repeatable).")),
        as_json: bool = typer.Option(False, "--json", help=_("Print one JSON object.")),
        policy_out: Path | None = typer.Option(
            None,
            "--policy-out",
            help=_(
                "Write the whole policy table to this JSON file (docs/solvers.md; checked writable before solving)."
            ),
        ),
        compare: bool = typer.Option(
            True, "--compare/--no-compare", help=_("For 'win': compare with optimal-score (exact head-to-head).")
        ),
        top: int = typer.Option(
            10, "--top", help=_("How many of the differing decisions to show (0 to {most}).", most=number(MAX_TOP))
        ),
    ) -> None:
        """Solve GAME exactly and print the optimal value (and how long it took)."""
        # Imported here so other commands start without the solvers' libraries.
        from gamebag.agents.equilibrium.value import equilibrium_report, supports_equilibrium
        from gamebag.agents.solvers.policy_file import write_policy
        from gamebag.agents.solvers.report import policy_table, solve_report
        from gamebag.agents.solvers.solutions import supports_score

        check_range("--top", top, 0, MAX_TOP)
        if policy_out is not None:
            check_output_file("--policy-out", policy_out)
        cls = gamebag.entry(game).game_class
        if objective == EQUILIBRIUM or (not supports_score(cls) and objective == "score"):
            # Simultaneous-grab games (the Eel family): the value of the game under equilibrium play.
            if policy_out is not None:
                raise SolveError(_("--policy-out writes the table of 'score' or 'win'; the equilibrium has none"))
            rules = gamebag.make(game, players or EQUILIBRIUM_PLAYERS, **parse_option_pairs(option))
            if not supports_equilibrium(rules) and objective != EQUILIBRIUM:
                raise SolveError(_("{game} has no exact solver (no turn model, no equilibrium model)", game=game))
            report = equilibrium_report(rules)
            if as_json:
                typer.echo(json.dumps(report, indent=2))
            else:
                print_equilibrium(report)
            return
        if objective not in OBJECTIVES:
            raise SolveError(
                _(
                    "--objective must be one of {choices}, not {given}",
                    choices=", ".join((*OBJECTIVES, EQUILIBRIUM)),
                    given=repr(objective),
                )
            )
        if players is None:
            players = WIN_PLAYERS if objective == "win" else cls.default_players
        rules = gamebag.make(game, players, **parse_option_pairs(option))
        report = solve_report(rules, objective, compare=compare, top=top)
        if policy_out is not None:
            policy_out.parent.mkdir(parents=True, exist_ok=True)
            size = write_policy(policy_out, policy_table(rules, objective))
            report["policy_out"] = {"path": str(policy_out), "bytes": size}
        if as_json:
            typer.echo(json.dumps(report, indent=2))
        else:
            print_report(report)


def _options(report: dict[str, Any]) -> str:
    return ", ".join(f"{k}={_plain(v)}" for k, v in report["options"].items()) or _("none")


def print_equilibrium(report: dict[str, Any]) -> None:
    console = Console()
    console.print(
        _("[bold]{title}[/bold] ({game}), 2 players, equilibrium play", title=report["title"], game=report["game"])
    )
    console.print(_("options: {options}", options=_options(report)))
    console.print(
        _(
            "seat 0's chance to win: [bold]{value}[/bold] (seat 1: {other}); {source}, {seconds} s",
            value=fmt(report["value"], ".6f"),
            other=fmt(1 - report["value"], ".6f"),
            source=report["source"],
            seconds=fmt(report["seconds"], "g"),
        )
    )


def _tables(report: dict[str, Any]) -> dict[str, str]:
    return {
        "seconds": fmt(report["seconds"], ".2f"),
        "entries": number(report["table_entries"]),
        "megabytes": fmt(report["table_bytes"] / 1e6, ".2f"),
        "memory": str(report["peak_memory_mb"]),
    }


def print_report(report: dict[str, Any]) -> None:
    console = Console(highlight=False, soft_wrap=True)
    console.print(
        _(
            "[bold]{title}[/bold] ({game}), {players} players",
            title=report["title"],
            game=report["game"],
            players=report["players"],
        )
    )
    console.print(_("options: {options}", options=_options(report)))
    if report["objective"] == "score":
        _print_score(console, report)
    elif report.get("model") == "race":
        console.print(_("objective: win the race to {goal} (both players optimal)", goal=report["goal"]))
        console.print(
            _(
                "first player's win probability under optimal play: [bold]{value}[/bold] ({short} to four decimals)",
                value=fmt(report["value"], ".6f"),
                short=fmt(report["value"], ".4f"),
            )
        )
        console.print(
            _(
                "solved in {seconds} s ({sweeps} level sweeps); tables: {entries} decision entries, {megabytes} MB; "
                "peak process memory {memory} MB",
                sweeps=report["sweeps"],
                **_tables(report),
            )
        )
    else:
        _print_rounds(console, report)
    baseline = report.get("baseline")
    if baseline is not None:
        change = report["value"] - baseline["value"]
        console.print(
            _(
                "with default options the value is {value}; these options move it by {change}",
                value=fmt(baseline["value"], ".6f"),
                change=fmt(change, "+.6f"),
            )
        )
    if "policy_out" in report:
        out = report["policy_out"]
        console.print(_("policy table written to {path} ({size} bytes)", path=out["path"], size=number(out["bytes"])))


def _print_score(console: Console, report: dict[str, Any]) -> None:
    console.print(_("objective: maximise the expected score of one turn"))
    exact, value = report["value_exact"], fmt(report["value"], ".6f")
    if "by_turn_rules" in report:
        line = _(
            "optimal expected score (the first turn's rules): [bold]{exact}[/bold] = [bold]{value}[/bold]",
            exact=exact,
            value=value,
        )
    else:
        line = _("optimal expected score: [bold]{exact}[/bold] = [bold]{value}[/bold]", exact=exact, value=value)
    console.print(line)
    spread = ", ".join(f"{p}: {percent(q, 2)}" for p, q in report["points_distribution"].items())
    console.print(_("points of an optimal turn: {spread}", spread=spread))
    console.print(
        _(
            "solved {decisions} decision nodes ({turns} turn nodes) in {seconds} s",
            decisions=number(report["decision_nodes"]),
            turns=number(report["turn_nodes"]),
            seconds=fmt(report["seconds"], ".3f"),
        )
    )
    for turn in report.get("by_turn_rules", ()):  # a game whose turn rules change by round or seat
        console.print(
            "  "
            + _(
                "turns played by {rules}: optimal expected score {exact} = {value}, scores 0 in {bust} of turns",
                rules=turn["turn_rules"],
                exact=turn["value_exact"],
                value=fmt(turn["value"], ".6f"),
                bust=percent(turn["bust_probability"], 2),
            )
        )


def _print_rounds(console: Console, report: dict[str, Any]) -> None:
    console.print(
        _(
            "objective: win the game ({rounds} rounds, then up to {tiebreaks} tie-break rounds), both players optimal",
            rounds=report["rounds"],
            tiebreaks=report["max_tiebreak_rounds"],
        )
    )
    console.print(
        _(
            "first player's win probability under optimal play: [bold]{value}[/bold] "
            "(win share: a shared win counts 1/2)",
            value=fmt(report["value"], ".6f"),
        )
    )
    outcomes = report["outcomes"]
    console.print(
        "  "
        + _(
            "seat 0 wins {first}, shared win {shared}, seat 1 wins {second}",
            first=percent(outcomes["first_wins"], 4),
            shared=fmt(outcomes["shared"], ".2e"),
            second=percent(outcomes["second_wins"], 4),
        )
    )
    console.print(
        _(
            "solved in {seconds} s; tables: {entries} decision entries, {megabytes} MB; "
            "peak process memory {memory} MB",
            **_tables(report),
        )
    )
    versus = report.get("versus_optimal_score")
    if versus is None:
        return
    console.print(_("[bold]optimal-win against optimal-score[/bold] (exact win share of seat 0):"))
    console.print(f"  optimal-win   vs optimal-score: {fmt(versus['win_vs_score'], '.4f')}")
    console.print(f"  optimal-score vs optimal-win:   {fmt(versus['score_vs_win'], '.4f')}")
    console.print(f"  optimal-score vs optimal-score: {fmt(versus['score_vs_score'], '.4f')}")
    kinds = "; ".join(f"{kind}: {number(count)}" for kind, count in versus["differing_by_kind"].items())
    console.print(
        _(
            "they choose differently in {differing} of {reachable} reachable decision situations (round, seat, "
            "score difference, turn node): optimal-win chooses {kinds}.",
            differing=number(versus["differing_decisions"]),
            reachable=number(versus["reachable_decisions"]),
            kinds=kinds,
        )
    )
    console.print(
        _(
            "The most important, grouped over score differences (weight: win share gained there x chance of "
            "getting there under optimal play):"
        )
    )
    for item in versus["top"]:
        diffs = " ".join(f"{a:+d}" if a == b else f"{a:+d}..{b:+d}" for a, b in item["differences"])
        console.print(
            "  "
            + _(
                "round {round}, seat {seat}, diff {diffs}: {node} -> optimal-win [bold]{win}[/bold], "
                "optimal-score {score} (gain up to {gain}, weight {weight})",
                round=item["round"],
                seat=item["seat"],
                diffs=diffs,
                node=_node_text(item["node"]),
                win=_plain(item["optimal_win"]),
                score=_plain(item["optimal_score"]),
                gain=fmt(item["max_gain"], ".3f"),
                weight=fmt(item["weight"], ".5f"),
            )
        )
    console.print(
        _(
            "diffs: seat 0's total minus seat 1's at the start of the turn; rounds after the regular ones "
            "are tie-break rounds"
        )
    )


def _node_text(node: Any) -> str:
    """``{"step": "collect", "held": [...], "rolled": [...]}`` -> ``collect: held a,b; rolled c``."""
    if isinstance(node, dict):
        step = node.get("step")
        rest = "; ".join(f"{k} {_plain(v)}" for k, v in node.items() if k != "step")
        return f"{step}: {rest}" if step is not None else rest
    return _plain(node)


def _plain(value: Any) -> str:
    if isinstance(value, list):
        return ",".join(_plain(v) for v in value) if value else "-"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
