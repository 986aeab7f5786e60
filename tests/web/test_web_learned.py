"""The shipped ``learned`` agent in the web app: offered where weights exist, refused clearly elsewhere."""

from __future__ import annotations

from pathlib import Path

from gamebag.agents.learned import shipped_policies

from .helpers import open_table, play_whole_game, web_client


def test_the_lobby_offers_learned_where_a_policy_ships_and_refuses_other_player_counts(tmp_path: Path) -> None:
    shipped = shipped_policies()
    assert ("pig", 2) in shipped
    with web_client(tmp_path) as client:
        games = {g["id"]: g for g in client.get("/api/games").json()}
        for game_id, game in games.items():
            assert ("learned" in game["agents"]) == any(g == game_id for g, _ in shipped), game_id
        table = open_table(client, "pig", 2, bots={1: "learned"}, seed=2)
        play_whole_game(client, table, seed=3, spectate=False)
        assert client.get(f"/api/tables/{table['id']}").json()["result"] is not None
        # A configuration without a policy: solo Catch A Dragon (every other player count of every game ships one).
        game_id, players = "catch-a-dragon", 1
        assert (game_id, players) not in shipped
        seats = [{"bot": "learned"}]
        response = client.post("/api/tables", json={"game": game_id, "players": players, "seats": seats})
        assert response.status_code == 400, response.text
        assert f"no learned policy ships for {game_id} with {players} players" in response.json()["error"]
