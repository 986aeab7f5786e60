"""``gamebag list`` and ``gamebag rules``: what can be played, and how, in the reader's language.

``gamebag rules GAME`` prints the players' guide (the registry's ``players_text``, which answers in
the current language where the game has a translation), its ``{{option}}`` numbers filled from the
rulebook's setup, then the options and presets in words. The developer's reading of the rules
(``rules.md``: engine notes, options by their code names) is English and shown with ``--readings``.
"""

from __future__ import annotations

import re
from typing import Any

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table

import gamebag
from gamebag.agents.registry import agent_entries, games_played
from gamebag.cli.common import option_text
from gamebag.core.i18n import game_text, join_list, number
from gamebag.core.options import Option, OptionValue
from gamebag.core.presets import Preset, preset_named, preset_words
from gamebag.core.protocol import Game
from gamebag.core.translation import _

PLACEHOLDER = re.compile(r"\{\{(\w+)(?:\|([^}]*))?\}\}")


def _choice(game: Any, choice: Any) -> str:
    words = game_text(game, str(choice))
    # Translators: an option's choice as it is typed on the command line, then its name in words.
    return repr(choice) if words == str(choice) else _("{code} ({words})", code=repr(choice), words=words)


def allowed_words(option: Option, game: Any = None) -> str:
    """The values ``option`` takes, in the reader's words: each choice as it is typed, with its name
    in the reader's language where ``game``'s catalogue gives one."""
    if option.kind == "bool":
        return _("true or false")
    if option.kind == "choice":
        return _("one of {values}", values=join_list([_choice(game, c) for c in option.choices], "or"))
    if option.kind == "list":
        return _("a list of distinct values from {values}", values=", ".join(repr(c) for c in option.choices))
    low = "-inf" if option.minimum is None else number(option.minimum)
    high = "inf" if option.maximum is None else number(option.maximum)
    if option.nullable:
        return _("a whole number from {low} to {high}, or none", low=low, high=high)
    return _("a whole number from {low} to {high}", low=low, high=high)


def value_words(value: OptionValue) -> str:
    """An option value as a player reads it: yes or no, a number, a list of names."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if value is None:
        return _("none")
    if isinstance(value, int):
        return number(value)
    if isinstance(value, tuple):
        return join_list(list(value)) if value else _("none")
    return str(value)


def fill_numbers(text: str, game: Game[Any, Any, Any]) -> str:
    """``text`` with every ``{{option}}`` replaced by the value of the rulebook's setup in words
    (``{{option|words}}``: the words where the value is none)."""

    def value(found: re.Match[str]) -> str:
        name, when_none = found.group(1), found.group(2)
        if name not in game.options:
            return found.group(0)
        chosen = game.options[name]
        if chosen is None and when_none is not None:
            return when_none
        return value_words(chosen)

    return PLACEHOLDER.sub(value, text)


def preset_line(cls: type[Game[Any, Any, Any]], preset: Preset) -> str:
    label, summary = preset_words(cls, preset)
    return _("{label}. {summary}", label=label, summary=summary)


def register(app: typer.Typer) -> None:
    @app.command("list", help=_("List every game (players, options) and every agent."))
    def list_games() -> None:
        console = Console()
        table = Table(title=_("Games"), show_lines=True)
        # Long names fold onto the next line instead of being cut at the terminal's width.
        table.add_column(_("id"), overflow="fold")
        table.add_column(_("title"), overflow="fold", ratio=1)
        table.add_column(_("players"), no_wrap=True)
        table.add_column(_("options (default)"), overflow="fold", ratio=3)
        for game_id in gamebag.game_ids():
            cls = gamebag.entry(game_id).game_class
            options = "\n".join(
                f"{o.name} ({o.default!r}): {allowed_words(o, cls)}" for o in cls.option_specs
            ) or "-"
            table.add_row(game_id, game_text(cls, cls.title), f"{cls.min_players}-{cls.max_players}", options)
        console.print(table)
        agents = Table(title=_("Agents (name or name:key=value,key=value)"))
        agents.add_column(_("name"), overflow="fold")
        agents.add_column(_("games"), overflow="fold")
        agents.add_column(_("what it does"), overflow="fold", ratio=1)
        for agent in agent_entries():
            # Asked of the registry, so a plugin game shows exactly under the agents that play it.
            played = ", ".join(games_played(agent.name)) or _("none registered")
            agents.add_row(agent.name, played, _(agent.doc))
        console.print(agents)

    @app.command("rules", help=_("Print the players' guide to GAME's rules, its options and its named presets."))
    def rules(
        game: str = typer.Argument(..., help=_("Game id, as `gamebag list` shows it.")),
        preset: str | None = typer.Option(
            None, "--preset", help=_("Show only this named set of options, as --option pairs for `gamebag play`.")
        ),
        readings: bool = typer.Option(
            False, "--readings", help=_("Also print the developer's reading of the rules (in English).")
        ),
    ) -> None:
        entry = gamebag.entry(game)
        cls = entry.game_class
        console = Console()
        if preset is not None:
            chosen = preset_named(cls, preset)
            console.print(preset_line(cls, chosen), markup=False)
            for name, value in chosen.options.items():
                console.print(f"--option {name}={option_text(value)}", markup=False)
            return
        title = game_text(cls, cls.title)
        if entry.players_text is not None:
            guide = fill_numbers(entry.players_text(), gamebag.make(game))
            if title.lower() not in guide.lower():
                console.print(Markdown(f"# {title}"))
            console.print(Markdown(guide))
        else:
            console.print(Markdown(entry.rules_text()))
        if cls.option_specs:
            options = Table(title=_("Options (gamebag play GAME --option NAME=VALUE)"))
            options.add_column(_("name"), overflow="fold")
            options.add_column(_("default"), overflow="fold")
            options.add_column(_("what it changes"), overflow="fold", ratio=2)
            options.add_column(_("values"), overflow="fold", ratio=1)
            for spec in cls.option_specs:
                options.add_row(
                    spec.name, option_text(spec.default), game_text(cls, spec.doc), allowed_words(spec, cls)
                )
            console.print(options)
        table = Table(title=_("Presets (gamebag play GAME --preset NAME)"))
        table.add_column(_("name"), overflow="fold")
        table.add_column(_("what it is"), overflow="fold", ratio=1)
        table.add_column(_("options"), overflow="fold", ratio=1)
        for each in cls.presets():
            changes = " ".join(f"{name}={option_text(value)}" for name, value in each.options.items())
            table.add_row(each.name, preset_line(cls, each), changes or _("the defaults"))
        console.print(table)
        if readings and entry.players_text is not None:
            console.print(Markdown("---\n\n## " + _("The developer's reading of the rules (English)")))
            console.print(Markdown(entry.rules_text()))
