"""Eigen Kweek's page in the players' words: grouped sow and plough buttons with their price and
coins, bids as they count, log lines and buttons without engine words, corner 4 in the refill,
plant cards drawn by state, every character's picture, and the numbers of "How to play".

eigen-kweek.js runs under node with a minimal DOM stand-in (``js/kweek_render.mjs``) on views
of a seeded game played step by step (one view per event, as the table receives them); skipped
where node is missing.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import gamebag
from gamebag.core.protocol import NodeKind
from gamebag.core.rng import Rng
from gamebag.games.eigen_kweek.components import CARDS

SCRIPT = Path(__file__).parent / "js" / "kweek_render.mjs"
NODE = shutil.which("node")
NAMES = ["Ann", "Bob", "Cas", "Dee"]
TABLE = {"game": "eigen-kweek", "seats": [{"seat": s, "name": n} for s, n in enumerate(NAMES)]}
# What the engine says and a player should never read.
ENGINE_WORDS = re.compile(r"ria choice|ria_|rob draw|rob_|phase: [A-Z]|hands in its bid|Pass cards|_|seat \d")

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


def _page(tmp_path: Path, views: list[Any], seat: int | None, legal: list[str], **extra: Any) -> dict[str, Any]:
    assert NODE is not None
    source = tmp_path / "input.json"
    source.write_text(json.dumps({"views": views, "seat": seat, "legal": legal, "table": TABLE, **extra}))
    done = subprocess.run([NODE, str(SCRIPT), str(source)], capture_output=True, text=True, timeout=60, check=True)
    page: dict[str, Any] = json.loads(done.stdout)
    return page


def _play(players: int, seed: int, stop: Any = None) -> tuple[Any, list[Any], Any]:
    """A seeded random game, one view of seat 0 per event, up to the first state ``stop`` accepts."""
    game = gamebag.make("eigen-kweek", players)
    state = game.initial_state()
    rng, pick = Rng(seed), random.Random(seed)
    views = [game.observation(state, 0)]
    while not game.is_terminal(state):
        if game.node_kind(state) is NodeKind.CHANCE:
            state = game.apply_chance(state, game.sample_chance(state, rng))
        else:
            if stop is not None and stop(game, state):
                break
            moves = {p: pick.choice(list(game.legal_actions(state, p))) for p in game.acting_players(state)}
            state = game.apply(state, moves)
        views.append(game.observation(state, 0))
    return game, views, state


def _pays_several_ways(game: Any, state: Any) -> bool:
    if 0 not in game.acting_players(state):
        return False
    pays = [a for a in game.legal_actions(state, 0) if a.startswith(("sow:", "plough:"))]
    return len({a.rsplit(":", 1)[0] for a in pays}) < len(pays)


def test_one_button_per_plant_card_with_its_price_and_the_cheapest_coins(tmp_path: Path) -> None:
    game, views, state = _play(4, 0, _pays_several_ways)
    legal = list(game.legal_actions(state, 0))
    page = _page(tmp_path, views[-1:], 0, legal)
    pays = [a for a in legal if a.startswith(("sow:", "plough:"))]
    groups = sorted({tuple(a.split(":")[:2]) for a in pays})
    main = [b for b in page["buttons"] if b["text"].startswith(("Sow the", "Plough the"))]
    assert sorted(tuple(b["action"].split(":")[:2]) for b in main) == groups, page["buttons"]
    rules = views[-1]["rules"]
    for button in main:
        kind, cost, chosen = button["action"].split(":")
        price = int(rules["sow_cost" if kind == "sow" else "plough_cost"][cost])
        assert f": {price} coin" in button["text"], button  # the price, stated
        paid = [sum(map(int, a.split(":")[2].split("+"))) for a in pays if a.startswith(f"{kind}:{cost}:")]
        assert sum(map(int, chosen.split("+"))) == min(paid)  # the cheapest coins are chosen for you
        assert f"pay {chosen}" in button["text"]
    assert "choose other coins" in page["controls"]
    assert "no change" in page["controls"]
    assert {b["action"] for b in page["buttons"]} >= set(pays)  # every payment still reachable
    assert not any("(pay " in b["text"] for b in page["buttons"])  # no button per payment as before


def test_words_of_a_whole_game_have_no_engine_words_and_name_corner_four(tmp_path: Path) -> None:
    game, views, state = _play(4, 11)
    assert game.is_terminal(state)
    labels = [a for a in game.all_actions() if not a.startswith(("bid:", "sow:", "plough:"))]
    page = _page(tmp_path, views, 0, [], labels=labels)
    told = page["told"]
    bad = [line for line in told + page["labels"] if ENGINE_WORDS.search(line)]
    assert not bad, bad[:10]
    assert any("corner 4" in line for line in told)
    refills = [i for i, line in enumerate(told) if line.startswith("Round ") and line.endswith("begins.")]
    assert refills and all("corner 4" in told[i - 1] for i in refills if i > 0), [told[i - 1] for i in refills]


def test_bids_show_as_they_count_with_steven_and_chantal(tmp_path: Path) -> None:
    _game, views, _state = _play(4, 3)
    view = views[-1]
    view["trade"] = {"bids": [3, 5, 2, 0], "hands": [2, 5, 1, 0], "counts": [4, 5, 1, 0], "order": [1, 0, 2],
                     "corners_chosen": [], "lucien": None}
    view["plays"] = [{"seat": 1, "card": "CHANTAL", "phase": "trade", "step": 0, "blocked": False, "target": None},
                     {"seat": 0, "card": "STEVEN", "phase": "trade", "step": 0, "blocked": False, "target": None}]
    board = _page(tmp_path, [view], 0, [])["board"]
    assert "Ann: bid 3, counts 4 (Bob's CHANTAL took 1; STEVEN +2) → chooses a corner second" in board
    chantal = "played CHANTAL: the tokens taken go to the collection, not the bid"
    assert f"Bob: bid 5 ({chantal}) → chooses a corner first" in board
    assert "Dee: bid 0 → no bid, no corner" in board


def test_plant_cards_are_drawn_by_state_and_coins_shown_after_the_game(tmp_path: Path) -> None:
    game, views, state = _play(2, 7)
    view = views[-1]
    slots = [(2, "empty", 0), (4, "growing", 1), (6, "growing", 6), (8, "sack", 0)]  # 6 is the 6-card's capacity
    view["table"][0]["board"] = [{"cost": c, "status": s, "tokens": t} for c, s, t in slots]
    finals = [game.observation(state, p) for p in range(2)]
    page = _page(tmp_path, [view], 0, [], result={"winners": list(view["winners"]), "final_views": finals})
    assert page["plants"][:4] == ["unsown", "growing", "full", "sack"]
    board = page["board"]
    assert "2 coins · empty" not in board and "0/9 weed" not in board and "potato sack" in board
    assert "values hidden" not in board
    for final in finals:
        coins = final["you"]["coins"]
        if len(coins) > 1:
            assert f"{len(coins)} coins: {' + '.join(map(str, coins))} = {final['you']['coin_value']}" in board
        elif coins:
            assert f"1 coin worth {coins[0]}" in board


def test_every_character_has_its_picture_and_the_guide_has_the_numbers(tmp_path: Path) -> None:
    game, views, state = _play(4, 2, lambda g, s: s.step == "choose")
    view = views[-1]
    view["plays"] = [{"seat": i % 4, "card": c, "phase": "deal", "step": 0, "blocked": False, "target": None}
                     for i, c in enumerate(CARDS)]
    page = _page(tmp_path, [view], 0, list(game.legal_actions(state, 0)))
    assert set(page["cards"]) >= set(CARDS)
    guide = "\n".join(page["guide"])
    rules = view["rules"]
    for cost, capacity in rules["capacity"].items():
        plough = rules["plough_cost"][cost]
        assert f"{cost}-card {capacity}" in guide and f"{cost}-card {plough} coin{'s' if plough != 1 else ''}" in guide
    for value, count in rules["coins"].items():
        if count:
            assert f"{count} worth {value}" in guide
    assert "no change" in guide and "Hand in characters" in guide
    assert all(f"{card} (" in guide for card in CARDS)


def test_your_own_character_is_drawn_face_up_on_your_board_and_nobody_elses(tmp_path: Path) -> None:
    game, views, state = _play(3, 6, lambda g, s: s.step == "window")
    view = views[-1]
    mine = view["you"]["card"]
    assert mine
    page = _page(tmp_path, [view], 0, [])
    assert page["cards"] == [mine]  # her own card, and no other seat's
    spectator = _page(tmp_path, [game.public_view(state)], None, [])
    assert spectator["cards"] == []
