"""``EigenKweek``: the Game protocol over the Eigen Kweek rules.

Every step (``nodes.Step``) is one row of the table in ``steps.py``: a chance
step (a coin from the bag or a victim, a card from the stack) or a decision
step (who acts, what they may do, the transition). This class only looks the
step up; it holds no rule of its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, ClassVar

from gamebag.core.engines import EngineSupport
from gamebag.core.errors import IllegalActionError, IllegalChanceOutcomeError
from gamebag.core.options import Option, OptionGroup, typed_options
from gamebag.core.presets import Preset
from gamebag.core.protocol import Game, JsonDict, NodeKind
from gamebag.core.rng import Rng, draw_index
from gamebag.core.traits import Information, Moves, Termination, Traits
from gamebag.games.eigen_kweek import checks, phases, views
from gamebag.games.eigen_kweek.actions import Move, action_catalogue, describe_action_forms
from gamebag.games.eigen_kweek.components import ENGINES, OPTION_GROUPS, OPTION_SPECS, EigenKweekOptions, build_config
from gamebag.games.eigen_kweek.logwords import seat_token
from gamebag.games.eigen_kweek.nodes import Step
from gamebag.games.eigen_kweek.presets import PRESETS
from gamebag.games.eigen_kweek.state import Draft, KweekState, sacks
from gamebag.games.eigen_kweek.steps import STEPS, Chance, Context, Decision, Outcome
from gamebag.games.eigen_kweek.translation import N_, _

_KIND: dict[Step, NodeKind] = {
    step: NodeKind.TERMINAL if rule is None else NodeKind.CHANCE if isinstance(rule, Chance) else NodeKind.DECISION
    for step, rule in STEPS.items()
}
# The table split by kind, so a lookup also says what kind of step it is.
_DECISIONS: dict[Step, Decision] = {step: rule for step, rule in STEPS.items() if isinstance(rule, Decision)}
_CHANCES: dict[Step, Chance] = {step: rule for step, rule in STEPS.items() if isinstance(rule, Chance)}


class EigenKweek(Game[KweekState, str, Outcome]):
    """Eigen Kweek for 2-4 players: bid weed tokens for coins, grow plants, plough four sacks."""

    game_id: ClassVar[str] = "eigen-kweek"
    text_domain: ClassVar[str | None] = "eigen_kweek"  # its option and preset words: ``translation.py``
    title: ClassVar[str] = "Eigen Kweek"
    version: ClassVar[str] = "1.1"
    summary: ClassVar[str] = N_(
        "Bid secret weed tokens for coins, sow and harvest plants, play characters; "
        "the first to plough over four plant cards into potato sacks wins."
    )
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    default_players: ClassVar[int] = 4
    traits: Traits = Traits(Moves.SIMULTANEOUS, Information.HIDDEN, chance=True)
    option_specs: ClassVar[tuple[Option, ...]] = OPTION_SPECS
    preset_specs: ClassVar[tuple[Preset, ...]] = PRESETS
    engine_support: ClassVar[EngineSupport | None] = ENGINES
    option_groups: ClassVar[tuple[OptionGroup, ...]] = OPTION_GROUPS

    def _configure(self) -> None:
        self.settings = typed_options(EigenKweekOptions, self.options)
        self.config = build_config(self.num_players, self.settings)
        self.context = Context(self.config)
        self._catalogue: dict[str, Move] = action_catalogue(self.config)
        self._actions: tuple[str, ...] = tuple(self._catalogue)
        self._value_index = {value: index for index, value in enumerate(self.config.values)}
        self._memo: tuple[KweekState | None, tuple[int, ...], dict[int, tuple[str, ...]]] = (None, (), {})

    # ---- dynamics -------------------------------------------------------------------------
    def initial_state(self) -> KweekState:
        return phases.initial_state(self.config)

    def node_kind(self, state: KweekState) -> NodeKind:
        return _KIND[state.step]

    def acting_players(self, state: KweekState) -> tuple[int, ...]:
        return self._menus(state)[0]

    def legal_actions(self, state: KweekState, player: int) -> Sequence[str]:
        memo = self._memo
        if memo[0] is state:  # the common case: asked again about the last state
            menu = memo[2].get(player)
            if menu is not None:
                return menu
        acting, menus = self._menus(state)
        menu = menus.get(player)
        if menu is None:
            rule = _DECISIONS.get(state.step)
            if rule is None or player not in acting:
                return ()
            menu = menus[player] = rule.legal(self.context, state, player)
        return menu

    def legal_actions_by_seat(self, state: KweekState) -> dict[int, Sequence[str]]:
        """Who acts and their menus in one pass over the step table (play loops ask this)."""
        rule = _DECISIONS.get(state.step)
        if rule is None:
            return {}
        context = self.context
        legal = rule.legal
        return {seat: legal(context, state, seat) for seat in rule.acting(state)}

    def _menus(self, state: KweekState) -> tuple[tuple[int, ...], dict[int, tuple[str, ...]]]:
        """Who acts in ``state`` and the legal actions asked for so far, kept for the last state.

        Players, agents and the legality check all ask about the same state in turn;
        states are immutable, so the answers for the last one are reused (by identity).
        """
        memo = self._memo
        if memo[0] is state:
            return memo[1], memo[2]
        rule = _DECISIONS.get(state.step)
        acting = rule.acting(state) if rule is not None else ()
        menus: dict[int, tuple[str, ...]] = {}
        self._memo = (state, acting, menus)
        return acting, menus

    def _illegal_action_message(self, state: KweekState, player: int, action: Any, legal: Sequence[str]) -> str:
        shown = ", ".join(list(legal)[:10]) + (", ..." if len(legal) > 10 else "")
        return _("{seat}: {action} is not allowed at the {step} step of the {phase} phase; allowed: {allowed}",
                 seat=seat_token(player), action=repr(action), step=state.step, phase=state.phase, allowed=shown)

    def check_joint_action(self, state: KweekState, moves: Mapping[int, str]) -> None:
        """The protocol's check, answered from the memo of the state's menus when all is well."""
        acting, menus = self._menus(state)
        if acting and len(moves) == len(acting):  # nobody acts at chance and terminal nodes
            for seat in acting:
                action = moves.get(seat)
                if action is None:
                    break
                legal = menus.get(seat) or self.legal_actions(state, seat)
                if type(action) is not str or action not in legal:
                    raise IllegalActionError(self._illegal_action_message(state, seat, action, legal))
            else:
                return
        super().check_joint_action(state, moves)  # names what is missing or extra

    def _apply(self, state: KweekState, moves: Mapping[int, str]) -> KweekState:
        rule = _DECISIONS[state.step]  # checked: the state is a decision node
        d = Draft(state)
        rule.apply(self.config, d, {seat: self._catalogue[action] for seat, action in moves.items()})
        return d.freeze()

    # ---- chance ---------------------------------------------------------------------------
    def _chance(self, state: KweekState) -> Chance:
        rule = _CHANCES.get(state.step)
        if rule is None:
            raise IllegalChanceOutcomeError(f"no chance event happens at the {state.step} step")
        return rule

    def chance_outcomes(self, state: KweekState) -> Sequence[tuple[Outcome, Fraction]]:
        rule = _CHANCES.get(state.step)
        if rule is None:
            return []
        if rule.coins is None:
            share = Fraction(1, len(state.stack))
            return [(card, share) for card in state.stack]
        source = rule.coins(state)
        total = sum(source)
        return [
            (value, Fraction(count, total))
            for value, count in zip(self.config.values, source, strict=True)
            if count > 0
        ]

    def sample_chance(self, state: KweekState, rng: Rng) -> Outcome:
        return self._draw(self._chance(state), state, rng)

    def advance_chance(self, state: KweekState, rng: Rng) -> KweekState:
        rule = self._chance(state)  # looked up once for the draw and the transition
        return rule.apply(self.config, state, self._draw(rule, state, rng))

    def _draw(self, rule: Chance, state: KweekState, rng: Rng) -> Outcome:
        if rule.coins is None:
            return state.stack[draw_index(rng, len(state.stack))]
        source = rule.coins(state)
        total = sum(source)
        if total == 0:
            raise IllegalChanceOutcomeError(f"{rule.where} is empty")
        pick = draw_index(rng, total)
        for value, count in zip(self.config.values, source, strict=True):
            if pick < count:
                return value
            pick -= count
        raise IllegalChanceOutcomeError(f"{rule.where} is empty")

    def _check_outcome(self, state: KweekState, outcome: Any) -> None:
        rule = self._chance(state)
        if rule.coins is None:
            if not isinstance(outcome, str) or outcome not in state.stack:
                raise IllegalChanceOutcomeError(
                    f"the {state.step} draws a character card from the stack ({', '.join(state.stack)}), "
                    f"not {outcome!r}"
                )
            return
        source = rule.coins(state)
        index = self._value_index.get(outcome) if type(outcome) is int else None
        if index is None or source[index] == 0:
            available = {v for v, n in zip(self.config.values, source, strict=True) if n > 0}
            raise IllegalChanceOutcomeError(
                f"the {state.step} draws a coin value present in {rule.where} ({sorted(available)}), "
                f"not {outcome!r}"
            )

    def _apply_chance(self, state: KweekState, outcome: Outcome) -> KweekState:
        return self._chance(state).apply(self.config, state, outcome)

    # ---- results --------------------------------------------------------------------------
    def scores(self, state: KweekState) -> tuple[float, ...]:
        """Potato sacks on each board."""
        return tuple(float(sacks(board)) for board in state.boards)

    def winners(self, state: KweekState) -> tuple[int, ...]:
        return state.winners

    def termination(self, state: KweekState) -> Termination | None:
        return {"four_sacks": Termination.GOAL, "round_cap": Termination.ROUND_CAP}.get(state.ended_by or "")

    def round_number(self, state: KweekState) -> int:
        return state.round_no

    # ---- information ----------------------------------------------------------------------
    def observation(self, state: KweekState, player: int) -> JsonDict:
        return views.observation(self, state, player)

    def public_view(self, state: KweekState) -> JsonDict:
        return views.public_view(self, state)

    def resample_from_infostate(self, state: KweekState, player: int, rng: Rng) -> KweekState:
        return views.resample(self.config, state, player, rng)

    def validate_state(self, state: KweekState) -> None:
        """Refuse a state no play reaches (``checks``): the conformance suite's hook."""
        problem = checks.state_problem(self.config, state)
        if problem is not None:
            raise ValueError(problem)

    def observation_tensor(self, state: KweekState, player: int) -> list[float]:
        return views.observation_tensor(self, state, player)

    # ---- encodings ------------------------------------------------------------------------
    def action_to_json(self, action: str) -> Any:
        return action

    def action_from_json(self, data: Any) -> str:
        if not isinstance(data, str) or data not in self._catalogue:
            raise IllegalActionError(
                f"{data!r} is not an Eigen Kweek action of this configuration; actions are written "
                f"{describe_action_forms()}"
            )
        return data

    def outcome_to_json(self, outcome: Outcome) -> Any:
        return outcome

    def outcome_from_json(self, data: Any) -> Outcome:
        if isinstance(data, bool) or not isinstance(data, int | str):
            raise IllegalChanceOutcomeError(
                f"a chance outcome is a coin value (a number) or a character card name, not {data!r}"
            )
        return data

    def all_actions(self) -> Sequence[str]:
        return self._actions
