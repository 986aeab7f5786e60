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
from gamebag.core.options import parse_option_pairs

EQUILIBRIUM = "equilibrium"
EQUILIBRIUM_PLAYERS = 2  # the round solver models two-player Eel games
MAX_TOP = 1000


def register(app: typer.Typer) -> None:
    @app.command("solve")
    def solve(
        game: str = typer.Argument(..., help="Game id, as `gamebag list` shows it."),
        objective: str = typer.Option(
            "score",
            "--objective",
            help="'score': best expected points of one turn; 'win': best chance to win; "
            "'equilibrium': two-player Eel games (the default for them).",
        ),
        players: int = typer.Option(
            None, "--players", "-n", help=f"Number of players (default: the game's; {WIN_PLAYERS} for 'win')."
        ),
        option: list[str] = typer.Option([], "--option", "-o", help="Game option key=value (repeatable)."),
        as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
        policy_out: Path | None = typer.Option(
            None,
            "--policy-out",
            help="Write the whole policy table to this JSON file (docs/solvers.md; checked writable before solving).",
        ),
        compare: bool = typer.Option(
            True, "--compare/--no-compare", help="For 'win': compare with optimal-score (exact head-to-head)."
        ),
        top: int = typer.Option(
            10, "--top", help=f"How many of the differing decisions to show (0 to {MAX_TOP:,})."
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
                raise SolveError("--policy-out writes the table of 'score' or 'win'; the equilibrium has none")
            rules = gamebag.make(game, players or EQUILIBRIUM_PLAYERS, **parse_option_pairs(option))
            if not supports_equilibrium(rules) and objective != EQUILIBRIUM:
                raise SolveError(f"{game} has no exact solver (no turn model, no equilibrium model)")
            report = equilibrium_report(rules)
            if as_json:
                typer.echo(json.dumps(report, indent=2))
            else:
                print_equilibrium(report)
            return
        if objective not in OBJECTIVES:
            raise SolveError(f"--objective must be one of {', '.join((*OBJECTIVES, EQUILIBRIUM))}, not {objective!r}")
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


def print_equilibrium(report: dict[str, Any]) -> None:
    console = Console()
    options = ", ".join(f"{k}={_plain(v)}" for k, v in report["options"].items()) or "none"
    console.print(f"[bold]{report['title']}[/bold] ({report['game']}), 2 players, equilibrium play")
    console.print(f"options: {options}")
    console.print(
        f"seat 0's chance to win: [bold]{report['value']:.6f}[/bold] (seat 1: {1 - report['value']:.6f}); "
        f"{report['source']}, {report['seconds']} s"
    )


def print_report(report: dict[str, Any]) -> None:
    console = Console(highlight=False, soft_wrap=True)
    options = ", ".join(f"{k}={_plain(v)}" for k, v in report["options"].items()) or "none"
    console.print(f"[bold]{report['title']}[/bold] ({report['game']}), {report['players']} players")
    console.print(f"options: {options}")
    if report["objective"] == "score":
        _print_score(console, report)
    elif report.get("model") == "race":
        console.print(f"objective: win the race to {report['goal']} (both players optimal)")
        console.print(
            f"first player's win probability under optimal play: [bold]{report['value']:.6f}[/bold] "
            f"({report['value']:.4f} to four decimals)"
        )
        console.print(
            f"solved in {report['seconds']:.2f} s ({report['sweeps']} level sweeps); tables: "
            f"{report['table_entries']:,} decision entries, {report['table_bytes'] / 1e6:.2f} MB; "
            f"peak process memory {report['peak_memory_mb']} MB"
        )
    else:
        _print_rounds(console, report)
    baseline = report.get("baseline")
    if baseline is not None:
        change = report["value"] - baseline["value"]
        console.print(
            f"with default options the value is {baseline['value']:.6f}; these options move it by {change:+.6f}"
        )
    if "policy_out" in report:
        out = report["policy_out"]
        console.print(f"policy table written to {out['path']} ({out['bytes']:,} bytes)")


def _print_score(console: Console, report: dict[str, Any]) -> None:
    console.print("objective: maximise the expected score of one turn")
    first = " (the first turn's rules)" if "by_turn_rules" in report else ""
    console.print(
        f"optimal expected score{first}: [bold]{report['value_exact']}[/bold] = [bold]{report['value']:.6f}[/bold]"
    )
    spread = ", ".join(f"{p}: {q:.2%}" for p, q in report["points_distribution"].items())
    console.print(f"points of an optimal turn: {spread}")
    console.print(
        f"solved {report['decision_nodes']:,} decision nodes ({report['turn_nodes']:,} turn nodes) "
        f"in {report['seconds']:.3f} s"
    )
    for turn in report.get("by_turn_rules", ()):  # a game whose turn rules change by round or seat
        console.print(
            f"  turns played by {turn['turn_rules']}: optimal expected score {turn['value_exact']} = "
            f"{turn['value']:.6f}, scores 0 in {turn['bust_probability']:.2%} of turns"
        )


def _print_rounds(console: Console, report: dict[str, Any]) -> None:
    console.print(
        f"objective: win the game ({report['rounds']} rounds, then up to {report['max_tiebreak_rounds']} "
        "tie-break rounds), both players optimal"
    )
    console.print(
        f"first player's win probability under optimal play: [bold]{report['value']:.6f}[/bold] "
        "(win share: a shared win counts 1/2)"
    )
    outcomes = report["outcomes"]
    console.print(
        f"  seat 0 wins {outcomes['first_wins']:.4%}, shared win {outcomes['shared']:.2e}, "
        f"seat 1 wins {outcomes['second_wins']:.4%}"
    )
    console.print(
        f"solved in {report['seconds']:.2f} s; tables: {report['table_entries']:,} decision entries, "
        f"{report['table_bytes'] / 1e6:.2f} MB; peak process memory {report['peak_memory_mb']} MB"
    )
    versus = report.get("versus_optimal_score")
    if versus is None:
        return
    console.print("[bold]optimal-win against optimal-score[/bold] (exact win share of seat 0):")
    console.print(f"  optimal-win   vs optimal-score: {versus['win_vs_score']:.4f}")
    console.print(f"  optimal-score vs optimal-win:   {versus['score_vs_win']:.4f}")
    console.print(f"  optimal-score vs optimal-score: {versus['score_vs_score']:.4f}")
    kinds = "; ".join(f"{kind}: {count:,}" for kind, count in versus["differing_by_kind"].items())
    console.print(
        f"they choose differently in {versus['differing_decisions']:,} of {versus['reachable_decisions']:,} "
        f"reachable decision situations (round, seat, score difference, turn node): optimal-win chooses {kinds}."
    )
    console.print(
        "The most important, grouped over score differences (weight: win share gained there x chance of "
        "getting there under optimal play):"
    )
    for item in versus["top"]:
        diffs = " ".join(f"{a:+d}" if a == b else f"{a:+d}..{b:+d}" for a, b in item["differences"])
        console.print(
            f"  round {item['round']}, seat {item['seat']}, diff {diffs}: {_node_text(item['node'])} -> "
            f"optimal-win [bold]{_plain(item['optimal_win'])}[/bold], optimal-score {_plain(item['optimal_score'])} "
            f"(gain up to {item['max_gain']:.3f}, weight {item['weight']:.5f})"
        )
    console.print(
        "diffs: seat 0's total minus seat 1's at the start of the turn; rounds after the regular ones "
        "are tie-break rounds"
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
