"""The attackers of ``bench/load_web.py --attack``: names checked, fallback moves counted per table."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

from web_attackers import ATTACKERS, chosen_attackers, fallback_moves  # noqa: E402


def test_all_names_every_attacker_of_issues_36_and_40() -> None:
    assert chosen_attackers("all") == list(ATTACKERS)
    assert set(ATTACKERS) == {"stale", "lobby", "slow", "replays", "solves", "analysis", "xff", "chat"}
    assert chosen_attackers("stale, xff") == ["stale", "xff"]
    assert chosen_attackers("flood") == ["flood"]
    assert chosen_attackers(None) == []


def test_an_unknown_attacker_is_one_line_naming_the_allowed_ones() -> None:
    with pytest.raises(ValueError, match=r"unknown attacker 'nobody'.*allowed: all, flood, stale"):
        chosen_attackers("stale,nobody")


def test_the_command_line_refuses_an_unknown_attacker_with_exit_2() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH / "load_web.py"), "--attack", "nobody"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert "unknown attacker" in done.stderr and "Traceback" not in done.stderr


def test_fallback_moves_are_counted_at_the_honest_tables_only() -> None:
    log = "\n".join(
        [
            "WARNING agent heuristic at table honest1 seat 2: too slow; playing the fallback move",
            "WARNING agent optimal-win at table attacker seat 1: too slow; playing the fallback move",
            "WARNING agent heuristic at table honest1 seat 2: too slow; playing the fallback move",
            "INFO table honest2 opened",
        ]
    )
    assert fallback_moves(log, ["honest1", "honest2"]) == 2
    assert fallback_moves(log, ["honest2"]) == 0
