"""Conformance checks of what seats may know: views, tensors, resampled worlds, traits, secrecy.

A resampled state (``resample_from_infostate(state, seat, rng)``) is a world the seat cannot tell
apart from the real one. The suite cannot know the game's hidden parts, but it can refuse every
resample that the seat *could* tell apart, through anything the game shows it:

* the seat's ``observation`` and ``observation_tensor`` (a leak through either one shows here:
  the resample varies what the seat may not know, and the seat's view changes with it);
* the node kind, the acting seats and the seat's legal actions;
* the game's own check of a state, ``validate_state(state)``, when the game defines one (an
  optional hook: raise any exception naming what is impossible, such as a card held twice);
* the spectators' view, and a random continuation from the resample, which must end.

What it cannot see, it does not claim: a resampler that draws possible worlds with the wrong
probabilities, or a leak of something no resample ever varies, passes.
"""

from __future__ import annotations

import json
import math
import numbers
from typing import Any

from gamebag.core.match import Match
from gamebag.core.protocol import NodeKind
from gamebag.core.rng import make_rng
from gamebag.testing.playouts import (
    AnyGame,
    ConformanceError,
    at,
    describe_difference,
    random_playout,
    require,
)

# Random continuations played from resampled states per ``check_observations`` (each a whole playout).
CONTINUATIONS = 3


def validate(game: AnyGame, state: Any, where: str, what: str = "the state") -> None:
    """Run the game's own ``validate_state`` hook, if it has one; any exception it raises is refused."""
    hook = getattr(game, "validate_state", None)
    if hook is None:
        return
    try:
        hook(state)
    except Exception as error:  # the hook's way of naming an impossible state
        raise ConformanceError(f"{where}: {what} is invalid by the game's validate_state: {error}") from None


def checked_tensor(game: AnyGame, state: Any, seat: int, where: str, length: int | None) -> list[float]:
    """``observation_tensor(state, seat)``, refused unless it has ``length`` finite numbers in [0, 1]."""
    tensor = list(game.observation_tensor(state, seat))
    if length is not None:
        require(len(tensor) == length, f"{where}: observation_tensor has {len(tensor)} numbers, elsewhere {length}")
    for index, value in enumerate(tensor):
        number = isinstance(value, numbers.Real) and not isinstance(value, bool)
        if not number or not math.isfinite(value) or not 0.0 <= value <= 1.0:
            raise ConformanceError(f"{where}: observation_tensor[{index}] is {value!r}, outside [0, 1]")
    return tensor


def _json_view(view: Any, where: str, what: str) -> None:
    try:
        json.dumps(view)
    except (TypeError, ValueError) as error:
        raise ConformanceError(f"{where}: the {what} is not JSON ({error})") from None


def _same_for_seat(game: AnyGame, state: Any, other: Any, seat: int, seen: dict[str, Any], where: str) -> None:
    """Refuse a resampled ``other`` that ``seat`` could tell apart from ``state``."""
    kind = game.node_kind(other)
    require(kind == seen["kind"], f"{where}: a resampled state is a {kind} node, the real one a {seen['kind']} node")
    acting = tuple(game.acting_players(other))
    require(
        acting == seen["acting"], f"{where}: in a resampled state seats {acting} act, in the real one {seen['acting']}"
    )
    view = game.observation(other, seat)
    require(
        view == seen["view"], f"{where}: the resampled observation differs {describe_difference(seen['view'], view)}"
    )
    tensor = list(game.observation_tensor(other, seat))
    require(
        tensor == seen["tensor"],
        f"{where}: the resampled observation_tensor differs {describe_difference(seen['tensor'], tensor)}",
    )
    if seat in acting:
        legal = list(game.legal_actions(other, seat))
        require(
            legal == seen["legal"],
            f"{where}: in a resampled state the seat's legal actions differ ({len(legal)} against "
            f"{len(seen['legal'])}; first difference {describe_difference(seen['legal'], legal)})",
        )
    validate(game, other, where, "a resampled state")
    if other != state:
        public = game.public_view(other)
        require(
            public == seen["public"],
            f"{where}: a resampled state's public view differs {describe_difference(seen['public'], public)}",
        )


def _continue_to_the_end(game: AnyGame, state: Any, where: str, seed: int) -> None:
    """A random playout from a resampled state ends (an impossible world often breaks the rules later)."""
    rng = make_rng(seed)
    try:
        for _ in range(1_000_000):
            if game.node_kind(state) is NodeKind.TERMINAL:
                return
            if game.node_kind(state) is NodeKind.CHANCE:
                state = game.apply_chance(state, game.sample_chance(state, rng))
            else:
                moves = {}
                for seat in game.acting_players(state):
                    legal = game.legal_actions(state, seat)
                    moves[seat] = legal[rng.randrange(len(legal))]
                state = game.apply(state, moves)
    except Exception as error:  # the world drawn was not one the rules can play on
        raise ConformanceError(
            f"{where}: play from a resampled state broke down ({type(error).__name__}: {error})"
        ) from None


def check_observations(
    game: AnyGame, seed: int = 3, every: int = 3, resamples: int = 2, playouts: int = 3, enough: int = 40
) -> None:
    """Views are JSON, tensors keep one length in [0, 1], and resampled states look the same to the seat.

    Random playouts are checked at every ``every``-th state, more densely where a playout is
    short (at least ``enough`` states of it, all of a short one), and further playouts (up to
    ``playouts``) are played while fewer than ``enough`` states have been checked.
    """
    rng = make_rng(seed + 8)
    tensor_length: int | None = None
    hidden_changes = 0
    continuations = 0
    checked = 0
    for playout in range(playouts):
        if playout and checked >= enough:
            break
        states = list(random_playout(game, make_rng(seed + 100 * playout)))
        stride = max(1, min(every, len(states) // enough))
        for step, state in enumerate(states):
            validate(game, state, at(step))
            if step % stride:
                continue
            checked += 1
            public = game.public_view(state)
            _json_view(public, at(step), "public view")
            acting = tuple(game.acting_players(state))
            for seat in range(game.num_players):
                where = at(step, seat) if not playout else f"playout {playout + 1}, {at(step, seat)}"
                view = game.observation(state, seat)
                _json_view(view, where, "observation")
                tensor = checked_tensor(game, state, seat, where, tensor_length)
                tensor_length = len(tensor)
                seen = {
                    "kind": game.node_kind(state),
                    "acting": acting,
                    "view": view,
                    "tensor": tensor,
                    "legal": list(game.legal_actions(state, seat)) if seat in acting else [],
                    "public": public,
                }
                for _ in range(resamples):
                    other = game.resample_from_infostate(state, seat, rng)
                    _same_for_seat(game, state, other, seat, seen, where)
                    if other != state:
                        hidden_changes += 1
                        if continuations < CONTINUATIONS:
                            _continue_to_the_end(game, other, where, seed + continuations)
                            continuations += 1
    if game.traits.hidden_information:
        require(hidden_changes > 0, "the game declares hidden information but the sampler never varied any")


def check_traits(game: AnyGame, seeds: int = 2) -> None:
    """The declared traits (of this configuration) hold: who acts at once, what is hidden, whether chance occurs."""
    traits = game.traits
    most_acting = 0
    chance_nodes = 0
    for seed in range(seeds):
        for step, state in enumerate(random_playout(game, make_rng(seed))):
            kind = game.node_kind(state)
            if kind is NodeKind.CHANCE:
                chance_nodes += 1
                continue
            if kind is not NodeKind.DECISION:
                continue
            acting = game.acting_players(state)
            most_acting = max(most_acting, len(acting))
            if traits.sequential:
                require(len(acting) == 1, f"{at(step)}: a sequential game has {len(acting)} seats acting at once")
            if traits.perfect_information:
                public = game.public_view(state)
                for seat in range(game.num_players):
                    where = at(step, seat)
                    same = game.resample_from_infostate(state, seat, make_rng(seat)) == state
                    require(same, f"{where}: resampling changed a state with perfect information")
                    seen = game.observation(state, seat)
                    require(seen.pop("seat", seat) == seat, f"{where}: an observation names another seat")
                    require(
                        seen == public,
                        f"{where}: with perfect information a seat sees exactly the public view, but its "
                        f"observation differs {describe_difference(public, seen)}",
                    )
    require((chance_nodes > 0) == traits.chance, f"traits say chance={traits.chance}, playouts met {chance_nodes}")
    if traits.simultaneous and game.num_players > 1:
        require(most_acting > 1, "a game declared simultaneous never had two seats choosing at once")


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
        where = f"submission {submitted}, seat {seat}"
        mine = match.view(seat)["choices"]["mine"]
        require(mine == game.action_to_json(action), f"{where}: the chooser cannot see its own pending choice")
        for p, before in others_before.items():
            after = match.view(p)
            require(
                after["choices"]["mine"] == before["choices"]["mine"], f"{where}: seat {p} saw another seat's choice"
            )
            require(
                _without_choices(after) == _without_choices(before),
                f"{where}: seat {p}'s view changed on a secret choice, "
                f"{describe_difference(_without_choices(before), _without_choices(after))}",
            )
        require(
            _without_choices(match.public()) == _without_choices(public_before), f"{where}: the public view changed"
        )


def _without_choices(view: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in view.items() if key != "choices"}
