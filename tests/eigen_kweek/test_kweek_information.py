"""Hidden information and conservation: what each player may know, and resampling."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest
from kweek_helpers import E, act, board, check_conservation, coins, draw, make, position

from gamebag.core.protocol import NodeKind
from gamebag.core.rng import make_rng
from gamebag.games.eigen_kweek import EigenKweek, KweekState
from gamebag.games.eigen_kweek.characters import WITH_RIA
from gamebag.sim.play import random_walk

CONFIGS = [
    (2, {}),
    (3, {"coin_visibility": "open"}),
    (4, {}),
    (4, {"stefaan_order": "first", "fluppe_counts_sacks": True, "coins_worth_5": 0, "coins_worth_4": 5}),
]


def random_states(game: EigenKweek, seed: int) -> Iterator[KweekState]:
    return random_walk(game, make_rng(seed))


def check_knowledge(state: KweekState, observer: int | None = None) -> None:
    """What players know about cards is true of the state."""
    for who, seat, card in state.knowledge:
        if observer is None or who == observer:
            assert state.held[seat] == card and who != seat
    for who, card, where in state.stack_known:
        if observer is None or who == observer:
            assert (
                card in state.stack
                or (where >= 0 and state.held[where] == card)
                or (where == WITH_RIA and state.ria_card == card)
            )


@pytest.mark.parametrize(("players", "options"), CONFIGS)
def test_conservation_and_knowledge_hold_on_every_transition(players: int, options: dict[str, Any]) -> None:
    game = make(players, **options)
    for seed in range(4):
        for state in random_states(game, seed):
            check_conservation(game, state)
            check_knowledge(state)


@pytest.mark.parametrize(("players", "options"), CONFIGS)
def test_resampled_states_look_the_same_to_the_player_and_stay_playable(
    players: int, options: dict[str, Any]
) -> None:
    game = make(players, **options)
    rng = make_rng(99)
    varied = {"cards": 0, "coins": 0, "tokens": 0}
    for index, state in enumerate(random_states(game, 5)):
        if index % 4:
            continue
        for seat in range(players):
            sample = game.resample_from_infostate(state, seat, rng)
            assert game.observation(sample, seat) == game.observation(state, seat)
            assert game.public_view(sample) == game.public_view(state)
            assert game.legal_actions(sample, seat) == game.legal_actions(state, seat)
            check_conservation(game, sample)
            check_knowledge(sample, seat)
            varied["cards"] += sample.held != state.held or sample.stack != state.stack
            varied["coins"] += sample.coins != state.coins or sample.corners != state.corners
            varied["tokens"] += sample.tokens != state.tokens or sample.bids != state.bids
            # The sample is a real position: play on from it.
            for _ in range(10):
                if game.is_terminal(sample):
                    break
                if game.node_kind(sample) is NodeKind.CHANCE:
                    sample = game.apply_chance(sample, game.sample_chance(sample, rng))
                else:
                    sample = game.apply(sample, {
                        p: game.legal_actions(sample, p)[0] for p in game.acting_players(sample)
                    })
                check_conservation(game, sample)
    assert all(varied.values()), varied


def _trade_window_state() -> tuple[EigenKweek, KweekState]:
    game = make(3)
    state = position(
        game, phase="trade", step="window", window_step=1, held=("FRANK", "KEUN", "STEVEN"),
        tokens=(6, 7, 5), bids=(2, 3, 4), coins=((1, 2), (3, 5), (2,)), corners=((1,), (5,), (), (3, 3)),
        boards=(board(1, E, E, E), board(E, 2, E, E), board(E, E, E, E)),
    )
    return game, state


def test_changing_another_players_hidden_data_leaves_the_observation_unchanged() -> None:
    game, state = _trade_window_state()
    view = game.observation(state, 0)
    variants = [
        state._replace(tokens=(6, 9, 3)),  # weed tokens moved between two opponents
        state._replace(bids=(2, 1, 6), tokens=(6, 9, 3)),  # their sealed bids
        state._replace(held=("FRANK", "JOS", "STEVEN"), stack=tuple(sorted(
            {*state.stack, "KEUN"} - {"JOS"}))),  # seat 1's character card
        state._replace(coins=(state.coins[0], coins(game, 2, 5), coins(game, 3))),  # opponents swap a 3 and a 2
        state._replace(corners=(state.corners[1], state.corners[0], state.corners[2], state.corners[3])),
    ]
    for variant in variants:
        assert variant != state
        assert game.observation(variant, 0) == view
        assert game.public_view(variant) == game.public_view(state)
    # ... while a change to the player's own data shows.
    assert game.observation(state._replace(bids=(3, 2, 4), tokens=(5, 8, 5)), 0) != view


def test_a_view_holds_exactly_the_players_own_secrets() -> None:
    game, state = _trade_window_state()
    you = game.observation(state, 0)["you"]
    assert you["tokens"] == 6 and you["sealed_bid"] == 2 and you["coins"] == [1, 2]
    assert you["coin_value"] == 3 and you["card"] == "FRANK"
    public = game.public_view(state)
    assert "you" not in public and public["seat"] is None
    assert public["table"][1] == {
        "seat": 1, "coins": 2, "board": public["table"][1]["board"], "sacks": 0, "has_card": True,
        "kept": False, "dealt": 0, "hand_sealed": True,
    }
    open_game = make(3, coin_visibility="open")
    open_state = position(open_game, coins=((1, 2), (3, 5), (2,)))
    assert open_game.public_view(open_state)["table"][1]["coin_values"] == [3, 5]


def test_dealt_cards_and_the_returned_card_stay_private_and_tracked() -> None:
    game = make(2)
    state = position(game, round_no=1, phase="deal", step="deal")
    state = draw(game, state, "KEUN", "JOS", "RIA", "FRANK")
    assert game.observation(state, 0)["you"]["dealt"] == ["JOS", "KEUN"]
    assert game.public_view(state)["table"][1]["dealt"] == 2
    state = act(game, state, s0="choose:KEUN", s1="choose:RIA")
    assert game.observation(state, 0)["you"]["stack_known"] == [["JOS", -1]]
    rng = make_rng(3)
    for _ in range(20):
        sample = game.resample_from_infostate(state, 0, rng)
        assert "JOS" in sample.stack  # seat 0 put JOS back: it cannot be seat 1's card
        assert sample.held[0] == "KEUN" and sample.held[1] != "JOS"


def test_ria_draw_is_private_and_the_returned_card_may_travel_with_it() -> None:
    game = make(3)
    state = position(game, phase="deal", step="window", window_step=1, held=("RIA", "KEUN", "FRANK"),
                     stack_known=frozenset({(1, "JOS", -1)}))
    state = game.apply(state, {0: "play:RIA", 1: "pass", 2: "pass"})
    state = game.apply(state, {1: "pass", 2: "pass"})
    state = draw(game, act(game, state, s0="ria:draw"), "JOS")
    assert (1, "JOS", WITH_RIA) in state.stack_known
    assert game.observation(state, 1)["you"]["ria_card"] is None
    seen = set()
    rng = make_rng(5)
    for _ in range(200):
        sample = game.resample_from_infostate(state, 1, rng)
        seen.add("JOS" in sample.stack)
        assert sample.held[2] != "JOS"
    assert seen == {True, False}
    state = act(game, state, s0="ria:left")
    assert (1, "JOS", -1) not in state.stack_known and state.held[1] == "JOS"


def test_chance_distributions_are_exact() -> None:
    game = make(2)
    state = game.initial_state()
    outcomes = game.chance_outcomes(state)
    assert outcomes == [(1, Fraction(10, 35)), (2, Fraction(10, 35)), (3, Fraction(10, 35)), (5, Fraction(5, 35))]
    state = draw(game, state, 1, 1, 1, 1)
    deal = game.chance_outcomes(state)
    assert len(deal) == 14 and sum(p for _, p in deal) == 1
    with pytest.raises(ValueError, match="character card"):
        game.apply_chance(state, 3)
    with pytest.raises(ValueError, match="character card"):
        game.apply_chance(state, "NOBODY")


def test_the_tensor_has_one_length_for_every_player_count() -> None:
    lengths = set()
    for players, options in CONFIGS:
        game = make(players, **options)
        for index, state in enumerate(random_states(game, 1)):
            if index % 50 == 0:
                lengths.update(len(game.observation_tensor(state, p)) for p in range(players))
    assert len(lengths) == 1


def _reference_tensor(game: EigenKweek, state: KweekState, player: int) -> list[float]:
    """The tensor read plainly, field by field, as views.py documents it (the fast one must equal it)."""
    from gamebag.games.eigen_kweek.components import (
        CARDS,
        COIN_VALUES,
        CORNERS,
        PLANT_COSTS,
        SACK,
        TOTAL_COINS,
        TOTAL_TOKENS,
    )
    from gamebag.games.eigen_kweek.nodes import Phase, Step
    from gamebag.games.eigen_kweek.state import sacks

    def one_hot(card: str | None) -> list[float]:
        return [1.0 if card == c else 0.0 for c in CARDS]

    def many_hot(cards: Any) -> list[float]:
        return [1.0 if c in set(cards) else 0.0 for c in CARDS]

    config = game.config
    n = config.players
    out: list[float] = []
    out.extend(1.0 if state.phase == p else 0.0 for p in Phase)
    out.extend(1.0 if state.step == s else 0.0 for s in Step)
    out.append(state.round_no / config.max_rounds)
    out.append(min(state.window_step, 10) / 10)
    out.append(1.0 if player in game.acting_players(state) else 0.0)
    out.append(state.pot / TOTAL_TOKENS)
    out.append(sum(state.bag) / TOTAL_COINS)
    out.extend(sum(corner) / TOTAL_COINS for corner in state.corners)
    out.extend([0.0] * (CORNERS - len(state.corners)))
    out.append(state.tokens[player] / TOTAL_TOKENS)
    out.append((state.bids[player] if state.bids is not None else 0) / TOTAL_TOKENS)
    own = dict(zip(config.values, state.coins[player], strict=True))
    out.extend(own.get(v, 0) / TOTAL_COINS for v in COIN_VALUES)
    out.extend(one_hot(state.held[player]))
    out.extend(many_hot(state.dealt[player]))
    out.extend(one_hot(state.ria_card if state.ria_seat == player else None))
    known = {seat: card for obs, seat, card in state.knowledge if obs == player}
    trade = state.trade
    width = 4 + 3 * len(PLANT_COSTS) + 1 + 3 * len(CARDS) + 5
    for offset in range(4):
        if offset >= n:
            out.extend([0.0] * width)
            continue
        seat = (player + offset) % n
        out.append(1.0)
        out.append(sum(state.coins[seat]) / TOTAL_COINS)
        out.append(1.0 if state.held[seat] is not None else 0.0)
        out.append(1.0 if state.kept[seat] else 0.0)
        for cost, slot in zip(PLANT_COSTS, state.boards[seat], strict=True):
            out.append(1.0 if slot >= 0 else 0.0)
            out.append(max(slot, 0) / config.capacity[cost])
            out.append(1.0 if slot == SACK else 0.0)
        out.append(sacks(state.boards[seat]) / 4)
        out.extend(many_hot([p.card for p in state.plays if p.seat == seat]))
        out.extend(many_hot([p.card for p in state.plays if p.seat == seat and p.blocked]))
        out.extend(one_hot(known.get(seat)))
        out.append(trade.counts[seat] / TOTAL_TOKENS if trade is not None else 0.0)
        out.append(1.0 if trade is not None and seat in trade.order else 0.0)
        out.append(1.0 if seat == state.bernard_target else 0.0)
        out.append(1.0 if seat == state.chooser else 0.0)
        out.append(1.0 if seat in state.winners else 0.0)
    return out


@pytest.mark.parametrize(("players", "options"), CONFIGS)
def test_the_tensor_equals_its_plain_reading(players: int, options: dict[str, Any]) -> None:
    game = make(players, **options)
    checked = 0
    for seed in range(3):
        for index, state in enumerate(random_states(game, 10 + seed)):
            if index % 3 == 0:
                for seat in range(players):
                    assert game.observation_tensor(state, seat) == _reference_tensor(game, state, seat)
                    checked += 1
    assert checked > 100
