"""The conformance suite's catch rate on planted bugs, and the plugin check's one-line refusals.

Swap Low (``tests/swap_low.py``: hidden cards, chance deals, a turn-up, lowest card wins) passes
the plugin check at every configuration; each bug of ``tests/planted_bugs.py`` planted in it must
be refused by the same check (``gamebag.testing.check_plugin_game``, what ``gamebag --plugin``
runs) with one line naming what broke. A bug planted in a game that is loaded as a plugin file
is refused by the command line with that line and exit status 2.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gamebag import plugins, testing
from gamebag.core import registry
from gamebag.core.errors import GamebagError
from planted_bugs import GENERIC, SWAP_LOW_ONLY, CrashAtMostPlayers, CrashAtOptionMaximum, plant
from swap_low import SwapLow

BUDGET_SECONDS = 10.0  # Swap Low's every configuration takes well under this
HERE = Path(__file__).resolve().parent


def refusal(game_class: type[SwapLow]) -> str:
    with pytest.raises(testing.ConformanceError) as caught:
        testing.check_plugin_game(game_class, BUDGET_SECONDS)
    message = str(caught.value)
    assert "\n" not in message, message
    return message


def test_the_correct_game_passes_every_configuration_including_perfect_information() -> None:
    report = testing.check_plugin_game(SwapLow, BUDGET_SECONDS)
    described = [c.describe() for c in report.checked]
    assert described == [
        "players=3",
        "players=2",
        "players=4",
        "players=3, deck=5",
        "players=3, deck=9",
        "players=3, open_hands=True",
        "players=3, order='backward'",
    ]
    assert not report.unchecked and not report.refused
    assert SwapLow(3, open_hands=True).traits.perfect_information  # the configuration's traits
    assert SwapLow(3).traits.hidden_information


@pytest.mark.parametrize(("bug", "words"), GENERIC, ids=[bug.__name__ for bug, _ in GENERIC])
def test_a_generic_planted_bug_is_refused_in_one_line_naming_it(bug: type, words: str) -> None:
    message = refusal(plant(bug, SwapLow))
    assert words in message, message
    if bug is CrashAtMostPlayers:
        assert message.startswith("players=4:"), message
    if bug is CrashAtOptionMaximum:
        assert message.startswith("players=3, deck=9:"), message


@pytest.mark.parametrize(("bug", "words"), SWAP_LOW_ONLY, ids=[bug.__name__ for bug, _ in SWAP_LOW_ONLY])
def test_a_rules_specific_planted_bug_is_refused_in_one_line_naming_it(bug: type[SwapLow], words: str) -> None:
    message = refusal(bug)
    assert words in message, message


def test_messages_name_the_check_the_step_and_the_seat() -> None:
    from planted_bugs import TensorOnlyLeak

    message = refusal(plant(TensorOnlyLeak, SwapLow))
    assert message.startswith("players=3: check_observations: step "), message
    assert ", seat " in message


def test_the_catch_rate_is_every_planted_bug() -> None:
    planted = [plant(bug, SwapLow) for bug, _ in GENERIC] + [bug for bug, _ in SWAP_LOW_ONLY]
    caught = 0
    for game_class in planted:
        try:
            testing.check_plugin_game(game_class, BUDGET_SECONDS)
        except testing.ConformanceError:
            caught += 1
    assert (caught, len(planted)) == (18, 18)


# ---- the same bugs planted in the example game (examples/low_tide), once it is in the tree ----------
EXAMPLE = HERE.parent / "examples" / "low_tide" / "low_tide.py"


@pytest.fixture(scope="module")
def example_game() -> type:
    """The example game's class, imported from its file as a plugin would be (its registration forgotten after)."""
    if not EXAMPLE.is_file():
        pytest.skip("the example game examples/low_tide is not in this tree")
    before = set(registry.game_ids())
    spec = importlib.util.spec_from_file_location("low_tide_under_planted_bugs", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses read their module while the file runs
    spec.loader.exec_module(module)
    for game_id in set(registry.game_ids()) - before:
        registry.unregister(game_id)
    game_class: type = module.LowTide
    return game_class


@pytest.mark.parametrize(("bug", "words"), GENERIC, ids=[bug.__name__ for bug, _ in GENERIC])
def test_a_generic_planted_bug_is_refused_in_the_example_game(example_game: type, bug: type, words: str) -> None:
    with pytest.raises(testing.ConformanceError) as caught:
        testing.check_plugin_game(plant(bug, example_game), budget_seconds=1.0)
    message = str(caught.value)
    assert "\n" not in message and words in message, message


# ---- through the command line -----------------------------------------------------------------
PLUGIN = """
import sys
sys.path.insert(0, {tests!r})
from gamebag.core.registry import register
import planted_bugs
from swap_low import SwapLow

register({game}, lambda view: str(view), lambda: "Swap Low")
"""


@pytest.fixture
def clean_registry() -> Iterator[None]:
    before = set(registry.game_ids())
    environment = os.environ.get(plugins.PLUGIN_ENV)
    yield
    for game_id in set(registry.game_ids()) - before:
        registry.unregister(game_id)
    plugins._loaded_files.clear()
    plugins._checked.clear()
    if environment is None:
        os.environ.pop(plugins.PLUGIN_ENV, None)
    else:
        os.environ[plugins.PLUGIN_ENV] = environment


def _plugin_file(tmp_path: Path, bug: str) -> Path:
    """A plugin file registering Swap Low with ``bug`` (a name in ``planted_bugs``) planted, or none (``SwapLow``)."""
    game = "SwapLow" if bug == "SwapLow" else f"planted_bugs.plant(planted_bugs.{bug}, SwapLow)"
    path = tmp_path / f"{bug.lower()}_plugin.py"
    path.write_text(textwrap.dedent(PLUGIN.format(tests=str(HERE), game=game)), encoding="utf-8")
    return path


def test_the_command_line_refuses_a_planted_tensor_leak_in_one_line(tmp_path: Path, clean_registry: None) -> None:
    from gamebag.cli.app import app

    outcome = CliRunner().invoke(app, ["--plugin", str(_plugin_file(tmp_path, "TensorOnlyLeak")), "list"])
    assert outcome.exit_code == 2, outcome.output
    lines = outcome.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in outcome.stderr, outcome.stderr
    assert "plugin game 'swap-low' fails the conformance suite: players=3: check_observations: step" in lines[0]
    assert "observation_tensor differs at index" in lines[0]
    assert "swap-low" not in registry.game_ids()


def test_the_command_line_refuses_a_crash_at_the_most_players_in_one_line(tmp_path: Path, clean_registry: None) -> None:
    from gamebag.cli.app import app

    outcome = CliRunner().invoke(app, ["--plugin", str(_plugin_file(tmp_path, "CrashAtMostPlayers")), "list"])
    assert outcome.exit_code == 2, outcome.output
    assert outcome.stderr.count("\n") == 1 and "Traceback" not in outcome.stderr, outcome.stderr
    assert "'swap-low' fails the conformance suite: players=4: a random playout: IndexError" in outcome.stderr


TWICE = """
import sys
sys.path.insert(0, {tests!r})
from typing import ClassVar
from gamebag.core.registry import register
from swap_low import SwapLow


class SwapLowTwice(SwapLow):
    game_id: ClassVar[str] = {game_id!r}


register(SwapLowTwice, lambda view: str(view), lambda: "Swap Low")
"""


@pytest.mark.parametrize("module_first", [True, False], ids=["module-then-file", "file-then-module"])
def test_a_plugin_loaded_twice_in_one_process_is_harmless(
    tmp_path: Path, clean_registry: None, module_first: bool
) -> None:
    # The same file reached twice: as an entry point's module (imported by name) and by --plugin path.
    game_id = f"swap-low-twice-{module_first}".lower()
    name = f"swap_low_twice_{module_first}".lower()
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(TWICE.format(tests=str(HERE), game_id=game_id)), encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    try:
        if module_first:
            importlib.import_module(name)
            assert plugins.load_file(path) == (game_id,)
        else:
            assert plugins.load_file(path) == (game_id,)
            importlib.import_module(name)  # registers its own class of the same definition: no error
        assert registry.entry(game_id).game_class.__name__ == "SwapLowTwice"
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop(name, None)


def test_plays_resume_hint_keeps_the_plugin(tmp_path: Path) -> None:
    plugin = _plugin_file(tmp_path, "SwapLow")
    command = [sys.executable, "-m", "gamebag.cli", "--plugin", str(plugin)]
    play = [*command, "play", "swap-low", "--seats", "human,random,random", "--seed", "4"]
    stopped = subprocess.run(play, input="", capture_output=True, text=True, cwd=tmp_path, timeout=120)
    saved = "gamebag-swap-low-4.json"
    hint = f"gamebag --plugin {plugin} play swap-low --resume {saved} --seats human,random,random"
    assert hint in stopped.stdout, stopped.stdout + stopped.stderr
    wide = {**os.environ, "COLUMNS": "1000"}  # the console would fold the long line, path included
    replayed = subprocess.run(
        [*command, "replay", saved], capture_output=True, text=True, cwd=tmp_path, timeout=120, env=wide
    )
    unwrapped = " ".join(replayed.stdout.split())
    assert f"`gamebag --plugin {plugin} play swap-low --resume {saved}` continues it" in unwrapped


def test_openspiel_reads_the_configurations_traits(clean_registry: None) -> None:
    pytest.importorskip("pyspiel")
    from gamebag.interop.openspiel_track import SpielConfig

    registry.register(SwapLow, lambda view: str(view), lambda: "Swap Low")
    sizes = {"max_game_length": 20, "max_chance_outcomes": 9}
    assert SpielConfig("swap-low", {**sizes, "open_hands": True}).perfect_information
    assert not SpielConfig("swap-low", sizes).perfect_information


def test_the_plugin_checks_time_budget_is_configurable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(plugins.CHECK_SECONDS_ENV, "0.5")
    assert plugins.check_budget_seconds() == 0.5
    monkeypatch.setenv(plugins.CHECK_SECONDS_ENV, "soon")
    with pytest.raises(
        GamebagError, match="GAMEBAG_PLUGIN_CHECK_SECONDS='soon': give a number of seconds from 0 to 3600"
    ):
        plugins.check_budget_seconds()
    # With no time beyond the default configuration, every configuration is still built and played once.
    report = testing.check_plugin_game(SwapLow, budget_seconds=0)
    assert [c.describe() for c in report.checked] == ["players=3"] and len(report.unchecked) == 6
    with pytest.raises(testing.ConformanceError, match="players=4: a random playout: IndexError"):
        testing.check_plugin_game(plant(CrashAtMostPlayers, SwapLow), budget_seconds=0)


def test_gamebag_check_reports_every_configuration_or_one_line(tmp_path: Path, clean_registry: None) -> None:
    from gamebag.cli.app import app

    registry.register(SwapLow, lambda view: str(view), lambda: "Swap Low")
    passed = CliRunner().invoke(app, ["check", "swap-low", "--seconds", "10", "--json"])
    assert passed.exit_code == 0, passed.output
    report = json.loads(passed.stdout)
    assert report["passes"] and report["checked"][:4] == ["players=3", "players=2", "players=4", "players=3, deck=5"]
    broken = _plugin_file(tmp_path, "TensorLengthChanges")
    registry.unregister("swap-low")
    refused = CliRunner().invoke(app, ["--plugin", str(broken), "check", "swap-low"])
    assert refused.exit_code == 2 and refused.stderr.count("\n") == 1, refused.output
    assert "observation_tensor has 43 numbers, elsewhere 42" in refused.stderr
    out_of_range = CliRunner().invoke(app, ["check", "pig", "--seconds", "-1"])
    assert out_of_range.exit_code == 2 and "--seconds must be from 0.0 to 3,600.0" in out_of_range.stderr
