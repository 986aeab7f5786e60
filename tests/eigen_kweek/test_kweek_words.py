"""Eigen Kweek's terminal text in the players' words (issue 37): narration of a whole game, every
action's words and the table drawing without engine codes; sowing and ploughing state the price
and that coins give no change; bids shown as they count, with why.
"""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

import gamebag
from gamebag.core.protocol import NodeKind
from gamebag.core.rng import Rng
from gamebag.games.eigen_kweek.components import CARD_TEXT, GROWTH
from gamebag.games.eigen_kweek.render import action_words, narrate, render_view

ENGINE_WORDS = re.compile(r"ria choice|ria_|rob draw|rob_|phase: [A-Z]|hands in its bid|step: |\w+_\w+")


def _views(players: int, seed: int) -> tuple[Any, list[Any], list[tuple[Any, str]]]:
    """Seat 0's view after every event of a seeded random game, and every (view, action) it was offered."""
    game = gamebag.make("eigen-kweek", players)
    state = game.initial_state()
    rng, pick = Rng(seed), random.Random(seed)
    views, offered = [game.observation(state, 0)], []
    while not game.is_terminal(state):
        if game.node_kind(state) is NodeKind.CHANCE:
            state = game.apply_chance(state, game.sample_chance(state, rng))
        else:
            for seat in game.acting_players(state):
                view = game.observation(state, seat)
                offered.extend((view, action) for action in game.legal_actions(state, seat))
            moves = {p: pick.choice(list(game.legal_actions(state, p))) for p in game.acting_players(state)}
            state = game.apply(state, moves)
        views.append(game.observation(state, 0))
    return game, views, offered


def test_a_whole_game_is_told_and_offered_without_engine_words() -> None:
    _game, views, offered = _views(4, 11)
    told = [line for before, after in itertools.pairwise(views) for line in narrate(before, after)]
    assert not [line for line in told if ENGINE_WORDS.search(line)][:5]
    assert any("pays the bid into the pot" in line for line in told)
    assert any(line.startswith("[bold]Trading: ") for line in told)
    words = {action_words(view, action) for view, action in offered}
    assert not [w for w in words if ENGINE_WORDS.search(w) or re.search(r"\b[a-z]+:[\w+]+", w)][:5]
    drawings = [render_view(view) for view in views[::25]]
    assert not [d for d in drawings if re.search(r"phase: [a-z]|step: ", d)]


def test_sowing_and_ploughing_state_the_price_and_no_change() -> None:
    *_, offered = _views(4, 0)
    pays = [(view, action) for view, action in offered if action.startswith(("sow:", "plough:"))]
    assert pays
    for view, action in pays:
        kind, cost, payment = action.split(":")
        price = view["rules"]["sow_cost" if kind == "sow" else "plough_cost"][cost]
        if any(p["card"] == "FRANK" and not p["blocked"] and p["seat"] == view["seat"] for p in view["plays"]):
            price = (price + 1) // 2  # FRANK: half the price, rounded up
        words = action_words(view, action)
        paid = sum(map(int, payment.split("+")))
        assert f"for {price} coin" in words and f"paying {payment}" in words, words
        if paid > price:
            assert f"({paid - price} over: coins give no change)" in words, words


def test_bids_are_drawn_as_they_count_with_why() -> None:
    _game, views, _offered = _views(3, 4)
    view = next(v for v in views if v["trade"])
    view["trade"].update(bids=[3, 5, 2], hands=[2, 5, 1], counts=[4, 5, 1], order=[1, 0, 2])
    view["plays"] = [{"seat": 1, "card": "CHANTAL", "blocked": False, "target": None, "phase": "trade", "step": 0},
                     {"seat": 0, "card": "STEVEN", "blocked": False, "target": None, "phase": "trade", "step": 0}]
    drawn = render_view(view)
    assert "seat 0 bid 3, counts 4 (CHANTAL took 1; STEVEN +2), chooses a corner second" in drawn
    assert "seat 1 bid 5 (played CHANTAL" in drawn


def test_the_rules_page_gives_the_apps_numbers_every_card_and_the_hand_in_phase() -> None:
    page = gamebag.entry("eigen-kweek").rules_text()  # what GET /api/games/eigen-kweek/rules serves
    how_to_play = page.split("## How to play", 1)[1].split("\n## ", 1)[0]
    config = gamebag.make("eigen-kweek", 4).config
    rows = {line.split("|")[1].strip(): [cell.strip() for cell in line.split("|")[2:-1]]
            for line in how_to_play.splitlines() if line.startswith("| ") and "-card" not in line}
    costs = sorted(config.capacity)
    assert rows["sowing costs (coins)"] == [str(c) for c in costs]
    assert rows["weed tokens it grows each round"] == [str(GROWTH[c]) for c in costs]
    assert rows["tokens it holds when full"] == [str(config.capacity[c]) for c in costs]
    assert rows["ploughing it over costs (coins)"] == [str(config.plough_cost[c]) for c in costs]
    coins = ", ".join(f"{n} worth {v}" for v, n in zip(config.values, config.coin_counts, strict=True) if n)
    assert coins.rsplit(", ", 1)[0] in how_to_play and f"{sum(config.coin_counts)} in the coin bag" in how_to_play
    assert "Coins give no change" in how_to_play and "**Hand In Characters.**" in how_to_play
    assert f"after {config.max_rounds} rounds" in how_to_play
    for card, text in CARD_TEXT.items():
        assert f"**{card}**" in how_to_play and text in how_to_play, card
