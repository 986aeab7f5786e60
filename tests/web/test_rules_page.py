"""The players' "full rules" (issue 37): a page per game with the rules as a player reads them,
with a table's own numbers, and no developer material; and the lobby catalogue's presets."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .helpers import web_client

# What only a developer reads: command-line flags, Python names, action codes, the programs' section.
DEVELOPER_MATERIAL = ("--", "gamebag.", "action code", "For programs", "`", "{{", "seat 0", "_")
TABLE_RULE = re.compile(r"^\|[-|: ]+\|$", re.MULTILINE)
SECTIONS = ("## Setup", "## Scoring", "## The end of the game", "## The options of this table")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with web_client(Path(tmp_path_factory.mktemp("rules"))) as client:
        yield client


def _rules(client: Any, game: str, **query: Any) -> Any:
    return client.get(f"/api/games/{game}/players-rules", params=query)


def test_every_game_s_rules_page_is_the_players_text_with_its_main_sections(client: Any) -> None:
    games = [game["id"] for game in client.get("/api/games").json()]
    assert len(games) >= 5
    for game in games:
        answer = _rules(client, game).json()
        text = answer["markdown"]
        prose = TABLE_RULE.sub("", text)  # a Markdown table's |---| line is layout, not a flag
        found = [word for word in DEVELOPER_MATERIAL if word in prose]
        assert not found, (game, found)
        assert all(section in text for section in SECTIONS), game
        assert "## A turn" in text or "## A round" in text, game
        page = client.get(f"/rules/{game}")
        assert page.status_code == 200 and 'src="/static/js/rules.js"' in page.text


def test_the_rules_carry_the_table_s_own_numbers(client: Any) -> None:
    options = json.dumps({"target": 15, "eels": 40})
    text = _rules(client, "eel-harvest", players=3, options=options).json()["markdown"]
    assert "reaches 15 points" in text and "Put 40 eels and 17 snakes" in text
    assert "up to 4 tokens" in text and "reach\n7 snakes" in text  # the rulebook's numbers for three players
    assert "**Score that ends the game:** 15." in text and "**Snakes in the bag:** 17 (the rulebook's)." in text
    two = _rules(client, "eel-harvest", players=2).json()["markdown"]
    assert "up to 6 tokens" in two and "reach\n6 snakes" in two
    general = _rules(client, "eel-harvest").json()["markdown"]  # no table: the rulebook's words for every count
    assert "4 (6 in a game of two) tokens" in general
    kweek = _rules(client, "eigen-kweek", options=json.dumps({"max_rounds": 15})).json()["markdown"]
    assert "after 15\nrounds" in kweek
    dragon = _rules(client, "catch-a-dragon", options=json.dumps({"rounds": 2})).json()["markdown"]
    assert "After 2 rounds" in dragon


@pytest.mark.parametrize(
    ("game", "query", "status", "error"),
    [
        ("pig", {"options": "[1]"}, 400, "'options' must be a JSON object of option names to values"),
        ("pig", {"options": "x" * 5000}, 400, "at most 4000 characters"),
        ("pig", {"players": "many"}, 400, "'players' must be a whole number of players"),
        ("pig", {"players": "3"}, 400, "pig is played by 2 to 2 players, not 3"),
        ("pig", {"options": '{"goal": 1}'}, 400, "option 'goal': 1 is not allowed"),
        ("chess", {}, 404, "there is no game 'chess'"),
    ],
)
def test_a_bad_rules_request_gets_one_line_saying_what_is_allowed(
    client: Any, game: str, query: dict[str, str], status: int, error: str
) -> None:
    response = _rules(client, game, **query)
    assert response.status_code == status
    assert error in response.json()["error"] and "\n" not in response.json()["error"]


def test_the_catalogue_offers_each_game_s_presets_with_every_option(client: Any) -> None:
    for game in client.get("/api/games").json():
        presets = game["presets"]
        assert presets[0]["name"] == "rulebook" and presets[0]["rated"] is True
        assert presets[0]["options"] == {option["name"]: option["default"] for option in game["options"]}
        assert len(presets) >= 3 and [p["rated"] for p in presets[1:]] == [False] * (len(presets) - 1)
        for preset in presets:
            assert set(preset["options"]) == {option["name"] for option in game["options"]}
