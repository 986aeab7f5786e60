"""The lobby's HTTP API: the catalogue, opening tables, and what is refused (and why)."""

from __future__ import annotations

from pathlib import Path

import pytest

import gamebag

from .helpers import open_table, web_client


def test_catalogue_lists_every_registered_game_with_options_and_agents(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        games = client.get("/api/games").json()
    assert [g["id"] for g in games] == list(gamebag.game_ids())
    for game in games:
        cls = gamebag.entry(game["id"]).game_class
        assert game["min_players"] == cls.min_players and game["max_players"] == cls.max_players
        assert [o["name"] for o in game["options"]] == [o.name for o in cls.option_specs]
        assert "random" in game["agents"]


def test_open_table_gives_one_secret_invite_per_person_and_none_for_bots(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        table = open_table(client, "wriggle-roulette", 4, bots={1: "heuristic", 3: "random"}, public=True)
        seats = table["seats"]
        assert [s["bot"] for s in seats] == [False, True, False, True]
        tokens = [s["token"] for s in seats if not s["bot"]]
        assert len(set(tokens)) == 2 and all(len(t) >= 30 for t in tokens)
        assert all("token" not in s for s in seats if s["bot"])
        assert seats[0]["invite"].startswith(f"/play/{table['id']}#invite=")
        assert all(s["invite"].split("#invite=")[1] not in tokens for s in seats if not s["bot"])
        info = client.get(f"/api/tables/{table['id']}").json()
        listed = client.get("/api/tables").json()
    text = repr(info) + repr(listed)
    assert all(token not in text for token in tokens), "seat tokens must never be shown to others"
    assert info["table"]["seats"][1]["agent"] == "heuristic"
    assert info["view"]["game"] == "wriggle-roulette" and "seat" not in info["view"]
    assert table["id"] in [t["id"] for t in listed]


def test_table_options_are_validated_and_stored(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        table = open_table(client, "eel-harvest", 3, options={"draw": "dice", "lone_player_grabs": 2})
        info = client.get(f"/api/tables/{table['id']}").json()
    assert info["table"]["options"]["draw"] == "dice"
    assert info["view"]["bag"]["dice"] is True


@pytest.mark.parametrize(
    ("request_body", "fragment"),
    [
        ({"game": "no-such-game"}, "unknown game"),
        ({"game": "wriggle-roulette", "players": 9}, "2 to 8 players"),
        ({"game": "wriggle-roulette", "options": {"colour": "red"}}, "unknown option"),
        ({"game": "wriggle-roulette", "options": {"rotate_start": "perhaps"}}, "rotate_start"),
        ({"game": "wriggle-roulette", "players": 2, "seats": [{}]}, "exactly 2 seats"),
        ({"game": "wriggle-roulette", "players": 2, "seats": [{}, {"bot": "nobody"}]}, "unknown agent"),
        ({"game": "wriggle-roulette", "players": 2, "seats": [{}, {"name": "x" * 80}]}, "at most 40"),
        ({"game": "wriggle-roulette", "turn_seconds": 0.5}, "turn_seconds"),
        ({"game": "wriggle-roulette", "turn_seconds": "soon"}, "turn_seconds"),
        ({"game": "wriggle-roulette", "extra": 1}, "unknown field"),
        ([1, 2, 3], "JSON object"),
    ],
)
def test_bad_table_requests_are_refused_with_a_reason(tmp_path: Path, request_body: object, fragment: str) -> None:
    with web_client(tmp_path) as client:
        response = client.post("/api/tables", json=request_body)
        tables = client.get("/api/tables").json()
    assert response.status_code == 400
    assert fragment in response.json()["error"]
    assert tables == [], "a refused request opens no table"


def test_a_client_chosen_seed_is_refused_unless_the_server_allows_it(tmp_path: Path) -> None:
    with web_client(tmp_path, allow_seed=False) as client:
        response = client.post("/api/tables", json={"game": "wriggle-roulette", "seed": 7})
    assert response.status_code == 400
    assert "seed" in response.json()["error"]


def test_malformed_and_oversized_bodies(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        bad_json = client.post("/api/tables", content=b"{not json", headers={"content-type": "application/json"})
        huge = client.post("/api/tables", content=b" " * (70 * 1024), headers={"content-type": "application/json"})
        health = client.get("/api/health")
    assert bad_json.status_code == 400 and "JSON" in bad_json.json()["error"]
    assert huge.status_code == 413
    assert health.json()["ok"] is True


def test_unknown_tables_and_unfinished_records(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        assert client.get("/api/tables/nope").status_code == 404
        table = open_table(client, "wriggle-roulette", 2)
        assert client.get(f"/api/tables/{table['id']}/record").status_code == 409
        assert client.get(f"/api/tables/{table['id']}/replay").status_code == 409
        wrong = client.get(f"/api/tables/{table['id']}/replay", headers={"x-seat-token": "forged"})
        assert wrong.status_code == 409


def test_pages_are_served(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        table = open_table(client, "wriggle-roulette", 2)
        for path in ("/", f"/play/{table['id']}", f"/replay/{table['id']}", "/static/js/table.js"):
            response = client.get(path)
            assert response.status_code == 200, path
        renderers = [g for g in gamebag.game_ids() if client.get(f"/static/games/{g}.js").status_code == 200]
        # A game without its own table is shown by the generic one, which must always be there.
        assert client.get("/static/games/generic.js").status_code == 200
        assert renderers, "the games' own table renderers are served"
