"""The compiled information-set resampler of Eigen Kweek against the rules engine's.

``fast/eigen_kweek/resample.py`` redraws, inside the compiled engine, what a seat cannot see. It may
only draw worlds the rules know: every drawn row, turned back into a rules state, must be valid by
the game's own ``validate_state``, give the seat exactly its observation, observation tensor and
legal actions, and differ from the real state in nothing but what the resampler redraws (the row of
the state it becomes is the drawn row). Its distribution must be the rules engine's
``resample_from_infostate``: a chi-square test of homogeneity on hidden features (another seat's
card, the tokens another seat holds, a corner's coin values) between compiled and rules-engine draws,
with fixed seeds, so the test is deterministic; its significance level is 0.001, so a faithful
sampler fails it with probability 0.1% on a new seed, while a wrong distribution at these sample
sizes fails it by far. And one key draws one world from every state the seat cannot tell apart.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

import numpy as np
import pytest
from scipy.stats import chi2_contingency

import gamebag
from gamebag.core.engines import EngineSupport
from gamebag.core.options import Option
from gamebag.core.protocol import NodeKind
from gamebag.core.rng import derive_rng, make_rng
from gamebag.fast.eigen_kweek import layout as L
from gamebag.fast.eigen_kweek.engine import EigenKweekEngine
from gamebag.fast.eigen_kweek.sampler import KweekSampler, state_with_hidden
from gamebag.fast.eigen_kweek.tables import row_from_state
from gamebag.games.eigen_kweek import EigenKweek
from gamebag.games.eigen_kweek.components import ENGINES, OPTION_SPECS
from gamebag.testing.playouts import random_playout

SIGNIFICANCE = 0.001
DRAWS = 3000  # per sampler in the distribution test
REDRAWN = np.zeros(L.RULES_WIDTH, np.bool_)  # the fields a draw may change (the rest must not move)
for start, width in (
    (L.TOKENS, 4), (L.BIDS, 4), (L.COINS, 20), (L.CORNER_COINS, 20), (L.BAG, 5), (L.DEALT, 8), (L.HELD, 4),
    (L.STACK, 1), (L.RIA_CARD, 1), (L.KNOW, 16), (L.STACK_KNOWN, L.MAX_SEATS * L.PLACES),
):  # fmt: skip
    REDRAWN[start : start + width] = True
for play in range(L.MAX_PLAYS):
    REDRAWN[L.PLAYS + play * L.PLAY_WIDTH + L.P_TOOK] = True


def sampler_for(game: Any) -> KweekSampler:
    found = EigenKweekEngine().sampler(game, ["heuristic"] * game.num_players)
    assert isinstance(found, KweekSampler), found
    return found


def playout_states(game: Any, seed: int) -> list[Any]:
    return [s for s in random_playout(game, make_rng(seed)) if game.node_kind(s) is not NodeKind.TERMINAL]


@pytest.mark.parametrize(
    ("players", "options"), [(4, {}), (3, {"coin_visibility": "open"}), (2, {"stefaan_order": "tie"})]
)
def test_every_compiled_draw_is_a_valid_state_the_seat_cannot_tell_apart(players: int, options: dict[str, Any]) -> None:
    game = gamebag.make("eigen-kweek", players, **options)
    sampler = sampler_for(game)
    states = playout_states(game, seed=players)
    changed = checked = 0
    for index in range(0, len(states), max(1, len(states) // 40)):
        state = states[index]
        acting = game.acting_players(state)
        for seat in range(players):
            view, tensor = game.observation(state, seat), game.observation_tensor(state, seat)
            legal = list(game.legal_actions(state, seat)) if seat in acting else []
            real = row_from_state(game, state)
            for row in sampler.worlds(state, seat, f"check:{index}", 0, 4):
                drawn = state_with_hidden(game, state, row, seat)
                game.validate_state(drawn)
                assert game.observation(drawn, seat) == view, (index, seat)
                assert game.observation_tensor(drawn, seat) == tensor, (index, seat)
                assert game.acting_players(drawn) == acting
                if seat in acting:
                    assert list(game.legal_actions(drawn, seat)) == legal
                rules = slice(0, L.RULES_WIDTH)
                assert np.array_equal(row_from_state(game, drawn)[rules], row[rules]), (index, seat)
                assert np.array_equal(row[rules][~REDRAWN], real[rules][~REDRAWN]), (index, seat)
                changed += int(not np.array_equal(row[rules], real[rules]))
                checked += 1
    assert checked > 100 and changed > checked // 4  # the draws do redraw what is hidden


def hidden_features(game: Any, state: Any, seat: int) -> dict[str, Any]:
    """What the seat cannot see, reduced to a few categorical features."""
    other = (seat + 1) % game.num_players
    sealed = state.bids[other] if state.bids is not None else 0
    return {
        "card": state.held[other],
        "dealt": tuple(sorted(state.dealt[other])),
        "tokens": min((state.tokens[other] + sealed) // 3, 8),
        "sealed": min(sealed, 8),
        "corner": state.corners[0],
        "stack": state.stack[0] if state.stack else None,
        "ria": state.ria_card,
    }


# States with much hidden from seat 0: another seat's unknown card and coins on a corner; sealed
# hands; cards whose place seat 0 tracks (``stack_known``: a card it returned or passed).
HIDDEN = {
    "cards and coins": lambda s: s.held[1] is not None
    and 1 not in {seen for obs, seen, _ in s.knowledge if obs == 0}
    and sum(s.corners[0]) > 1,
    "sealed hands": lambda s: s.bids is not None and s.bids[1] + s.tokens[1] > 2,
    "tracked cards": lambda s: any(obs == 0 for obs, _, _ in s.stack_known) and len(s.stack) > 1,
}


@pytest.mark.parametrize("kind", sorted(HIDDEN))
def test_compiled_draws_follow_the_rules_engines_distribution(kind: str) -> None:
    game = gamebag.make("eigen-kweek", 4)
    sampler = sampler_for(game)
    state = next(s for seed in range(5, 15) for s in playout_states(game, seed) if HIDDEN[kind](s))
    seat = 0
    compiled = [
        hidden_features(game, state_with_hidden(game, state, row, seat), seat)
        for row in sampler.worlds(state, seat, "distribution", 0, DRAWS)
    ]
    rules = [
        hidden_features(game, game.resample_from_infostate(state, seat, derive_rng(17, "distribution", i)), seat)
        for i in range(DRAWS)
    ]
    tested = 0
    for feature in compiled[0]:
        counts = Counter((0, f[feature]) for f in compiled) + Counter((1, f[feature]) for f in rules)
        values = sorted({value for _, value in counts}, key=repr)
        if len(values) < 2:
            continue  # nothing hidden in this feature at this state
        table = np.array([[counts[(side, value)] for value in values] for side in (0, 1)])
        table = _pooled(table)
        p_value = chi2_contingency(table).pvalue
        assert p_value > SIGNIFICANCE, (feature, table.tolist(), p_value)
        tested += 1
    assert tested >= 2


def _pooled(table: np.ndarray) -> np.ndarray:
    """Merge the rarest columns until every expected count is at least 5 (the chi-square approximation)."""
    columns = sorted(table.T.tolist(), key=sum)
    while len(columns) > 2 and sum(columns[0]) < 10:
        rarest = columns.pop(0)
        columns[0] = [a + b for a, b in zip(columns[0], rarest, strict=True)]
        columns.sort(key=sum)
    return np.array(columns).T


def test_one_key_draws_one_world_from_states_the_seat_cannot_tell_apart() -> None:
    """The draw depends on what the seat knows only: from the real state and from another in its
    information set, the same key redraws the same cards, coins and tokens."""
    game = gamebag.make("eigen-kweek", 3)
    sampler = sampler_for(game)
    states = playout_states(game, seed=9)
    fields = np.zeros(L.RULES_WIDTH, np.bool_)
    for start, width in (
        (L.TOKENS, 4), (L.BIDS, 4), (L.COINS, 20), (L.CORNER_COINS, 20), (L.BAG, 5), (L.DEALT, 8), (L.HELD, 4),
        (L.STACK, 1), (L.RIA_CARD, 1),
    ):  # fmt: skip
        fields[start : start + width] = True
    for index in range(0, len(states), max(1, len(states) // 25)):
        state = states[index]
        for seat in range(3):
            twin = game.resample_from_infostate(state, seat, derive_rng(3, index, seat))
            a = sampler.worlds(state, seat, f"twin:{index}", 0, 3)[:, : L.RULES_WIDTH]
            b = sampler.worlds(twin, seat, f"twin:{index}", 0, 3)[:, : L.RULES_WIDTH]
            assert np.array_equal(a[:, fields], b[:, fields]), (index, seat)


class UndeclaredKweek(EigenKweek):
    """Eigen Kweek with an option its engine declaration does not name for the numba engine."""

    option_specs: ClassVar[tuple[Option, ...]] = (
        *OPTION_SPECS,
        Option("double_harvest", "bool", False, "A dummy rule: every harvest counts twice."),
    )
    engine_support: ClassVar[EngineSupport | None] = EngineSupport(
        option_specs, {**ENGINES.table, "double_harvest": {}}
    )


def test_an_option_the_engine_does_not_declare_is_refused_with_its_reason() -> None:
    game = UndeclaredKweek(3, double_harvest=True)
    refused = EigenKweekEngine().sampler(game, ["heuristic"] * 3)
    assert isinstance(refused, str) and "double_harvest" in refused
    assert isinstance(EigenKweekEngine().sampler(gamebag.make("eigen-kweek", 3), ["greedy"] * 3), str)
    # The analysis then keeps to the rules engine's playouts (no compiled draw of rules it does not know).
    from gamebag.analysis.batched import batched_sampler

    assert isinstance(batched_sampler(game), str)
