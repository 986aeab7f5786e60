"""How games end: four sacks, or the round cap with its tie-break when play stalls."""

from __future__ import annotations

from kweek_helpers import E, S, board, everyone, make, position

from gamebag.agents.registry import make_agent
from gamebag.core.protocol import NodeKind
from gamebag.core.rng import derive_rng, draw_index
from gamebag.sim.play import play_game


def test_the_round_cap_ends_the_game_and_says_so() -> None:
    game = make(3, max_rounds=2)
    agents = [make_agent("random", game) for _ in range(3)]
    result = play_game(game, agents, derive_rng(1, "cap"))
    assert result.rounds == 2 and result.state.ended_by == "round_cap"
    assert game.public_view(result.state)["ended_by"] == "round_cap"
    assert result.winners and sum(result.returns) == 1.0


def test_a_stalled_table_ends_at_the_cap() -> None:
    # Everyone broke: no tokens, no coins, no plant cards; all coins lie in the bag.
    game = make(2, max_rounds=4)
    state = position(game, round_no=3, phase="cultivate", step="cultivate", tokens=(0, 0),
                     corners=((), (), (), ()))
    state = everyone(game, state)
    rng = derive_rng(2, "stall")
    while not game.is_terminal(state):
        if state.step in ("refill", "deal", "ria_draw", "rob_draw", "lucien_draw"):
            state = game.apply_chance(state, game.sample_chance(state, rng))
        else:
            state = game.apply(state, {p: game.legal_actions(state, p)[0] for p in game.acting_players(state)})
    assert state.round_no == 4 and state.ended_by == "round_cap"


def test_cap_tie_break_sacks_then_cards_laid_then_coin_value_then_tokens() -> None:
    game = make(4, max_rounds=5)
    state = position(
        game, round_no=5, phase="cultivate", step="cultivate",
        boards=(board(S, S, 0, E), board(S, S, E, E), board(S, S, 1, E), board(S, E, 0, 0)),
        coins=((5,), (5, 5), (3, 2), ()), tokens=(10, 10, 9, 20),
    )
    over = everyone(game, state)
    # Seats 0 and 2: two sacks and three cards laid, coin value 5 each; seat 2 has 9 + 1 tokens,
    # seat 0 has 10.
    assert over.ended_by == "round_cap" and game.winners(over) == (0, 2)
    assert game.scores(over) == (2.0, 2.0, 2.0, 1.0)
    uneven = position(
        game, round_no=5, phase="cultivate", step="cultivate",
        boards=(board(S, S, 0, E), board(S, S, E, E), board(S, S, 1, E), board(S, E, 0, 0)),
        coins=((5,), (5, 5), (3, 3), ()), tokens=(10, 10, 9, 20),
    )
    assert game.winners(everyone(game, uneven)) == (2,)


def test_heuristic_games_end_by_four_sacks_well_before_the_cap() -> None:
    for players in (2, 3, 4):
        game = make(players)
        agents = [make_agent("heuristic", game) for _ in range(players)]
        for index in range(3):
            result = play_game(game, agents, derive_rng(4, players, index), keep_record=False)
            assert result.state.ended_by == "four_sacks"
            assert 6 <= result.rounds <= 25
            assert all(game.scores(result.state)[w] == 4.0 for w in result.winners)


def test_the_log_counts_in_words_never_with_plural_brackets() -> None:
    # The log is read by players in the terminal and the browser: "1 weed token", "3 coins".
    game = make(3)
    rng = derive_rng(5, "words")
    lines: set[str] = set()
    for _ in range(3):
        state = game.initial_state()
        while not game.is_terminal(state):
            if game.node_kind(state) is NodeKind.CHANCE:
                state = game.advance_chance(state, rng)
                lines.update(state.log)
                continue
            moves = {}
            for seat in game.acting_players(state):
                legal = game.legal_actions(state, seat)
                moves[seat] = legal[draw_index(rng, len(legal))]
            state = game.apply(state, moves)
            lines.update(state.log)
    assert lines and not [line for line in lines if "(s)" in line]
    assert any(" weed tokens " in line or line.endswith(" weed tokens") for line in lines)
    assert not [line for line in lines if " 1 weed tokens" in line or " 1 coins" in line]
