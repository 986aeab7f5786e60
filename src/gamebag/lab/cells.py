"""What a balance study plays: its cells (player count x option values x agents), validated up front.

A study names player counts (``2-8`` or ``2,4,6``) and options to vary
(``rotate_start=true,false``); its cells are the product. Every cell is checked
before any game is played (options through the game's own validation, agents
through the agent registry), so a typo fails at once with the allowed values and
changes nothing. Each cell's seed is derived from the study seed and the cell's
own content, so adding a cell to a study never changes the games of the others.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import Any

import gamebag
from gamebag.agents.registry import FALLBACK_AGENT, make_agent, refusal
from gamebag.agents.registry import default_agent as registry_default_agent
from gamebag.core.errors import GamebagError, OptionError, UnknownAgentError
from gamebag.core.i18n import number
from gamebag.core.options import expand_option_groups, options_to_json, parse_option_pairs
from gamebag.core.protocol import Game
from gamebag.core.rng import derive_rng, derive_seed, draw_index
from gamebag.lab.translation import N_, _, say

# Bounds on what one study may ask for (every cost a user controls has a bound).
MAX_CELLS = 400
MAX_GAMES_PER_CELL = 1_000_000
MAX_VALUES_PER_OPTION = 50
MAX_POPULATION = 16

# The agents a study uses when none are named, strongest first. Each answers in a table
# look-up, a few lines of arithmetic or one small network's product on the compiled step
# batch; searching agents (ismcts, equilibrium) are too slow for tens of thousands of games,
# and random agents would measure the dice, not the game. ``learned`` ranks where it was
# measured (docs/agents.md): level with ``optimal-win`` where that exists (Pig and Catch A
# Dragon with two players), ahead of ``optimal-score`` and ``heuristic`` everywhere it ships.
FAST_AGENTS_BY_STRENGTH = ("optimal-win", "learned", "optimal-score", "heuristic")
LEARNED = "learned"


@dataclass(frozen=True)
class Cell:
    """One configuration of a study: a player count, option values and one agent per seat."""

    index: int
    game: str
    players: int
    options: Mapping[str, Any]  # the options given (varied and fixed), as validated JSON values
    agents: tuple[str, ...]  # one per seat, or the population seats are drawn from
    seed: int = field(compare=False)
    population: bool = False  # each game draws every seat's agent from ``agents`` (seeded by the game)

    def seat_agents(self, game_index: int) -> tuple[int, ...]:
        """Which of ``agents`` sits in each seat of game ``game_index`` (a population draws them, seeded)."""
        if not self.population:
            return tuple(range(self.players))
        rng = derive_rng(self.seed, "population", game_index)
        return tuple(draw_index(rng, len(self.agents)) for _seat in range(self.players))

    def make_game(self) -> Game[Any, Any, Any]:
        return gamebag.make(self.game, self.players, **self.options)

    def score_sign(self) -> int:
        """The configured game's score direction: +1 when higher is better, -1 when lower is."""
        return self.make_game().score_sign()

    def uses_defaults(self) -> bool:
        """Whether every option given is the game's default (so this cell plays the game as published)."""
        defaults = gamebag.make(self.game, self.players).options
        return all(options_to_json({k: defaults[k]})[k] == v for k, v in self.options.items())

    @property
    def label(self) -> str:
        """A short readable name: ``4p rotate_start=true`` (an option group as one value: ``coins=20/10/5/0/0``)."""
        parts = [f"{self.players}p", *(f"{k}={v}" for k, v in shown_options(self.game, self.options))]
        agents = sorted(set(self.agents))
        if self.population:
            parts.append("population " + "/".join(self.agents))
        elif len(agents) == 1:
            parts.append(agents[0])
        else:
            parts.append("/".join(self.agents))
        return " ".join(parts)


def shown_options(game_id: str, options: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``options`` as ``(name, text)`` pairs to show, each option group whose members are all given
    written as one value in its members' order (``("coins", "20/10/5/0/0")``), where its first member was."""
    groups = gamebag.entry(game_id).game_class.option_groups
    whole = {group.members[0]: group for group in groups if all(m in options for m in group.members)}
    inside = {member for group in whole.values() for member in group.members}
    shown: list[tuple[str, str]] = []
    for name, value in options.items():
        if name in whole:
            group = whole[name]
            shown.append((group.name, "/".join(_show(options[m]) for m in group.members)))
        elif name not in inside:
            shown.append((name, _show(value)))
    return shown


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list | tuple):
        return ",".join(map(str, value))
    return "none" if value is None else str(value)


def parse_players(text: str, game_id: str) -> tuple[int, ...]:
    """``"2-8"``, ``"2,4,6"`` or ``"4"`` -> player counts, each allowed for the game."""
    cls = gamebag.entry(game_id).game_class
    counts: list[int] = []
    for piece in (p.strip() for p in text.split(",")):
        if not piece:
            continue
        low, sep, high = piece.partition("-")
        try:
            first, last = (int(low), int(high)) if sep else (int(piece), int(piece))
        except ValueError:
            raise GamebagError(
                _(
                    "--players {given}: write a count, a range or a list, e.g. 4, 2-8 or 2,4,6 "
                    "({low} to {high} for {game})",
                    given=repr(text),
                    low=cls.min_players,
                    high=cls.max_players,
                    game=game_id,
                )
            ) from None
        if first > last:
            raise GamebagError(_("--players {given}: the range runs backwards", given=repr(piece)))
        counts.extend(range(first, last + 1))
    if not counts:
        raise GamebagError(
            _(
                "--players is empty; allowed: {low} to {high} for {game}",
                low=cls.min_players,
                high=cls.max_players,
                game=game_id,
            )
        )
    bad = [n for n in counts if not cls.min_players <= n <= cls.max_players]
    if bad:
        raise GamebagError(
            _(
                "{game} is played by {low} to {high} players, not {given}",
                game=game_id,
                low=cls.min_players,
                high=cls.max_players,
                given=", ".join(map(str, bad)),
            )
        )
    return tuple(dict.fromkeys(counts))


def parse_vary(items: Sequence[str]) -> list[tuple[str, list[str]]]:
    """``["rotate_start=true,false"]`` -> ``[("rotate_start", ["true", "false"])]``.

    A value holding commas itself (a list option such as ``faces``) is written with
    ``|`` between the values: ``faces=green,gold,...|gold,green,...``.
    """
    result: list[tuple[str, list[str]]] = []
    for item in items:
        name, sep, values = item.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or not name or not values.strip():
            raise GamebagError(
                _("--vary {given} must be written name=a,b,c, for example rotate_start=true,false", given=repr(item))
            )
        separator = "|" if "|" in values else ","
        options = [v.strip() for v in values.split(separator) if v.strip()]
        if len(options) > MAX_VALUES_PER_OPTION:
            raise GamebagError(
                _(
                    "--vary {name}: at most {most} values, not {count}",
                    name=name,
                    most=MAX_VALUES_PER_OPTION,
                    count=len(options),
                )
            )
        if any(name == seen for seen, _values in result):
            raise GamebagError(_("--vary {name} is given twice; list all its values in one --vary", name=name))
        result.append((name, options))
    return result


def default_agent(game_id: str, players: int, options: Mapping[str, Any], learned: bool = True) -> str:
    """The strongest agent of ``FAST_AGENTS_BY_STRENGTH`` that plays this configuration, else
    ``random`` (a plugin game with no heuristic: ``build_cells`` says so).

    ``learned`` plays only where a policy ships for this player count and these very
    options and a compiled engine plays it (in its kernels, or on its step batch:
    ``gamebag.sim.stepped``); pass
    ``learned=False`` to leave it out (a search over options compares like with like).
    """
    game = gamebag.make(game_id, players, **options)
    return registry_default_agent(game, FAST_AGENTS_BY_STRENGTH, can_play=lambda name: plays(name, game, learned)).spec


def plays(name: str, game: Game[Any, Any, Any], learned: bool = True) -> bool:
    """Whether the default agent ``name`` plays ``game`` (``learned``: compiled only, in the kernels or
    on the step batch, never as a default on the rules engine)."""
    if name == LEARNED:
        from gamebag.fast import unavailable_reason
        from gamebag.sim.stepped import stepped_reason

        seats = [name] * game.num_players
        return learned and (unavailable_reason(game, seats) is None or stepped_reason(game, seats) is None)
    if refusal(name, game) is not None:  # the registry's quick check first: no solve for a table it refuses
        return False
    try:
        make_agent(name, game)
    except UnknownAgentError:
        return False
    return True


def _common_defaults(
    chosen: Mapping[int, list[tuple[Game[Any, Any, Any], str]]], learned: bool
) -> tuple[dict[int, str], list[str]]:
    """One default agent per player count: where the strongest differs between a count's cells
    (a policy trained for the default options only), the strongest that plays all of them."""
    agents: dict[int, str] = {}
    notices: list[str] = []
    for n, cells in chosen.items():
        names = {name for _game, name in cells}
        if len(names) == 1:
            agents[n] = names.pop()
            continue
        common = next(
            (a for a in FAST_AGENTS_BY_STRENGTH if all(plays(a, game, learned) for game, _name in cells)),
            FALLBACK_AGENT,
        )
        agents[n] = common
        stronger = sorted(names - {common}, key=_strength_rank)
        notices.append(
            say(
                N_(
                    "agents: with {players} players {stronger} plays only some of the option values, so every cell "
                    "of that count plays {common} (cells compared with the same agents)"
                ),
                players=n,
                stronger=", ".join(repr(a) for a in stronger),
                common=repr(common),
            )
        )
    return agents, notices


def build_cells(
    game_id: str,
    players: Sequence[int],
    agents: Sequence[str] | None,
    vary: Sequence[tuple[str, Sequence[str]]] = (),
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    population: Sequence[str] | None = None,
    learned: bool = True,
) -> tuple[list[Cell], list[str]]:
    """Every cell of the study, validated, and the notices to show (such as the default agents chosen).

    ``population``: instead of ``agents``, the agents every seat of every game is drawn from.

    ``agents``: one spec for every seat, or one per seat (then every player count must match),
    or ``None`` for the strongest fast agent of each player count (``default_agent``; the
    same for every option value of a count; ``learned=False`` leaves the trained policies out).
    """
    if population is not None and agents is not None:
        raise GamebagError(_("give --agents (fixed seats) or --population (seats drawn per game), not both"))
    if population is not None and not 2 <= len(population) <= MAX_POPULATION:
        raise GamebagError(
            _(
                "--population names from 2 to {most} agents, not {count}",
                most=MAX_POPULATION,
                count=len(population),
            )
        )
    groups = gamebag.entry(game_id).game_class.option_groups  # an unknown game fails here, listing the known ones
    fixed = dict(options or {})
    for name, _values in vary:
        if name in fixed:
            raise GamebagError(
                _("option {name} is both fixed (--option) and varied (--vary); choose one", name=repr(name))
            )
    size = len(players)
    for _name, values in vary:
        size *= max(1, len(values))
    if size > MAX_CELLS:
        raise GamebagError(
            _(
                "the study has {size} cells; at most {most} (fewer players or option values)",
                size=number(size),
                most=number(MAX_CELLS),
            )
        )
    notices: list[str] = []
    chosen_defaults: dict[str, list[int]] = {}
    cells: list[Cell] = []
    names = [name for name, _values in vary]
    configurations: list[tuple[int, Game[Any, Any, Any], dict[str, Any]]] = []
    strongest: dict[int, list[tuple[Game[Any, Any, Any], str]]] = {}
    for n in players:
        for values in product(*(list(v) for _name, v in vary)):
            asked = {**fixed, **dict(zip(names, values, strict=True))}
            try:
                given = expand_option_groups(groups, asked)
                game = gamebag.make(game_id, n, **given)
            except OptionError as error:
                raise OptionError(
                    _("{players} players, {options}: {error}", players=n, options=_describe(asked), error=error)
                ) from None
            validated = options_to_json({k: game.options[k] for k in given})
            configurations.append((n, game, validated))
            if population is None and agents is None:
                strongest.setdefault(n, []).append((game, default_agent(game_id, n, validated, learned)))
    by_count, mixed = _common_defaults(strongest, learned)
    notices.extend(mixed)
    for n, game, validated in configurations:
        if population is not None:
            seats = tuple(dict.fromkeys(population))
        elif agents is None:
            agent = by_count[n]
            if n not in chosen_defaults.get(agent, []):
                chosen_defaults.setdefault(agent, []).append(n)
            seats = (agent,) * n
        else:
            seats = _seat_agents(agents, n)
        for spec in dict.fromkeys(seats):
            make_agent(spec, game)  # unknown agents and bad parameters fail before any game
        drawn = population is not None
        cell_seed = derive_seed(
            seed, "balance", game_id, n, json.dumps(validated, sort_keys=True), *seats, *(("population",) * drawn)
        )
        cells.append(Cell(len(cells), game_id, n, validated, seats, cell_seed, drawn))
    for agent, counts in chosen_defaults.items():
        if agent == FALLBACK_AGENT:
            notices.append(
                say(
                    N_(
                        "agents: no fast agent ({agents}) plays {game} with {counts} players, so every seat plays "
                        "{agent} (it measures luck, not skill: name others with --agents, such as "
                        "ismcts:iterations=200)"
                    ),
                    agents=", ".join(FAST_AGENTS_BY_STRENGTH),
                    game=game_id,
                    counts=_counts(counts),
                    agent=repr(agent),
                )
            )
            continue
        if agent == LEARNED:
            notice = N_(
                "agents: none named, so every seat plays {agent}, the strongest compiled agent for {counts} players "
                "(the policy shipped for that player count and these options, played compiled) (name others with "
                "--agents or mix them with --population; random agents measure luck, not the game)"
            )
        else:
            notice = N_(
                "agents: none named, so every seat plays {agent}, the strongest compiled agent for {counts} players "
                "(name others with --agents or mix them with --population; random agents measure luck, not the game)"
            )
        notices.append(say(notice, agent=repr(agent), counts=_counts(counts)))
    return cells, notices


def options_from_pairs(pairs: Sequence[str]) -> dict[str, str]:
    """Fixed options from ``--option key=value`` pairs."""
    return parse_option_pairs(pairs)


def _strength_rank(name: str) -> int:
    """Where ``name`` stands in ``FAST_AGENTS_BY_STRENGTH``; the fallback after all of them."""
    return FAST_AGENTS_BY_STRENGTH.index(name) if name in FAST_AGENTS_BY_STRENGTH else len(FAST_AGENTS_BY_STRENGTH)


def _seat_agents(agents: Sequence[str], players: int) -> tuple[str, ...]:
    if len(agents) == 1:
        return (agents[0],) * players
    if len(agents) != players:
        raise GamebagError(
            _(
                "{agents} agents given for {seats} seats; give one agent for every seat, or one per seat "
                "with a single player count",
                agents=len(agents),
                seats=players,
            )
        )
    return tuple(agents)


def _describe(options: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in options.items()) or _("default options")


def _counts(counts: Sequence[int]) -> str:
    unique = sorted(set(counts))
    return ", ".join(map(str, unique))
