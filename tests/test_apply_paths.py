"""One way to apply a joint action, with checks: every public ``apply*`` of a game refuses an illegal move.

The protocol keeps a single unchecked path, ``Game._apply_unchecked``, private and final, for the
RL adapters that decode moves from legal masks; nothing public skips the check.
"""

from __future__ import annotations

import inspect
from typing import Any

import pytest

import gamebag
from gamebag.core.errors import IllegalActionError
from gamebag.core.protocol import Game, NodeKind
from gamebag.core.rng import make_rng

NOT_AN_ACTION = "not-an-action-of-any-game"


def _public_joint_action_appliers() -> list[str]:
    """Every public method of ``Game`` that applies a joint action (not a chance outcome)."""
    return [
        name
        for name, member in inspect.getmembers(Game, inspect.isfunction)
        if not name.startswith("_") and "apply" in name and "chance" not in name
    ]


def _first_decision(game: Game[Any, Any, Any]) -> Any:
    state = game.initial_state()
    rng = make_rng(3)
    while game.node_kind(state) is NodeKind.CHANCE:
        state = game.advance_chance(state, rng)
    assert game.node_kind(state) is NodeKind.DECISION
    return state


def test_the_public_appliers_are_apply_and_apply_chosen() -> None:
    assert sorted(_public_joint_action_appliers()) == ["apply", "apply_chosen"]


@pytest.mark.parametrize("game_id", gamebag.game_ids())
@pytest.mark.parametrize("method", _public_joint_action_appliers())
def test_every_public_apply_refuses_an_illegal_joint_action(game_id: str, method: str) -> None:
    game = gamebag.make(game_id)
    state = _first_decision(game)
    legal = game.legal_actions_by_seat(state)
    moves = {seat: NOT_AN_ACTION for seat in legal}
    apply = getattr(game, method)
    arguments: dict[str, Any] = {"legal": legal} if "legal" in inspect.signature(apply).parameters else {}
    with pytest.raises(IllegalActionError):
        apply(state, moves, **arguments)


def test_the_unchecked_path_is_final_and_private() -> None:
    assert getattr(Game._apply_unchecked, "__final__", False)
    assert not hasattr(Game, "apply_decoded")
