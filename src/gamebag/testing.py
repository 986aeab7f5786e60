"""The conformance suite, shipped with the package: checks any ``Game`` must pass.

In the manner of PettingZoo's ``api_test``: a third party writing a game for
gamebag runs ``check_game(MyGame(players=3, some_option=True))`` and gets a
``ConformanceError`` naming the first broken promise. gamebag's own tests run it
on every registered game, with default and non-default options. The checks:

* ``check_playouts``: random playouts end, with winners, shares summing to one;
* ``check_records``: the same seed gives the same record, and records replay,
  through JSON text, to the same final state;
* ``check_observations``: views are JSON, tensors keep one length, a resampled
  state gives the seat the same observation (and varies when information is hidden);
* ``check_chance``: chance distributions are exact and sum to one; samples can happen;
  ``advance_chance`` draws as ``sample_chance`` does and reaches the same state;
* ``check_illegal_actions``: illegal joint actions and outcomes raise, changing nothing;
  ``legal_actions_by_seat`` agrees with ``acting_players`` and ``legal_actions``;
* ``check_traits``: the declared ``Traits`` hold on the states seen;
* ``check_match_secrecy``: a pending secret choice shows only in its chooser's view.

Everything is seeded; only ``gamebag.core`` is used, so the suite runs on any game.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

from gamebag.core.errors import IllegalActionError, IllegalChanceOutcomeError, OptionError
from gamebag.core.match import Match
from gamebag.core.protocol import Game, NodeKind
from gamebag.core.records import Record, chance_event, moves_event, new_record, replay
from gamebag.core.rng import Rng, make_rng
from gamebag.core.traits import Termination

AnyGame = Game[Any, Any, Any]
GameFactory = Callable[..., AnyGame]

MAX_STEPS = 1_000_000  # a random playout longer than this is taken as a game that never ends
MAX_ENUMERATED_OUTCOMES = 20_000  # chance nodes with more outcomes are not enumerated
NOT_AN_ACTION = ("not", "an", "action")


class ConformanceError(AssertionError):
    """A promise of the protocol that a game breaks; the message names it."""


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ConformanceError(message)


def random_playout(game: AnyGame, rng: Rng) -> Iterator[Any]:
    """Every state of one uniformly random playout (the final one included)."""
    state = game.initial_state()
    yield state
    for _ in range(MAX_STEPS):
        kind = game.node_kind(state)
        if kind is NodeKind.TERMINAL:
            return
        if kind is NodeKind.CHANCE:
            state = game.apply_chance(state, game.sample_chance(state, rng))
        else:
            moves = {}
            for seat in game.acting_players(state):
                legal = game.legal_actions(state, seat)
                moves[seat] = legal[rng.randrange(len(legal))]
            state = game.apply(state, moves)
        yield state
    raise ConformanceError(f"{game!r} did not end within {MAX_STEPS} random steps")


def recorded_playout(game: AnyGame, rng: Rng) -> tuple[Record, Any]:
    """A random playout with its record: ``(record, final state)``."""
    record = new_record(game)
    state = game.initial_state()
    for _ in range(MAX_STEPS):
        kind = game.node_kind(state)
        if kind is NodeKind.TERMINAL:
            return record, state
        if kind is NodeKind.CHANCE:
            outcome = game.sample_chance(state, rng)
            state = game.apply_chance(state, outcome)
            record.events.append(chance_event(game, outcome))
        else:
            moves = {}
            for seat in game.acting_players(state):
                legal = game.legal_actions(state, seat)
                moves[seat] = legal[rng.randrange(len(legal))]
            state = game.apply(state, moves)
            record.events.append(moves_event(game, moves))
    raise ConformanceError(f"{game!r} did not end within {MAX_STEPS} random steps")


def check_playouts(game: AnyGame, seeds: int = 3) -> None:
    """Random playouts end, with winners among the seats and win shares summing to one."""
    for seed in range(seeds):
        *_, final = random_playout(game, make_rng(seed))
        _require(game.is_terminal(final), "a playout stopped at a state that is not terminal")
        winners = game.winners(final)
        _require(bool(winners), "a finished game has at least one winner")
        _require(all(0 <= w < game.num_players for w in winners), f"winners {winners} are not all seats")
        _require(abs(sum(game.returns(final)) - 1.0) < 1e-9, "the win shares of a finished game sum to one")
        _require(len(game.scores(final)) == game.num_players, "scores give one number per seat")
        ended = game.termination(final)
        _require(ended is None or isinstance(ended, Termination), f"termination {ended!r} is not a Termination")


def check_records(game: AnyGame, factory: GameFactory, seed: int = 7) -> None:
    """The same seed gives the same record; records replay through JSON text to the same state.

    ``factory(game_id, players, **options)`` rebuilds the game from a record's header
    (``gamebag.make`` for registered games).
    """
    first, first_final = recorded_playout(game, make_rng(seed))
    second, _ = recorded_playout(game, make_rng(seed))
    _require(first.to_json() == second.to_json(), "the same seed gave two different records")
    other, _ = recorded_playout(game, make_rng(seed + 1))
    _require(other.to_json() != first.to_json() or not first.events, "another seed gave the very same game")
    text = json.dumps(first.to_json())
    replayed_game, final = replay(Record.from_json(json.loads(text)), factory)
    _require(final == first_final, "replaying a record did not reach the recorded final state")
    _require(replayed_game.winners(final) == game.winners(first_final), "a replayed record names other winners")


def check_observations(game: AnyGame, seed: int = 3, every: int = 3, resamples: int = 2) -> None:
    """Views are JSON, tensors keep one length, and resampled states look the same to the seat."""
    rng = make_rng(seed + 8)
    tensor_length: int | None = None
    hidden_changes = 0
    for index, state in enumerate(random_playout(game, make_rng(seed))):
        if index % every:
            continue
        public = game.public_view(state)
        json.dumps(public)
        for seat in range(game.num_players):
            view = game.observation(state, seat)
            json.dumps(view)
            tensor = game.observation_tensor(state, seat)
            tensor_length = tensor_length or len(tensor)
            _require(len(tensor) == tensor_length, "observation tensors change length")
            for _ in range(resamples):
                other = game.resample_from_infostate(state, seat, rng)
                _require(game.observation(other, seat) == view, f"a resampled state looks different to seat {seat}")
                _require(game.node_kind(other) == game.node_kind(state), "a resampled state is another kind of node")
                if other != state:
                    hidden_changes += 1
                    _require(game.public_view(other) == public, "a resampled state looks different to spectators")
    if game.traits.hidden_information:
        _require(hidden_changes > 0, "the game declares hidden information but the sampler never varied any")


def check_chance(game: AnyGame, seed: int = 5, nodes: int = 25) -> None:
    """Chance distributions are exact, list each outcome once and sum to one; samples can happen."""
    checked = 0
    for state in random_playout(game, make_rng(seed)):
        if game.node_kind(state) is not NodeKind.CHANCE:
            continue
        outcomes = game.chance_outcomes(state)
        if len(outcomes) > MAX_ENUMERATED_OUTCOMES:
            continue
        probabilities = [p for _, p in outcomes]
        _require(all(isinstance(p, Fraction) and p > 0 for p in probabilities), "probabilities must be Fractions > 0")
        _require(sum(probabilities) == 1, "the outcomes of a chance node do not sum to one")
        as_floats = [(o, p.numerator / p.denominator) for o, p in outcomes]
        _require(list(game.chance_probabilities(state)) == as_floats, "chance_probabilities differs from the fractions")
        # A game may keep parts of its lists: what a fresh instance (nothing kept) computes must be the same.
        fresh = type(game)(game.num_players, **game.options)
        _require(list(fresh.chance_outcomes(state)) == list(outcomes), "chance_outcomes depends on what came before")
        support = [o for o, _ in outcomes]
        _require(len(set(support)) == len(support), "an outcome is listed twice")
        sampler = make_rng(checked)
        sample = game.sample_chance(state, sampler)
        after = game.apply_chance(state, sample)
        _require(any(game.apply_chance(state, o) == after for o in support), "a sampled outcome is not listed")
        advancer = make_rng(checked)
        _require(game.advance_chance(state, advancer) == after, "advance_chance reached another state than its sample")
        _require(advancer.getstate() == sampler.getstate(), "advance_chance drew otherwise than sample_chance")
        checked += 1
        if checked >= nodes:
            break
    if game.traits.chance:
        _require(checked > 0, "no chance node was checked")


def _refuses_moves(game: AnyGame, state: Any, moves: dict[int, Any]) -> bool:
    try:
        game.apply(state, moves)
    except IllegalActionError:
        return True
    return False


def _refuses_outcome(game: AnyGame, state: Any, outcome: Any) -> bool:
    try:
        game.apply_chance(state, outcome)
    except IllegalChanceOutcomeError:
        return True
    return False


def check_illegal_actions(game: AnyGame, seed: int = 9, every: int = 2) -> None:
    """Missing, extra, illegal and malformed choices and outcomes raise, and change nothing."""
    every_action = list(game.all_actions())
    tried = 0
    players = game.num_players
    seen = {NodeKind.DECISION: 0, NodeKind.CHANCE: 0, NodeKind.TERMINAL: 0}
    for state in random_playout(game, make_rng(seed)):
        kind = game.node_kind(state)
        seen[kind] += 1
        if (seen[kind] - 1) % every:
            continue  # every ``every``-th node of each kind
        before = hash(state)
        if kind is NodeKind.DECISION:
            acting = game.acting_players(state)
            legal = {p: list(game.legal_actions(state, p)) for p in acting}
            _require(all(legal[p] for p in acting), "an acting player has no legal action")
            by_seat = {p: list(actions) for p, actions in game.legal_actions_by_seat(state).items()}
            _require(list(by_seat) == list(acting) and by_seat == legal, "legal_actions_by_seat disagrees")
            listed = all(a in every_action for p in acting for a in legal[p])
            _require(listed, "a legal action is missing from all_actions")
            moves = {p: legal[p][0] for p in acting}
            if len(acting) > 1 or players > 1:
                missing = {p: a for p, a in moves.items() if p != acting[0]}
                _require(_refuses_moves(game, state, missing), "a joint action missing a seat's choice passed")
            outsiders = [p for p in range(players) if p not in acting]
            if outsiders:
                extra = {**moves, outsiders[0]: every_action[0]}
                _require(_refuses_moves(game, state, extra), "a choice by a seat that does not act passed")
            for p in acting:
                wrong = [a for a in every_action if a not in legal[p]]
                if wrong:
                    _require(_refuses_moves(game, state, {**moves, p: wrong[0]}), "an illegal action passed")
                _require(_refuses_moves(game, state, {**moves, p: NOT_AN_ACTION}), "a malformed action passed")
                tried += 1
            outcome_passed = not _refuses_outcome(game, state, game.initial_state())
            _require(not outcome_passed, "a chance outcome was accepted at a decision node")
        elif kind is NodeKind.CHANCE:
            _require(_refuses_moves(game, state, {0: every_action[0]}), "an action was accepted at a chance node")
            _require(not game.legal_actions_by_seat(state), "legal_actions_by_seat names a seat at a chance node")
        _require(hash(state) == before, "a refused action or outcome changed the state")
    _require(tried > 0, "no decision node was tried")


def check_traits(game: AnyGame, seeds: int = 2) -> None:
    """The declared traits hold: who acts at once, what is hidden, whether chance occurs."""
    traits = game.traits
    most_acting = 0
    chance_nodes = 0
    for seed in range(seeds):
        for state in random_playout(game, make_rng(seed)):
            kind = game.node_kind(state)
            if kind is NodeKind.CHANCE:
                chance_nodes += 1
                continue
            if kind is not NodeKind.DECISION:
                continue
            acting = game.acting_players(state)
            most_acting = max(most_acting, len(acting))
            if traits.sequential:
                _require(len(acting) == 1, f"a sequential game has {len(acting)} seats acting at once")
            if traits.perfect_information:
                public = game.public_view(state)
                for seat in range(game.num_players):
                    same = game.resample_from_infostate(state, seat, make_rng(seat)) == state
                    _require(same, "resampling changed a state with perfect information")
                    seen = game.observation(state, seat)
                    _require(seen.pop("seat", seat) == seat, "an observation names another seat")
                    _require(seen == public, "with perfect information a seat sees exactly the public view")
    _require((chance_nodes > 0) == traits.chance, f"traits say chance={traits.chance}, playouts met {chance_nodes}")
    if traits.simultaneous and game.num_players > 1:
        _require(most_acting > 1, "a game declared simultaneous never had two seats choosing at once")


def check_match_secrecy(game: AnyGame, seed: int = 4, submissions: int = 200) -> None:
    """Through a ``Match``, a pending choice shows in its chooser's view and nowhere else."""
    match = Match(game, seed=seed)
    rng = make_rng(seed + 2)
    submitted = 0
    while not match.is_over and submitted < submissions:
        seat = match.waiting_for()[0]
        legal = match.legal_actions(seat)
        action = legal[rng.randrange(len(legal))]
        others_before = {p: match.view(p) for p in range(game.num_players) if p != seat}
        public_before = match.public()
        events = match.submit(seat, action)
        submitted += 1
        if events:
            continue
        mine = match.view(seat)["choices"]["mine"]
        _require(mine == game.action_to_json(action), "the chooser cannot see its own pending choice")
        for p, before in others_before.items():
            after = match.view(p)
            _require(after["choices"]["mine"] == before["choices"]["mine"], f"seat {p} saw another seat's choice")
            _require(_without_choices(after) == _without_choices(before), f"seat {p}'s view changed on a secret choice")
        _require(_without_choices(match.public()) == _without_choices(public_before), "the public view changed")


def _without_choices(view: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in view.items() if key != "choices"}


def check_option_errors(game_class: type[AnyGame]) -> None:
    """Unknown options, bad values and player counts out of range are refused with a message."""
    for options, players in (
        ({"no_such_option": 1}, game_class.default_players),
        ({}, game_class.max_players + 1),
        ({}, game_class.min_players - 1),
    ):
        try:
            game_class(players, **options)
        except OptionError as error:
            _require(str(game_class.max_players) in str(error) or "no_such_option" in str(error), f"unclear: {error}")
        else:
            raise ConformanceError(f"{game_class.__name__}({players}, **{options}) was accepted")
    for spec in game_class.option_specs:
        try:
            game_class(game_class.default_players, **{spec.name: object()})
        except OptionError as error:
            _require(spec.name in str(error), f"the error for a bad {spec.name!r} does not name it: {error}")
        else:
            raise ConformanceError(f"option {spec.name!r} accepted a value of no allowed kind")


def check_game(game: AnyGame, factory: GameFactory | None = None) -> None:
    """Every check on one configured game. ``factory`` rebuilds games from records (default: the class)."""
    build: GameFactory = factory or (lambda _game_id, players, **options: type(game)(players, **options))
    check_traits(game)
    check_playouts(game)
    check_records(game, build)
    check_observations(game)
    check_chance(game)
    check_illegal_actions(game)
    check_match_secrecy(game)
