"""``simulate`` and ``tournament`` play ``learned`` seats compiled (the step batch) in the Eel family and
Catch A Dragon, and the games come out as on the rules engine.

The agent's moves are proven equal decision by decision elsewhere: the shipped policy on the
compiled observation makes the rules-engine agent's move at every grab of lockstep games
(``tests/interop/test_evaluation_engines.py``, Eel Harvest and Wriggle Roulette) and on every
state met in Catch A Dragon (``tests/interop/test_learned_observations.py``). Here the whole
path is checked by distribution: every seat's win share and mean score of a ``simulate`` run on
each engine (two-sample z-tests, Holm-corrected), and the tournament's rates.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import gamebag
from gamebag.core.errors import GamebagError
from gamebag.sim import tournament
from gamebag.sim.simulate import SimulationSpec, choose_engine, run_simulation
from gamebag.sim.stepped import STEPPED, compiled_route, play_whole_games
from gamebag.sim.tournament import TournamentSpec, run_tournament

ALPHA = 0.001
FAST_GAMES = 4_000
RULES_GAMES = 1_500


def holm_rejects(p_values: list[float]) -> bool:
    ordered = sorted(p_values)
    return any(p < ALPHA / (len(ordered) - rank) for rank, p in enumerate(ordered))


@pytest.mark.parametrize(
    ("game_id", "agents"),
    [("wriggle-roulette", ("heuristic", "learned", "heuristic")), ("catch-a-dragon", ("learned", "heuristic"))],
)
def test_simulate_plays_learned_on_the_step_batch_as_the_rules_engine_does(
    game_id: str, agents: tuple[str, ...]
) -> None:
    game = gamebag.make(game_id, len(agents))
    assert compiled_route(game, agents) == (STEPPED, None)
    fast = run_simulation(SimulationSpec(game_id, len(agents), agents, FAST_GAMES, 3))
    assert fast.engine == "fast" and fast.engine_reason is None
    # The run's figures are those of its games, game i from (seed, i) whatever the chunks.
    games = play_whole_games(game, agents, 3, 0, FAST_GAMES)
    assert fast.win_share == pytest.approx(games.returns.mean(axis=0).tolist(), abs=1e-12)
    assert fast.mean_score == pytest.approx(games.scores.mean(axis=0).tolist(), abs=1e-9)
    assert fast.mean_rounds == pytest.approx(games.length.mean())
    rules = run_simulation(SimulationSpec(game_id, len(agents), agents, RULES_GAMES, 3), engine="rules")
    assert rules.engine == "rules"
    # Under the hypothesis of one distribution, the compiled games' per-game spread is each engine's.
    p_values = []
    for seat in range(len(agents)):
        figures = [
            (rules.win_share[seat], fast.win_share[seat], games.returns[:, seat]),
            (rules.mean_score[seat], fast.mean_score[seat], games.scores[:, seat]),
        ]
        for on_rules, compiled, per_game in figures:
            spread = float(np.var(per_game, ddof=1))
            z = (on_rules - compiled) / np.sqrt(spread / RULES_GAMES + spread / FAST_GAMES)
            p_values.append(float(2 * stats.norm.sf(abs(z))))
    assert not holm_rejects(p_values), (fast.win_share, rules.win_share, fast.mean_score, rules.mean_score)
    # The learned seat is the strongest on both engines (it beats the heuristic: docs/agents.md).
    seat = agents.index("learned")
    assert max(fast.win_share) == fast.win_share[seat] and max(rules.win_share) == rules.win_share[seat]


def test_simulate_falls_back_with_the_reason_where_the_step_batch_cannot_play() -> None:
    no_policy = SimulationSpec("eel-harvest", 2, ("learned", "heuristic"), 10, 1, {"rotate_start": True})
    assert "trained with options" in str(choose_engine(no_policy).reason)
    with pytest.raises(GamebagError, match="trained with options"):
        choose_engine(no_policy, "fast")
    searched = SimulationSpec("eel-harvest", 2, ("learned", "ismcts"), 10, 1)
    assert "'ismcts' has no compiled policy" in str(choose_engine(searched).reason)
    assert choose_engine(SimulationSpec("eel-harvest", 2, ("learned", "heuristic"), 10, 1)).engine == "fast"


def test_tournament_plays_learned_compiled_the_same_whatever_the_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    field = TournamentSpec("wriggle-roulette", 3, ("learned", "heuristic"), 600, 2, auto_ladder=False)
    fast = run_tournament(field)
    assert fast.engine == "fast" and fast.engine_reason is None and fast.games_played == 1_200
    # Pieces of 7 games (every rotation split across pieces) give the very same games.
    monkeypatch.setattr(tournament, "STEPPED_CHUNK", 7)
    assert run_tournament(field).matrix == fast.matrix
    rules = run_tournament(field, engine="rules")
    ahead, rules_ahead = fast.matrix[0][1], rules.matrix[0][1]
    assert ahead is not None and rules_ahead is not None
    # The rate at which learned finishes ahead of heuristic, on each engine (a Bernoulli bound on the spread).
    p = (ahead.rate + rules_ahead.rate) / 2
    z = (ahead.rate - rules_ahead.rate) / np.sqrt(p * (1 - p) * (1 / ahead.games + 1 / rules_ahead.games))
    assert 2 * stats.norm.sf(abs(z)) > ALPHA, (ahead, rules_ahead)
    assert ahead.rate > 0.5 and rules_ahead.rate > 0.5
