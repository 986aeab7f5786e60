"""Conformance checks of a game's dynamics: playouts end, states are values, records replay,
chance is exact, and illegal input is refused.

Every message names the step (the position in a seeded random playout, 0 for the initial state)
and, where one is involved, the seat.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from gamebag.core.errors import GamebagError, IllegalActionError, IllegalChanceOutcomeError
from gamebag.core.protocol import NodeKind
from gamebag.core.records import Record, apply_event, make_game
from gamebag.core.rng import make_rng
from gamebag.core.traits import Termination
from gamebag.testing.playouts import (
    AnyGame,
    ConformanceError,
    GameFactory,
    at,
    describe_difference,
    random_playout,
    random_step,
    recorded_states,
    require,
)

MAX_ENUMERATED_OUTCOMES = 20_000  # chance nodes with more outcomes are not enumerated
NOT_AN_ACTION = ("not", "an", "action")


def check_playouts(game: AnyGame, seeds: int = 3) -> None:
    """Random playouts end, with winners among the seats and win shares summing to one."""
    for seed in range(seeds):
        *_, final = random_playout(game, make_rng(seed))
        require(game.is_terminal(final), "a playout stopped at a state that is not terminal")
        winners = game.winners(final)
        require(bool(winners), "a finished game has at least one winner")
        require(all(0 <= w < game.num_players for w in winners), f"winners {winners} are not all seats")
        require(abs(sum(game.returns(final)) - 1.0) < 1e-9, "the win shares of a finished game sum to one")
        require(len(game.scores(final)) == game.num_players, "scores give one number per seat")
        ended = game.termination(final)
        require(ended is None or isinstance(ended, Termination), f"termination {ended!r} is not a Termination")


def check_states(game: AnyGame, seed: int = 11) -> None:
    """States are values: hashable, equal to themselves, and ``apply`` is a function of its input.

    At every step of a random playout, the same joint action (or chance outcome) applied again to
    the same state must give an equal state with an equal hash (search agents and solvers key
    tables by states; a replay must reach the same game).
    """
    rng = make_rng(seed)
    state = game.initial_state()
    for step in range(1_000_000):
        try:
            hashed = hash(state)
        except TypeError as error:
            raise ConformanceError(f"{at(step)}: the state is not hashable ({error})") from None
        require(state == state, f"{at(step)}: the state is not equal to itself")
        kind = game.node_kind(state)
        if kind is NodeKind.TERMINAL:
            return
        choice, after = random_step(game, state, rng)
        again = game.apply_chance(state, choice) if kind is NodeKind.CHANCE else game.apply(state, choice)
        what = "chance outcome" if kind is NodeKind.CHANCE else "joint action"
        require(
            again == after,
            f"{at(step)}: applying the same {what} twice gave two states, "
            f"differing {describe_difference(after, again)}",
        )
        require(hash(again) == hash(after), f"{at(step + 1)}: two equal states have different hashes")
        require(hash(state) == hashed, f"{at(step)}: applying a {what} changed the state it was applied to")
        state = after
    raise ConformanceError(f"{game!r} did not end within 1,000,000 random steps")


def check_records(game: AnyGame, factory: GameFactory, seed: int = 7) -> None:
    """The same seed gives the same record; a record replays through JSON text to the same states.

    ``factory(game_id, players, **options)`` rebuilds the game from a record's header
    (``gamebag.make`` for registered games).
    """
    first, states = recorded_states(game, make_rng(seed))
    second, _ = recorded_states(game, make_rng(seed))
    require(first.to_json() == second.to_json(), "the same seed gave two different records")
    # A short game (a configuration at an option's bound) may repeat by chance: three other seeds.
    others = (recorded_states(game, make_rng(seed + k))[0].to_json() for k in (1, 2, 3))
    varied = any(other != first.to_json() for other in others)
    require(varied or not first.events, "three other seeds gave the very same game (is the generator ignored?)")
    try:
        text = json.dumps(first.to_json())
    except (TypeError, ValueError) as error:
        raise ConformanceError(f"a record is not JSON ({error}): check action_to_json and outcome_to_json") from None
    record = Record.from_json(json.loads(text))
    replayed_game = make_game(record, factory)
    state = replayed_game.initial_state()
    require(state == states[0], f"{at(0)}: the game rebuilt from the record's header starts elsewhere")
    for index, event in enumerate(record.events):
        kind = "chance" if "chance" in event else "moves"
        try:
            state = apply_event(replayed_game, state, event)
        except GamebagError as error:
            raise ConformanceError(
                f"{at(index)}: the record's {kind} event {json.dumps(event)} does not replay: {error}"
            ) from None
        expected = states[index + 1]
        require(
            state == expected,
            f"{at(index + 1)}: replaying the record reached another state, differing "
            f"{describe_difference(expected, state)}",
        )
    require(replayed_game.winners(state) == game.winners(states[-1]), "a replayed record names other winners")


def check_chance(game: AnyGame, seed: int = 5, nodes: int = 25) -> None:
    """Chance distributions are exact, list each outcome once and sum to one; samples can happen."""
    checked = 0
    for step, state in enumerate(random_playout(game, make_rng(seed))):
        if game.node_kind(state) is not NodeKind.CHANCE:
            continue
        outcomes = game.chance_outcomes(state)
        if len(outcomes) > MAX_ENUMERATED_OUTCOMES:
            continue
        probabilities = [p for _, p in outcomes]
        where = at(step)
        require(
            all(isinstance(p, Fraction) and p > 0 for p in probabilities),
            f"{where}: probabilities must be Fractions > 0",
        )
        total = sum(probabilities)
        require(total == 1, f"{where}: the outcomes of the chance node sum to {total}, not 1")
        as_floats = [(o, p.numerator / p.denominator) for o, p in outcomes]
        require(
            list(game.chance_probabilities(state)) == as_floats,
            f"{where}: chance_probabilities differs from the fractions",
        )
        # A game may keep parts of its lists: what a fresh instance (nothing kept) computes must be the same.
        fresh = type(game)(game.num_players, **game.options)
        require(
            list(fresh.chance_outcomes(state)) == list(outcomes),
            f"{where}: chance_outcomes depends on what came before",
        )
        support = [o for o, _ in outcomes]
        require(len(set(support)) == len(support), f"{where}: an outcome is listed twice")
        sampler = make_rng(checked)
        sample = game.sample_chance(state, sampler)
        after = game.apply_chance(state, sample)
        require(any(game.apply_chance(state, o) == after for o in support), f"{where}: a sampled outcome is not listed")
        advancer = make_rng(checked)
        require(
            game.advance_chance(state, advancer) == after,
            f"{where}: advance_chance reached another state than its sample",
        )
        require(advancer.getstate() == sampler.getstate(), f"{where}: advance_chance drew otherwise than sample_chance")
        checked += 1
        if checked >= nodes:
            break
    if game.traits.chance:
        require(checked > 0, "no chance node was checked")


def _refuses_moves(game: AnyGame, state: Any, moves: dict[int, Any], where: str) -> bool:
    try:
        game.apply(state, moves)
    except IllegalActionError:
        return True
    except Exception as error:  # the promise is IllegalActionError, whatever the game's bug
        raise ConformanceError(
            f"{where}: an illegal joint action raised {type(error).__name__} ({error}), not IllegalActionError"
        ) from None
    return False


def _refuses_outcome(game: AnyGame, state: Any, outcome: Any, where: str) -> bool:
    try:
        game.apply_chance(state, outcome)
    except IllegalChanceOutcomeError:
        return True
    except Exception as error:  # the promise is IllegalChanceOutcomeError, whatever the game's bug
        raise ConformanceError(
            f"{where}: an impossible chance outcome raised {type(error).__name__} ({error}), "
            "not IllegalChanceOutcomeError"
        ) from None
    return False


def check_illegal_actions(game: AnyGame, seed: int = 9, every: int = 2, playouts: int = 3) -> None:
    """Missing, extra, illegal and malformed choices and outcomes raise, and change nothing.

    Checked at every ``every``-th node of each kind of a random playout; further playouts (up to
    ``playouts``) are played while no decision node has been tried (a game may have none at all:
    Pig played to 2 points ends on its first roll).
    """
    tried = 0
    seen = {NodeKind.DECISION: 0, NodeKind.CHANCE: 0, NodeKind.TERMINAL: 0}
    for playout in range(playouts):
        if tried:
            break
        tried += _try_illegal_input(game, make_rng(seed + 100 * playout), every, seen)
    require(tried > 0 or not seen[NodeKind.DECISION], "no decision node was tried")


def _try_illegal_input(game: AnyGame, rng: Any, every: int, seen: dict[NodeKind, int]) -> int:
    """``check_illegal_actions`` on one playout; returns how many seats' choices were tried."""
    every_action = list(game.all_actions())
    tried = 0
    players = game.num_players
    for step, state in enumerate(random_playout(game, rng)):
        kind = game.node_kind(state)
        seen[kind] += 1
        if (seen[kind] - 1) % every:
            continue  # every ``every``-th node of each kind
        before = hash(state)
        where = at(step)
        if kind is NodeKind.DECISION:
            acting = game.acting_players(state)
            legal = {p: list(game.legal_actions(state, p)) for p in acting}
            require(all(legal[p] for p in acting), f"{where}: an acting player has no legal action")
            by_seat = {p: list(actions) for p, actions in game.legal_actions_by_seat(state).items()}
            require(list(by_seat) == list(acting) and by_seat == legal, f"{where}: legal_actions_by_seat disagrees")
            listed = all(a in every_action for p in acting for a in legal[p])
            require(listed, f"{where}: a legal action is missing from all_actions")
            moves = {p: legal[p][0] for p in acting}
            if len(acting) > 1 or players > 1:
                missing = {p: a for p, a in moves.items() if p != acting[0]}
                passed = not _refuses_moves(game, state, missing, where)
                require(not passed, f"{at(step, acting[0])}: a joint action missing the seat's choice passed")
            outsiders = [p for p in range(players) if p not in acting]
            if outsiders:
                extra = {**moves, outsiders[0]: every_action[0]}
                passed = not _refuses_moves(game, state, extra, where)
                require(not passed, f"{at(step, outsiders[0])}: a choice by a seat that does not act passed")
            for p in acting:
                wrong = [a for a in every_action if a not in legal[p]]
                if wrong:
                    passed = not _refuses_moves(game, state, {**moves, p: wrong[0]}, at(step, p))
                    require(not passed, f"{at(step, p)}: the illegal action {wrong[0]!r} passed")
                passed = not _refuses_moves(game, state, {**moves, p: NOT_AN_ACTION}, at(step, p))
                require(not passed, f"{at(step, p)}: a malformed action passed")
                tried += 1
            outcome_passed = not _refuses_outcome(game, state, game.initial_state(), where)
            require(not outcome_passed, f"{where}: a chance outcome was accepted at a decision node")
        elif kind is NodeKind.CHANCE:
            passed = not _refuses_moves(game, state, {0: every_action[0]}, where)
            require(not passed, f"{where}: an action was accepted at a chance node")
            require(
                not game.legal_actions_by_seat(state), f"{where}: legal_actions_by_seat names a seat at a chance node"
            )
        require(hash(state) == before, f"{where}: a refused action or outcome changed the state")
    return tried
