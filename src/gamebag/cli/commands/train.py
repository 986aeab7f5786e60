"""``gamebag train``: train a policy by PPO against a league (needs the ``jax`` extra).

Games with a compiled engine train on its step batches; others on the rules engine
(``gamebag.interop.rules_batch``), slower but the same learner.
"""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

import gamebag
from gamebag.cli.common import check_output_file, check_range
from gamebag.core.errors import GamebagError
from gamebag.core.i18n import number
from gamebag.core.options import parse_option_pairs
from gamebag.lab.translation import _, fmt


class TrainError(GamebagError):
    """A training request that cannot run (bad budget, unknown league member, missing extra)."""


def register(app: typer.Typer) -> None:
    @app.command(
        "train",
        help=_("Train a policy for GAME by PPO against a league (itself, its past selves, compiled policies)."),
    )
    def train_command(
        game: str = typer.Argument(..., help=_("Game id, as `gamebag list` shows it.")),
        players: int = typer.Option(None, "--players", "-n", help=_("Number of players (default: the game's).")),
        steps: int = typer.Option(
            200_000,
            "--steps",
            help=_("Learner steps in all ({least} to {most}).", least=number(1_000), most=number(100_000_000)),
        ),
        seed: int = typer.Option(0, "--seed", help=_("Seed of the games, the league draws and the network.")),
        envs: int = typer.Option(256, "--envs", help=_("Games stepped together (1 to {most}).", most=number(4_096))),
        option: list[str] = typer.Option([], "--option", "-o", help=_("Game option key=value (repeatable).")),
        out: Path = typer.Option(
            None, "--out", help=_("Where to write the policy (default: <game>-<players>p.npz; checked writable first).")
        ),
        eval_games: int = typer.Option(
            2_000,
            "--eval-games",
            help=_("Games against each opponent afterwards (0 to {most}; 0: none).", most=number(100_000)),
        ),
        league: list[str] = typer.Option(
            [],
            "--league",
            help=_(
                "League member NAME or NAME=WEIGHT (repeatable): self, past (earlier copies) or a compiled "
                "policy such as heuristic (default: self=0.4 heuristic=0.3 past=0.2 random=0.1)."
            ),
        ),
        hidden: str = typer.Option(
            "64,64",
            "--hidden",
            help=_("Hidden layer sizes, comma-separated (1 to 4 of 1 to {most}).", most=number(1_024)),
        ),
        init: Path = typer.Option(
            None, "--init", help=_("Start the policy from this trained policy (.npz written by gamebag train).")
        ),
        learning_rate: float = typer.Option(
            None, "--learning-rate", help=_("Adam's learning rate at the start (1e-6 to 0.1; default 1e-3).")
        ),
        value_warmup: int = typer.Option(
            0,
            "--value-warmup",
            help=_("Updates that train only the value network first (0 to {most}; for --init).", most=number(10_000)),
        ),
        imitate: str = typer.Option(
            None,
            "--imitate",
            help=_(
                "TEACHER or TEACHER=WEIGHT: also learn a compiled policy's choices (such as optimal-win) at "
                "the learner's decisions, its cross-entropy weighted by WEIGHT (0 to 100; default 1) in the loss."
            ),
        ),
    ) -> None:
        """Train a policy for GAME by PPO against a league (itself, its past selves, compiled policies)."""
        console = Console(highlight=False, soft_wrap=True)
        cls = gamebag.entry(game).game_class
        count = cls.default_players if players is None else players
        options = parse_option_pairs(option)
        rules = gamebag.make(game, count, **options)
        check_range("--eval-games", eval_games, 0, 100_000)
        from gamebag.agents.learned import policy_name

        target = out if out is not None else Path(policy_name(game, count))
        check_output_file("--out", target)
        try:
            from gamebag.agents.learned import save_policy
            from gamebag.interop.train import check_budget, evaluations, parse_imitate, parse_league, train
        except ImportError as error:
            raise TrainError(
                _("training needs the 'jax' and 'rl' extras (install '.[rl,jax]'): {error}", error=error)
            ) from None
        try:
            check_budget(steps, envs)
            members = parse_league(league) if league else None
            teacher = parse_imitate(imitate) if imitate is not None else None
            try:
                sizes = [int(size) for size in hidden.split(",")]
            except ValueError:
                raise TrainError(
                    _("--hidden takes comma-separated layer sizes such as 64,64, not {given}", given=repr(hidden))
                ) from None
            start = None
            if init is not None:
                from gamebag.agents.learned import load_policy

                try:
                    start = load_policy(init)
                except (OSError, ValueError, KeyError) as error:
                    raise TrainError(
                        _("--init {path}: not a policy written by gamebag train ({error})", path=init, error=error)
                    ) from None
            policy = train(
                game,
                count,
                steps=steps,
                seed=seed,
                envs=envs,
                options=dict(rules.options),
                league=members,
                hidden=sizes,
                progress=console.print,
                init=start,
                learning_rate=learning_rate,
                value_warmup=value_warmup,
                imitate=teacher,
            )
        except ValueError as error:
            raise TrainError(str(error)) from None
        save_policy(target, policy)
        console.print(
            _("policy written to {path} ({seconds} s of training)", path=target, seconds=policy.meta["seconds"])
        )
        if eval_games:
            for result in evaluations(game, count, policy, (), games=eval_games, options=dict(rules.options)):
                console.print(
                    _(
                        "against {opponent}: win share {share} (95% interval {low}-{high}; {games} games; "
                        "an equal player gets {fair})",
                        opponent=result.opponent,
                        share=fmt(result.win_share, ".3f"),
                        low=fmt(result.low, ".3f"),
                        high=fmt(result.high, ".3f"),
                        games=number(result.games),
                        fair=fmt(result.fair_share, ".3f"),
                    )
                )
