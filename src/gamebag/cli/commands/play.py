"""``gamebag play``: a game at the terminal, humans and bots together."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.rule import Rule

import gamebag
from gamebag.agents.base import SeatView
from gamebag.agents.registry import make_agent
from gamebag.cli.common import build_game, split_agents
from gamebag.core.errors import GamebagError, RecordError
from gamebag.core.match import Match
from gamebag.core.protocol import Game
from gamebag.core.records import Record
from gamebag.core.rng import derive_rng

HUMAN = "human"


def register(app: typer.Typer) -> None:
    @app.command("play")
    def play(
        game: str = typer.Argument(..., help="Game id, as `gamebag list` shows it."),
        players: int = typer.Option(None, "--players", "-n", help="Number of players (default: the game's)."),
        seats: str = typer.Option(
            "human,heuristic",
            "--seats",
            help="Who sits where: 'human' or an agent name per seat, comma-separated; missing seats get "
            "'heuristic'.",
        ),
        seed: int = typer.Option(None, "--seed", "-s", help="Seed for dice, draws and bots (default: random)."),
        option: list[str] = typer.Option([], "--option", "-o", help="Game option key=value (repeatable)."),
        record: Path | None = typer.Option(
            None, "--record", help="Save the record here (a game cut short is always saved, by default in the "
            "working folder)."
        ),
        resume: Path | None = typer.Option(
            None, "--resume", help="Continue the game in this record (its game, players and options are used)."
        ),
    ) -> None:
        """Play GAME in the terminal. You see only what your seat may know."""
        events: list[dict[str, Any]] = []
        if resume is not None:
            saved = Record.load(resume)
            if saved.game != game:
                raise GamebagError(f"{resume} holds a game of {saved.game}, not {game}")
            players, option = saved.players, [f"{k}={_option_text(v)}" for k, v in saved.options.items()]
            events = saved.events
            record = record or resume  # the resumed game's record continues in the same file
            meta_seed = saved.meta.get("seed")
            seed = meta_seed if isinstance(meta_seed, int) and seed is None else seed
        cls = gamebag.entry(game).game_class
        n = players if players is not None else cls.default_players
        rules = build_game(game, n, option)
        names = [s.strip() for s in seats.split(",") if s.strip()]
        names += ["heuristic"] * (n - len(names))
        names = split_agents(",".join(names), n) if len(names) == n else names
        if len(names) != n:
            raise GamebagError(f"{len(names)} seats named for {n} players")
        bots = {p: make_agent(name, rules) for p, name in enumerate(names) if name != HUMAN}
        if seed is None:
            import secrets

            seed = secrets.randbelow(2**31)
        TerminalGame(rules, names, bots, seed, record, events).run()


def _option_text(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ",".join(map(str, value))
    return "none" if value is None else str(value).lower() if isinstance(value, bool) else str(value)


class TerminalGame:
    """The loop of a terminal game: ask humans, let bots act, show each reveal."""

    def __init__(
        self,
        game: Game[Any, Any, Any],
        names: list[str],
        bots: dict[int, Any],
        seed: int,
        record: Path | None,
        events: list[dict[str, Any]],
    ) -> None:
        self.game = game
        self.record_path = record
        self.names = names
        self.bots = bots
        self.seed = seed
        try:
            self.match = Match(game, seed, events)
        except GamebagError as error:
            raise RecordError(f"the saved game cannot be resumed: {error}") from None
        self.match.record.meta = {"seed": seed}
        self.console = Console()
        self.render = gamebag.entry(game.game_id).render_view
        humans = [p for p, name in enumerate(names) if name == HUMAN]
        self.viewer = humans[0] if humans else None

    def run(self) -> None:
        try:
            finished = self.play()
        except KeyboardInterrupt:
            finished = False
        if finished:
            self.show_final()
        if finished and self.record_path is None:
            return
        # Nothing a player did is lost: a game cut short is saved and can be replayed or resumed.
        path = self.record_path or Path(f"gamebag-{self.game.game_id}-{self.seed}.json")
        path.write_text(json.dumps(self.match.record.to_json(), indent=1), encoding="utf-8")
        if finished:
            self.console.print(f"The game's record is saved in {path}; `gamebag replay {path}` shows it.")
        else:
            self.console.print(
                f"The game so far is saved in {path}; continue it with "
                f"`gamebag play {self.game.game_id} --resume {path} --seats {','.join(self.names)}`."
            )

    def play(self) -> bool:
        """Play until the end (True) or until a human leaves (False)."""
        self.console.print(
            f"[bold]{self.game.title}[/bold] - {self.game.num_players} players, seed {self.seed}. "
            + ", ".join(f"seat {p}: {name}" for p, name in enumerate(self.names))
        )
        step = 0
        while not self.match.is_over:
            step += 1
            for seat in self.match.waiting_for():
                if seat in self.bots:
                    view = SeatView(self.game, self.match.state, seat)
                    action = self.bots[seat].act(view, derive_rng(self.seed, "bot", seat, step))
                else:
                    action = self.ask(seat)
                    if action is None:
                        self.console.print("Game left before the end.")
                        return False
                self.match.submit(seat, action)
        return True

    def ask(self, seat: int) -> Any:
        if sum(name == HUMAN for name in self.names) > 1:
            # Hot seat: hide the previous player's screen before the next one looks.
            self.console.clear()
            try:
                self.console.input(f"Pass the keyboard to seat {seat}, then press Enter. ")
            except EOFError:
                return None
        self.console.print(Rule(f"seat {seat} ({self.names[seat]}) to choose"))
        self.console.print(self.render(self.match.view(seat)))
        legal = list(self.match.legal_actions(seat))
        labels = [json.dumps(self.game.action_to_json(a)) for a in legal]
        numbered = not all(isinstance(a, int) and not isinstance(a, bool) for a in legal)
        if numbered:
            for k, label in enumerate(labels, 1):
                self.console.print(f"  [{k}] {label}", highlight=False)
            hint = f"a number from 1 to {len(legal)}, or an action as written above"
        else:
            hint = "one of " + ", ".join(labels)
        while True:
            try:
                text = self.console.input(f"Your choice ({hint}): ").strip()
            except EOFError:
                return None
            action = self.parse(text, legal, numbered)
            if action is not None:
                return action
            self.console.print(f"[yellow]{text!r} is not a legal choice now.[/yellow] Enter {hint}.")

    def parse(self, text: str, legal: list[Any], numbered: bool) -> Any:
        if numbered and text.isdigit() and 1 <= int(text) <= len(legal):
            return legal[int(text) - 1]
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            data = text
        try:
            action = self.game.action_from_json(data)
        except GamebagError:
            return None
        return action if action in legal else None

    def show_final(self) -> None:
        self.console.print(Rule("game over"))
        view = self.match.view(self.viewer) if self.viewer is not None else self.match.public()
        self.console.print(self.render(view))
        scores = self.game.scores(self.match.state)
        winners = self.game.winners(self.match.state)
        for seat, score in sorted(enumerate(scores), key=lambda item: -item[1]):
            mark = " (winner)" if seat in winners else ""
            self.console.print(f"seat {seat} ({self.names[seat]}): {score:g}{mark}")
