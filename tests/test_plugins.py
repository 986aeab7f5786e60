"""Game variants as plugins: loaded from a file or the environment, checked by the conformance
suite before use, played by the rules engine and the exact solvers, refused by the compiled engine."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

import gamebag
from gamebag import plugins
from gamebag.core import registry
from gamebag.core.errors import GamebagError

ROOT = Path(__file__).resolve().parents[1]
CONSOLATION = ROOT / "src" / "gamebag" / "variants" / "consolation.py"
CONSOLATION_MODULE = "gamebag.variants.consolation"
VARIANT = "catch-a-dragon-consolation"

BROKEN = '''
from typing import ClassVar
from gamebag.core.registry import register_variant
from gamebag.games.pig.rules import Pig

class BrokenPig(Pig):
    game_id: ClassVar[str] = "pig-broken"

    def returns(self, state):
        return (1.0,) * self.num_players  # shares that do not add up to one

register_variant(BrokenPig, "pig", lambda: "broken")
'''


@pytest.fixture
def clean_registry() -> Iterator[None]:
    """Plugins register games in this process: forget them afterwards so other tests see the package's games."""
    before = set(registry.game_ids())
    modules = set(sys.modules)
    environment = os.environ.get(plugins.PLUGIN_ENV)
    yield
    for game_id in set(registry.game_ids()) - before:
        registry.unregister(game_id)
    plugins._loaded_files.clear()
    # A plugin module imported here registers its games when imported: forget it too, so that a
    # later test activating it (tests/test_dragon_variants.py) imports it afresh and registers them.
    for name in set(sys.modules) - modules:
        if name.startswith("gamebag.variants."):
            del sys.modules[name]
    if environment is None:
        os.environ.pop(plugins.PLUGIN_ENV, None)
    else:
        os.environ[plugins.PLUGIN_ENV] = environment


def test_a_plugin_variant_is_checked_played_and_solved_exactly(clean_registry: None) -> None:
    assert plugins.activate([CONSOLATION]) == (VARIANT,)
    assert str(CONSOLATION) in os.environ[plugins.PLUGIN_ENV]  # worker processes load it too
    base = gamebag.make("catch-a-dragon", 2)
    variant = gamebag.make(VARIANT, 2)
    # The hook reaches the turn model the exact solvers read: a bust draws from the consolation deck.
    collected = (1, 1, 1)
    prizes = variant.bust_prizes(collected, None)
    assert sum(p for _, p in prizes) == 1 and max(points for points, _ in prizes) == 5
    assert base.bust_prizes(collected, None) == ((0, 1),)
    from gamebag.agents.solvers.solutions import score_solution, turn_model

    assert turn_model(variant).turn_chance(("prize", collected)) == [(("end", points), p) for points, p in prizes]

    assert score_solution(variant).value > score_solution(base).value
    from gamebag.agents.registry import make_agent

    for spec in ("heuristic", "optimal-win", "optimal-score", "random"):
        make_agent(spec, variant)  # inherited from the base game, or generic
    from gamebag.core.errors import UnknownAgentError

    with pytest.raises(UnknownAgentError):
        make_agent("learned", variant)  # the base game's policy read another game's rules
    from gamebag.fast import unavailable_reason

    assert unavailable_reason(variant, ["heuristic", "heuristic"]) == f"{VARIANT} has no compiled engine"


def test_a_plugin_that_breaks_the_protocol_is_refused(tmp_path: Path, clean_registry: None) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text(BROKEN, encoding="utf-8")
    with pytest.raises(GamebagError, match=r"pig-broken.*conformance"):
        plugins.activate([broken])
    assert "pig-broken" not in registry.game_ids()
    with pytest.raises(GamebagError, match="name a Python file"):
        plugins.activate([tmp_path / "missing.py"])
    empty = tmp_path / "empty.py"
    empty.write_text("x = 1\n", encoding="utf-8")
    with pytest.raises(GamebagError, match="registered no game"):
        plugins.activate([empty])


def test_every_command_sees_a_plugin_and_workers_load_it(tmp_path: Path) -> None:
    # A real process (its own registry): the option before the command, two worker processes.
    command = [sys.executable, "-m", "gamebag.cli", "--plugin", str(CONSOLATION)]
    wide = {**os.environ, "COLUMNS": "200"}
    listed = subprocess.run([*command, "list"], capture_output=True, text=True, timeout=300, env=wide)
    assert listed.returncode == 0 and VARIANT in listed.stdout
    balance = subprocess.run(
        [*command, "balance", VARIANT, "--players", "2", "--games", "40", "--workers", "2", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert balance.returncode == 0, balance.stderr
    assert f'"game": "{VARIANT}"' in balance.stdout
    refused = subprocess.run(
        [sys.executable, "-m", "gamebag.cli", "--plugin", str(tmp_path / "nope.py"), "list"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert "name a Python file" in refused.stderr
    module = subprocess.run(
        [sys.executable, "-m", "gamebag.cli", "--plugin", "gamebag.no_such_variant", "list"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert module.returncode == 2 and "no such module" in module.stderr


def test_cli_runner_sees_plugin(clean_registry: None) -> None:
    from gamebag.cli.app import app

    outcome = CliRunner().invoke(app, ["--plugin", CONSOLATION_MODULE, "rules", VARIANT])
    assert outcome.exit_code == 0, outcome.output
    assert "consolation deck" in outcome.stdout
