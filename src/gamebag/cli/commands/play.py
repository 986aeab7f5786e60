"""``gamebag play``: a game at the terminal, humans and bots together."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.rule import Rule

import gamebag
from gamebag.agents.base import SeatView
from gamebag.agents.registry import default_agent, make_agent
from gamebag.cli.common import build_game, check_output_file, split_agents
from gamebag.core.errors import GamebagError, RecordError
from gamebag.core.i18n import game_text, join_list, number
from gamebag.core.match import Match
from gamebag.core.protocol import Game, JsonDict
from gamebag.core.records import Record, apply_event
from gamebag.core.results import LOWER_IS_BETTER, best_first
from gamebag.core.rng import derive_rng
from gamebag.core.translation import _, ngettext
from gamebag.plugins import plugin_arguments

HUMAN = "human"
DEFAULT_BOT = "heuristic"  # the bot of every seat not named, where the game has one (else random)
SPECTATOR = -1  # the key of the spectator's view when no human plays
INTERRUPTED = 130  # the shell's exit status for a program stopped by Ctrl-C (128 + SIGINT)
AUTO_DELAY = 0.8  # seconds a single legal choice stays on screen before it is played
MAX_AUTO_DELAY = 10.0
SEAT = re.compile(r"\b([Ss])eat (\d+)( {2,})?")  # "seat 2", with the spaces of a table column after it


def seat_pattern() -> re.Pattern[str]:
    """``SEAT``, and the reader's word for a seat where the games' words are translated ("plaats 2",
    "席 2": gamebag's own ``seat {seat}``, which the games' catalogues follow)."""
    word = _("seat {seat}").split("{seat}")[0].strip()
    if not word or word.lower() == "seat":
        return SEAT
    edge = r"\b" if word[0].isascii() else ""  # a word of letters, not inside another ("replace 2")
    return re.compile(r"(?:\b([Ss])eat |" + edge + "(?i:" + re.escape(word) + r")\s?)(\d+)( {2,})?")


def seat_labels(names: list[str]) -> list[str]:
    """The seats' names, as the web names them: ``Player 1`` for a person, ``Bot 2`` for a bot."""
    return [_("Player {number}", number=p + 1) if name == HUMAN else _("Bot {number}", number=p + 1)
            for p, name in enumerate(names)]


def register(app: typer.Typer) -> None:
    @app.command(
        "play",
        help=_("Play GAME in the terminal. You see only what your seat may know.\n\n"
               "Ctrl-C or Ctrl-D saves the game and leaves (Ctrl-C with exit status 130)."),
    )
    def play(
        game: str = typer.Argument(..., help=_("Game id, as `gamebag list` shows it.")),
        players: int = typer.Option(None, "--players", "-n", help=_("Number of players (default: the game's).")),
        seats: str = typer.Option(
            None,
            "--seats",
            help=_("Who sits where: 'human' or an agent name per seat, comma-separated (default: human, then "
                   "bots); missing seats get 'heuristic', or 'random' in a game without one (said in a note)."),
        ),
        seed: int = typer.Option(None, "--seed", "-s", help=_("Seed for dice, draws and bots (default: random).")),
        option: list[str] = typer.Option([], "--option", "-o", help=_("Game option key=value (repeatable).")),
        preset: str | None = typer.Option(
            None,
            "--preset",
            help=_("A named set of options (`gamebag rules GAME` lists them: quick, ...); --option changes it "
                   "further."),
        ),
        record: Path | None = typer.Option(
            None,
            "--record",
            help=_("Save the record here (checked writable before the game starts; a game cut short is always "
                   "saved, by default in the working folder)."),
        ),
        resume: Path | None = typer.Option(
            None, "--resume", help=_("Continue the game in this record (its game, players and options are used).")
        ),
        auto_delay: float = typer.Option(
            AUTO_DELAY,
            "--auto-delay",
            help=_("Seconds a decision with a single legal choice is shown before it is played (0-{most}).",
                   most=number(MAX_AUTO_DELAY)),
        ),
        coach: bool = typer.Option(
            False,
            "--coach",
            help=_("Before each of your decisions, show the winning chance of each choice and the advice "
                   "(docs/analysis.md); only where you are the one person at the table. The record notes it."),
        ),
    ) -> None:
        """Play GAME in the terminal (the help text is the command's ``help``)."""
        if not 0 <= auto_delay <= MAX_AUTO_DELAY:
            raise GamebagError(
                _("--auto-delay must be from 0 to {most} seconds, not {value}", most=number(MAX_AUTO_DELAY),
                  value=number(auto_delay))
            )
        if record is not None:
            check_output_file("--record", record)
        events: list[dict[str, Any]] = []
        if resume is not None:
            if preset is not None:
                raise GamebagError(_("--preset and --resume go apart: a resumed game keeps its record's options"))
            saved = Record.load(resume)
            if saved.game != game:
                raise GamebagError(_("{path} holds a game of {saved}, not {game}", path=resume, saved=saved.game,
                                     game=game))
            players, option = saved.players, [f"{k}={_option_text(v)}" for k, v in saved.options.items()]
            events = saved.events
            if record is None:  # the resumed game's record continues in the same file
                record = resume
                check_output_file("--resume", record)
            meta_seed = saved.meta.get("seed")
            seed = meta_seed if isinstance(meta_seed, int) and seed is None else seed
        cls = gamebag.entry(game).game_class
        n = players if players is not None else cls.default_players
        rules = build_game(game, n, option, preset)
        names = [s.strip() for s in (HUMAN if seats is None else seats).split(",") if s.strip()]
        if len(names) < n:
            bot = default_agent(rules, (DEFAULT_BOT,))
            if bot.notice is not None:
                typer.echo(_("note: {notice}", notice=bot.notice), err=True)
            names += [bot.spec] * (n - len(names))
        names = split_agents(",".join(names), n) if len(names) == n else names
        if len(names) != n:
            raise GamebagError(
                ngettext("{seats} seats named for {n} player", "{seats} seats named for {n} players", n,
                         seats=number(len(names)))
            )
        if coach and names.count(HUMAN) != 1:
            raise GamebagError(
                _("--coach needs exactly one 'human' seat (the person asking), not {count}: at a table of several "
                  "people each must agree to it (the web's practice tables)", count=number(names.count(HUMAN)))
            )
        bots = {p: make_agent(name, rules) for p, name in enumerate(names) if name != HUMAN}
        if seed is None:
            import secrets

            seed = secrets.randbelow(2**31)
        TerminalGame(rules, names, bots, seed, record, events, auto_delay, coach).run()


def _option_text(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ",".join(map(str, value))
    return "none" if value is None else str(value).lower() if isinstance(value, bool) else str(value)


class TerminalGame:
    """The loop of a terminal game: ask humans, let bots act, tell each human everything that happened.

    After every state change (each joint action and each chance event) every human seat's view is
    compared with the one it saw before, and the game's narrator turns the difference into lines in
    the rulebook's words; a human sees all of them before its next decision (hot seat: each only
    its own). Choices are listed in plain words with their codes; ``?`` explains the decision; a
    decision with a single legal choice is played after a short notice. Seats are shown by name
    (``Player 1``, ``Bot 2``, as in the web app) wherever the game's text says ``seat N``.
    """

    def __init__(
        self,
        game: Game[Any, Any, Any],
        names: list[str],
        bots: dict[int, Any],
        seed: int,
        record: Path | None,
        events: list[dict[str, Any]],
        auto_delay: float = AUTO_DELAY,
        coach: bool = False,
    ) -> None:
        self.game = game
        self.coach = coach
        self.record_path = record
        self.names = names
        self.labels = seat_labels(names)
        self.seat_words = seat_pattern()
        self.bots = bots
        self.seed = seed
        self.auto_delay = auto_delay
        try:
            self.match = Match(game, seed, events)
        except GamebagError as error:
            raise RecordError(_("the saved game cannot be resumed: {reason}", reason=error)) from None
        self.match.record.meta = {"seed": seed}
        if coach:  # the record says from which event on the coach advised (docs/records.md)
            self.match.record.meta["coach"] = {"on": [[len(events), None]]}
        # No generic highlighting (numbers and quotes in Rich's colours): the games' own markup
        # colours what matters (eels green, snakes red, dragons in their colours).
        self.console = Console(highlight=False)
        self.entry = gamebag.entry(game.game_id)
        self.render = self.entry.render_view
        self.humans = [p for p, name in enumerate(names) if name == HUMAN]
        self.viewer = self.humans[0] if self.humans else None
        # What each human (or, with no human, the spectator: key -1) last saw, and what it has not read yet.
        self.seen: dict[int, JsonDict | None] = {}
        self.unread: dict[int, list[str]] = {}
        for seat in self.humans or [SPECTATOR]:
            self.seen[seat] = None
            self.unread[seat] = []
        self.observe(self.match.state)

    def run(self) -> None:
        interrupted = False
        try:
            finished = self.play()
        except KeyboardInterrupt:
            finished, interrupted = False, True
        if finished:
            self.show_final()
        if finished and self.record_path is None:
            return
        # Nothing a player did is lost: a game cut short is saved and can be replayed or resumed.
        path = self.record_path or Path(f"gamebag-{self.game.game_id}-{self.seed}.json")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(self.match.record.to_json(), indent=1), encoding="utf-8")
        except OSError as error:  # the working folder, unlike --record, is not checked before the game
            raise GamebagError(
                _("cannot save the game to {path}: {reason}", path=path, reason=error.strerror or error)
            ) from None
        if finished:
            self.console.print(_("The game's record is saved in {path}; `gamebag replay {path}` shows it.",
                                 path=path))
            return
        self.console.print(_("The game so far is saved in {path}; continue it with", path=path))
        # One line however narrow the terminal, so it can be copied as it is.
        self.console.print(
            f"  gamebag {plugin_arguments(self.game.game_id)}play {self.game.game_id} --resume {path} "
            f"--seats {','.join(self.names)}",
            soft_wrap=True,
            highlight=False,
        )
        if interrupted:
            raise typer.Exit(INTERRUPTED)

    # ---- what happened ------------------------------------------------------------------------
    def observe(self, state: Any) -> None:
        """Narrate the change from what each human last saw to ``state``."""
        for seat in self.seen:
            view = self.game.public_view(state) if seat == SPECTATOR else self.game.observation(state, seat)
            self.unread[seat].extend(self.entry.narrate(self.seen[seat], view))
            self.seen[seat] = view
        if not self.humans:
            self.print_unread(SPECTATOR)

    def print_unread(self, seat: int) -> None:
        lines, self.unread[seat] = self.unread[seat], []
        if lines and seat != SPECTATOR:
            self.console.print(Rule(_("since your last decision"), style="dim"))
        for line in lines:
            self.console.print(self.named(line), highlight=False)

    def named(self, text: str) -> str:
        """``text`` with every ``seat N`` of the game's words replaced by that seat's name."""

        def name(match: re.Match[str]) -> str:
            seat = int(match.group(2))
            if seat >= len(self.labels):
                return match.group(0)
            label = self.labels[seat]
            gap = match.group(3)
            if gap is None:
                return label
            # A table column: keep the next column where it was.
            return label + " " * max(2, len(match.group(0)) - len(label))

        return self.seat_words.sub(name, text)

    def board(self, view: JsonDict) -> str:
        """The game's table, its last events left out (the narration has just told them), seats named."""
        return self.named(self.render({**view, "narrated": True}))

    def submit(self, seat: int, action: Any) -> None:
        before = self.match.state
        events = self.match.submit(seat, action)
        state = before
        for event in events:  # one step at a time, so nothing between two decisions goes untold
            state = apply_event(self.game, state, event)
            self.observe(state)

    def play(self) -> bool:
        """Play until the end (True) or until a human leaves (False)."""
        self.console.print(
            ngettext(
                "[bold]{title}[/bold] - {n} player, seed {seed}. {seats}. Type ? at a prompt for help.",
                "[bold]{title}[/bold] - {n} players, seed {seed}. {seats}. Type ? at a prompt for help.",
                self.game.num_players,
                title=escape(self.title),
                seed=self.seed,
                seats=escape(join_list([self.full_name(p) for p in range(len(self.names))])),
            )
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
                        self.console.print(_("Game left before the end."))
                        return False
                self.submit(seat, action)
        return True

    # ---- asking a human -------------------------------------------------------------------------
    def ask(self, seat: int) -> Any:
        legal = list(self.match.legal_actions(seat))
        view = self.match.view(seat)
        hot_seat = len(self.humans) > 1
        if hot_seat:
            # Hide the previous player's screen before the next one looks. A seat with a single
            # choice is handed the keyboard too: skipping it (or saying so to all) would tell the
            # others it had no choice, which can be a secret (Eigen Kweek: no playable character).
            self.console.clear()
            try:
                self.console.input(_("Pass the keyboard to {name}, then press Enter. ", name=self.labels[seat]))
            except EOFError:
                return None
        if len(legal) == 1:  # not asked: played, and told to the seat alone
            self.print_unread(seat)
            words = self.words(view, legal[0])
            self.console.print(
                _("Only one choice now, so it is played: [bold]{choice}[/bold] (done for you).", choice=words),
                highlight=False,
            )
            time.sleep(self.auto_delay)
            return legal[0]
        self.print_unread(seat)
        self.console.print(Rule(_("{name} to choose", name=self.full_name(seat))))
        self.console.print(self.board(view))
        numbered = not all(isinstance(a, int) and not isinstance(a, bool) for a in legal)
        self.show_choices(view, legal, numbered)
        if self.coach:
            self.show_advice(seat)
        hint = (
            _("a number from 1 to {last} or a code in brackets", last=len(legal))
            if numbered
            else _("one of {codes}", codes=", ".join(json.dumps(self.game.action_to_json(a)) for a in legal))
        )
        while True:
            try:
                text = self.console.input(_("Your choice ({hint}; ? for help): ", hint=hint)).strip()
            except EOFError:
                return None
            if text in ("?", "help"):
                self.show_help(view, legal, numbered)
                continue
            action = self.parse(text, legal, numbered)
            if action is not None:
                return action
            self.console.print(
                _("[yellow]{text} is not a legal choice now.[/yellow] Enter {hint}, or ? for help.",
                  text=escape(repr(text)), hint=hint)
            )

    def show_advice(self, seat: int) -> None:
        """The coach's advice for the one person at the table, from its own information."""
        from gamebag.analysis.coach import advise

        advice = advise(self.game, self.match.state, seat, step=len(self.match.record.events))
        self.console.print(_("[cyan]Coach:[/cyan] {advice}", advice=advice["words"]), highlight=False)

    def words(self, view: JsonDict, action: Any) -> str:
        return self.entry.action_words(view, self.game.action_to_json(action))

    def show_choices(self, view: JsonDict, legal: list[Any], numbered: bool) -> None:
        for k, action in enumerate(legal, 1):
            code = json.dumps(self.game.action_to_json(action))
            label = f"[{k}]" if numbered else f"{code}:"
            shortcut = f"  [dim]({code.strip(chr(34))})[/dim]" if numbered else ""
            self.console.print(f"  {escape(label)} {self.words(view, action)}{shortcut}", highlight=False)

    def show_help(self, view: JsonDict, legal: list[Any], numbered: bool) -> None:
        self.console.print(Rule(_("{title}: help", title=self.title), style="dim"))
        self.console.print(game_text(self.game, self.game.summary))
        explanation = self.entry.decision_help(view)
        if explanation:
            self.console.print(_("[bold]This decision:[/bold] {explanation}", explanation=explanation),
                               highlight=False)
        if numbered:
            how = _("Full rules: `gamebag rules {game}`. Type the number of a choice or its code (in brackets). "
                    "Ctrl-C or Ctrl-D saves the game and leaves; `--resume` continues it.", game=self.game.game_id)
        else:
            how = _("Full rules: `gamebag rules {game}`. Type the number of a choice. Ctrl-C or Ctrl-D saves the "
                    "game and leaves; `--resume` continues it.", game=self.game.game_id)
        self.console.print(how)
        self.show_choices(view, legal, numbered)

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
        for seat in self.seen:
            self.print_unread(seat)
        self.console.print(Rule(_("game over")))
        view = self.match.view(self.viewer) if self.viewer is not None else self.match.public()
        # The game's own words say who won and why ("Game over: ... wins with the highest score ...").
        self.console.print(self.board(view), highlight=False)
        scores = self.game.scores(self.match.state)
        winners = self.game.winners(self.match.state)
        sign = self.game.score_sign()
        if sign == LOWER_IS_BETTER:
            self.console.print(_("lowest score first (the lowest score is best)"), highlight=False)
        # Winners first (the game's own verdict), then by score in the game's direction.
        for seat in sorted(best_first(scores, sign), key=lambda seat: seat not in winners):
            name, score = self.full_name(seat), number(scores[seat])
            if seat in winners:
                line = _("{name}: {score} - winner", name=name, score=score)
            else:
                line = _("{name}: {score}", name=name, score=score)
            self.console.print(line, highlight=False)

    def full_name(self, seat: int) -> str:
        """``Bot 2 (heuristic)``, ``Player 1 (you)``: the name with who plays the seat."""
        if self.names[seat] != HUMAN:
            return _("{name} ({agent})", name=self.labels[seat], agent=self.names[seat])
        return _("{name} (you)", name=self.labels[seat]) if len(self.humans) == 1 else self.labels[seat]

    @property
    def title(self) -> str:
        """The game's title in the reader's language (the game's own catalogue)."""
        return game_text(self.game, self.game.title)
