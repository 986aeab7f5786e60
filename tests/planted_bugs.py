"""Bugs planted in a correct game, for measuring what the conformance suite catches.

Each planted bug is a mixin placed before a correct game class (``plant(Bug, SwapLow)``), so
the same bug can be planted in any game: ``GENERIC`` bugs need only the protocol (every game
with hidden information, chance and an int option can take them); ``SWAP_LOW_ONLY`` bugs read
Swap Low's own state. Each comes with the words the suite's one-line refusal must contain.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from gamebag.core.errors import IllegalActionError
from gamebag.core.options import Option
from gamebag.core.protocol import Game
from gamebag.core.traits import Information, Moves, Traits
from swap_low import SwapLow, SwapState

AnyGame = Game[Any, Any, Any]


def plant(bug: type, game_class: type[AnyGame]) -> type[AnyGame]:
    """``game_class`` with ``bug`` planted: a subclass whose methods the bug overrides."""
    planted: type[AnyGame] = type(f"{bug.__name__}{game_class.__name__}", (bug, game_class), {})
    return planted


def _first_int_option(game_class: type[AnyGame]) -> Option:
    return next(spec for spec in game_class.option_specs if spec.kind == "int" and spec.maximum is not None)


# ---- bugs any game can have ---------------------------------------------------------------------
class TensorOnlyLeak:
    """The tensor carries the next seat's tensor too (its hidden cards); the JSON view is right."""

    def observation_tensor(self: Any, state: Any, player: int) -> list[float]:
        mine = super().observation_tensor(state, player)  # type: ignore[misc]
        return [*mine, *super().observation_tensor(state, (player + 1) % self.num_players)]  # type: ignore[misc]


class JsonObservationLeak:
    """The observation shows the next seat's secrets under ``neighbour``."""

    def observation(self: Any, state: Any, player: int) -> dict[str, Any]:
        view: dict[str, Any] = super().observation(state, player)  # type: ignore[misc]
        view["neighbour"] = super()._private_view(state, (player + 1) % self.num_players)  # type: ignore[misc]
        return view


class ResampleAsNeighbour:
    """The resampler draws the worlds the *next* seat cannot tell apart: the seat's own cards vary."""

    def resample_from_infostate(self: Any, state: Any, player: int, rng: Any) -> Any:
        return super().resample_from_infostate(state, (player + 1) % self.num_players, rng)  # type: ignore[misc]


class ResamplerNeverVaries:
    """Hidden information is declared, but the resampler returns the real state (a search bot cheats)."""

    def resample_from_infostate(self: Any, state: Any, player: int, rng: Any) -> Any:
        return state


class UnhashableState:
    """The initial state holds a list where a tuple belongs, so it cannot key a table."""

    def initial_state(self: Any) -> Any:
        state = super().initial_state()  # type: ignore[misc]
        field = next(f.name for f in dataclasses.fields(state) if isinstance(getattr(state, f.name), tuple))
        return dataclasses.replace(state, **{field: list(getattr(state, field))})


class CrashAtMostPlayers:
    """The deal indexes past a table sized for one seat fewer than the most."""

    def initial_state(self: Any) -> Any:
        if self.num_players == self.max_players:
            raise IndexError("list index out of range")
        return super().initial_state()  # type: ignore[misc]


class CrashAtOptionMaximum:
    """The tensor is sized for an int option below its maximum."""

    def observation_tensor(self: Any, state: Any, player: int) -> list[float]:
        spec = _first_int_option(type(self))
        if self.options[spec.name] == spec.maximum:
            raise IndexError("list assignment index out of range")
        return super().observation_tensor(state, player)  # type: ignore[no-any-return, misc]


class ProbabilitiesDoNotSumToOne:
    """The first outcome of every chance node is listed at half its probability."""

    def chance_outcomes(self: Any, state: Any) -> Sequence[tuple[Any, Fraction]]:
        outcomes = list(super().chance_outcomes(state))  # type: ignore[misc]
        if outcomes:
            outcomes[0] = (outcomes[0][0], outcomes[0][1] / 2)
        return outcomes


class IllegalActionAccepted:
    """The legality check accepts any action of the game, legal now or not."""

    def check_action(self: Any, state: Any, player: int, action: Any) -> None:
        if action not in self.all_actions():
            raise IllegalActionError(f"{action!r} is not an action")


class TensorOutsideUnitRange:
    """The tensor ends with a raw count where the protocol promises numbers in [0, 1]."""

    def observation_tensor(self: Any, state: Any, player: int) -> list[float]:
        return [*super().observation_tensor(state, player), 2.0]  # type: ignore[misc]


class TensorLengthChanges:
    """The tensor grows by one number once the game is over."""

    def observation_tensor(self: Any, state: Any, player: int) -> list[float]:
        tensor: list[float] = super().observation_tensor(state, player)  # type: ignore[misc]
        return [*tensor, 0.0] if self.is_terminal(state) else tensor


class NonDeterministicApply:
    """Every other call, the first acting seat's move is replaced by another legal one (hidden state)."""

    calls = 0

    def _apply(self: Any, state: Any, moves: Mapping[int, Any]) -> Any:
        type(self).calls += 1
        seat = next(iter(moves))
        others = [a for a in self.legal_actions(state, seat) if a != moves[seat]]
        if others and type(self).calls % 2:
            moves = {**moves, seat: others[0]}
        return super()._apply(state, moves)  # type: ignore[misc]


class RecordsDoNotRoundTrip:
    """Chance outcomes are written to records in a form that reads back as another outcome."""

    def outcome_to_json(self: Any, outcome: Any) -> Any:
        return [super().outcome_to_json(outcome), 0]  # type: ignore[misc]


class OptionsReadBeforeValidation:
    """``__init__`` converts an option before the specs validate it, so a bad value raises TypeError."""

    def __init__(self: Any, players: int | None = None, **options: Any) -> None:
        spec = _first_int_option(type(self))
        if spec.name in options and not isinstance(options[spec.name], str):
            self.planned = range(options[spec.name])  # TypeError for a value that is not a number
        super().__init__(players, **options)  # type: ignore[misc]


# ---- bugs of Swap Low's own rules and state -------------------------------------------------------
class ImpossibleResample(SwapLow):
    """Other seats' cards are drawn from every card but the seat's own: the turn-up and dealt
    cards can appear twice. The views hold, only the game's ``validate_state`` can tell."""

    def resample_from_infostate(self, state: SwapState, player: int, rng: Any) -> SwapState:
        if self.open_hands:
            return state
        others = [c for c in range(1, self.deck_size + 1) if c != state.hands[player]]
        hands = tuple(
            card if s == player or not card or state.shown[s] else others[rng.randrange(len(others))]
            for s, card in enumerate(state.hands)
        )
        return dataclasses.replace(state, hands=hands)


class LegalityLeak(SwapLow):
    """Swapping is allowed only when the next seat's secret card is higher: legality tells a secret."""

    def legal_actions(self, state: SwapState, player: int) -> Sequence[str]:
        legal = super().legal_actions(state, player)
        after = state.hands[(player + 1) % self.num_players]
        return legal if after > state.hands[player] else legal[:1]


class PerfectButStillHidden(SwapLow):
    """``open_hands`` sets perfect-information traits, but the cards stay hidden in the public view."""

    def public_view(self, state: SwapState) -> dict[str, Any]:
        view = super().public_view(state)
        view["cards"] = [card if state.shown[s] else None for s, card in enumerate(state.hands)]
        return view

    def _private_view(self, state: SwapState, player: int) -> dict[str, Any]:
        return {"hand": state.hands[player]}


class DeclaredPerfectEverywhere(SwapLow):
    """The class declares perfect information for every configuration, hands hidden or not."""

    traits = Traits(Moves.SEQUENTIAL, Information.PERFECT, chance=True)

    def _configure(self) -> None:
        super()._configure()
        self.traits = type(self).traits


# (bug, words the one-line refusal must contain)
GENERIC: list[tuple[type, str]] = [
    (TensorOnlyLeak, "resampled observation_tensor differs at index"),
    (JsonObservationLeak, "resampled observation differs in 'neighbour'"),
    (ResampleAsNeighbour, "resampled observation"),
    (ResamplerNeverVaries, "never varied"),
    (UnhashableState, "not hashable"),
    (CrashAtMostPlayers, "IndexError"),
    (CrashAtOptionMaximum, "IndexError"),
    (ProbabilitiesDoNotSumToOne, "not 1"),
    (IllegalActionAccepted, "illegal"),  # "the illegal action ... passed", or what it raised instead
    (TensorOutsideUnitRange, "outside [0, 1]"),
    (TensorLengthChanges, "observation_tensor has"),
    (NonDeterministicApply, "applying the same joint action twice"),
    (RecordsDoNotRoundTrip, "does not replay"),
    (OptionsReadBeforeValidation, "not OptionError"),
]
SWAP_LOW_ONLY: list[tuple[type[SwapLow], str]] = [
    (ImpossibleResample, "validate_state"),
    (LegalityLeak, "legal actions differ"),
    (PerfectButStillHidden, "open_hands=True"),
    (DeclaredPerfectEverywhere, "resampling changed a state with perfect information"),
]
