"""The command line in the reader's language: ``--lang``, else the environment, else English.

``gamebag --lang nl rules pig`` and ``LANG=ja_JP.UTF-8 gamebag list`` run as a person runs them (a
subprocess, so the help texts are made in that language when the commands are imported); an unknown
``--lang`` is one line and exit status 2; a short game of Pig through a pseudo-terminal in Dutch and
in Japanese shows the terminal game's frame (prompt, seats, the game-over list) in that language and
none of its English sentences.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from test_terminal_pty import Terminal
from typer.testing import CliRunner

import gamebag as gamebag_package
from gamebag.cli import choose_language, language_argument, main
from gamebag.cli.app import app
from gamebag.core.i18n import current_language

GAMEBAG = [sys.executable, "-m", "gamebag.cli"]
# What the environment must not decide for the tests: only the variables each test names.
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
SOURCE = str(Path(gamebag_package.__file__).resolve().parent.parent)


def gamebag(args: list[str], cwd: Path, **environment: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in LOCALE_VARIABLES}
    env.update(COLUMNS="160", **environment)
    # The gamebag these tests imported, wherever the run's PYTHONPATH pointed (relative to another folder).
    env["PYTHONPATH"] = os.pathsep.join([SOURCE, env.get("PYTHONPATH", "")])
    return subprocess.run([*GAMEBAG, *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=120)


def test_the_language_comes_from_lang_then_the_environment_then_english() -> None:
    assert language_argument(["--lang", "nl", "rules", "pig"]) == "nl"
    assert language_argument(["--plugin", "x.py", "--lang=ja", "list"]) == "ja"
    assert language_argument(["play", "pig", "--", "--lang", "fr"]) is None
    assert choose_language(["--lang", "de", "list"], {"LANG": "ja_JP.UTF-8"}) == "de"
    assert choose_language(["list"], {"LANG": "nl_BE.UTF-8"}) == "nl"
    assert choose_language(["list"], {"LC_ALL": "zh_CN.UTF-8", "LANG": "fr_FR.UTF-8"}) == "zh_Hans"
    assert choose_language(["list"], {"LANG": "C.UTF-8"}) == "en"


def test_rules_in_dutch(tmp_path: Path) -> None:
    result = gamebag(["--lang", "nl", "rules", "pig"], tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for phrase in ("Opties (gamebag play SPEL --option NAAM=WAARDE)", "Voorinstellingen", "wat ze verandert",
                   "een geheel getal van 2 tot 1.000", "Het spelregelboek. De opstelling uit het spelregelboek"):
        assert phrase in out, phrase
    for english in ("Options (gamebag play", "Presets (gamebag play", "what it changes", "a whole number from",
                    "The rulebook. The setup", "Two players race"):
        assert english not in out, english


def test_list_in_japanese_from_the_environment(tmp_path: Path) -> None:
    result = gamebag(["list"], tmp_path, LANG="ja_JP.UTF-8")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for phrase in ("ゲーム", "エージェント", "合法手から一様にランダム", "true または false"):
        assert phrase in out, phrase
    for english in ("Agents (name", "what it does", "uniformly random legal actions", "true or false"):
        assert english not in out, english


def test_help_in_the_reader_s_language(tmp_path: Path) -> None:
    helped = gamebag(["--lang=de", "play", "--help"], tmp_path)
    assert helped.returncode == 0 and "Seed für Würfel, Ziehungen und Bots" in helped.stdout, helped.stdout
    for toolkit_words in ("Aufruf:", "Optionen", "Diese Meldung anzeigen und beenden."):
        assert toolkit_words in helped.stdout, toolkit_words
    assert "Show this message" not in helped.stdout and "Usage:" not in helped.stdout


def test_an_unknown_lang_is_one_line_naming_the_languages(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["gamebag", "--lang", "tlh", "list"])
    with pytest.raises(SystemExit) as leaving:
        main()
    assert leaving.value.code == 2
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert out == "" and len(lines) == 1 and lines[0].startswith("error: unknown language 'tlh'"), lines
    for tag in ("nl", "fr", "de", "ja", "zh-Hans"):
        assert tag in lines[0]


def test_lang_in_process_is_for_that_run_only() -> None:
    result = CliRunner().invoke(app, ["--lang", "nl", "rules", "pig", "--preset", "slow"])
    assert result.exit_code == 2
    expected = "fout: pig heeft geen voorinstelling 'slow'; zijn voorinstellingen: rulebook, quick, sprint"
    assert result.stderr.strip() == expected
    assert current_language() == "en"
    unknown = CliRunner().invoke(app, ["--lang", "fr", "rules", "chess"])
    assert unknown.exit_code == 2
    assert unknown.stderr.strip().startswith("erreur : jeu inconnu 'chess' ; jeux connus :"), unknown.stderr
    assert current_language() == "en"


# The terminal game's frame in each language: the prompt (to answer it), the words the screen must
# show, and the English frame sentences it must not.
FRAMES = {
    "nl": (re.compile(r"Jouw keuze \((.*?)\): $"), ["Speler 1 (jij)", "Bot 2 (heuristic)", "spel gedaan",
                                                     "- winnaar", "Typ ? bij een vraag voor hulp."]),
    "ja": (re.compile(r"選んでください（(.*?)）：$"), ["プレイヤー 1（あなた）", "ボット 2（heuristic）", "ゲーム終了",
                                                     "- 勝者", "入力欄で ? を押すとヘルプが出ます。"]),
}
ENGLISH_FRAME = ("Your choice", "game over", "Game over", "Player 1 (you)", "players, seed", "Type ? at a prompt",
                 "- winner", "since your last decision")


@pytest.mark.parametrize(("language", "how"), [("nl", "--lang"), ("ja", "LANG")])
def test_a_game_of_pig_in_the_terminal(tmp_path: Path, language: str, how: str) -> None:
    prompt, phrases = FRAMES[language]
    args = ["play", "pig", "--preset", "sprint", "--seats", "human,heuristic", "--seed", "5", "--auto-delay", "0"]
    environment = {"PYTHONPATH": os.pathsep.join([SOURCE, os.environ.get("PYTHONPATH", "")])}
    if how == "--lang":
        args = ["--lang", language, *args]
    else:
        environment["LANG"] = "ja_JP.UTF-8"
    terminal = Terminal(args, tmp_path, environment)
    mark = 0
    answered = 0
    while (found := terminal.read_until(prompt, mark)) is not None:
        mark = found.end()
        answered += 1
        terminal.send("1\n" if answered % 3 else "2\n")  # roll, roll, hold: a game that ends
    assert terminal.wait() == 0, terminal.screen[-3000:]
    assert answered > 0, terminal.screen[-3000:]
    for phrase in phrases:
        assert phrase in terminal.screen, (phrase, terminal.screen[-2000:])
    for english in ENGLISH_FRAME:
        assert english not in terminal.screen, (english, terminal.screen[-2000:])


def test_the_rulebook_preset_is_named_in_every_game_s_language() -> None:
    """The preset gamebag gives every game is said from gamebag's catalogue wherever a game's words
    are asked for it (``game_text``: the web lobby's presets, ``gamebag rules``)."""
    import gamebag as games
    from gamebag.core.i18n import game_text, use_language
    from gamebag.core.presets import RULEBOOK, preset_words

    for game_id in games.game_ids():
        cls = games.entry(game_id).game_class
        with use_language("nl"):
            assert game_text(cls, RULEBOOK.label) == "Het spelregelboek"
            assert preset_words(cls, RULEBOOK)[0] == "Het spelregelboek"
        with use_language("zh_Hans"):
            assert game_text(cls, RULEBOOK.label) == "规则书"
    assert game_text(cls, RULEBOOK.label) == "The rulebook"
