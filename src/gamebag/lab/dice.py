"""A dice calculator for turn-based push-your-luck games (Catch A Dragon By The Tail).

From any set a player may hold (or the start of a turn), the exact odds under
optimal-score play (the policy that maximises the turn's expected points): the
points of stopping now, the distribution of the turn's points if the player rolls
now and then plays on optimally, and the chance of scoring nothing. Everything is
exact (fractions) from the solver's turn graph.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from gamebag.agents.solvers.solutions import SolveError, rules_at, score_solution, supports_score, turn_rules_keys
from gamebag.agents.solvers.turn_graph import DECISION, points_distribution
from gamebag.core.errors import GamebagError, IllegalActionError
from gamebag.core.protocol import Game
from gamebag.lab.translation import _


@dataclass(frozen=True)
class TurnOdds:
    """The exact odds of a turn from one position (see the module docstring)."""

    held: Any  # the held set as the game writes it (colours)
    stop_points: int | None  # None at the start of a turn (a turn must roll first)
    roll_value: Fraction  # expected points of rolling now, then playing on optimally
    roll_distribution: dict[int, Fraction]
    best: str  # "stop" or "roll"
    value: Fraction  # expected points of the best choice
    turn_value: Fraction  # expected points of a whole turn from its start (for reference)
    turn_rules: str | None = None  # the rules of the turn, where a game's turns differ by round or seat

    @property
    def roll_bust(self) -> Fraction:
        """The chance that rolling now ends the turn with nothing (at once or later)."""
        return self.roll_distribution.get(0, Fraction(0))

    def to_json(self) -> dict[str, Any]:
        return {
            "held": self.held,
            "stop_points": self.stop_points,
            "best": self.best,
            "value": float(self.value),
            "value_exact": str(self.value),
            "roll_value": float(self.roll_value),
            "roll_bust": float(self.roll_bust),
            "roll_bust_exact": str(self.roll_bust),
            "roll_distribution": {str(k): float(v) for k, v in self.roll_distribution.items()},
            "roll_distribution_exact": {str(k): str(v) for k, v in self.roll_distribution.items()},
            "turn_value": float(self.turn_value),
            "turn_rules": self.turn_rules,
        }


def turn_odds(game: Game[Any, Any, Any], held: list[str] | None, round_no: int = 1, seat: int = 0) -> TurnOdds:
    """The odds from holding ``held`` (colour names; none: the start of a turn) in ``game``, in the
    turn of ``seat`` in round ``round_no`` (it matters where a variant's turns differ by round or seat)."""
    if not supports_score(type(game)):
        raise GamebagError(
            _("{game} has no turn model; the dice calculator needs one (catch-a-dragon)", game=game.game_id)
        )
    if isinstance(round_no, bool) or not isinstance(round_no, int) or round_no < 1:
        raise GamebagError(_("--round must be 1 or more, not {given}", given=repr(round_no)))
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.num_players:
        players = game.num_players
        raise GamebagError(
            _(
                "--seat must be from 0 to {last} ({players} players), not {given}",
                last=players - 1,
                players=players,
                given=repr(seat),
            )
        )
    keys = turn_rules_keys(game)
    rules = rules_at(game, round_no, seat)
    try:
        solution = score_solution(game, rules)
    except SolveError as error:
        raise GamebagError(str(error)) from None
    graph = solution.graph
    roll_node: Hashable
    if not held:
        roll_node, decide_node = graph.nodes[graph.root], None
    else:
        try:
            faces = game.action_from_json(held)
        except IllegalActionError as error:
            raise GamebagError(f"--held {','.join(held)}: {error}") from None
        roll_node, decide_node = ("roll", faces), ("decide", faces)
        if decide_node not in graph.index:
            raise GamebagError(
                _(
                    "--held {held}: no turn reaches this set; hold one colour several times or "
                    "different colours, fewer than the dice",
                    held=",".join(held),
                )
            )
    roll_position = graph.index[roll_node]
    roll_value = solution.node_values[roll_position]
    distribution = points_distribution(graph, solution.choice, roll_position)
    stop_points = None
    best, value = "roll", roll_value
    if decide_node is not None:
        position = graph.index[decide_node]
        assert graph.kinds[position] == DECISION
        choice = graph.actions[position][solution.choice[position]]
        stop_points = graph.points[graph.children[position][0]]
        best, value = str(choice), solution.node_values[position]
    return TurnOdds(
        held=game.action_to_json(faces) if held else [],
        stop_points=stop_points,
        roll_value=roll_value,
        roll_distribution=distribution,
        best=best,
        value=value,
        turn_value=solution.value,
        turn_rules=str(rules) if len(keys) > 1 else None,
    )
