"""Audit: four potato sacks win at once; several at once share the win (rulings 5).

Two players, every coin worth 5 (option), each sows and ploughs over all four plant cards
in eight rounds: sow 2, sow 4, plough 2, plough 4, sow 6, sow 8, plough 6, plough 8.
"""

from __future__ import annotations

from audit_script import FIVES, SACK, Script, opening, quiet_round

from gamebag.core.protocol import NodeKind

SCHEDULE = [
    ("sow:2:5", (1, 2)),
    ("sow:4:5", (1, 2)),
    ("plough:2:5", (1, 2)),
    ("plough:4:5", (1, 2)),
    ("sow:6:5+5", (3, 4)),  # corners 3 and 4 have piled up five coins each
    ("sow:8:5+5", (1, 2)),
    ("plough:6:5", (1, 2)),
    ("plough:8:5", (1, 2)),
]


def _race(last_for_seat_1: str) -> Script:
    script = opening(2, corners=(5, 5, 5, 5), **FIVES)
    for number, (action, (corner0, corner1)) in enumerate(SCHEDULE, start=1):
        seat1 = last_for_seat_1 if number == len(SCHEDULE) else action
        quiet_round(script, bids={0: 2, 1: 1}, corners=[(0, corner0), (1, corner1)],
                    cultivate={0: action, 1: seat1}, refill=(5, 5, 5, 5))
    return script


def test_the_first_player_with_four_sacks_wins_at_once() -> None:
    script = _race(last_for_seat_1="pass")
    state = script.state
    assert state.boards[0] == (SACK, SACK, SACK, SACK)
    assert sum(1 for slot in state.boards[1] if slot == SACK) == 3
    assert script.kind() is NodeKind.TERMINAL and state.round_no == 8
    assert script.game.winners(state) == (0,)
    view = script.game.public_view(state)
    assert view["winners"] == [0] and view["ended_by"] == "four_sacks"
    # The game ends after that cultivate phase: no hand-in, no refill.
    assert script.events[-1] == {"moves": {"0": "plough:8:5", "1": "pass"}}
    returns = script.game.returns(state)
    assert returns[0] > returns[1]
    script.replayed()


def test_players_reaching_four_sacks_in_the_same_phase_share_the_win() -> None:
    script = _race(last_for_seat_1="plough:8:5")
    state = script.state
    assert state.boards == ((SACK,) * 4, (SACK,) * 4)
    assert script.kind() is NodeKind.TERMINAL
    assert script.game.winners(state) == (0, 1)
    returns = script.game.returns(state)
    assert returns[0] == returns[1]
    script.replayed()


def test_three_sacks_is_not_enough() -> None:
    script = opening(2, corners=(5, 5, 5, 5), **FIVES)
    for action, (corner0, corner1) in SCHEDULE[:7]:
        quiet_round(script, bids={0: 2, 1: 1}, corners=[(0, corner0), (1, corner1)],
                    cultivate={0: action, 1: action}, refill=(5, 5, 5, 5))
    assert script.kind() is not NodeKind.TERMINAL and script.state.round_no == 8
