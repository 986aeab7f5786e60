"""Playing one whole game between agents, producing its final state and record."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from gamebag.agents.base import Agent, SeatView
from gamebag.core.protocol import Game, NodeKind
from gamebag.core.records import Record, chance_event, moves_event, new_record
from gamebag.core.rng import Rng, draw_index


@dataclass
class PlayedGame:
    """The outcome of one game."""

    state: Any
    record: Record | None
    scores: tuple[float, ...]
    returns: tuple[float, ...]
    winners: tuple[int, ...]
    rounds: int


def play_game(
    game: Game[Any, Any, Any],
    agents: Sequence[Agent],
    rng: Rng,
    *,
    keep_record: bool = True,
    max_steps: int = 1_000_000,
) -> PlayedGame:
    """Play to the end; chance and agents draw from ``rng`` in a fixed order."""
    if len(agents) != game.num_players:
        raise ValueError(f"{game.game_id} with {game.num_players} players needs {game.num_players} agents")
    state = game.initial_state()
    record = new_record(game) if keep_record else None
    for _ in range(max_steps):
        kind = game.node_kind(state)
        if kind is NodeKind.TERMINAL:
            break
        if kind is NodeKind.CHANCE:
            # Outcomes the game drew itself are not re-checked; without a record none is even built.
            if record is None:
                state = game.advance_chance(state, rng)
            else:
                outcome, state = game.sample_and_apply_chance(state, rng)
                record.events.append(chance_event(game, outcome))
            continue
        legal = game.legal_actions_by_seat(state)
        moves = {p: agents[p].act(SeatView(game, state, p, choices), rng) for p, choices in legal.items()}
        state = game.apply_chosen(state, moves, legal)  # each choice checked against the list it came from
        if record is not None:
            record.events.append(moves_event(game, moves))
    else:
        raise RuntimeError(f"{game.game_id} did not end within {max_steps} steps")
    return PlayedGame(
        state=state,
        record=record,
        scores=game.scores(state),
        returns=game.returns(state),
        winners=game.winners(state),
        rounds=game.round_number(state),
    )


def random_walk(game: Game[Any, Any, Any], rng: Rng, max_steps: int = 1_000_000) -> Iterator[Any]:
    """Every state of one uniformly random playout, chance sampled with ``rng``, the final one included."""
    state = game.initial_state()
    yield state
    for _ in range(max_steps):
        kind = game.node_kind(state)
        if kind is NodeKind.TERMINAL:
            return
        if kind is NodeKind.CHANCE:
            state = game.advance_chance(state, rng)
        else:
            legal = game.legal_actions_by_seat(state)
            moves = {p: choices[draw_index(rng, len(choices))] for p, choices in legal.items()}
            state = game.apply_chosen(state, moves, legal)
        yield state
    raise RuntimeError(f"{game.game_id} did not end within {max_steps} steps")
