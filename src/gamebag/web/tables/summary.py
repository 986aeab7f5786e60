"""The end-of-game summary of a table: scores after each round and every seat's final view.

Both are built from the finished game's record, which anyone may download once the game is
over, so they reveal nothing that is not public by then (the hidden cards, coins and hands
that stayed secret during play). They are computed once per table and kept.
"""

from __future__ import annotations

from typing import Any

from gamebag.core.protocol import Game, JsonDict
from gamebag.core.records import apply_event

MAX_ROUNDS_SHOWN = 200  # a game capped at many rounds still sends a bounded summary


def _plain(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


def scores_by_round(game: Game[Any, Any, Any], events: list[JsonDict]) -> list[JsonDict]:
    """``[{"round": r, "scores": [...]}, ...]``: the scores as each round ended.

    A round is read from the public view's ``round`` (every game here numbers its rounds);
    a game without one gets a single row, the final scores.
    """
    state = game.initial_state()
    rows: list[JsonDict] = []
    current: Any = game.public_view(state).get("round")
    for data in events:
        state = apply_event(game, state, data)
        round_now = game.public_view(state).get("round")
        if round_now != current:
            if current is not None:
                rows.append({"round": current, "scores": [_plain(s) for s in game.scores(state)]})
            current = round_now
    if not rows or rows[-1]["round"] != current:
        rows.append({"round": current, "scores": [_plain(s) for s in game.scores(state)]})
    return rows[-MAX_ROUNDS_SHOWN:]


def final_views(game: Game[Any, Any, Any], state: Any) -> list[JsonDict]:
    """Each seat's own view of the final position (what it held in secret, shown to all at the end)."""
    return [game.observation(state, seat) for seat in range(game.num_players)]


def end_summary(game: Game[Any, Any, Any], state: Any, events: list[JsonDict]) -> JsonDict:
    return {"rounds": scores_by_round(game, events), "final_views": final_views(game, state)}
