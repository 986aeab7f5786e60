"""Agents that exist: a plugin game with no heuristic, no compiled engine and no trained policy is
played, simulated, studied and opened on the web with no extra code.

Every default that prefers an agent the game lacks (the web table's timer agent and the lobby's
bot, ``play``'s seats, the lab's strongest fast agent) asks the agent registry, falls back to an
agent that plays the game (``random`` at worst) and says so in one line; ``gamebag list`` shows
exactly the games each agent plays. The game, Tiny Dash, is loaded only through the public plugin
path (``--plugin`` / ``plugins.activate``), as an outsider's game would be.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import gamebag
from gamebag import plugins
from gamebag.agents.registry import (
    DefaultAgent,
    agent_entries,
    agents_for,
    default_agent,
    games_played,
    make_agent,
    refusal,
)
from gamebag.cli.app import app
from gamebag.core import registry
from gamebag.core.errors import GamebagError

PLUGIN = Path(__file__).with_name("tiny_dash.py")
GAME = "tiny-dash"
FALLBACK_NOTICE = f"no heuristic agent for {GAME}: bots play random"
WIDE = {"COLUMNS": "400"}  # rich tables on one line per row, so the listing can be read back


@pytest.fixture(scope="module", autouse=True)
def tiny_dash() -> Iterator[None]:
    """Tiny Dash loaded as a plugin for this module; forgotten afterwards (other tests see the package's games)."""
    before = set(registry.game_ids())
    environment = os.environ.get(plugins.PLUGIN_ENV)
    assert plugins.activate([PLUGIN]) == (GAME,)  # the conformance suite passed on it
    yield
    for game_id in set(registry.game_ids()) - before:
        registry.unregister(game_id)
    plugins._loaded_files.clear()
    if environment is None:
        os.environ.pop(plugins.PLUGIN_ENV, None)
    else:
        os.environ[plugins.PLUGIN_ENV] = environment


def gamebag_cli(*args: str, stdin: str | None = None) -> Any:
    return CliRunner().invoke(app, ["--plugin", str(PLUGIN), *args], input=stdin, env=WIDE)


def test_the_registry_says_which_agents_play_a_game_and_falls_back_to_random() -> None:
    game = gamebag.make(GAME, 3)
    assert refusal("heuristic", game) == f"no heuristic agent exists for {GAME}"
    assert agents_for(game) == ["ismcts", "random"]  # never the heuristic, the solvers or a policy file
    assert "policy" in agents_for(game, local=True)
    assert default_agent(game) == DefaultAgent("random", FALLBACK_NOTICE)
    with pytest.raises(GamebagError, match="heuristic"):
        make_agent("heuristic", game)  # named explicitly it is still refused, naming what exists
    # A game with a heuristic keeps it, silently; a configuration an agent refuses is passed over.
    assert default_agent(gamebag.make("pig")) == DefaultAgent("heuristic")
    assert default_agent(gamebag.make("catch-a-dragon", 3), ("optimal-win", "heuristic")) == DefaultAgent("heuristic")
    assert refusal("optimal-win", gamebag.make("catch-a-dragon", 3)) == "it is solved for 2 players, not 3"
    assert GAME not in games_played("heuristic") and "pig" in games_played("heuristic")
    assert GAME in games_played("random") and GAME in games_played("ismcts")


def _agent_rows(listing: str) -> dict[str, set[str]]:
    """The agents table of ``gamebag list``: agent name -> the game ids in its games column."""
    rows: dict[str, set[str]] = {}
    section = listing[listing.index("Agents") :]
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.split("│")[1:-1]]
        if len(cells) == 3 and cells[0] and cells[0] != "name":
            rows[cells[0]] = {game.strip() for game in cells[1].split(",") if game.strip()}
    return rows


def test_list_shows_exactly_the_games_each_agent_plays() -> None:
    result = gamebag_cli("list")
    assert result.exit_code == 0, result.output
    rows = _agent_rows(result.stdout)
    assert set(rows) == {entry.name for entry in agent_entries()}
    for name, shown in rows.items():
        assert shown == set(games_played(name)), name
    assert GAME not in rows["heuristic"] and GAME in rows["random"]
    # And what it shows is true: the heuristic is built for every game listed under it.
    for game_id in rows["heuristic"]:
        make_agent("heuristic", gamebag.make(game_id))


def test_play_fills_the_unnamed_seats_with_random_and_says_so() -> None:
    turns = gamebag.make(GAME).turns
    result = gamebag_cli("play", GAME, "--seed", "3", "--auto-delay", "0", stdin="walk\n" * turns)
    assert result.exit_code == 0, result.output
    assert FALLBACK_NOTICE in result.stderr
    assert "Bot 2 (random)" in result.stdout and "game over" in result.stdout
    named = gamebag_cli("play", GAME, "--seats", "random,random", "--seed", "3", "--auto-delay", "0")
    assert named.exit_code == 0 and "no heuristic" not in named.stderr  # nothing defaulted, nothing said
    refused = gamebag_cli("play", GAME, "--seats", "human,heuristic")
    assert refused.exit_code == 2
    message = " ".join(refused.stderr.split())
    assert "unknown agent 'heuristic' for tiny-dash; available: ismcts, policy, random" in message


def test_simulate_plays_it_on_the_rules_engine() -> None:
    result = gamebag_cli("simulate", GAME, "--games", "50", "--seed", "1", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 50 and data["engine"] == "rules"


def test_balance_without_a_fast_agent_seats_random_and_says_so() -> None:
    result = gamebag_cli("balance", GAME, "--players", "2-3", "--games", "30", "--workers", "1", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [cell["agents"] for cell in data["cells"]] == [["random"] * 2, ["random"] * 3]
    fallback = [n for n in data["notices"] if "no fast agent" in n]
    assert len(fallback) == 1 and "tiny-dash with 2, 3 players" in fallback[0] and "'random'" in fallback[0]
    # The warning about random agents names only agents this game has.
    warnings = " ".join(data["warnings"])
    assert "random agents" in warnings and "use ismcts" in warnings and "heuristic" not in warnings


def test_tune_without_a_fast_agent_seats_random_and_notes_it() -> None:
    result = gamebag_cli(
        "tune", GAME, "--search", "turns=1..3", "--goal", "fair", "--trials", "2", "--games", "20",
        "--metrics-games", "5", "--workers", "1", "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    notes = json.loads(result.stdout)["notes"]
    assert any("no fast agent" in note and "'random'" in note for note in notes), notes


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    from gamebag.web.app import create_app

    app = create_app(f"sqlite:///{tmp_path / 'web.db'}", bot_delay=0.0, allow_seed=True, host_names=("testserver",))
    with TestClient(app) as test_client:
        yield test_client


def test_the_lobby_offers_and_preselects_bots_that_exist(client: Any) -> None:
    games = {game["id"]: game for game in client.get("/api/games").json()}
    dash = games[GAME]
    assert dash["agents"] == ["ismcts", "random"]
    assert dash["agents_by_players"]["2"] == ["ismcts", "random"]
    assert dash["preferred_by_players"]["2"] == {"agent": "random", "notice": FALLBACK_NOTICE}
    assert games["pig"]["preferred_by_players"]["2"] == {"agent": "heuristic", "notice": None}
    asked = client.post("/api/games/agents", json={"game": GAME, "players": 3, "options": {"turns": 2}}).json()
    assert asked == {"agents": ["ismcts", "random"], "preferred": "random", "notice": FALLBACK_NOTICE}
    # The lobby's script preselects the server's choice, never a hard-coded heuristic.
    static = Path(gamebag.__file__).parent / "web" / "static" / "js"
    for script in ("lobby.js", "invites.js"):
        assert '"heuristic"' not in (static / script).read_text(encoding="utf-8"), script
    assert "preferred_by_players" in (static / "lobby.js").read_text(encoding="utf-8")


def test_a_table_opens_from_the_lobby_and_a_no_show_is_played_to_the_end(client: Any) -> None:
    seats = [{"name": "Ann"}, {"bot": "random"}]  # what the lobby form sends with its preselected bot
    answer = client.post("/api/tables", json={"game": GAME, "players": 2, "seats": seats, "seed": 5, "public": True})
    assert answer.status_code == 201, answer.text
    table = answer.json()
    assert table["timeout_agent"] == "random" and table["notices"] == [FALLBACK_NOTICE]
    headers = {"x-host-token": table["host_token"]}
    host = client.get(f"/api/tables/{table['id']}/host", headers=headers).json()
    assert host["agents"] == ["ismcts", "random"] and host["timeout_agent"] == "random"
    # The host hands Ann's seat to the table's timeout agent (an empty body): the bots finish the game.
    handed = client.post(f"/api/tables/{table['id']}/seats/0/bot", json={}, headers=headers)
    assert handed.status_code == 200, handed.text
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        listed = {t["id"]: t for t in client.get("/api/tables").json()}
        if listed[table["id"]]["finished"]:
            break
        time.sleep(0.1)
    assert listed[table["id"]]["finished"]
    record = client.get(f"/api/tables/{table['id']}/record").json()
    assert record["game"] == GAME and len(record["events"]) >= gamebag.make(GAME).total_turns
