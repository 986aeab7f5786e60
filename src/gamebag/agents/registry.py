"""Agents by name, with parameters: ``"random"``, ``"heuristic"``, ``"ismcts:iterations=200"``.

Agent modules register a factory per name; a factory may serve every game or
only some (``games``). Per-game heuristics register under the game id, so the
``heuristic`` agent picks the right one without switching on game names.

Which agents can play a game is asked here and nowhere else: ``refusal`` says why one
cannot play a configured game (its game class, then the agent's own cheap check of the
configuration, never a solve), ``agents_for`` lists those that can, ``games_played`` the
game ids an agent plays, and ``default_agent`` picks the first preferred agent that
can play, falling back to ``random`` (which plays every game) with a one-line notice, so
that a default such as ``heuristic`` never refuses a game that has none.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from gamebag.agents.base import Agent
from gamebag.core.errors import UnknownAgentError
from gamebag.core.i18n import join_list, number
from gamebag.core.protocol import Game
from gamebag.core.registry import lineage
from gamebag.core.translation import _

T = TypeVar("T")
AgentFactory = Callable[[Game[Any, Any, Any], Mapping[str, str]], Agent]
# Whether a seat abstaining from ``cards`` refuses ``action``, read from its observation.
AbstainRule = Callable[[Mapping[str, Any], Any, frozenset[str]], bool]
# Why an agent cannot play this configured game (a player count, options it was not solved or
# trained for), or None; a quick check that never solves or trains anything.
Refusal = Callable[[Game[Any, Any, Any]], str | None]
# The agent every game can be played by: what a default falls back to.
FALLBACK_AGENT = "random"


@dataclass(frozen=True)
class AgentEntry:
    name: str
    factory: AgentFactory
    doc: str
    games: tuple[str, ...] | None  # None: every game
    # Parameter names a spec may give by position, ``name:A:B`` for ``name:a=A,b=B``.
    positional: tuple[str, ...] = ()
    # Reads this machine's files (runs a user's code): command-line tools only, never the web server.
    local: bool = False
    # Instead of a fixed list: which game classes the agent plays (so games registered later,
    # such as plugin variants, are judged by what they are, not by a list made at import).
    accepts: Callable[[type[Game[Any, Any, Any]]], bool] | None = None
    # The agent's own quick check of a configured game (``Refusal``); None: every configuration.
    refuses: Refusal | None = None

    def plays(self, game_class: type[Game[Any, Any, Any]]) -> bool:
        if self.accepts is not None:
            return self.accepts(game_class)
        return self.games is None or game_class.game_id in self.games


@dataclass(frozen=True)
class HeuristicParameter:
    """A parameter a game's heuristic takes (``heuristic:abstain=STEVEN``): its allowed values.

    A value may name several of them joined with ``+`` (``abstain=STEVEN+JULITA``).
    """

    name: str
    values: tuple[str, ...]
    doc: str


_AGENTS: dict[str, AgentEntry] = {}
_HEURISTICS: dict[str, Callable[[Game[Any, Any, Any]], Agent]] = {}
_CONFIGURED_HEURISTICS: dict[str, tuple[tuple[HeuristicParameter, ...], AgentFactory]] = {}
_ABSTENTIONS: dict[str, tuple[HeuristicParameter, AbstainRule]] = {}


def register_agent(
    name: str,
    factory: AgentFactory,
    doc: str,
    games: tuple[str, ...] | None = None,
    *,
    positional: tuple[str, ...] = (),
    local: bool = False,
    accepts: Callable[[type[Game[Any, Any, Any]]], bool] | None = None,
    refuses: Refusal | None = None,
) -> None:
    _AGENTS[name] = AgentEntry(name, factory, doc, games, positional, local, accepts, refuses)


def _by_lineage(table: Mapping[str, T], game_class: type[Game[Any, Any, Any]]) -> T | None:
    """The entry of ``game_class``'s own id, else of the nearest registered game it derives from."""
    for game_id in lineage(game_class):
        if game_id in table:
            return table[game_id]
    return None


def register_heuristic(game_id: str, factory: Callable[[Game[Any, Any, Any]], Agent]) -> None:
    """The ``heuristic`` agent for ``game_id``."""
    _HEURISTICS[game_id] = factory


def has_heuristic(game_class: type[Game[Any, Any, Any]]) -> bool:
    """Whether a ``heuristic`` is registered for ``game_class`` or a game it derives from."""
    _load()
    return _by_lineage(_HEURISTICS, game_class) is not None


def register_heuristic_parameters(
    game_id: str, parameters: tuple[HeuristicParameter, ...], factory: AgentFactory
) -> None:
    """Parameters ``game_id``'s heuristic takes, and the factory that reads them (values already checked)."""
    _CONFIGURED_HEURISTICS[game_id] = (parameters, factory)


def register_abstention(game_id: str, parameter: HeuristicParameter, rule: AbstainRule) -> None:
    """Which actions a seat abstaining from some of ``parameter``'s cards refuses in ``game_id``,
    so that agents other than the heuristic (``learned:abstain=CARD``) abstain exactly as it does."""
    _ABSTENTIONS[game_id] = (parameter, rule)


def abstention_for(game_class: type[Game[Any, Any, Any]]) -> tuple[HeuristicParameter, AbstainRule] | None:
    """The abstain parameter and rule of ``game_class`` (or of the game it derives from), if any."""
    _load()
    return _by_lineage(_ABSTENTIONS, game_class)


def heuristic_parameters(game_id: str) -> tuple[HeuristicParameter, ...]:
    """The parameters ``game_id``'s heuristic takes (none for most games)."""
    _load()
    if game_id in _CONFIGURED_HEURISTICS:
        return _CONFIGURED_HEURISTICS[game_id][0]
    from gamebag.core.registry import entry as game_entry

    found = _by_lineage(_CONFIGURED_HEURISTICS, game_entry(game_id).game_class)
    return found[0] if found is not None else ()


def heuristic_for(game: Game[Any, Any, Any], params: Mapping[str, str] | None = None) -> Agent:
    _load()
    if params:
        parameters, configured = _by_lineage(_CONFIGURED_HEURISTICS, type(game)) or ((), None)
        check_params("heuristic", params, tuple(p.name for p in parameters))
        assert configured is not None  # check_params refused every parameter of a game without any
        for parameter in parameters:
            if parameter.name in params:
                parameter_values(parameter, params[parameter.name])  # refuses unknown values
        return configured(game, params)
    factory = _by_lineage(_HEURISTICS, type(game))
    if factory is None:
        raise UnknownAgentError(_("no heuristic agent exists for {game}", game=game.game_id))
    return factory(game)


def parameter_values(parameter: HeuristicParameter, text: str, agent: str = "heuristic") -> tuple[str, ...]:
    """The allowed values named in ``text`` (``+``-joined, case-insensitive), in their own spelling;
    ``agent`` names the agent taking the parameter in the error."""
    by_key = {value.casefold(): value for value in parameter.values}
    chosen = []
    for piece in (p.strip() for p in text.split("+")):
        value = by_key.get(piece.casefold())
        if value is None:
            raise UnknownAgentError(
                _("{agent} parameter {parameter}={value} is not known; allowed: {allowed} (join several with +)",
                  agent=agent, parameter=parameter.name, value=repr(piece), allowed=", ".join(parameter.values))
            )
        chosen.append(value)
    return tuple(dict.fromkeys(chosen))


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"ismcts:iterations=200,c=1.4"`` -> ``("ismcts", {"iterations": "200", "c": "1.4"})``.

    An agent with positional parameters also takes them by position, without ``=``:
    ``"policy:my/file.py:NAME"`` -> ``("policy", {"file": "my/file.py", "name": "NAME"})``
    (split at the last colons, so a path may hold one).
    """
    name, _colon, rest = spec.strip().partition(":")
    params: dict[str, str] = {}
    _load()
    entry = _AGENTS.get(name)
    if entry is not None and entry.positional and rest and "=" not in rest:
        values = rest.rsplit(":", len(entry.positional) - 1)
        if len(values) != len(entry.positional):
            written = ":".join(key.upper() for key in entry.positional)
            raise UnknownAgentError(_("agent {spec}: write it {name}:{written}", spec=repr(spec), name=name,
                                      written=written))
        return name, {key: value.strip() for key, value in zip(entry.positional, values, strict=True)}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, sep, value = part.partition("=")
        if not sep or not key:
            raise UnknownAgentError(_("agent parameter {part} in {spec} must be written key=value", part=repr(part),
                                      spec=repr(spec)))
        params[key.strip()] = value.strip()
    return name, params


def split_agent_specs(text: str) -> list[str]:
    """``"ismcts:iterations=200,c=1.4,random"`` -> ``["ismcts:iterations=200,c=1.4", "random"]``.

    A comma-separated piece holding ``=`` but no ``:`` is another parameter of the
    agent before it.
    """
    names: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if not piece:
            continue
        if "=" in piece and ":" not in piece and names:
            names[-1] += "," + piece
        else:
            names.append(piece)
    return names


def make_agent(spec: str, game: Game[Any, Any, Any], *, local: bool = True) -> Agent:
    """Build the agent ``spec`` names for ``game``; unknown names list what exists.

    ``local=False`` (a server) refuses the agents that read this machine's files.
    """
    _load()
    name, params = parse_spec(spec)
    entry = _AGENTS.get(name)
    if entry is None or not entry.plays(type(game)) or (entry.local and not local):
        known = ", ".join(available_agents(game.game_id, local=local))
        raise UnknownAgentError(_("unknown agent {name} for {game}; available: {known}", name=repr(name),
                                  game=game.game_id, known=known))
    return entry.factory(game, params)


def available_agents(game_id: str | None = None, *, local: bool = False) -> list[str]:
    """Agent names for ``game_id`` (every game's when None); ``local`` agents (reading this
    machine's files) only when asked, so that a server never offers them."""
    _load()
    if game_id is None:
        return sorted(e.name for e in _AGENTS.values() if local or not e.local)
    from gamebag.core.registry import entry as game_entry

    game_class = game_entry(game_id).game_class
    return sorted(e.name for e in _AGENTS.values() if e.plays(game_class) and (local or not e.local))


def agent_entries() -> list[AgentEntry]:
    _load()
    return sorted(_AGENTS.values(), key=lambda e: e.name)


def refusal(spec: str, game: Game[Any, Any, Any], *, local: bool = True) -> str | None:
    """Why the agent ``spec`` names cannot play ``game`` as configured; None when it can, as far as
    a quick check tells (its parameters are checked when it is built). ``local=False`` (a server)
    also refuses the agents that read this machine's files."""
    _load()
    name = parse_spec(spec)[0]
    entry = _AGENTS.get(name)
    if entry is None:
        return _("no agent {name} exists; agents: {agents}", name=repr(name), agents=", ".join(sorted(_AGENTS)))
    if not entry.plays(type(game)):
        return _("no {name} agent exists for {game}", name=name, game=game.game_id)
    if entry.local and not local:
        return _("{name} reads this machine's files, so only the command line offers it", name=name)
    return None if entry.refuses is None else entry.refuses(game)


def agents_for(game: Game[Any, Any, Any], *, local: bool = False) -> list[str]:
    """The agent names that can play ``game`` as configured (its player count and options), sorted;
    ``local`` agents (reading this machine's files) only when asked."""
    _load()
    return sorted(name for name in _AGENTS if refusal(name, game, local=local) is None)


def games_played(name: str) -> tuple[str, ...]:
    """The registered game ids agent ``name`` plays (with some player count and options: ``refusal``
    tells for one configuration)."""
    _load()
    from gamebag.core.registry import entry as game_entry
    from gamebag.core.registry import game_ids

    agent = _AGENTS.get(name)
    if agent is None:
        raise UnknownAgentError(
            _("no agent {name} exists; agents: {agents}", name=repr(name), agents=", ".join(sorted(_AGENTS)))
        )
    return tuple(game_id for game_id in game_ids() if agent.plays(game_entry(game_id).game_class))


@dataclass(frozen=True)
class DefaultAgent:
    """The agent a default seats, and the one-line notice to show when it is a fallback (else None)."""

    spec: str
    notice: str | None = None


def default_agent(
    game: Game[Any, Any, Any],
    preferred: Sequence[str] = ("heuristic",),
    *,
    who: str | None = None,
    can_play: Callable[[str], bool] | None = None,
) -> DefaultAgent:
    """The first of ``preferred`` that can play ``game`` as configured, else ``random`` (which plays
    every game) with a notice such as ``no heuristic agent for tiny-dash: bots play random``.

    ``can_play`` adds the caller's own condition (a study's: played fast enough for thousands of
    games) to the registry's ``refusal``; ``who`` words the notice's second half (default: "bots play",
    in the reader's language).
    """
    for spec in preferred:
        if refusal(spec, game) is None and (can_play is None or can_play(spec)):
            return DefaultAgent(spec)
    # One preferred agent is refused for the game itself; several, often for this configuration.
    wanted = join_list(list(preferred), "or")
    who = _("bots play") if who is None else who
    if len(preferred) > 1:
        notice = _("no {wanted} agent for {game} with {players} players: {who} {agent}", wanted=wanted,
                   game=game.game_id, players=game.num_players, who=who, agent=FALLBACK_AGENT)
    else:
        notice = _("no {wanted} agent for {game}: {who} {agent}", wanted=wanted, game=game.game_id, who=who,
                   agent=FALLBACK_AGENT)
    return DefaultAgent(FALLBACK_AGENT, notice)


def int_param(
    params: Mapping[str, str], key: str, default: int, minimum: int = 1, maximum: int | None = None
) -> int:
    """Read an integer agent parameter within ``minimum .. maximum``, with a clear error."""
    if key not in params:
        return default
    try:
        value = int(params[key])
    except ValueError:
        raise UnknownAgentError(
            _("agent parameter {key}={value} must be an integer", key=key, value=repr(params[key]))
        ) from None
    if value < minimum:
        raise UnknownAgentError(_("agent parameter {key} must be at least {minimum}, not {value}", key=key,
                                  minimum=minimum, value=value))
    if maximum is not None and value > maximum:
        raise UnknownAgentError(_("agent parameter {key} must be from {minimum} to {maximum}, not {value}", key=key,
                                  minimum=number(minimum), maximum=number(maximum), value=number(value)))
    return value


def float_param(params: Mapping[str, str], key: str, default: float) -> float:
    if key not in params:
        return default
    try:
        return float(params[key])
    except ValueError:
        raise UnknownAgentError(
            _("agent parameter {key}={value} must be a number", key=key, value=repr(params[key]))
        ) from None


def check_params(name: str, params: Mapping[str, str], allowed: tuple[str, ...]) -> None:
    unknown = sorted(set(params) - set(allowed))
    if unknown:
        raise UnknownAgentError(
            _("agent {name} has no parameter(s) {unknown}; allowed: {allowed}", name=repr(name),
              unknown=", ".join(unknown), allowed=", ".join(allowed) or _("none"))
        )


_loaded = False
# Modules of compiled passes: they need numba when imported, and their users import them only
# where the compiler works (``gamebag.fast.compiler_problem``), so a machine without numba still
# finds every agent.
_COMPILED_MODULES = frozenset({"gamebag.agents.solvers.kernels", "gamebag.agents.equilibrium.kernels"})


def _load() -> None:
    """Import every agent module so they register (agents use core only)."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    package = importlib.import_module("gamebag.agents")
    for module in pkgutil.walk_packages(package.__path__, "gamebag.agents."):
        if module.name not in _COMPILED_MODULES:
            importlib.import_module(module.name)
