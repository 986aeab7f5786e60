"""Helpers for Eigen Kweek tests: replay hand-written records, build positions, move on."""

from __future__ import annotations

from typing import Any

import gamebag
from gamebag.core.protocol import NodeKind
from gamebag.core.records import Record, replay
from gamebag.games.eigen_kweek import EigenKweek, KweekState
from gamebag.games.eigen_kweek.components import CARDS, PLANT_COSTS, TOTAL_TOKENS
from gamebag.games.eigen_kweek.state import coins_in_play, tokens_in_play

GAME_ID = "eigen-kweek"
E = -1  # an empty plant slot
S = -2  # a potato sack


def make(players: int = 4, **options: Any) -> EigenKweek:
    game = gamebag.make(GAME_ID, players, **options)
    assert isinstance(game, EigenKweek)
    return game


def play(players: int, events: list[dict[str, Any]], **options: Any) -> tuple[EigenKweek, KweekState]:
    """Replay a hand-written record (the same path as ``gamebag replay``)."""
    game, state = replay(Record(GAME_ID, players, dict(options), events), gamebag.make)
    assert isinstance(game, EigenKweek) and isinstance(state, KweekState)
    return game, state


def moves(**by_seat: str) -> dict[str, Any]:
    """``moves(s0="pass", s1="bid:2")`` -> ``{"moves": {"0": "pass", "1": "bid:2"}}``."""
    return {"moves": {key.removeprefix("s"): value for key, value in by_seat.items()}}


def chance(outcome: int | str) -> dict[str, Any]:
    return {"chance": outcome}


def coins(game: EigenKweek, *values: int) -> tuple[int, ...]:
    """Coin values -> counts per value of the game's coin set."""
    counts = [0] * len(game.config.values)
    for value in values:
        counts[game.config.values.index(value)] += 1
    return tuple(counts)


def position(game: EigenKweek, **fields: Any) -> KweekState:
    """A position built by hand (round 2 by default; ``coins`` and ``corners`` as coin values).

    The pot, the bag and the stack are filled in to conserve every token, coin and card
    unless given."""
    n = game.num_players
    base = game.initial_state()
    fields.setdefault("round_no", 2)
    fields.setdefault("tokens", (10,) * n)
    fields.setdefault("held", (None,) * n)
    for key in ("coins", "corners"):
        if key in fields:  # given as coin values per player / corner, e.g. ((3, 5), ())
            fields[key] = tuple(coins(game, *row) for row in fields[key])
    state = base._replace(**fields)
    if "pot" not in fields:
        on_cards = sum(slot for board in state.boards for slot in board if slot > 0)
        sealed = sum(state.bids) if state.bids is not None else 0
        state = state._replace(pot=TOTAL_TOKENS - sum(state.tokens) - on_cards - sealed)
    if "bag" not in fields:
        used = [sum(col) for col in zip(*state.coins, *state.corners, strict=True)]
        state = state._replace(bag=tuple(c - u for c, u in zip(game.config.coin_counts, used, strict=True)))
    if "stack" not in fields:
        placed = [c for c in state.held if c] + [c for hand in state.dealt for c in hand]
        placed += [p.card for p in state.plays]
        if state.ria_card:
            placed.append(state.ria_card)
        state = state._replace(stack=tuple(sorted(c for c in CARDS if c not in placed)))
    check_conservation(game, state)
    return state


def check_conservation(game: EigenKweek, state: KweekState) -> None:
    assert tokens_in_play(state) == TOTAL_TOKENS, state
    assert coins_in_play(state) == game.config.coin_counts, state
    assert state.pot >= 0 and min(state.tokens) >= 0 and min(state.bag) >= 0
    cards = list(state.stack) + [c for c in state.held if c] + [c for h in state.dealt for c in h]
    cards += [p.card for p in state.plays] + ([state.ria_card] if state.ria_card else [])
    assert sorted(cards) == sorted(CARDS), cards


def act(game: EigenKweek, state: KweekState, **by_seat: str) -> KweekState:
    """Apply ``{seat: action}`` given as ``s0="pass"``; checks conservation after."""
    after = game.apply(state, {int(k.removeprefix("s")): v for k, v in by_seat.items()})
    check_conservation(game, after)
    return after


def everyone(game: EigenKweek, state: KweekState, action: str = "pass") -> KweekState:
    """Every acting seat plays ``action``."""
    after = game.apply(state, dict.fromkeys(game.acting_players(state), action))
    check_conservation(game, after)
    return after


def draw(game: EigenKweek, state: KweekState, *outcomes: int | str) -> KweekState:
    for outcome in outcomes:
        assert game.node_kind(state) is NodeKind.CHANCE, state.step
        state = game.apply_chance(state, outcome)
        check_conservation(game, state)
    return state


def slot(state: KweekState, seat: int, cost: int) -> int:
    return state.boards[seat][PLANT_COSTS.index(cost)]


def board(*slots: int) -> tuple[int, ...]:
    return tuple(slots)
