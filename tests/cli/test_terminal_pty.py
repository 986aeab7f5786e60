"""The terminal game driven through a pseudo-terminal, as a person plays it.

Each test starts ``gamebag play`` on a real pseudo-terminal (``pty.fork``), answers
its prompts and checks that the screen tells the player every event since the
last decision: other seats' turns and the player's own bust (Catch A Dragon),
the grabs after the player exits (Wriggle Roulette), bids, corners and card
texts (Eigen Kweek), and that Ctrl-C saves the game and exits with status 130. Seats are named
as in the web app (``Player 1`` for the person, ``Bot 2`` for a bot), and the game-over screen
says who won and why, in those names.
"""

from __future__ import annotations

import os
import pty
import re
import select
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")
PROMPT = re.compile(r"Your choice \((.*?)\): $")
TIMEOUT = 120.0


class Terminal:
    """``gamebag`` running on a pseudo-terminal; ``screen`` is everything it printed, ANSI codes removed."""

    def __init__(self, args: list[str], cwd: Path, environment: dict[str, str] | None = None) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
        env.update(COLUMNS="120", LINES="40", TERM="xterm", **(environment or {}))
        pid, fd = pty.fork()
        if pid == 0:  # the child: becomes gamebag, with the pseudo-terminal as its controlling terminal
            os.chdir(cwd)
            os.execve(sys.executable, [sys.executable, "-m", "gamebag.cli", *args], env)
        self.pid, self.fd = pid, fd
        self.screen = ""
        self.status: int | None = None

    def read_until(self, pattern: re.Pattern[str], since: int) -> re.Match[str] | None:
        """Read until ``pattern`` matches the screen after position ``since``; None once the program ends."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            found = pattern.search(self.screen, since)
            if found:
                return found
            if time.monotonic() > deadline:
                raise AssertionError(f"no {pattern.pattern!r} within {TIMEOUT} s; screen ends:\n{self.screen[-2000:]}")
            ready, _, _ = select.select([self.fd], [], [], 1.0)
            if not ready:
                continue
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:  # the program ended and closed the terminal
                chunk = b""
            if not chunk:
                return None
            self.screen += ANSI.sub("", chunk.decode("utf-8", "replace"))

    def drain(self) -> None:
        """Read everything until the program ends."""
        while self.read_until(re.compile(r"(?!x)x"), len(self.screen)) is not None:
            pass

    def send(self, text: str) -> None:
        os.write(self.fd, text.encode())

    def wait(self) -> int:
        _, status = os.waitpid(self.pid, 0)
        os.close(self.fd)
        self.status = os.waitstatus_to_exitcode(status)
        return self.status


def play(
    tmp_path: Path, args: list[str], answer: Callable[[str, str], str], first: str | None = None
) -> Terminal:
    """Play a whole game: at every prompt send ``answer(screen since the last answer, hint)``."""
    terminal = Terminal(["play", *args, "--auto-delay", "0"], tmp_path)
    mark = 0
    prompts = 0
    while True:
        found = terminal.read_until(PROMPT, mark)
        if found is None:
            break
        text = terminal.screen[mark : found.start()]
        mark = found.end()
        reply = first if first is not None and prompts == 0 else answer(text, found.group(1))
        prompts += 1
        terminal.send(reply + "\n")
    assert terminal.wait() == 0, terminal.screen[-3000:]
    assert "game over" in terminal.screen
    final = terminal.screen[terminal.screen.rindex("game over"):]
    # Who won and why, by name, then every seat's result by name.
    assert re.search(r"Game over: (Player|Bot) \d.* (wins|share the win)\b", final), final
    assert re.search(r"(Bot \d \(\w[\w-]*\)|Player \d \(you\)): [\d.]+ - winner", final), final
    assert not re.search(r"\bseat \d", final), final
    return terminal


def first_choice(text: str, hint: str) -> str:
    return "1"


def test_eigen_kweek_shows_card_texts_words_and_every_event(tmp_path: Path) -> None:
    terminal = play(tmp_path, ["eigen-kweek", "-n", "3", "--seats", "human,heuristic,heuristic", "--seed", "11"],
                    first_choice, first="?")
    screen = terminal.screen
    # The card text, in the rulebook's words, as the cards are dealt.
    assert re.search(r"Dealt to you: \S.* \(Phase: [A-Za-z ]+\): When you play this character card", screen)
    # `?` explains the decision and the game.
    assert "This decision:" in screen and "Phase: Deal Characters" in screen
    # Choices in words, with their codes as shortcuts.
    assert re.search(r"\[1\] choose \S.* for this round  \(choose:", screen)
    assert re.search(r"\[\d+\] bid (1 weed token|\d+ weed tokens)  \(bid:\d+\)", screen)
    # A decision with one legal choice is played after a notice.
    assert "Only one choice now, so it is played:" in screen
    # Events since the last decision: the other seats' acts, bids and corners, in the rulebook's words.
    assert "The hands open: Player 1 bid" in screen
    assert re.search(r"Bot [23] takes the (1 coin|\d+ coins) of corner [1-4]", screen)
    assert "Everyone holds out a closed hand with a secret bid" in screen
    assert re.search(r"Bot [23] (sows|ploughs over|harvests|does nothing)", screen)
    assert re.search(r"Game over: .*(four potato sacks|round cap)", screen)
    assert "Four coins from the bag go face down on corners 1, 2, 3 and 4" in screen
    # Every round announced, and every phase of it, in words (never the engine's "phase: Cultivate").
    assert "Round 2 begins" in screen
    assert "Sow, plough and harvest." in screen and "Keep or hand in characters." in screen
    assert "phase: " not in screen


def test_catch_a_dragon_shows_other_turns_and_the_own_bust(tmp_path: Path) -> None:
    def always_roll(text: str, hint: str) -> str:
        return "2" if "[2] roll the" in text else "1"  # collect the first fit; never stop

    terminal = play(tmp_path, ["catch-a-dragon", "-n", "3", "--seats", "human,heuristic,heuristic", "--seed", "4"],
                    always_roll)
    screen = terminal.screen
    assert re.search(r"you \(Player 1\) held .* bust", screen)  # the player's own bust is told
    for seat in (1, 2):  # with three players, both other seats' turns are shown
        assert re.search(rf"Bot {seat + 1} rolls ", screen), seat
        assert re.search(rf"Bot {seat + 1} (held .* bust|stopped with|collected all four)", screen), seat
    assert re.search(r"Game over: .* the highest total, \d+ fame, after 4 rounds", screen)


@pytest.mark.parametrize("game_id", ["wriggle-roulette", "eel-harvest"])
def test_eel_games_show_the_grabs_after_the_player_exits(tmp_path: Path, game_id: str) -> None:
    def exit_at_once(text: str, hint: str) -> str:
        return "0"

    terminal = play(tmp_path, [game_id, "-n", "4", "--seats", "human,heuristic,heuristic,heuristic",
                               "--seed", "5"], exit_at_once)
    screen = terminal.screen
    exit_line = screen.index("Player 1 exited scoring")
    after = screen[exit_line:]
    # The grabs of the others after the player left are all told, by number, up to the round's end.
    assert re.search(r"Grab \d+ of round 1: Bot [234] grabbed \d+: \d+ eels?, \d+ snakes?", after)
    assert re.search(r"Snake outbreak!|Everyone has exited", after)
    assert "Round 2 begins" in after
    # Each grab is told once: the table under the narration does not repeat the last one.
    assert "Last grab" not in screen
    assert not re.search(r"(?<!and )(Bot|Player) \d lose their eels", screen)  # one seat loses its eels
    assert re.search(r"Game over: .*the highest score, \d+", screen)


def test_pig_shows_the_other_players_rolls(tmp_path: Path) -> None:
    terminal = play(tmp_path, ["pig", "--seats", "human,heuristic", "--seed", "2"], first_choice)
    assert re.search(r"Bot 2 rolls \d", terminal.screen)
    assert re.search(r"Bot 2 holds and banks \d+", terminal.screen) or "Bot 2 rolls a 1" in terminal.screen
    assert re.search(r"Game over: (Bot 2|Player 1) wins, the first to reach the goal of 100", terminal.screen)


@pytest.mark.parametrize(("key", "status"), [("\x03", 130), ("\x04", 0)])
def test_ctrl_c_and_ctrl_d_save_the_game(tmp_path: Path, key: str, status: int) -> None:
    terminal = Terminal(["play", "eigen-kweek", "-n", "2", "--seats", "human,heuristic", "--seed", "8",
                         "--auto-delay", "0"], tmp_path)
    found = terminal.read_until(PROMPT, 0)
    assert found is not None
    terminal.send("1\n")
    assert terminal.read_until(PROMPT, found.end()) is not None
    # A person presses the key while the prompt waits; sent the instant the prompt is printed, it
    # could reach the program before it waits for input, where a pending signal is only noticed
    # with the next key (the interpreter's readline loop checks signals when its wait is interrupted).
    time.sleep(0.5)
    terminal.send(key)
    terminal.drain()
    assert terminal.wait() == status, terminal.screen[-2000:]
    saved = tmp_path / "gamebag-eigen-kweek-8.json"
    assert saved.exists() and "choose:" in saved.read_text()
    assert f"gamebag play eigen-kweek --resume {saved.name}" in terminal.screen


def test_hot_seat_a_single_choice_is_played_unasked_and_told_to_that_player_alone(tmp_path: Path) -> None:
    """Two people at one keyboard (Eigen Kweek): a seat whose only move is "pass" is not asked to
    choose; it is handed the keyboard like any other seat (skipping it, or saying so to the room,
    would tell the other player it holds no playable character) and told there what was done."""
    terminal = Terminal(
        ["play", "eigen-kweek", "-n", "3", "--seats", "human,human,heuristic", "--seed", "10",
         "-o", "max_rounds=2", "--auto-delay", "0"],
        tmp_path,
    )
    either = re.compile(r"Your choice \((.*?)\): $|Pass the keyboard to (Player \d), then press Enter\. $")
    mark, handed_to, told = 0, None, 0
    while True:
        found = terminal.read_until(either, mark)
        if found is None:
            break
        since = terminal.screen[mark : found.start()]
        told += since.count("Only one choice now, so it is played:")
        if "Only one choice now" in since:
            assert handed_to is not None, "a single choice was played for a seat not handed the keyboard"
        handed_to = found.group(2)
        mark = found.end()
        terminal.send("\n" if handed_to else "1\n")
    assert terminal.wait() == 0, terminal.screen[-3000:]
    assert told > 0 and "(done for you)" in terminal.screen
    assert "has a single choice now" not in terminal.screen
