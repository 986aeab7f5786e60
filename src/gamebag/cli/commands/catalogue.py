"""``gamebag list`` and ``gamebag rules``: what can be played, and how."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table

import gamebag
from gamebag.agents.registry import agent_entries, games_played
from gamebag.cli.common import option_text
from gamebag.core.presets import preset_named


def register(app: typer.Typer) -> None:
    @app.command("list")
    def list_games() -> None:
        """List every game (players, options) and every agent."""
        console = Console()
        table = Table(title="Games", show_lines=True)
        # Long names fold onto the next line instead of being cut at the terminal's width.
        table.add_column("id", overflow="fold")
        table.add_column("title", overflow="fold", ratio=1)
        table.add_column("players", no_wrap=True)
        table.add_column("options (default)", overflow="fold", ratio=3)
        for game_id in gamebag.game_ids():
            cls = gamebag.entry(game_id).game_class
            options = "\n".join(f"{o.name} ({o.default!r}): {o.allowed()}" for o in cls.option_specs) or "-"
            table.add_row(game_id, cls.title, f"{cls.min_players}-{cls.max_players}", options)
        console.print(table)
        agents = Table(title="Agents (name or name:key=value,key=value)")
        agents.add_column("name", overflow="fold")
        agents.add_column("games", overflow="fold")
        agents.add_column("what it does", overflow="fold", ratio=1)
        for agent in agent_entries():
            # Asked of the registry, so a plugin game shows exactly under the agents that play it.
            agents.add_row(agent.name, ", ".join(games_played(agent.name)) or "none registered", agent.doc)
        console.print(agents)

    @app.command("rules")
    def rules(
        game: str = typer.Argument(..., help="Game id, as `gamebag list` shows it."),
        preset: str | None = typer.Option(
            None, "--preset", help="Show only this named set of options, as --option pairs for `gamebag play`."
        ),
    ) -> None:
        """Print the guide to GAME's rules and options, and its named presets."""
        cls = gamebag.entry(game).game_class
        console = Console()
        if preset is not None:
            chosen = preset_named(cls, preset)
            console.print(f"{chosen.label}. {chosen.summary}", markup=False)
            for name, value in chosen.options.items():
                console.print(f"--option {name}={option_text(value)}", markup=False)
            return
        console.print(Markdown(gamebag.entry(game).rules_text()))
        table = Table(title="Presets (gamebag play GAME --preset NAME)")
        table.add_column("name", overflow="fold")
        table.add_column("what it is", overflow="fold", ratio=1)
        table.add_column("options", overflow="fold", ratio=1)
        for each in cls.presets():
            changes = " ".join(f"{name}={option_text(value)}" for name, value in each.options.items())
            table.add_row(each.name, f"{each.label}. {each.summary}", changes or "the defaults")
        console.print(table)
