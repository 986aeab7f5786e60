"""The lobby offers only the bots that can play the table chosen, and refuses the others at once.

Some agents play only some tables: the equilibrium agent two-player Eel games with the rulebook's
numbers, ``optimal-win`` two players, ``learned`` the player counts and options a policy ships
for. The catalogue lists, per player count, the agents the lobby form offers; every agent it
leaves out really cannot be built for that table, and a request naming one is refused with the
agent's reason before anything is built.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import gamebag
from gamebag.agents.registry import make_agent
from gamebag.core.errors import GamebagError
from gamebag.web.lobby import LobbyError, agents_by_players, parse_table_request, playable_agents

from .helpers import open_table, web_client


def test_four_player_wriggle_roulette_is_not_offered_the_two_player_equilibrium_bot(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        games = {g["id"]: g for g in client.get("/api/games").json()}
        offered = games["wriggle-roulette"]["agents_by_players"]
        assert "equilibrium" in offered["2"] and "equilibrium" not in offered["4"]
        assert "optimal-win" in games["pig"]["agents_by_players"]["2"]
        assert "optimal-win" not in games["catch-a-dragon"]["agents_by_players"]["3"]
        seats = [{"name": "Ann"}] + [{"bot": "equilibrium"}] * 3
        answer = client.post("/api/tables", json={"game": "wriggle-roulette", "players": 4, "seats": seats})
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert "seat 1: equilibrium cannot play this table" in error and "two-player" in error, error


def test_an_agent_is_refused_for_options_it_was_not_solved_for() -> None:
    seats = [{"name": "Ann"}, {"bot": "equilibrium"}]
    request = {"game": "eel-harvest", "players": 2, "seats": seats, "options": {"target": 12}}
    with pytest.raises(LobbyError, match=r"seat 1: equilibrium cannot play this table: .*target"):
        parse_table_request(request, allow_seed=False)
    request["options"] = {}
    assert parse_table_request(request, allow_seed=False).seats[1].agent == "equilibrium"


@pytest.mark.parametrize("game_id", gamebag.game_ids())
def test_every_agent_left_out_really_cannot_play_and_every_one_offered_is_accepted(game_id: str) -> None:
    cls = gamebag.entry(game_id).game_class
    offered = agents_by_players(game_id)
    assert set(offered) == {str(n) for n in range(cls.min_players, cls.max_players + 1)}
    for players_text, agents in offered.items():
        players = int(players_text)
        game = gamebag.make(game_id, players)
        for agent in playable_agents(game_id):
            seats = [{"name": "Ann"}] + [{"bot": agent}] * (players - 1)
            request = {"game": game_id, "players": players, "seats": seats}
            if agent in agents:
                if players > 1:
                    parse_table_request(request, allow_seed=False)
                continue
            # Left out: building it fails (these refusals come before any solve: cheap).
            with pytest.raises(GamebagError):
                make_agent(agent, game)
            if players > 1:
                with pytest.raises(LobbyError, match=f"{agent} cannot play this table"):
                    parse_table_request(request, allow_seed=False)


def test_a_host_hands_a_seat_only_to_a_bot_that_can_play_the_table(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        table = open_table(client, "wriggle-roulette", 4, bots={2: "random", 3: "random"})
        headers = {"x-host-token": table["host_token"]}
        host = client.get(f"/api/tables/{table['id']}/host", headers=headers).json()
        assert "equilibrium" not in host["agents"] and "heuristic" in host["agents"]
        answer = client.post(f"/api/tables/{table['id']}/seats/1/bot", json={"agent": "equilibrium"}, headers=headers)
    assert answer.status_code == 400
    assert "equilibrium cannot play this table" in answer.json()["error"]


def test_the_lobby_asks_which_bots_play_the_options_chosen(tmp_path: Path) -> None:
    """The form's player count and options both decide the bots it offers (asked as they change)."""
    with web_client(tmp_path) as client:
        default = client.post("/api/games/agents", json={"game": "eel-harvest", "players": 2})
        changed = client.post(
            "/api/games/agents", json={"game": "eel-harvest", "players": 2, "options": {"target": 12}}
        )
        wrong = client.post("/api/games/agents", json={"game": "eel-harvest", "options": {"target": -1}})
        unknown = client.post("/api/games/agents", json={"game": "chess"})
    assert default.status_code == 200 and "equilibrium" in default.json()["agents"]
    assert changed.status_code == 200 and "equilibrium" not in changed.json()["agents"]
    assert "heuristic" in changed.json()["agents"]
    assert wrong.status_code == 400 and "target" in wrong.json()["error"]
    assert unknown.status_code == 400
    script = (Path(gamebag.__file__).parent / "web" / "static" / "js" / "lobby.js").read_text(encoding="utf-8")
    assert '"/api/games/agents"' in script and 'addEventListener("change", refreshBots)' in script
