"""Low Tide, a plugin game with no heuristic agent, on an in-process web server: the lobby's
catalogue lists it with the bots that can play it, its "How to play" sheet is the rules text it
registered, and a table opened with the lobby's defaults (no bot named, no timer agent named) opens."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from low_tide_support import GAME_ID, low_tide_loaded

import gamebag
from gamebag.agents.registry import make_agent
from gamebag.core.errors import GamebagError
from web.helpers import web_client


@pytest.fixture(scope="module")
def low_tide() -> Iterator[ModuleType]:
    """The plugin module, loaded in this process for this module's tests and forgotten after them."""
    with low_tide_loaded() as module:
        yield module


def test_the_catalogue_offers_only_bots_that_can_play_it(tmp_path: Path, low_tide: ModuleType) -> None:
    with web_client(tmp_path) as client:
        games = {game["id"]: game for game in client.get("/api/games").json()}
    offered = games[GAME_ID]["agents"]
    assert "random" in offered
    game = gamebag.make(GAME_ID, games[GAME_ID]["default_players"])
    for name in offered:
        try:
            make_agent(name, game)
        except GamebagError as error:
            pytest.fail(f"the lobby offers {name!r}, which cannot play {GAME_ID}: {error}")


def test_the_how_to_play_sheet_is_the_registered_rules_text(tmp_path: Path, low_tide: ModuleType) -> None:
    with web_client(tmp_path) as client:
        response = client.get(f"/api/games/{GAME_ID}/rules")
    assert response.status_code == 200, response.text
    assert response.json()["markdown"] == gamebag.entry(GAME_ID).rules_text()


def test_a_table_opens_with_the_lobby_defaults(tmp_path: Path, low_tide: ModuleType) -> None:
    """Two people and one bot seat left to the server's choice; the turn timer's agent left to it too."""
    seats = [{"name": "Ann"}, {"name": "Bob"}, {"bot": "random"}]
    request = {"game": GAME_ID, "players": 3, "seats": seats, "turn_seconds": 60}
    with web_client(tmp_path) as client:
        response = client.post("/api/tables", json=request)
    assert response.status_code == 201, response.text
