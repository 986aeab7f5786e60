"""The ``policy`` agent: a function from a Python file, seated like any agent, refused with a clear error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import gamebag
from gamebag.agents import policy_file
from gamebag.agents.base import SeatView
from gamebag.agents.registry import available_agents, make_agent, parse_spec
from gamebag.core.errors import IllegalActionError, UnknownAgentError
from gamebag.core.rng import derive_rng
from gamebag.sim.tournament import TournamentSpec, run_tournament
from gamebag.web.admission.bounds import LobbyError, check_agent_spec

POLICIES = """
import numpy as np

calls = []

def last_legal(observation, mask):
    calls.append(observation.shape)
    return int(np.flatnonzero(mask)[-1])

def illegal(observation, mask):
    return len(mask)

def halves(observation, mask):
    return 0.5

VALUE = 3
"""


@pytest.fixture
def file(tmp_path: Path) -> Path:
    path = tmp_path / "mine.py"
    path.write_text(POLICIES)
    return path


def test_spec_by_position_or_by_name(file: Path) -> None:
    assert parse_spec(f"policy:{file}:last_legal") == ("policy", {"file": str(file), "name": "last_legal"})
    assert parse_spec("policy:C:/x/y.py:f") == ("policy", {"file": "C:/x/y.py", "name": "f"})
    assert parse_spec(f"policy:file={file},name=f") == ("policy", {"file": str(file), "name": "f"})
    with pytest.raises(UnknownAgentError, match="write it policy:FILE:NAME"):
        parse_spec(f"policy:{file}")


def test_plays_the_functions_choice(file: Path) -> None:
    game = gamebag.make("wriggle-roulette", 3)
    agent = make_agent(f"policy:{file}:last_legal", game)
    state = game.initial_state()
    view = SeatView(game, state, 0)
    assert agent.act(view, derive_rng(1)) == view.legal_actions[-1]
    size = len(game.observation_tensor(state, 0))
    module = next(v for v in policy_file._LOADED.values() if "last_legal" in v)
    assert module["calls"][-1] == (size,)
    # The file ran once: a second agent from it shares the module.
    make_agent(f"policy:{file}:last_legal", game).act(view, derive_rng(2))
    assert len(module["calls"]) == 2


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("policy:{dir}/none.py:f", "no file"),
        ("policy:{dir}/mine.txt:f", "is not a Python file"),
        ("policy:{dir}:f", "is not a Python file"),
        ("policy:{file}:nothing", "has no 'nothing'; callables there: halves, illegal, last_legal"),
        ("policy:{file}:VALUE", "is not a function"),
        ("policy:{file}:1x", "is not a Python name"),
        ("policy:file={file}", "give the file and the function"),
        ("policy:file={file},name=f,iterations=3", "has no parameter"),
        ("policy:{dir}/broken.py:f", "running .* failed: ZeroDivisionError"),
    ],
)
def test_refusals_name_what_is_wrong(file: Path, spec: str, message: str) -> None:
    (file.parent / "broken.py").write_text("x = 1 / 0\n")
    game = gamebag.make("pig", 2)
    with pytest.raises(UnknownAgentError, match=message):
        make_agent(spec.format(dir=file.parent, file=file), game)


def test_large_files_are_refused(file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(policy_file, "MAX_POLICY_FILE", 10)
    with pytest.raises(UnknownAgentError, match="a policy file has at most 10"):
        make_agent(f"policy:{file}:last_legal", gamebag.make("pig", 2))


def test_illegal_choices_are_errors(file: Path) -> None:
    game = gamebag.make("pig", 2)
    view = SeatView(game, game.initial_state(), 0)
    with pytest.raises(IllegalActionError, match="chose action 2, which is not legal; legal actions"):
        make_agent(f"policy:{file}:illegal", game).act(view, derive_rng(1))
    with pytest.raises(IllegalActionError, match="one integer action index"):
        make_agent(f"policy:{file}:halves", game).act(view, derive_rng(1))


def test_never_offered_to_the_web_server(file: Path) -> None:
    game = gamebag.make("pig", 2)
    assert "policy" not in available_agents("pig")
    assert "policy" in available_agents("pig", local=True)
    with pytest.raises(UnknownAgentError, match="unknown agent 'policy'"):
        make_agent(f"policy:{file}:last_legal", game, local=False)
    with pytest.raises(LobbyError, match="unknown agent 'policy'"):
        check_agent_spec(f"policy:{file}:last_legal", "pig", "seat 1")


def test_seated_in_a_tournament(file: Path) -> None:
    spec = TournamentSpec(
        game="pig", players=2, agents=(f"policy:{file}:last_legal", "random"), games=6, seed=1, auto_ladder=False
    )
    result = run_tournament(spec, 1)
    assert result.matrix[0][1] is not None and result.matrix[0][1].games == 6


def test_the_command_line_seats_it_or_exits_2_before_playing(file: Path) -> None:
    command = [sys.executable, "-m", "gamebag.cli", "tournament", "pig", "--games", "4", "--no-ladder", "--json"]
    ran = subprocess.run([*command, "--agents", f"policy:{file}:last_legal,random"], capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout)["agents"] == [f"policy:{file}:last_legal", "random"]
    missing = subprocess.run([*command, "--agents", f"policy:{file}:absent,random"], capture_output=True, text=True)
    assert missing.returncode == 2 and missing.stdout == ""
    assert missing.stderr.strip().splitlines() == [
        f"error: policy: '{file}' has no 'absent'; callables there: halves, illegal, last_legal"
    ]
